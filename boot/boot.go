// Package boot is the pipeline of DESIGN section 10: it reads the tiers,
// counts tokens, fits each file to its share of the budget, and hands one
// Context to every renderer (the Markdown boot context, its JSON form, the
// status table). It is a package of its own because it is the one place that
// joins tiers, budget and checks; none of those may depend on the others'
// outputs.
package boot

import (
	"fmt"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/gitwork"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/protocol"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// Options are the inputs of [Build].
type Options struct {
	FS      afero.Fs
	Root    string
	Config  tiers.Config
	Counter budget.Counter // normally a *budget.Cache
	// Now is the clock the ledger digest is measured from; nil means
	// time.Now.
	Now func() time.Time
	// ColdIndex remembers cold documents between runs so that a warm
	// start opens none of them; nil reads every cold document.
	ColdIndex *cold.Index
	// Drift is what the drift findings need beyond the documents.
	Drift checks.DriftOptions
	// Contradictions keeps the contradiction check's findings between
	// runs; nil compares the decisions every time. The caller saves it.
	Contradictions *checks.ContradictionCache
	// Progress hears how reading the cold documents the index does not
	// know goes (see [cold.Options.Progress]); nil: nothing.
	Progress func(done, total int)
	// Branches are the project's branches in flight, for skill.md's
	// Active Work; nil lists none (git not asked).
	Branches []gitwork.Branch

	// ledgerLevel, set by Build, gives the digest the sensitivity of a
	// ledger path from what Build already read; nil reads the file's head.
	ledgerLevel func(path string) string
}

// Cold gives the cold tier what it reads with.
func (o Options) Cold() cold.Options {
	return cold.Options{FS: o.FS, Root: o.Root, Config: o.Config, Counter: o.Counter, Now: o.Now, Index: o.ColdIndex, Progress: o.Progress}
}

// File is one tier file as it goes into the boot context.
type File struct {
	Path        string
	Tier        string
	Tokens      int // the whole file (its head when huge)
	ShownTokens int // what the context shows
	Share       int // an even split of the tier's budget
	Budget      int // what the file was fitted to
	Bytes       int64
	Missing     bool
	Skipped     string
	Held        string // secret or confidential: see [Sensitivity]
	Huge        bool
	Truncated   bool
	Omitted     *Omit
	Content     string

	doc  tiers.Doc
	full string // the content the policy admits, before fitting: without its front matter
	// bodyTokens counts full: what the file shows whole, its front
	// matter left out (the header's count is the file's).
	bodyTokens int
	scrubbed   string             // the whole document the policy admits, front matter and all
	withheld   bool               // kept out whole to stay under the memory maximum
	floor      bool               // fitting cannot cut it further (squeeze)
	secrets    []policy.SecretHit // where the document holds secret-looking strings
	cuts       []budget.Cut       // what fitting it left out
}

// Omit says what compression left out of a file.
type Omit struct {
	Blocks int
	Tokens int
}

// Phase is one loading phase with its files.
type Phase struct {
	Number int
	Name   string
	Tier   string
	Budget int
	Tokens int
	Files  []*File
}

// Totals are the budget footer's figures.
type Totals struct {
	Memory        int // tokens of the files shown
	Output        int // the whole Markdown context, counted exactly
	Target        int
	Max           int
	ContextWindow int
	WorkLeft      int
	WorkMin       int
}

// Context is everything a renderer needs; renderers only shape it.
type Context struct {
	Root       string
	Encoding   string
	Directives []string
	Warnings   []string
	Phases     []Phase
	TOC        *cold.TOC // phase 4, by Build
	Digest     *Digest   // recent changes, by Build
	// Reminders are the inbox's open reminders, by Build; nil when none
	// is open or the inbox is secret.
	Reminders *Reminders
	// Trajectory is the last sessions' line each, by Build; nil when no
	// session has been handed off.
	Trajectory *Trajectory
	Totals     Totals

	// Announcement is what the instance says on waking and Findings what
	// the coherence checks found (DESIGN section 4), by Build.
	Announcement string
	Findings     []checks.Finding
	// Card is the protocol card every output carries (wake.toml [protocol]
	// card), "" when off: fixed text, counted, never cut.
	Card string
	// HeldBack counts the tier files the sensitivity policy kept out.
	HeldBack policy.HeldBack

	extraBudgets [2]int     // budget.toc and budget.digest, for Status
	inboxHuge    int64      // the inbox's size when only its head was read
	inbox        *tiers.Doc // the inbox as read; nil when it is missing or could not be
	text         string     // the Markdown context, by Build
	sections     []Section
}

// Text returns the Markdown context as Build rendered and counted it, the
// text whose count Totals.Output is: "" for a context Build did not make.
func (c *Context) Text() string { return c.text }

// Files returns every file of every phase in load order.
func (c *Context) Files() []*File {
	var out []*File
	for i := range c.Phases {
		out = append(out, c.Phases[i].Files...)
	}
	return out
}

func tierBudget(b tiers.Budget, t tiers.Tier) int {
	switch t {
	case tiers.TierMain:
		return b.Main
	case tiers.TierRecent:
		return b.Recent
	case tiers.TierWarm:
		return b.Warm
	}
	return 0
}

// Read reads and counts phases 1-3 without fitting them: what `wake status`
// needs.
func Read(o Options) (*Context, error) {
	ctx := &Context{Root: o.Root, Encoding: o.Config.Encoding, Directives: []string{}, Warnings: []string{}, Card: protocol.Card(o.Config.Protocol.Card),
		extraBudgets: [2]int{o.Config.Budget.TOC, o.Config.Budget.Digest}}
	for _, ph := range tiers.Phases() {
		p := Phase{Number: ph.Number, Name: ph.Name, Tier: string(ph.Tier), Budget: tierBudget(o.Config.Budget, ph.Tier)}
		for _, rel := range ph.Paths {
			d, err := tiers.ReadDoc(o.FS, o.Root, rel)
			if err != nil {
				// One unreadable file must not stop a session start: it is
				// shown as skipped, with a warning naming it.
				d = tiers.Doc{Path: rel, Skipped: "unreadable: " + tiers.Cause(err)}
			}
			f := &File{Path: rel, Tier: p.Tier, Bytes: d.Size, Missing: d.Missing, Skipped: d.Skipped, Huge: d.Huge, doc: d}
			f.Share = p.Budget / len(ph.Paths)
			ctx.Warnings = append(ctx.Warnings, d.Warnings...)
			if d.Skipped != "" {
				ctx.Warnings = append(ctx.Warnings, fmt.Sprintf("%s: skipped: %s", rel, d.Skipped))
			}
			if d.Readable() {
				f.Content = string(d.Content)
				ctx.admitFile(f, o.Counter)
			}
			p.Files = append(p.Files, f)
		}
		ctx.Phases = append(ctx.Phases, p)
	}
	c := o.Config
	ctx.Totals = Totals{Target: c.Budget.MemoryTarget, Max: c.Budget.MemoryMax, ContextWindow: c.ContextWindow, WorkMin: c.Budget.WorkMin}
	ctx.sum()
	return ctx, nil
}

func (c *Context) sum() {
	c.Totals.Memory = 0
	for i := range c.Phases {
		p := &c.Phases[i]
		p.Tokens = 0
		for _, f := range p.Files {
			p.Tokens += f.ShownTokens
		}
		c.Totals.Memory += p.Tokens
	}
	c.Totals.Memory += c.extraTokens()
	c.Totals.WorkLeft = c.Totals.ContextWindow - max(c.Totals.Memory, c.Totals.Output)
}

// OpenCache loads the root's count cache in front of enc. A missing or
// corrupt cache is ignored: it only costs a recount.
func OpenCache(fsys afero.Fs, root string, enc *budget.Encoder) *budget.Cache {
	data, _ := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+budget.CacheFile)
	return budget.NewCache(enc.Name(), enc, data)
}

// SaveCache writes the cache back when it learned something since it was
// loaded or last saved.
func SaveCache(fsys afero.Fs, root string, c *budget.Cache) error {
	if !c.Dirty() {
		return nil
	}
	if err := store.WriteState(fsys, root, budget.CacheFile, c.Marshal()); err != nil {
		return err
	}
	c.Saved()
	return nil
}

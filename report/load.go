package report

import (
	"time"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
)

// Load is the JSON of `wake load --format json`: the boot context, with
// every file's content as shown and every figure of its footer.
type Load struct {
	Version    int      `json:"version"`
	Root       string   `json:"root"`
	Encoding   string   `json:"encoding"`
	Directives []string `json:"directives"`
	Warnings   []string `json:"warnings"`
	Phases     []Phase  `json:"phases"`
	TOC        *TOC     `json:"toc,omitempty"`
	Digest     *Digest  `json:"digest,omitempty"`
	// Reminders are the open reminders of warm/inbox.md; absent when
	// none is open or the inbox is secret.
	Reminders    *LoadReminders `json:"reminders,omitempty"`
	Totals       Totals         `json:"totals"`
	Announcement string         `json:"announcement"`
	Findings     []Finding      `json:"findings"`
	HeldBack     HeldBack       `json:"held_back"`
	// Card is the protocol card the context shows, "" when it is off.
	Card string `json:"protocol_card,omitempty"`
}

// Phase is one loading phase with its files.
type Phase struct {
	Number int    `json:"phase"`
	Name   string `json:"name"`
	Tier   string `json:"tier"`
	Budget int    `json:"budget"`
	Tokens int    `json:"tokens"`
	Files  []File `json:"files"`
}

// File is one tier file as the boot context shows it.
type File struct {
	Path        string `json:"path"`
	Tier        string `json:"tier"`
	Tokens      int    `json:"tokens"`       // the whole file (its head when huge)
	ShownTokens int    `json:"shown_tokens"` // what the context shows
	Share       int    `json:"share"`        // an even split of the tier's budget
	Budget      int    `json:"budget"`       // what the file was fitted to
	Bytes       int64  `json:"bytes"`
	Missing     bool   `json:"missing,omitempty"`
	Skipped     string `json:"skipped,omitempty"`
	Held        string `json:"held_back,omitempty"` // secret or confidential
	Huge        bool   `json:"huge,omitempty"`
	Truncated   bool   `json:"truncated"`
	Omitted     *Omit  `json:"omitted,omitempty"`
	Content     string `json:"content"`
}

// Omit says what compression left out of a file.
type Omit struct {
	Blocks int `json:"blocks"`
	Tokens int `json:"tokens"`
}

// Totals are the budget footer's figures.
type Totals struct {
	Memory        int `json:"memory_tokens"` // tokens of the files shown
	Output        int `json:"output_tokens"` // the whole Markdown context, counted exactly
	Target        int `json:"memory_target"`
	Max           int `json:"memory_max"`
	ContextWindow int `json:"context_window"`
	WorkLeft      int `json:"work_left"`
	WorkMin       int `json:"work_min"`
}

// TOC is the cold tier's table of contents as the context shows it.
type TOC struct {
	Budget       int       `json:"budget"`
	ColdBudget   int       `json:"cold_budget"` // what `wake cold PATH` may pull a session
	Tokens       int       `json:"tokens"`
	Documents    int       `json:"documents"`
	DocTokens    int       `json:"document_tokens"`
	Secret       int       `json:"secret"`       // held back: not listed
	Confidential int       `json:"confidential"` // listed by their summary only
	Unreadable   int       `json:"unreadable"`   // front matter unreadable: not listed
	Binary       int       `json:"binary"`       // not documents: skipped
	Folded       int       `json:"folded"`       // directories shown as one line
	Omitted      bool      `json:"omitted"`      // not even cold/ as one line fits
	Squeezed     bool      `json:"squeezed,omitempty"`
	Lines        []TOCLine `json:"lines"`
}

// TOCLine is one line of the table of contents: a directory or a document.
type TOCLine struct {
	Depth        int    `json:"depth"`
	Path         string `json:"path,omitempty"` // "" for a confidential document
	Dir          bool   `json:"dir,omitempty"`
	Folded       bool   `json:"folded,omitempty"`
	Title        string `json:"title,omitempty"`
	Documents    int    `json:"documents,omitempty"` // directories: all below
	Tokens       int    `json:"tokens"`
	Confidential bool   `json:"confidential,omitempty"`
	Huge         bool   `json:"huge,omitempty"`
}

// Digest is the ledger's recent changes as the context lists them.
type Digest struct {
	Window   string        `json:"window"`
	Since    time.Time     `json:"since"`
	Budget   int           `json:"budget"`
	Tokens   int           `json:"tokens"`
	Total    int           `json:"total"`   // entries in the window
	Entries  []LedgerEntry `json:"entries"` // listed, newest first
	Unlisted int           `json:"unlisted"`
	HeldBack int           `json:"held_back,omitempty"` // touching secret documents: counted only
	Squeezed bool          `json:"squeezed,omitempty"`
}

// LedgerEntry is one entry of ledger.jsonl.
type LedgerEntry struct {
	At            time.Time `json:"at"`
	Op            string    `json:"op"`
	Paths         []string  `json:"paths"`
	ChangeSummary string    `json:"change_summary"`
	Summary       string    `json:"summary,omitempty"`
}

// Finding is one result of a coherence check.
type Finding struct {
	Check    string   `json:"check"`
	Kind     string   `json:"kind,omitempty"` // a warning's kind: stale_handoff, missing_path, placeholder, over_budget
	Pass     bool     `json:"pass"`
	Severity string   `json:"severity"`
	Path     string   `json:"path"`
	Message  string   `json:"message"`
	Details  []string `json:"details,omitempty"`
}

// HeldBack counts the documents the sensitivity policy kept out.
type HeldBack struct {
	Secret       int `json:"secret"`       // not shown at all
	Confidential int `json:"confidential"` // shown by their summary only
	// Redacted counts by kind the secret-looking strings scrubbed from
	// what is shown.
	Redacted map[string]int `json:"redacted,omitempty"`
}

// LoadJSON renders the boot context as its JSON.
func LoadJSON(c *boot.Context) ([]byte, error) { return marshal(NewLoad(c)) }

// NewLoad is the JSON form of a boot context.
func NewLoad(c *boot.Context) Load {
	out := Load{
		Version: Version, Root: c.Root, Encoding: c.Encoding,
		Directives: strs(c.Directives), Warnings: strs(c.Warnings), Phases: []Phase{},
		TOC: newTOC(c.TOC), Digest: newDigest(c.Digest), Reminders: newLoadReminders(c.Reminders), Totals: newTotals(c.Totals),
		Announcement: c.Announcement, Findings: newFindings(c.Findings), HeldBack: newHeldBack(c.HeldBack), Card: c.Card,
	}
	for _, p := range c.Phases {
		ph := Phase{Number: p.Number, Name: p.Name, Tier: p.Tier, Budget: p.Budget, Tokens: p.Tokens, Files: []File{}}
		for _, f := range p.Files {
			ph.Files = append(ph.Files, File{
				Path: f.Path, Tier: f.Tier, Tokens: f.Tokens, ShownTokens: f.ShownTokens, Share: f.Share, Budget: f.Budget,
				Bytes: f.Bytes, Missing: f.Missing, Skipped: f.Skipped, Held: f.Held, Huge: f.Huge, Truncated: f.Truncated,
				Omitted: newOmit(f.Omitted), Content: f.Content,
			})
		}
		out.Phases = append(out.Phases, ph)
	}
	return out
}

func newTOC(t *cold.TOC) *TOC {
	if t == nil {
		return nil
	}
	out := &TOC{
		Budget: t.Budget, ColdBudget: t.ColdBudget, Tokens: t.Tokens, Documents: t.Documents, DocTokens: t.DocTokens,
		Secret: t.Secret, Confidential: t.Confidential, Unreadable: t.Unreadable, Binary: t.Binary,
		Folded: t.Folded, Omitted: t.Omitted, Squeezed: t.Squeezed, Lines: []TOCLine{},
	}
	for _, l := range t.Lines {
		out.Lines = append(out.Lines, TOCLine{
			Depth: l.Depth, Path: l.Path, Dir: l.Dir, Folded: l.Folded, Title: l.Title,
			Documents: l.Documents, Tokens: l.Tokens, Confidential: l.Confidential, Huge: l.Huge,
		})
	}
	return out
}

func newDigest(d *boot.Digest) *Digest {
	if d == nil {
		return nil
	}
	return &Digest{
		Window: d.Window, Since: d.Since, Budget: d.Budget, Tokens: d.Tokens, Total: d.Total,
		Entries: newEntries(d.Entries), Unlisted: d.Unlisted, HeldBack: d.HeldBack, Squeezed: d.Squeezed,
	}
}

// LoadReminders is the open reminders as the context lists them.
type LoadReminders struct {
	Budget   int        `json:"budget"`
	Tokens   int        `json:"tokens"`
	Open     int        `json:"open"`
	Entries  []Reminder `json:"entries"` // listed, newest first
	Unlisted int        `json:"unlisted"`
	// HeldBack is "confidential" for an inbox shown by its summary only.
	HeldBack string `json:"held_back,omitempty"`
	Summary  string `json:"summary,omitempty"`
	Squeezed bool   `json:"squeezed,omitempty"`
}

func newLoadReminders(r *boot.Reminders) *LoadReminders {
	if r == nil {
		return nil
	}
	out := &LoadReminders{Budget: r.Budget, Tokens: r.Tokens, Open: r.Open, Entries: []Reminder{}, Unlisted: r.Unlisted,
		HeldBack: r.Held, Summary: r.Summary, Squeezed: r.Squeezed}
	for _, e := range r.Entries {
		out.Entries = append(out.Entries, NewReminder(e))
	}
	return out
}

func newEntries(es []store.Entry) []LedgerEntry {
	out := []LedgerEntry{}
	for _, e := range es {
		out = append(out, LedgerEntry{At: e.At, Op: e.Op, Paths: strs(e.Paths), ChangeSummary: e.ChangeSummary, Summary: e.Summary})
	}
	return out
}

func newFindings(fs []checks.Finding) []Finding {
	out := []Finding{}
	for _, f := range fs {
		out = append(out, Finding{Check: f.Check, Kind: f.Kind, Pass: f.Pass, Severity: f.Severity, Path: f.Path, Message: f.Message, Details: f.Details})
	}
	return out
}

func newHeldBack(h policy.HeldBack) HeldBack {
	return HeldBack{Secret: h.Secret, Confidential: h.Confidential, Redacted: h.Redacted}
}

func newTotals(t boot.Totals) Totals {
	return Totals{Memory: t.Memory, Output: t.Output, Target: t.Target, Max: t.Max,
		ContextWindow: t.ContextWindow, WorkLeft: t.WorkLeft, WorkMin: t.WorkMin}
}

func newOmit(o *boot.Omit) *Omit {
	if o == nil {
		return nil
	}
	return &Omit{Blocks: o.Blocks, Tokens: o.Tokens}
}

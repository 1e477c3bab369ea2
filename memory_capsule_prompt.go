package wake

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wakeproto/wake/capsule"
	"github.com/wakeproto/wake/gitwork"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// OpCapsuleStub is the ledger op of a capsule stub `wake capsule prompt
// --stub` wrote.
const OpCapsuleStub = "capsule-stub"

// CapsulePromptOptions is what [Memory.CapsulePrompt] is asked.
type CapsulePromptOptions struct {
	Session string // the session the capsule continues, for source_session
	// File is where the capsule goes, an absolute path inside the memory
	// root; "" is cold/capsules/<branch>/<stamp>.md.
	File string
	Stub bool // write the skeleton there (never over an existing file)
	// PlanSlug names the branch's plan and progress notebooks when their
	// file names differ from the branch's (the seed's plan_slug): it
	// stands for {branch} in [capsule] plans.
	PlanSlug string
}

// CapsulePrompt is the capture prompt and what it was made of.
type CapsulePrompt struct {
	Text    string // the instruction block, scrubbed
	Path    string // the capsule's path relative to the memory root, slash-separated
	Shown   string // the path as the prompt names it: relative to the project when the root is in it
	Front   capsule.FrontMatter
	Stubbed bool // the stub was written
	Exists  bool // the file is there (the stub, or a capsule being redone)
	// OpenReminders counts the inbox's open reminders; -1 when the inbox
	// could not be read.
	OpenReminders int
	Git           capsule.GitState
	// Plans are the branch's plan and progress notebooks found, as the
	// prompt names them ([capsule] plans); Slug what {branch} stood for.
	Plans []string
	Slug  string
}

// CapsulePathError is a capsule path wake refuses: outside the memory
// root, through a symlink, not a .md file, or already taken by a stub.
type CapsulePathError struct {
	Path   string
	Reason string
}

func (e *CapsulePathError) Error() string {
	return fmt.Sprintf("capsule file %s: %s", e.Path, e.Reason)
}

// Hint says what to do about it.
func (e *CapsulePathError) Hint() string {
	return "capsules live in the memory root: leave the path out for cold/capsules/<branch>/<stamp>.md, or name a new .md file under the root's cold/"
}

// CapsulePrompt makes the ready-to-send block that asks the agent to write
// a capsule: where, on which branch, from which files, within which
// budget, to which template and rules, with git's state to check it
// against. With o.Stub it first writes the skeleton, under the lock, with
// a ledger line (op capsule-stub); an existing file is never overwritten.
func (m *Memory) CapsulePrompt(ctx context.Context, o CapsulePromptOptions) (CapsulePrompt, error) {
	g := m.promptGit(ctx)
	p := CapsulePrompt{Git: g, OpenReminders: m.openReminders()}
	p.Front = capsule.FrontMatter{Branch: m.Branch(ctx), SourceSession: o.Session, CreatedAt: m.o.Now().UTC(),
		PrimaryObjective: m.handoffObjective(), TokenBudget: m.cfg.Capsule.MaxTokens, Version: capsule.Version, MemoryType: capsule.MemoryType}
	var err error
	if o.File != "" {
		if p.Path, err = m.capsuleRel(o.File); err != nil {
			return p, err
		}
	}
	if o.Stub {
		err = m.writeStub(ctx, &p)
	} else if p.Path == "" {
		_, p.Path = m.freeCapsulePath(p.Front.Branch, p.Front.CreatedAt)
		err = store.CheckWritable(m.o.FS, m.root, p.Path)
	}
	if err != nil {
		return p, err
	}
	if _, err := m.o.FS.Stat(m.path(p.Path)); err == nil {
		p.Exists = true
	}
	p.Shown = m.shown(p.Path)
	p.Slug = o.PlanSlug
	if p.Slug == "" {
		p.Slug = capsule.BranchDir(p.Front.Branch)
	}
	p.Plans = m.planFiles(p.Slug)
	p.Text, _ = policy.Scrub(capsule.Prompt(capsule.PromptInput{
		Target: p.Shown, Exists: p.Exists, Front: p.Front, Plans: p.Plans, PlanSlug: o.PlanSlug,
		Handoff: m.shown(tiers.MainPath), Tasks: m.shown(tiers.TasksPath), Inbox: m.shown(tiers.InboxPath),
		OpenReminders: p.OpenReminders, Git: g, Verify: "wake capsule verify " + shellWord(p.Shown),
	}))
	p.Front.SourceSession, _ = policy.Scrub(p.Front.SourceSession)
	return p, nil
}

// writeStub writes the skeleton at p.Path (a free default path when
// empty), exclusively, under the lock, with its ledger line as one change
// (see [store.Store.CreateLogged]): a kill leaves no stub without its
// line and no empty stub.
func (m *Memory) writeStub(ctx context.Context, p *CapsulePrompt) error {
	err := m.Store().CreateLogged(ctx, func() (store.NewFile, error) {
		if p.Path == "" {
			_, p.Path = m.freeCapsulePath(p.Front.Branch, p.Front.CreatedAt)
		}
		return store.NewFile{Path: p.Path, Data: capsule.Stub(p.Front), Entry: store.Entry{Op: OpCapsuleStub, Paths: []string{p.Path},
			ChangeSummary: "wrote the skeleton of capsule " + p.Path + " for the agent to fill in"}}, nil
	})
	if errors.Is(err, fs.ErrExist) {
		return &CapsulePathError{p.Path, "exists; wake never overwrites a capsule"}
	}
	p.Stubbed = err == nil
	return err
}

// capsuleRel checks a capsule path given as an absolute path: it must be
// a .md file under the memory root, reached through no symlink.
func (m *Memory) capsuleRel(file string) (string, error) {
	rel, err := filepath.Rel(m.root, filepath.Clean(file))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", &CapsulePathError{file, "outside the memory root " + m.root}
	}
	rel = filepath.ToSlash(rel)
	if !strings.HasSuffix(rel, ".md") {
		return "", &CapsulePathError{file, "not a .md file"}
	}
	if !strings.HasPrefix(rel, tiers.ColdDir+"/") {
		return "", &CapsulePathError{file, "not under cold/: a capsule is a cold document, never one of the memory's own files"}
	}
	if err := store.CheckWritable(m.o.FS, m.root, rel); err != nil {
		return "", &CapsulePathError{file, err.Error()}
	}
	return rel, nil
}

// openReminders counts the inbox's open reminders (a count, which even a
// held-back inbox shows): 0 without an inbox, -1 when it cannot be read.
func (m *Memory) openReminders() int {
	in, err := ReadInbox(m.o.FS, m.root)
	if err != nil {
		return -1
	}
	return in.Open
}

// handoffObjective is the stub's primary_objective: the HANDOFF's next
// priority, else its summary, as the policy lets it out; "" when there is
// none, for the agent to write.
func (m *Memory) handoffObjective() string {
	d, err := tiers.ReadDoc(m.o.FS, m.root, tiers.MainPath)
	if err != nil || !d.Readable() {
		return ""
	}
	if lvl, _ := policy.OfDoc(d); policy.Withheld(lvl) {
		return ""
	}
	h := tiers.ParseMain(d.Content).Handoff
	for _, s := range []string{h.Get(tiers.KeyNextPriority), h.Get(tiers.KeySessionSummary)} {
		if o := tiers.OneLine(s); o != "" {
			o, _ = policy.Scrub(o)
			return o
		}
	}
	return ""
}

// projectTop is the project of the memory root: the git work tree holding
// it, else the directory holding it.
func (m *Memory) projectTop() string { return m.projectDir(filepath.Dir(m.root)) }

// shown is the root-relative path rel as an agent in the project names
// it: relative to the project when the root lies in it.
func (m *Memory) shown(rel string) string {
	abs := m.path(rel)
	if r, err := filepath.Rel(m.projectTop(), abs); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return abs
}

// shellWord quotes s for a shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-+@:") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// promptGit is the work tree's state for the prompt's self-check: the
// branch, how many files git status lists, the last commit.
func (m *Memory) promptGit(ctx context.Context) capsule.GitState {
	if _, err := exec.LookPath("git"); err != nil {
		return capsule.GitState{Note: "git was not found: check the work tree by hand"}
	}
	out, err := m.git(ctx, m.root, "status", "--porcelain=v1", "-z", "--branch")
	if err != nil {
		if strings.Contains(err.Error(), "not a git repository") {
			return capsule.GitState{Note: "the memory root is not in a git work tree"}
		}
		return capsule.GitState{Note: fmt.Sprintf("git status failed (%v)", err)}
	}
	g := capsule.GitState{Branch: m.Branch(ctx)}
	entries := gitwork.SplitNUL(out)
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		switch {
		case i == 0 && strings.HasPrefix(e, "## "):
		case len(e) > 3 && e[2] == ' ':
			g.Changed++
			if e[0] == 'R' || e[0] == 'C' {
				i++ // the source of a rename or copy follows
			}
		}
	}
	if log, err := m.git(ctx, m.root, "log", "-1", "--format=%h %s"); err == nil {
		g.LastCommit, _ = policy.Scrub(strings.TrimSpace(tiers.Printable(strings.ToValidUTF8(string(log), "\uFFFD"))))
	}
	return g
}

// planFiles are the plan and progress notebooks of [capsule] plans that
// exist in the project, with slug for {branch}, as relative to the
// project as the patterns are. A pattern that would leave the project
// (absolute, or through ..) is passed over.
func (m *Memory) planFiles(slug string) []string {
	top := m.projectTop()
	var out []string
	for _, pat := range m.cfg.Capsule.Plans {
		rel := filepath.Clean(filepath.FromSlash(strings.ReplaceAll(pat, "{branch}", slug)))
		if !filepath.IsLocal(rel) {
			continue
		}
		fi, err := m.o.FS.Stat(filepath.Join(top, rel))
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if r := filepath.ToSlash(rel); !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// Package merge holds the rules by which git merges a memory root written
// on two branches (DESIGN section 12), one rule a kind of file: the ledger
// as a union of lines, the decision log and the inbox as records by key,
// the views by the newer session, derived files never, the user's prose by
// git's own three-way merge. It is a package of its own because it is
// neither a read of the tiers nor a write of the store: git hands the
// driver three versions of one file and takes one back, and nothing here
// touches the memory root.
package merge

import (
	"path"
	"strings"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// Kind is how a file of the root is merged.
type Kind int

// The kinds of file, by their rule.
const (
	Prose     Kind = iota // the user's text: git's three-way merge
	Ledger                // a grow-only log: union of lines, ordered by time
	Decisions             // records by decision ID, three-way
	Inbox                 // records by reminder
	View                  // recent/latest.md, recent/previous.md: the newer session
	Main                  // main.md: its HANDOFF block a view, the rest prose
	Derived               // boot.md, skill.md: rebuilt by the next command; ours
)

func (k Kind) String() string {
	return [...]string{"prose", "ledger", "decisions", "inbox", "view", "main", "derived"}[k]
}

// KindOf says how the file at p (as git names it, relative to the
// repository's top, slash-separated) is merged. p is matched by its end,
// since the root may sit anywhere in the repository.
func KindOf(p string) Kind {
	p = path.Clean(strings.ReplaceAll(p, "\\", "/"))
	is := func(rel string) bool { return p == rel || strings.HasSuffix(p, "/"+rel) }
	switch {
	case strings.HasSuffix(p, ".jsonl"):
		return Ledger
	case is(tiers.DecisionsPath), is(tiers.ColdDir + "/archive/decisions.md"):
		return Decisions
	case is(tiers.InboxPath), is(tiers.ColdDir + "/archive/inbox.md"):
		return Inbox
	case is("recent/latest.md"), is("recent/previous.md"):
		return View
	case is("main.md"):
		return Main
	case is("boot.md"), is("skill.md"):
		return Derived
	}
	return Prose
}

// ThreeWay is git's three-way merge of text (git merge-file): the merged
// text, with conflict markers where both sides changed the same lines, and
// whether it has any.
type ThreeWay func(base, ours, theirs []byte) (out []byte, conflict bool, err error)

// Result is a merged file.
type Result struct {
	Data []byte
	// Conflict says the file holds conflict markers a person must settle;
	// the driver then fails, and git marks the path unmerged.
	Conflict bool
	// Notes say what the merge did that a person should know (a reminder
	// renumbered, a decision contested).
	Notes []string
	// Reidentified are the decisions given a new ID: two branches had
	// an entry with one ID, two different decisions.
	Reidentified []Reidentified
}

// Options are what a merge needs besides the three versions.
type Options struct {
	Path  string           // the file's path, as git names it
	Prose ThreeWay         // git's three-way merge, for prose
	Now   func() time.Time // the date of an objection the merge writes
	// Rebase says git replays this clone's commits onto the other
	// branch: ours (%A) is then the other branch's, theirs this clone's,
	// as the notes and the lines the merge writes name them.
	Rebase bool
}

// sides names ours and theirs as the person who runs git knows them.
func (o Options) sides() (ours, theirs string) {
	if o.Rebase {
		return "the other branch", "this branch"
	}
	return "this branch", "the other branch"
}

// File merges one file of the root by its kind.
func File(o Options, base, ours, theirs []byte) (Result, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	switch KindOf(o.Path) {
	case Ledger:
		return Result{Data: MergeLedger(base, ours, theirs)}, nil
	case Decisions:
		return MergeDecisions(o, base, ours, theirs)
	case Inbox:
		return MergeInbox(o, base, ours, theirs)
	case View:
		return Result{Data: MergeView(ours, theirs)}, nil
	case Main:
		return MergeMain(o, base, ours, theirs)
	case Derived:
		return Result{Data: ours}, nil
	}
	return prose(o, base, ours, theirs)
}

// prose is git's three-way merge, skipped where one side left the file as
// it was.
func prose(o Options, base, ours, theirs []byte) (Result, error) {
	switch {
	case string(ours) == string(theirs), string(theirs) == string(base):
		return Result{Data: ours}, nil
	case string(ours) == string(base):
		return Result{Data: theirs}, nil
	}
	out, conflict, err := o.Prose(base, ours, theirs)
	return Result{Data: out, Conflict: conflict}, err
}

// eolOf is the line ending of text's first line: "\r\n" or "\n".
func eolOf(text string) string {
	if i := strings.IndexByte(text, '\n'); i > 0 && text[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// withEOL gives every line of s the line ending eol, the last one too.
func withEOL(s, eol string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimRight(s, "\n")
	return strings.ReplaceAll(s, "\n", eol) + eol
}

// sameText compares two texts whatever their line endings and trailing
// space.
func sameText(a, b string) bool { return normal(a) == normal(b) }

func normal(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/capsule"
)

// Capsule is the JSON of `wake capsule --format json`: the capsule written
// (or, on a dry run, the one that would be).
type Capsule struct {
	Version          int       `json:"version"`
	ID               string    `json:"id"`
	Path             string    `json:"path"` // relative to the memory root
	DryRun           bool      `json:"dry_run"`
	Branch           string    `json:"branch"`
	SourceSession    string    `json:"source_session"`
	CreatedAt        time.Time `json:"created_at"`
	PrimaryObjective string    `json:"primary_objective"`
	Tokens           int       `json:"tokens"` // the body's, counted exactly
	Budget           int       `json:"budget"` // capsule.max_tokens
	Cuts             []Cut     `json:"cuts"`
	// Consumed are the numbers of the inbox's reminders the capsule took
	// in and marked consumed; none on a dry run.
	Consumed []int    `json:"consumed"`
	Warnings []string `json:"warnings"`
	// Text is the capsule itself, front matter and body.
	Text string `json:"text"`
}

// Cut is an item the fitter left out of a capsule.
type Cut struct {
	What   string `json:"what"`
	Where  string `json:"where"` // the capsule's path § its section
	Tokens int    `json:"tokens"`
}

// CapsuleJSON renders a written capsule.
func CapsuleJSON(w capsule.Written) ([]byte, error) {
	fm := w.Capsule.Front
	out := Capsule{Version: Version, ID: w.ID, Path: w.Path, DryRun: w.DryRun, Branch: fm.Branch, SourceSession: fm.SourceSession,
		CreatedAt: fm.CreatedAt, PrimaryObjective: fm.PrimaryObjective, Tokens: w.Tokens, Budget: w.Budget,
		Cuts: cutsOf(w.Cuts), Consumed: w.Consumed, Warnings: strs(w.Warnings), Text: string(w.Data)}
	if out.Consumed == nil {
		out.Consumed = []int{}
	}
	return marshal(out)
}

func cutsOf(cs []budget.Cut) []Cut {
	out := make([]Cut, len(cs))
	for i, c := range cs {
		out[i] = Cut{What: c.What, Where: c.Where, Tokens: c.Tokens}
	}
	return out
}

// CapsuleText is what `wake capsule` says on its error stream once the
// capsule is written: where, its size, what was cut and consumed.
func CapsuleText(w io.Writer, c capsule.Written) {
	verb := "wrote"
	if c.DryRun {
		verb = "would write"
	}
	fmt.Fprintf(w, "wake: %s capsule %s (%s): %s of %s tokens", verb, c.ID, c.Path, budget.Thousands(c.Tokens), budget.Thousands(c.Budget))
	if n := len(c.Cuts); n > 0 {
		fmt.Fprintf(w, ", %s cut to fit", budget.Plural(n, "item"))
	}
	if n := len(c.Consumed); n > 0 {
		fmt.Fprintf(w, ", %s consumed", budget.Plural(n, "reminder"))
	}
	fmt.Fprintln(w)
	shown := c.Cuts
	if len(shown) > maxCutLines {
		shown = shown[:maxCutLines]
	}
	for _, cut := range shown {
		fmt.Fprintf(w, "wake: cut: %s (%s, %s tokens)\n", cut.What, cut.Where, budget.Thousands(cut.Tokens))
	}
	if rest := c.Cuts[len(shown):]; len(rest) > 0 {
		n := 0
		for _, cut := range rest {
			n += cut.Tokens
		}
		fmt.Fprintf(w, "wake: cut: %s more (%s tokens); --format json lists every cut\n", budget.Plural(len(rest), "item"), budget.Thousands(n))
	}
}

// maxCutLines is how many cuts the text names one a line: a capsule of a
// huge inbox cuts thousands of items, which a terminal need not scroll.
const maxCutLines = 20

// CapsuleList is the JSON of `wake capsule list --format json`.
type CapsuleList struct {
	Version  int           `json:"version"`
	Capsules []CapsuleItem `json:"capsules"`
}

// CapsuleItem is one stored capsule.
type CapsuleItem struct {
	ID        string    `json:"id"`
	Path      string    `json:"path"`
	Branch    string    `json:"branch"` // its directory under cold/capsules
	CreatedAt time.Time `json:"created_at"`
	Archived  bool      `json:"archived"`
	Objective string    `json:"objective"`
	Bytes     int64     `json:"bytes"`
	// PinnedTo are the branches it is pinned to; absent when none.
	PinnedTo []string `json:"pinned_to,omitempty"`
}

// CapsuleListJSON renders a listing.
func CapsuleListJSON(ls []capsule.Listed) ([]byte, error) {
	out := CapsuleList{Version: Version, Capsules: make([]CapsuleItem, len(ls))}
	for i, l := range ls {
		out.Capsules[i] = CapsuleItem{ID: l.ID, Path: l.Path, Branch: l.Branch, CreatedAt: l.Created, Archived: l.Archived, Objective: l.Objective, Bytes: l.Bytes, PinnedTo: l.PinnedTo}
	}
	return marshal(out)
}

// CapsuleListText writes a listing, one capsule a line, oldest first.
func CapsuleListText(w io.Writer, ls []capsule.Listed) {
	if len(ls) == 0 {
		fmt.Fprintln(w, "No capsules.")
		return
	}
	for _, l := range ls {
		mark := ""
		if l.Archived {
			mark = " (archived)"
		}
		if len(l.PinnedTo) > 0 {
			mark += " (pinned to " + strings.Join(l.PinnedTo, ", ") + ")"
		}
		obj := l.Objective
		if obj == "" {
			obj = "(no objective shown)"
		}
		fmt.Fprintf(w, "%s  %s%s  %s\n", l.ID, l.Created.UTC().Format(time.RFC3339), mark, obj)
	}
}

// CapsulePrune is the JSON of `wake capsule prune --format json`.
type CapsulePrune struct {
	Version int `json:"version"`
	// Before: capsules created before it are moved; absent when no age
	// was given.
	Before *time.Time `json:"before,omitempty"`
	// Into is the default branch with --merged, Merged the branches
	// merged into it whose capsules moved.
	Into   string        `json:"into,omitempty"`
	Merged []string      `json:"merged,omitempty"`
	DryRun bool          `json:"dry_run"`
	Moved  []CapsuleMove `json:"moved"`
}

// CapsuleMove is one capsule moved to the archive.
type CapsuleMove struct {
	ID        string    `json:"id"`
	From      string    `json:"from"`
	To        string    `json:"to"`
	CreatedAt time.Time `json:"created_at"`
	// Merged is the merged branch it is of, when that is why it moved.
	Merged string `json:"merged,omitempty"`
}

// CapsulePruneJSON renders what a prune did.
func CapsulePruneJSON(p capsule.Pruned) ([]byte, error) {
	out := CapsulePrune{Version: Version, Into: p.Into, Merged: p.Merged, DryRun: p.DryRun, Moved: make([]CapsuleMove, len(p.Moves))}
	if !p.Before.IsZero() {
		out.Before = &p.Before
	}
	for i, m := range p.Moves {
		out.Moved[i] = CapsuleMove{ID: m.ID, From: m.From, To: m.To, CreatedAt: m.Created, Merged: m.Merged}
	}
	return marshal(out)
}

// CapsulePruneText writes what a prune did, a line a capsule.
func CapsulePruneText(w io.Writer, p capsule.Pruned) {
	verb := "Moved"
	if p.DryRun {
		verb = "Would move"
	}
	for _, m := range p.Moves {
		fmt.Fprintf(w, "%s %s to %s", verb, m.From, m.To)
		if m.Merged != "" {
			fmt.Fprintf(w, " (%s is merged into %s)", m.Merged, p.Into)
		}
		fmt.Fprintln(w)
	}
	var why []string
	if !p.Before.IsZero() {
		why = append(why, "created before "+p.Before.UTC().Format(time.RFC3339))
	}
	if p.Into != "" {
		why = append(why, "of branches merged into "+p.Into)
	}
	fmt.Fprintf(w, "%s %s %s to %s.\n", verb, budget.Plural(len(p.Moves), "capsule"), strings.Join(why, " or "), capsule.ArchiveDir)
}

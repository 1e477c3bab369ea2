package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// HandoffText says what a hand-off wrote, where the old summaries went and
// which boot files the next session starts from.
func HandoffText(w io.Writer, r wake.HandoffResult) {
	res := r.Result
	s, _ := tiers.ParseSession(res.Summary)
	// The summary is the caller's, echoed: scrubbed like every output.
	summary, _ := policy.Scrub(s.Summary)
	fmt.Fprintf(w, "Handed off session %s: %s\n\nWrote:\n", res.At.Format(tiers.SessionTimeLayout), summary)
	if res.Record != "" {
		fmt.Fprintf(w, "  %s the session's record (%s bytes), once\n", res.Record, budget.Thousands(len(res.Summary)))
		fmt.Fprintf(w, "  %-20s its copy, as the next session reads it\n", tiers.LatestPath)
	} else {
		fmt.Fprintf(w, "  %-20s the session summary (%s bytes)\n", tiers.LatestPath, budget.Thousands(len(res.Summary)))
	}
	block := "the HANDOFF block"
	if res.BlockAppended {
		block += " (added after the identity, or at the end: main.md had none)"
	}
	fmt.Fprintf(w, "  %-20s %s\n", tiers.MainPath, block)
	if res.Decisions > 0 {
		fmt.Fprintf(w, "  %-20s %d decision(s) appended as active entries\n", tiers.DecisionsPath, res.Decisions)
	}
	fmt.Fprintf(w, "  %-20s one handoff line\n", tiers.LedgerPath)
	fmt.Fprintln(w, "\nOld summaries:")
	if !res.Demoted && res.Archived == "" {
		fmt.Fprintln(w, "  none: this is the first hand-off")
	}
	if res.LatestRecord != "" {
		fmt.Fprintf(w, "  %s copied to %s (it was no record yet)\n", tiers.LatestPath, res.LatestRecord)
	}
	if res.Demoted {
		fmt.Fprintf(w, "  %s -> %s\n", tiers.LatestPath, tiers.PreviousPath)
	}
	if res.Archived != "" {
		how := ""
		if res.ArchivedByModTime {
			how = " (named by its modification time: it has no session time)"
		}
		fmt.Fprintf(w, "  %s -> %s%s\n", tiers.PreviousPath, res.Archived, how)
	}
	if line := CompactedLine(r.Compacted); line != "" {
		fmt.Fprintf(w, "\n%s\n", line)
	}
	fmt.Fprintln(w, "\nThe next session starts with 'wake load'.")
	t := r.Boot
	var files []string
	for _, p := range []string{t.BootPath, t.SkillPath} {
		if p != "" {
			files = append(files, p)
		}
	}
	switch t.Shared.Whose {
	case boot.WhoseThis:
		files = append(files, t.Shared.Path+" (skill.path)")
	case boot.WhoseOther:
		files = append(files, fmt.Sprintf("%s (skill.path) left as it is: another memory root's, %s", t.Shared.Path, t.Shared.Owner))
	}
	if len(files) > 0 {
		fmt.Fprintln(w, "\nBoot files for the next session:")
		for _, f := range files {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
}

// CompactedLine says in one line what a hand-off compacted of its own
// accord; "" when it moved nothing.
func CompactedLine(c wake.AutoCompaction) string {
	if c.Empty() {
		return ""
	}
	paths := make([]string, len(c.Files))
	moved := make([]string, len(c.Files))
	for i, f := range c.Files {
		paths[i] = f.Path
		moved[i] = f.What() + " to " + f.Archive
	}
	share := "its share"
	if len(paths) > 1 {
		share = "their share"
	}
	return fmt.Sprintf("Compacted %s (over %s): moved %s; every byte and ID kept (turn off with handoff.auto_compact = false).",
		strings.Join(paths, ", "), share, strings.Join(moved, ", "))
}

// InitText says what `wake init` laid out in dir and, on a first wake,
// what to fill in first.
func InitText(w io.Writer, dir string, res store.InitResult) {
	fresh := slices.Contains(res.Created, tiers.MainPath)
	if fresh {
		fmt.Fprintln(w, "First session. No prior context. Starting fresh.")
		fmt.Fprintf(w, "\nMemory root: %s\n", dir)
	} else {
		fmt.Fprintf(w, "Memory root %s already exists.\n", dir)
	}
	switch {
	case len(res.Created) == 0:
		fmt.Fprintln(w, "Nothing was missing; nothing was changed.")
	case fresh:
		fmt.Fprintln(w, "Created:")
	default:
		fmt.Fprintln(w, "Added what was missing (existing files were left as they were):")
	}
	for _, p := range res.Created {
		fmt.Fprintf(w, "  %s\n", p)
	}
	if fresh {
		fmt.Fprintf(w, "\nFill in first:\n")
		fmt.Fprintf(w, "  1. main.md, Purpose: one or two sentences on what the project is for (the identity check halts until it is written).\n")
		fmt.Fprintf(w, "  2. main.md, Identity and Standing Directives.\n")
		fmt.Fprintf(w, "  3. warm/active_tasks.md: the first open task, as \"- [ ] ...\".\n")
		fmt.Fprintf(w, "Then run 'wake load' at every session start, and end every session with\n")
		fmt.Fprintf(w, "'wake handoff --summary \"...\" --next \"...\"': the next session starts from it.\n")
		fmt.Fprintf(w, "'wake install CLIENT' (claude, codex, opencode) makes the client do both.\n")
	}
}

// ColdText writes one folder of the cold tier (its subfolders, then its
// documents: the page of them pg picks, with a line saying how to get the
// rest) under a header saying how to list a folder and pull a document,
// and what this session has pulled of its budget.cold.
func ColdText(w io.Writer, root string, f *cold.Folder, pulled, budgetCold int, pg Pager) error {
	lines := f.Lines()
	p, err := pg.Cut(lines)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Cold tier of %s: list a folder with `wake cold FOLDER`, pull a document with `wake cold PATH`.\n", root)
	fmt.Fprintf(w, "This session has pulled %s of %s tokens (budget.cold).\n\n", budget.Thousands(pulled), budget.Thousands(budgetCold))
	io.WriteString(w, f.Header())
	io.WriteString(w, strings.Join(lines[p.From:p.To], ""))
	command := "wake cold"
	if f.Path != tiers.ColdDir+"/" {
		command += " " + quoteArg(f.Path)
	}
	_, err = io.WriteString(w, p.Footer("lines", command))
	return err
}

// quoteArg quotes a `wake cold` argument for a shell when it needs it (a
// month of session records ends in "-*").
func quoteArg(s string) string {
	if strings.ContainsAny(s, "*?[ '\"$") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// Cold is the JSON of `wake cold [FOLDER] --format json`: the folder
// whole, never paged.
type Cold struct {
	Version    int `json:"version"`
	Pulled     int `json:"pulled"`      // tokens this session has pulled
	BudgetCold int `json:"budget_cold"` // what a session may pull
	*cold.Folder
}

// ColdJSON renders one folder of the cold tier as JSON.
func ColdJSON(f *cold.Folder, pulled, budgetCold int) ([]byte, error) {
	if f.Entries == nil {
		f.Entries = []cold.FolderEntry{}
	}
	return marshal(Cold{Version: Version, Pulled: pulled, BudgetCold: budgetCold, Folder: f})
}

// MergeSetupText says what 'wake init' did for git's merges.
func MergeSetupText(w io.Writer, m wake.MergeSetup) {
	if !m.InGit {
		return
	}
	if m.Attributes {
		fmt.Fprintln(w, "\nGit: .gitattributes names the files the wake merge driver merges; commit it with the memory.")
	}
	if m.Configured {
		fmt.Fprintf(w, "Git merge driver configured for this clone (git config merge.wake.driver):\n  %s\n", m.Driver)
	} else {
		fmt.Fprintln(w, "Git merge driver: already configured for this clone.")
	}
}

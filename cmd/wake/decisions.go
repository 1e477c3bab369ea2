package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/report"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

type decisionsOptions struct {
	all    bool
	format string
	page   int
	refs   []store.DecisionRef // entries to show whole; none: the listing
}

func (a *app) decisionsCmd() *cobra.Command {
	o := &decisionsOptions{}
	cmd := &cobra.Command{
		Use:     "decisions [ID...] [--all] [--page N] [--format json]",
		Short:   "List the decision log with numbers, IDs, status and topic, newest first, or show decisions by ID",
		Long:    help("decisions"),
		Example: "  wake decisions\n  wake decisions --all --page 2\n  wake decisions d-7f3a\n  wake decisions --all --format json",
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, arg := range args {
				ref, err := store.ParseDecisionRef(arg)
				if err != nil {
					return usageError{err}
				}
				o.refs = append(o.refs, ref)
			}
			if o.page < 1 {
				return usagef("--page %d: want a page number from 1", o.page)
			}
			return a.decisionsRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.all, "all", false, "list reversed decisions too")
	addPage(cmd, &o.page)
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

func (a *app) decisionsRun(o *decisionsOptions) error {
	root, err := a.locate(a.cwd)
	if err != nil {
		return err
	}
	d, err := wake.ReadDecisions(root, a.options())
	if err != nil {
		return err
	}
	if d.Held == "" {
		for _, m := range d.Log.Malformed {
			a.warn([]string{fmt.Sprintf("%s:%d: %s: %s", tiers.DecisionsPath, m.Line, m.Reason, m.Text)})
		}
	}
	if len(o.refs) > 0 {
		return a.decisionEntries(d, o)
	}
	if o.format == "json" {
		return a.writeJSON(report.DecisionsJSON(d.Log, d.Planned, d.Held, o.all, d.Archived.Entries, d.Redacted))
	}
	pg, err := a.pager(root, o.page)
	if err != nil {
		return err
	}
	return pageErr(report.DecisionsText(a.out, d.Log, d.Planned, d.Held, o.all, d.Archived.Entries, d.Redacted, pg))
}

// decisionEntries shows the entries o names, whole, whatever their status.
func (a *app) decisionEntries(d wake.Decisions, o *decisionsOptions) error {
	if d.Held != "" {
		return fmt.Errorf("%s is %s: wake shows none of its decisions", tiers.DecisionsPath, d.Held)
	}
	var es []tiers.Decision
	for _, ref := range o.refs {
		e, ok, err := findDecision(d, ref)
		if err != nil {
			return usageError{err}
		}
		if !ok {
			return hintError{fmt.Errorf("decision %s: no entry of %s has that %s", ref, tiers.DecisionsPath, map[bool]string{true: "id", false: "number"}[ref.ID != ""]),
				"'wake decisions --all' lists every decision with its number and id"}
		}
		es = append(es, e)
	}
	if o.format == "json" {
		log := tiers.DecisionLog{Entries: es}
		return a.writeJSON(report.DecisionsJSON(log, d.Planned, "", true, nil, d.Redacted))
	}
	return report.DecisionEntries(a.out, es, d.Planned)
}

// findDecision finds the entry ref names: by its ID, or the ID planned for
// it, or by its number; by its ID also in the decisions archive. An ID
// may be shortened to its first four hex digits or more (see
// [tiers.DecisionLog.Match]); one that names several entries is refused,
// naming them.
func findDecision(d wake.Decisions, ref store.DecisionRef) (tiers.Decision, bool, error) {
	if ref.ID == "" {
		e, ok := d.Log.Entry(ref.Number)
		return e, ok, nil
	}
	// The log's entries under the IDs they have or are about to get.
	named := tiers.DecisionLog{Entries: make([]tiers.Decision, len(d.Log.Entries))}
	for i, e := range d.Log.Entries {
		if !e.HasIDLine() {
			e.ID = d.Planned[e.Number]
		}
		named.Entries[i] = e
	}
	es, archived := named.Match(ref.ID), false
	if len(es) == 0 {
		es, archived = d.Archived.Match(ref.ID), true
	}
	switch {
	case len(es) == 0:
		return tiers.Decision{}, false, nil
	case len(es) > 1 && tiers.SameID(es[0].ID, ref.ID):
		return tiers.Decision{}, false, &store.DuplicateIDError{ID: ref.ID, Entries: es}
	case len(es) > 1:
		return tiers.Decision{}, false, &store.AmbiguousIDError{Prefix: ref.ID, Entries: es, Archived: archived}
	}
	if archived {
		// Numbered 0: it has no number in the log, and is shown archived.
		e := es[0]
		e.Number = 0
		return e, true, nil
	}
	return d.Log.Entries[es[0].Number-1], true, nil
}

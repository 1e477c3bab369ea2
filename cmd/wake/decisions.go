package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

type decisionsOptions struct {
	all    bool
	format string
}

func (a *app) decisionsCmd() *cobra.Command {
	o := &decisionsOptions{}
	cmd := &cobra.Command{
		Use:   "decisions [--all] [--format json]",
		Short: "List the decision log with numbers, status and topic",
		Long: `decisions lists the entries of warm/decisions.md with the number that
reverse, contest and uphold take, their status and topic. Without --all only
active and contested decisions are listed. Lines that are not part of an
entry are reported on standard error with their line numbers.`,
		Example: "  wake decisions\n  wake decisions --all --format json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := formatFlag(o.format, "text", "json"); err != nil {
				return err
			}
			return a.decisionsRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.all, "all", false, "list reversed decisions too")
	cmd.Flags().StringVar(&o.format, "format", "text", "output `FORMAT`: text or json")
	return cmd
}

func (a *app) decisionsRun(o *decisionsOptions) error {
	root, err := a.findRoot()
	if err != nil {
		return err
	}
	// Read as a document: a symlink out of the root, a device or a binary
	// file is not read, so that wake never shows a file it does not hold.
	d, err := tiers.ReadDoc(a.fs, root, tiers.DecisionsPath)
	if err != nil {
		return err
	}
	if d.Skipped != "" {
		return fmt.Errorf("%s: %s", tiers.DecisionsPath, d.Skipped)
	}
	content := d.Content
	if d.Huge {
		// A document's head is enough for a boot context, not for listing
		// every decision: read it whole, as the decision commands do.
		if content, err = tiers.ReadOwn(a.fs, root, tiers.DecisionsPath); err != nil {
			return err
		}
	}
	log := tiers.ParseDecisions(content)
	if lvl, _ := policy.OfDoc(d); !d.Missing && policy.Withheld(lvl) {
		return a.decisionsHeld(o, log, lvl)
	}
	for _, m := range log.Malformed {
		a.warn([]string{fmt.Sprintf("%s:%d: %s: %s", tiers.DecisionsPath, m.Line, m.Reason, m.Text)})
	}
	var shown []tiers.Decision
	for _, e := range log.Entries {
		if o.all || e.Active() || e.Status == tiers.StatusContested {
			shown = append(shown, e)
		}
	}
	if o.format == "json" {
		return writeDecisionsJSON(a.out, log, shown)
	}
	writeDecisionsText(a.out, log, shown, o.all)
	return nil
}

// decisionsHeld answers for a log the sensitivity policy holds back: its
// counts, never its text.
func (a *app) decisionsHeld(o *decisionsOptions, log tiers.DecisionLog, lvl string) error {
	if o.format == "json" {
		out := struct {
			Version  int            `json:"version"`
			Path     string         `json:"path"`
			Total    int            `json:"total"`
			HeldBack string         `json:"held_back"`
			Entries  []decisionJSON `json:"entries"`
		}{1, tiers.DecisionsPath, len(log.Entries), lvl, []decisionJSON{}}
		data, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		_, err = a.out.Write(append(data, '\n'))
		return err
	}
	fmt.Fprintf(a.out, "%s is %s: its %d decision(s) are held back; wake shows none of their text.\n", tiers.DecisionsPath, lvl, len(log.Entries))
	return nil
}

func writeDecisionsText(w io.Writer, log tiers.DecisionLog, shown []tiers.Decision, all bool) {
	for _, e := range shown {
		topic := ""
		if t := tiers.OneLine(e.Topic()); t != "" {
			topic = "  (topic: " + t + ")"
		}
		fmt.Fprintf(w, "#%-3d %-9s %s%s\n", e.Number, entryStatus(e), e.Title(), topic)
		fmt.Fprintf(w, "     because: %s\n", tiers.OneLine(e.Why))
		for _, f := range []struct{ label, key string }{
			{"reversed by", tiers.KeyReversedBy}, {"objection", tiers.KeyObjection},
			{"proposed", tiers.KeyProposed}, {"upheld", tiers.KeyUpheld},
		} {
			for _, v := range e.Values(f.key) {
				fmt.Fprintf(w, "     %s: %s\n", f.label, tiers.OneLine(v))
			}
		}
	}
	counts := map[string]int{}
	for _, e := range log.Entries {
		counts[entryStatus(e)]++
	}
	if len(shown) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d decisions: %d active, %d contested, %d reversed", len(log.Entries), counts[tiers.StatusActive], counts[tiers.StatusContested], counts[tiers.StatusReversed])
	if other := len(log.Entries) - counts[tiers.StatusActive] - counts[tiers.StatusContested] - counts[tiers.StatusReversed]; other > 0 {
		fmt.Fprintf(w, ", %d with an unknown status", other)
	}
	if !all && len(shown) < len(log.Entries) {
		fmt.Fprintf(w, " (--all lists every one)")
	}
	fmt.Fprintln(w, ".")
}

// entryStatus is the entry's status, "active" when it has no STATUS line.
func entryStatus(e tiers.Decision) string {
	if e.Status == "" {
		return tiers.StatusActive
	}
	return e.Status
}

type decisionJSON struct {
	Number     int      `json:"number"`
	Line       int      `json:"line"`
	Date       string   `json:"date"`
	Decision   string   `json:"decision"`
	Because    string   `json:"because"`
	Status     string   `json:"status"`
	StatusLine bool     `json:"status_line"` // false: no STATUS line, read as active
	Topic      string   `json:"topic,omitempty"`
	ReversedBy string   `json:"reversed_by,omitempty"`
	Objection  string   `json:"objection,omitempty"`
	Proposed   string   `json:"proposed,omitempty"`
	Upheld     []string `json:"upheld,omitempty"`
}

func writeDecisionsJSON(w io.Writer, log tiers.DecisionLog, shown []tiers.Decision) error {
	out := struct {
		Version   int                   `json:"version"`
		Path      string                `json:"path"`
		Total     int                   `json:"total"`
		Entries   []decisionJSON        `json:"entries"`
		Malformed []tiers.MalformedLine `json:"malformed"`
	}{Version: 1, Path: tiers.DecisionsPath, Total: len(log.Entries), Entries: []decisionJSON{}, Malformed: log.Malformed}
	if out.Malformed == nil {
		out.Malformed = []tiers.MalformedLine{}
	}
	for _, e := range shown {
		out.Entries = append(out.Entries, decisionJSON{
			Number: e.Number, Line: e.Line, Date: e.Date, Decision: e.What, Because: e.Why,
			Status: entryStatus(e), StatusLine: e.HasStatus(), Topic: e.Topic(), ReversedBy: e.ReversedBy(),
			Objection: e.Value(tiers.KeyObjection), Proposed: e.Value(tiers.KeyProposed), Upheld: e.Values(tiers.KeyUpheld),
		})
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

type logOptions struct {
	since  time.Duration // 0: the whole ledger
	op     string
	format string
}

func (a *app) logCmd() *cobra.Command {
	o := &logOptions{}
	var since string
	cmd := &cobra.Command{
		Use:   "log",
		Short: "Print the audit ledger, newest first",
		Long: `log prints ledger.jsonl, the record of every change wake made to the memory
root, newest first: one line an entry with its time, op, change summary and
paths.

Entries touching a document marked sensitivity: secret are held back and
counted; a confidential document's path and change summary are replaced
by "(confidential)" and its summary.

Lines that cannot be read (a crash mid-append, a hand edit) are skipped and
reported on stderr with their line numbers; they never stop the log.`,
		Example: "  wake log\n  wake log --since 24h --op decide\n  wake log --format json | jq '.entries[0]'",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := formatFlag(o.format, "text", "json"); err != nil {
				return err
			}
			if since != "" {
				d, err := time.ParseDuration(since)
				if err != nil || d <= 0 {
					return usagef("--since %q: want a positive duration such as 24h or 168h", since)
				}
				o.since = d
			}
			if cmd.Flags().Changed("op") && (o.op == "" || strings.ContainsAny(o.op, " \t")) {
				return usagef("--op %q: want one op, such as handoff or decide", o.op)
			}
			return a.logRun(o)
		},
	}
	cmd.Flags().StringVar(&since, "since", "", "only entries from the last `DURATION` (e.g. 24h)")
	cmd.Flags().StringVar(&o.op, "op", "", "only entries of this `OP` (init, handoff, decide, ...)")
	cmd.Flags().StringVar(&o.format, "format", "text", "output `FORMAT`: text or json")
	return cmd
}

func (a *app) logRun(o *logOptions) error {
	root, err := a.findRoot()
	if err != nil {
		return err
	}
	entries, bad, err := handoff.ReadLedger(a.fs, root)
	if err != nil {
		return err
	}
	for _, b := range bad {
		a.warn([]string{fmt.Sprint(b)})
	}
	entries, held := boot.RedactLedger(a.fs, root, filterLog(entries, o, a.now()))
	if o.format == "json" {
		if bad == nil {
			bad = []handoff.BadLine{}
		}
		data, err := json.MarshalIndent(struct {
			Version  int               `json:"version"`
			Entries  []handoff.Entry   `json:"entries"`
			HeldBack int               `json:"held_back"`
			Skipped  []handoff.BadLine `json:"skipped"`
		}{1, entries, held, bad}, "", "  ")
		if err != nil {
			return err
		}
		_, err = a.out.Write(append(data, '\n'))
		return err
	}
	var b strings.Builder
	if len(entries) == 0 {
		b.WriteString("No ledger entries" + logFilterNote(o) + ".\n")
	}
	for _, e := range entries {
		writeLogLine(&b, e)
	}
	if held > 0 {
		fmt.Fprintf(&b, "Held back: %d %s touching secret documents.\n", held, pluralWord(held, "entry", "entries"))
	}
	_, err = a.out.Write([]byte(b.String()))
	return err
}

// filterLog keeps the entries o selects, newest first.
func filterLog(entries []handoff.Entry, o *logOptions, now time.Time) []handoff.Entry {
	out := []handoff.Entry{}
	for _, e := range entries {
		if o.since > 0 && e.At.Before(now.Add(-o.since)) || o.op != "" && e.Op != o.op {
			continue
		}
		out = append(out, e)
	}
	slices.Reverse(out)
	slices.SortStableFunc(out, func(a, b handoff.Entry) int { return b.At.Compare(a.At) })
	return out
}

// writeLogLine writes one entry as a line. The ledger can be edited by
// hand, so its text is made printable: no terminal escapes reach the
// terminal. (The JSON form escapes them instead.)
func writeLogLine(b *strings.Builder, e handoff.Entry) {
	var l strings.Builder
	fmt.Fprintf(&l, "%s  %-8s  %s", e.At.UTC().Format(time.RFC3339), e.Op, e.ChangeSummary)
	if len(e.Paths) > 0 {
		fmt.Fprintf(&l, "  [%s]", strings.Join(e.Paths, ", "))
	}
	if e.Summary != "" {
		fmt.Fprintf(&l, "  summary: %s", e.Summary)
	}
	b.WriteString(tiers.Printable(l.String()))
	b.WriteString("\n")
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func logFilterNote(o *logOptions) string {
	var parts []string
	if o.since > 0 {
		parts = append(parts, "in the last "+o.since.String())
	}
	if o.op != "" {
		parts = append(parts, "with op "+o.op)
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, " ")
}

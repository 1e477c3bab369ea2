package boot

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// maxDigestPaths is how many of an entry's paths its digest line names.
const maxDigestPaths = 3

// Digest is what changed recently: the ledger's entries of the last window
// (DESIGN section 5), newest first, one line each, within budget.digest.
// Entries past the budget are counted, not listed.
type Digest struct {
	Window   string // "24h"
	Since    time.Time
	Budget   int
	Tokens   int           // exact count of Text()
	Total    int           // entries in the window
	Entries  []store.Entry // listed, newest first
	Unlisted int
	HeldBack int // touching secret documents: counted only
	// Own counts the entries of wake's own bookkeeping (set-up, install,
	// IDs given, merges settled) and the hand-offs, which the trajectory
	// and the HANDOFF show: counted, not listed.
	Own      int
	Squeezed bool // cut further to keep the context under memory_max
	// Redacted counts the secret-looking strings scrubbed from the
	// entries in the window.
	Redacted policy.Redactions

	all    []store.Entry // every entry in the window, newest first
	oldest time.Time     // the oldest entry read, held back or not
	hidden bool          // not even the count of the entries fits
	cuts   []budget.Cut  // the entries left out, and the count when hidden
}

// BuildDigest reads the ledger's entries since now minus the configured
// window and fits them to budget.digest. Unreadable ledger lines met on the
// way come back as warnings with their line numbers, and so does a ledger
// that cannot be read at all (the digest is then empty).
func BuildDigest(o Options) (*Digest, []string, error) {
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	w := o.Config.Digest.Window
	d := &Digest{Window: shortDuration(w), Since: now().Add(-w).UTC().Truncate(time.Second), Budget: o.Config.Budget.Digest}
	entries, bad, err := store.ReadLedgerSince(o.FS, o.Root, d.Since)
	var warns []string
	if err != nil {
		// An unreadable ledger costs the digest, never the session start.
		warns = append(warns, fmt.Sprintf("%v; no digest of recent changes", err))
		entries, bad = nil, nil
	}
	for _, b := range bad {
		warns = append(warns, b.String())
	}
	for _, e := range entries {
		if d.oldest.IsZero() || e.At.Before(d.oldest) {
			d.oldest = e.At
		}
	}
	level := o.ledgerLevel
	if level == nil {
		level = func(p string) string { return policy.OfPath(o.FS, o.Root, p) }
	}
	entries, d.HeldBack, d.Redacted = policy.RedactLedger(entries, level)
	// Oldest first (lines of one time in file order): newest first is
	// the list reversed.
	slices.Reverse(entries)
	d.Total = len(entries)
	entries = slices.DeleteFunc(entries, func(e store.Entry) bool {
		if ownOps[e.Op] {
			d.Own++
			return true
		}
		return false
	})
	if entries == nil {
		entries = []store.Entry{}
	}
	d.all = entries
	d.fit(d.Budget, o.Counter)
	return d, warns, nil
}

// fit lists as many entries, newest first, as fit limit tokens with the
// line counting the rest, counted exactly: the oldest go first. When not
// even that line fits, the digest is left out whole.
func (d *Digest) fit(limit int, c budget.Counter) {
	d.hidden = false
	lines := make([]string, len(d.all))
	for i, e := range d.all {
		lines[i] = digestLine(e)
	}
	d.Tokens, d.hidden, d.cuts = fitNewest(c, limit, tiers.LedgerPath, lines, d.moreLine, func(n int) string {
		d.Entries, d.Unlisted = d.all[:n], len(d.all)-n
		return d.Text()
	})
}

// Text renders the listed entries and the count of the others. Empty when
// nothing fits, or nothing changed.
func (d *Digest) Text() string {
	if d.hidden || len(d.Entries) == 0 && d.Unlisted == 0 && d.HeldBack == 0 && d.Own == 0 {
		return ""
	}
	var b strings.Builder
	for _, e := range d.Entries {
		b.WriteString(digestLine(e))
	}
	b.WriteString(d.moreLine(d.Unlisted))
	return b.String()
}

// ownOps are the ledger's operations the digest counts but does not list:
// wake's own bookkeeping, and the hand-offs, which the trajectory shows.
var ownOps = map[string]bool{"init": true, "install": true, "uninstall": true, "identify": true, "merge": true, "handoff": true}

func (d *Digest) moreLine(unlisted int) string {
	var b strings.Builder
	switch {
	case unlisted > 0 && d.Own > 0:
		fmt.Fprintf(&b, "- %s more in the last %s, not listed, and %s of hand-offs and wake's bookkeeping: `wake log --since %s`\n", budget.Plural(unlisted, "change"), d.Window, budget.Plural(d.Own, "line"), d.Window)
	case unlisted > 0:
		fmt.Fprintf(&b, "- %s more in the last %s, not listed: `wake log --since %s`\n", budget.Plural(unlisted, "change"), d.Window, d.Window)
	case d.Own > 0:
		fmt.Fprintf(&b, "- And %s of hand-offs and wake's bookkeeping: `wake log --since %s`\n", budget.Plural(d.Own, "line"), d.Window)
	}
	if d.HeldBack > 0 {
		fmt.Fprintf(&b, "- Held back: %s to secret documents.\n", budget.Plural(d.HeldBack, "change"))
	}
	return b.String()
}

func digestLine(e store.Entry) string {
	paths := e.Paths
	more := ""
	if len(paths) > maxDigestPaths {
		paths, more = paths[:maxDigestPaths], fmt.Sprintf(" and %d more", len(e.Paths)-maxDigestPaths)
	}
	where := ""
	if len(paths) > 0 {
		where = " " + strings.Join(paths, ", ") + more
	}
	summary := e.ChangeSummary
	// A decision's or a reminder's text is in the decision log's view or
	// the open reminders above: the change names it by its number and id
	// (each fact once).
	if shownAbove[e.Op] {
		if i := strings.LastIndex(summary, "): "); i >= 0 {
			summary = summary[:i+1]
		} else if i := strings.Index(summary, ": "); i >= 0 && strings.Contains(summary[:i], "#") {
			summary = summary[:i]
		}
	}
	// A hand-edited ledger may hold terminal escapes; none reach the context.
	return tiers.Printable(fmt.Sprintf("- %s %s%s: %s\n", e.At.UTC().Format("2006-01-02 15:04Z"), e.Op, where, tiers.ShortLine(summary)))
}

// shownAbove are the operations whose subject the boot context shows in
// full elsewhere: decisions and reminders.
var shownAbove = map[string]bool{"decide": true, "reverse": true, "contest": true, "uphold": true, "remember": true}

// shortDuration prints 24h0m0s as 24h and 1h30m0s as 1h30m.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

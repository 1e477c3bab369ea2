package wake

import (
	"context"
	"errors"
	"fmt"

	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// Decide appends a decision to the log (see [store.Store.Decide]). The
// change names the entry as the policy allows: see [Memory.Uphold].
func (m *Memory) Decide(ctx context.Context, d store.NewDecision) (store.DecisionChange, error) {
	ch, err := m.Store().Decide(ctx, d)
	if err != nil {
		return ch, m.quotable(err)
	}
	return m.logged(ch, nil)
}

// quotable makes a refusal show of the entries it quotes only what the
// policy lets out: nothing of a held-back log (a conflict under rule 1, a
// number that moved, an ID on two entries), and a log's text scrubbed of
// secret-looking strings (the command line scrubs every error too).
func (m *Memory) quotable(err error) error {
	if err == nil {
		return nil
	}
	lvl := policy.OfPath(m.o.FS, m.root, tiers.DecisionsPath)
	if policy.Withheld(lvl) {
		withholdTitles(err, fmt.Sprintf("its text is held back: %s is %s", tiers.DecisionsPath, lvl))
	}
	var ce *store.ConflictError
	if !errors.As(err, &ce) {
		return err
	}
	if policy.Withheld(lvl) {
		ce.Held = fmt.Sprintf("its text is held back: %s is %s", tiers.DecisionsPath, lvl)
		return err
	}
	for i := range ce.Conflicts {
		w := &ce.Conflicts[i].With
		w.What, _ = policy.Scrub(w.What)
		w.Why, _ = policy.Scrub(w.Why)
		ce.Conflicts[i].Why, _ = policy.Scrub(ce.Conflicts[i].Why)
	}
	return err
}

// Reverse reverses the decision ref names by the new decision d. The
// change names that entry as the policy allows: see [Memory.Uphold].
func (m *Memory) Reverse(ctx context.Context, ref store.DecisionRef, d store.NewDecision) (store.DecisionChange, error) {
	return m.logged(m.Store().Reverse(ctx, ref, d))
}

// Contest records an objection to the decision ref names and a proposal,
// for the user to settle. The change names that entry as the policy
// allows: see [Memory.Uphold].
func (m *Memory) Contest(ctx context.Context, ref store.DecisionRef, objection, proposal string) (store.DecisionChange, error) {
	return m.logged(m.Store().Contest(ctx, ref, objection, proposal))
}

// Uphold records that the user kept the contested decision ref names.
// When the sensitivity policy holds the decision log back, the change's
// titles say so instead of quoting the entries, even one the caller just
// wrote there: the log's text leaves wake by no way. Every title comes
// back scrubbed of secret-looking strings.
func (m *Memory) Uphold(ctx context.Context, ref store.DecisionRef, because string) (store.DecisionChange, error) {
	return m.logged(m.Store().Uphold(ctx, ref, because))
}

// logged withholds the titles of the entries of a held-back log, and
// scrubs them.
func (m *Memory) logged(ch store.DecisionChange, err error) (store.DecisionChange, error) {
	if lvl := policy.OfPath(m.o.FS, m.root, tiers.DecisionsPath); err == nil && policy.Withheld(lvl) {
		ch.Title = fmt.Sprintf("(its text is held back: %s is %s)", tiers.DecisionsPath, lvl)
		if ch.AddedTitle != "" {
			ch.AddedTitle = ch.Title
		}
	}
	ch.Title, _ = policy.Scrub(ch.Title)
	ch.AddedTitle, _ = policy.Scrub(ch.AddedTitle)
	return ch, m.quotable(err)
}

// withholdTitles blanks the entries a refusal quotes when the log is held
// back: the error names them by number and ID only.
func withholdTitles(err error, held string) {
	blank := func(d *tiers.Decision) {
		d.Date, d.What = held, "…"
	}
	var me *store.MovedNumberError
	if errors.As(err, &me) {
		blank(&me.Now)
		blank(&me.Was)
	}
	var de *store.DuplicateIDError
	if errors.As(err, &de) {
		for i := range de.Entries {
			blank(&de.Entries[i])
		}
	}
}

// Check runs the four coherence checks on the root as it is, reading it
// under the shared lock like a session start (so that the verdict is never
// about a hand-off caught between its renames), with what the policy holds
// back withheld from the findings.
func (m *Memory) Check(ctx context.Context) (checks.Report, error) {
	if unlock, err := m.o.Locker.RLock(ctx, m.root); err == nil {
		defer unlock()
	} else {
		m.warn(fmt.Sprintf("the memory root's lock could not be taken (%v); the checks read the root as it is", err))
	}
	mem, err := checks.ReadMemory(m.o.FS, m.root)
	if err != nil {
		return checks.Report{}, err
	}
	mem.Contradictions = m.contradictions()
	r := checks.Run(mem, checks.Options{StaleAfter: m.cfg.Checks.StaleAfter, Now: m.o.Now, Drift: m.driftOptions()})
	m.SaveCache()
	r.Findings = append(r.Findings, policy.SecretFindings(mem.Main, mem.Latest, mem.Tasks, mem.Decisions, mem.Questions)...)
	// A conflict a merge left in any file wake structures is a HALT,
	// recent/previous.md and the inbox included.
	marked := []tiers.Doc{mem.Main, mem.Latest, mem.Tasks, mem.Decisions, mem.Questions}
	for _, rel := range []string{tiers.PreviousPath, tiers.InboxPath} {
		if d, err := tiers.ReadDoc(m.o.FS, m.root, rel); err == nil {
			marked = append(marked, d)
		}
	}
	bad := append(checks.MarkerFindings(marked...), policy.UnreadableFindings(mem.Main, mem.Latest, mem.Tasks, mem.Decisions, mem.Questions)...)
	bad = append(bad, inboxFindings(marked[len(marked)-1])...)
	if len(bad) > 0 {
		r.Findings = append(r.Findings, bad...)
		r.Announcement = checks.Announce(r)
	}
	return policy.RedactReport(r, policy.Held(mem.Main, mem.Latest, mem.Tasks, mem.Decisions, mem.Questions)), nil
}

// Compact moves reversed decisions, done tasks, resolved questions and
// closed reminders to their archives under cold/ (see [store.Store.Compact]); with dryRun it
// only says what it would move.
func (m *Memory) Compact(ctx context.Context, dryRun bool) (store.Compaction, error) {
	return m.Store().Compact(ctx, dryRun)
}

// inboxFindings are the problems of the inbox's entries: a number or an
// id two entries share fails (an entry must be closed by its own number,
// and merged by its own id; a merge of branches without the driver is the
// likely cause); the others warn, as at a session start.
func inboxFindings(d tiers.Doc) []checks.Finding {
	if d.Path != tiers.InboxPath || !d.Readable() || d.Huge || tiers.ConflictMarkers(d.Content) != nil {
		return nil
	}
	_, err := tiers.ParseInbox(d.Content)
	var ie *tiers.InboxError
	if !errors.As(err, &ie) {
		return nil
	}
	var out []checks.Finding
	for _, p := range ie.Problems {
		f := checks.Finding{Check: checks.Inbox, Pass: true, Severity: checks.Warning, Path: tiers.InboxPath,
			Message: fmt.Sprintf("%s:%d: %s", tiers.InboxPath, p.Line, p.Reason)}
		if p.Duplicate {
			f.Pass, f.Severity = false, checks.Fail
		}
		out = append(out, f)
	}
	return out
}

package wake

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
	"github.com/wakeproto/wake/transcript"
)

// AutoOptions is what an automatic hand-off is made from.
type AutoOptions struct {
	// Transcript is the session's transcript file; "" when there is none,
	// and then Start is required.
	Transcript string
	Format     transcript.Format // Auto: sniffed from the file
	// Start is when the session started; zero takes the transcript's
	// first recorded time.
	Start time.Time
	Boot  BootFiles
}

// AutoResult is what an automatic hand-off did.
type AutoResult struct {
	// Written is the hand-off; nil when none was written, and Skipped
	// says why.
	Written *HandoffResult
	Skipped string
	// Start is the session's start the hand-off went by.
	Start time.Time
	// Session is what the transcript told; nil without one.
	Session *transcript.Summary
}

// ErrNoStart is an automatic hand-off that cannot tell when its session
// started: no transcript time, and none given.
var ErrNoStart = errors.New("the session's start is unknown")

// AutoHandoff writes the hand-off of a session that ended without one,
// from what can be known without a model: the transcript (the user's
// prompts, the files the agent's tools edited, the commands it ran, its
// last message), the files git shows changed since the session started,
// the decisions the ledger records since then, and the previous HANDOFF's
// next priority, carried over. The summary and the ledger line say it is
// automatic, and every text is scrubbed of secrets.
//
// It writes nothing, and says why in Skipped, when a hand-off was written
// since the session started (checked again under the root's lock, so that
// one written meanwhile is never overwritten), or when the session did no
// work: no edit by a tool, no decision and, without a transcript, no
// change in the work tree.
func (m *Memory) AutoHandoff(ctx context.Context, o AutoOptions) (AutoResult, error) {
	var res AutoResult
	if o.Transcript != "" {
		s, err := m.readTranscript(o.Transcript, o.Format, transcript.DefaultLimits(), false)
		if err != nil {
			return res, err
		}
		res.Session = s
		m.warnSkipped(o.Transcript, s)
	}
	res.Start = o.Start
	if res.Start.IsZero() && res.Session != nil {
		res.Start = res.Session.Start
	}
	if res.Start.IsZero() {
		return res, hinted{ErrNoStart, "give --session-start TIME (RFC 3339), or a --transcript that records times"}
	}
	if e, ok, err := handoff.LastHandoffSince(m.o.FS, m.root, res.Start); err != nil {
		return res, err
	} else if ok {
		res.Skipped = handedOff(e.At, e.Auto)
		return res, nil
	}
	decisions, err := m.decisionsSince(res.Start)
	if err != nil {
		return res, err
	}
	changed := m.gitChanges(ctx, res.Start)
	if !didWork(res.Session, decisions, changed) {
		res.Skipped = "the session did no work (no file edited by the agent's tools, no decision recorded)"
		return res, nil
	}
	in := autoInput(autoFacts{session: res.Session, path: o.Transcript, start: res.Start, decisions: decisions,
		changed: changed, carried: m.previousNext()})
	in.Auto, in.NoneSince = true, res.Start
	out, err := m.Handoff(ctx, in, o.Boot)
	var he *handoff.HandedOffError
	if errors.As(err, &he) {
		res.Skipped = handedOff(he.At, he.Auto)
		return res, nil
	}
	if err != nil {
		return res, err
	}
	res.Written = &out
	return res, nil
}

func handedOff(at time.Time, auto bool) string {
	what := "a hand-off"
	if auto {
		what = "an automatic hand-off"
	}
	return fmt.Sprintf("%s was written in this session already (%s); it is kept", what, at.UTC().Format(time.RFC3339))
}

// didWork says whether a session did work: a tool's edit or a decision;
// without a transcript, a change git shows too.
func didWork(s *transcript.Summary, decisions int, changed tiers.List) bool {
	if decisions > 0 || s != nil && s.DidWork() {
		return true
	}
	return s == nil && len(changed.Items) > 0
}

// readTranscript reads a transcript file; work reads only whether the
// session did work, and stops once it knows.
func (m *Memory) readTranscript(name string, f transcript.Format, lim transcript.Limits, work bool) (*transcript.Summary, error) {
	file, err := m.o.FS.Open(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, hinted{fmt.Errorf("transcript %s: no such file", name), "give the session's transcript file, or --session-start without one"}
		}
		return nil, fmt.Errorf("transcript %s: %w", name, err)
	}
	defer file.Close()
	if fi, err := file.Stat(); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("transcript %s: not a regular file", name)
	}
	var s *transcript.Summary
	if work {
		s, err = transcript.ReadWork(file, f, lim.MaxLine)
	} else {
		s, err = transcript.Read(file, f, lim)
	}
	if err != nil {
		return nil, fmt.Errorf("transcript %s: %w", name, err)
	}
	return s, nil
}

// warnSkipped says how many lines of a transcript were skipped.
func (m *Memory) warnSkipped(name string, s *transcript.Summary) {
	if s.Malformed > 0 {
		m.warn(fmt.Sprintf("transcript %s: skipped %d line(s) that are not JSON", name, s.Malformed))
	}
	if s.TooLong > 0 {
		m.warn(fmt.Sprintf("transcript %s: skipped %d line(s) longer than %d MiB", name, s.TooLong, transcript.DefaultLimits().MaxLine>>20))
	}
}

// decisionOps are the ledger's operations on the decision log that a
// session's work includes.
var decisionOps = map[string]bool{"decide": true, "reverse": true, "contest": true, "uphold": true}

// decisionsSince counts the decision-log changes the ledger records since
// the session started.
func (m *Memory) decisionsSince(start time.Time) (int, error) {
	entries, _, err := handoff.ReadLedgerSince(m.o.FS, m.root, start.UTC().Truncate(time.Second))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if inSession(e, start) {
			n++
		}
	}
	return n, nil
}

// inSession reports whether ledger entry e is a decision made in the
// session that started at start. The ledger keeps times to the second: an
// entry of the start's own second may be from just before it (a decision
// made in a terminal as the session opened), and is not counted, whereas
// a hand-off of that second is taken for the session's, so that it is
// never overwritten.
func inSession(e handoff.Entry, start time.Time) bool {
	return decisionOps[e.Op] && !e.At.Before(start)
}

// previousNext is the next priority the last hand-off left in main.md's
// HANDOFF block; "" when there is none.
func (m *Memory) previousNext() string {
	d, err := tiers.ReadDoc(m.o.FS, m.root, tiers.MainPath)
	if err != nil || !d.Readable() {
		return ""
	}
	return tiers.ParseMain(d.Content).Handoff.Get(tiers.KeyNextPriority)
}

// SessionWork is what the Stop hook needs to know of a running session.
type SessionWork struct {
	Start     time.Time // the session's start, from its transcript
	Edited    string    // a file the agent's tools edited; "" when none
	Decisions int       // decision-log changes the ledger records since Start
	// HandedOff is set when the ledger records a hand-off since Start.
	HandedOff bool
}

// DidWork reports whether the session changed something.
func (w SessionWork) DidWork() bool { return w.Edited != "" || w.Decisions > 0 }

// SessionWork reads, as little as it can, whether the session of a
// transcript did work and whether a hand-off was written since it
// started: the transcript up to its first edit, the ledger since the
// start. It runs at the end of every turn.
func (m *Memory) SessionWork(name string, f transcript.Format) (SessionWork, error) {
	var w SessionWork
	s, err := m.readTranscript(name, f, transcript.DefaultLimits(), true)
	if err != nil {
		return w, err
	}
	if s.Start.IsZero() {
		return w, hinted{fmt.Errorf("transcript %s: %w: it records no time", name, ErrNoStart), ""}
	}
	w.Start = s.Start
	if len(s.Edits) > 0 {
		w.Edited = s.Edits[0].Path
	}
	if s.Decisions > 0 {
		w.Decisions = s.Decisions
	}
	entries, _, err := handoff.ReadLedgerSince(m.o.FS, m.root, s.Start.UTC().Truncate(time.Second))
	if err != nil {
		return w, err
	}
	for _, e := range entries {
		switch {
		case e.Op == "handoff":
			w.HandedOff = true
		case inSession(e, s.Start):
			w.Decisions++
		}
	}
	return w, nil
}

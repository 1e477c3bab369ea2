package wake

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/store"
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
	// SessionID is the client's id of the session; "" takes the
	// transcript's.
	SessionID string
	Boot      BootFiles
	// Recovered says the session is another one, found by a later
	// session's start with no hand-off of its work ([Memory.RecoverMissed]).
	Recovered bool
}

// AutoResult is what an automatic hand-off did.
type AutoResult struct {
	// Written is the hand-off; nil when none was written, and Skipped
	// says why.
	Written *HandoffResult
	Skipped string
	// Start is the session's start the hand-off went by, and Since where
	// the work it covers begins: Start, or the session's last hand-off
	// at or after it.
	Start, Since time.Time
	// Session is what the transcript told of the work since Since; nil
	// without one.
	Session *transcript.Summary
}

// ErrNoStart is an automatic hand-off that cannot tell when its session
// started: no transcript time, and none given.
var ErrNoStart = errors.New("the session's start is unknown")

// AutoHandoff writes the hand-off of the work a session did and did not
// hand off, from what can be known without a model: the transcript (the
// user's prompts, the files the agent's tools edited, the commands it
// ran, its last message of the work and what that left open), the files
// git shows changed, and the previous HANDOFF's next priority, kept as an
// open thread (the next priority when the session tells none). The summary and the ledger line
// say it is automatic, the ledger line names the session, and every text
// is scrubbed of secrets.
//
// The work is what the session did since its last hand-off (the agent's
// own, a manual one from anywhere, or an automatic one of this session;
// not another session's automatic one), or since it started when it
// wrote none: the next turns of an interactive session, or a resumed
// one, are handed off too. The earlier hand-off is never overwritten:
// the hand-off rotates it to recent/previous.md. Nothing is written, and
// Skipped says why, when there is no such work: no edit by a tool, no
// decision and, without a transcript, no change in the work tree; nor
// when a hand-off of the session was written meanwhile (checked again
// under the root's lock).
func (m *Memory) AutoHandoff(ctx context.Context, o AutoOptions) (AutoResult, error) {
	var res AutoResult
	mark, err := m.autoMark(o)
	if err != nil {
		return res, err
	}
	res.Start, res.Since = mark.Start, mark.Since()
	if o.Transcript != "" {
		s, err := m.readTranscript(o.Transcript, true, func(r io.Reader) (*transcript.Summary, error) {
			return transcript.Read(r, o.Format, transcript.DefaultLimits(), m.scope(mark))
		})
		if err != nil {
			return res, err
		}
		res.Session = s
		m.warnSkipped(o.Transcript, s)
	}
	// Without a transcript, the decisions the ledger records stand for
	// the session's: nothing tells whose they are.
	var decisions int
	if res.Session == nil {
		if decisions, err = m.decisionsSince(res.Since); err != nil {
			return res, err
		}
	} else if decisions, err = m.decisionsOf(mark.SessionID, mark.workSince()); err != nil {
		return res, err
	}
	// The work tree's changes are the session's own only where its
	// transcript says so: another session on the same tree, or a
	// command, changed the others.
	var own func(top, rel string) bool
	if res.Session != nil {
		if set, whole := res.Session.EditedSet(); whole {
			// Named relative to the project, or absolute when the
			// transcript did not say where the session ran.
			own = func(top, rel string) bool { return set[rel] || set[filepath.Join(top, filepath.FromSlash(rel))] }
		}
	}
	changed := m.gitChanges(ctx, res.Since, own)
	if !didWork(res.Session, decisions, changed) {
		res.Skipped = mark.noWork()
		return res, nil
	}
	in := handoff.Auto(handoff.Facts{Session: res.Session, Transcript: o.Transcript, Start: res.Start, After: mark.after(),
		Decisions: decisions, Changed: changed, Carried: m.previousNext(), Recovered: o.Recovered})
	in.Auto, in.SessionID, in.NoneSince, in.Seen = true, mark.SessionID, res.Start, mark.seen
	out, err := m.Handoff(ctx, in, o.Boot)
	var he *store.HandedOffError
	if errors.As(err, &he) {
		res.Skipped = fmt.Sprintf("%s was written for this session meanwhile (%s); it is kept", handoffKind(he.Auto), stamp(he.At))
		return res, nil
	}
	if err != nil {
		return res, err
	}
	res.Written = &out
	return res, nil
}

// autoMark is the mark of the session an automatic hand-off is for: its
// start and id as given, else as its transcript's opening records them.
func (m *Memory) autoMark(o AutoOptions) (SessionMark, error) {
	start, id := o.Start, o.SessionID
	if o.Transcript != "" {
		h, err := m.readTranscript(o.Transcript, false, func(r io.Reader) (*transcript.Summary, error) {
			return transcript.Head(r, o.Format, 0)
		})
		if err != nil {
			return SessionMark{}, err
		}
		if start.IsZero() {
			start = h.Start
		}
		if id == "" {
			id = h.SessionID
		}
	}
	if start.IsZero() {
		return SessionMark{}, hinted{ErrNoStart, "give --session-start TIME (RFC 3339), or a --transcript that records times"}
	}
	return m.sessionMark(start, id)
}

// SessionMark is where a session's work not yet handed off begins.
type SessionMark struct {
	Start     time.Time // the session's start
	SessionID string    // the client's id of it; "" when unknown
	// HandedOff is the time of the session's last hand-off at or after
	// its start, to the second, as the ledger keeps it: the agent's own,
	// a manual one from anywhere, or an automatic one of the session's
	// (not another session's); zero when there is none. HandedOffAuto
	// says it was an automatic one.
	HandedOff     time.Time
	HandedOffAuto bool
	seen          int // the session's hand-offs at or after Start
}

// Since is where the session's work not yet handed off begins: the
// later of its start and its last hand-off.
func (k SessionMark) Since() time.Time {
	if k.HandedOff.After(k.Start) {
		return k.HandedOff
	}
	return k.Start
}

// workSince is where the work not yet handed off begins, to the second
// as the ledger keeps it: the second after the session's hand-off (see
// [Memory.scope]), or the second of its start.
func (k SessionMark) workSince() time.Time {
	if a := k.after(); !a.IsZero() {
		return a.Add(time.Second)
	}
	return k.Start.UTC().Truncate(time.Second)
}

// after is the time of the session's hand-off that its work not yet
// handed off follows; zero when that work is all it did. A hand-off of
// the start's own second (the ledger keeps seconds) may be from before
// the session: the work since the start is the session's all the same.
func (k SessionMark) after() time.Time {
	if k.HandedOff.After(k.Start) {
		return k.HandedOff
	}
	return time.Time{}
}

// noWork says why a session with no work since its mark is not handed
// off.
func (k SessionMark) noWork() string {
	if k.HandedOff.IsZero() {
		return "the session did no work (no file edited by the agent's tools, no decision recorded)"
	}
	return fmt.Sprintf("%s was written in this session already (%s), and no work was done after it; it is kept", handoffKind(k.HandedOffAuto), stamp(k.HandedOff))
}

// sessionMark finds the last hand-off of session id at or after start.
func (m *Memory) sessionMark(start time.Time, id string) (SessionMark, error) {
	k := SessionMark{Start: start, SessionID: sessionID(id)}
	es, err := store.SessionHandoffs(m.o.FS, m.root, start, k.SessionID)
	if err != nil {
		return k, err
	}
	if k.seen = len(es); k.seen > 0 {
		k.HandedOff, k.HandedOffAuto = es[k.seen-1].At, es[k.seen-1].Auto
	}
	return k, nil
}

// maxSessionID bounds the session id the ledger records.
const maxSessionID = 200

// sessionID is a client's session id as the ledger records it: one
// printable line, bounded, whatever the client sent.
func sessionID(id string) string {
	id = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return -1
		}
		return r
	}, strings.ToValidUTF8(id, "\uFFFD"))
	if len(id) > maxSessionID {
		id = strings.ToValidUTF8(id[:maxSessionID], "")
	}
	return strings.TrimSpace(id)
}

func handoffKind(auto bool) string {
	if auto {
		return "an automatic hand-off"
	}
	return "a hand-off"
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// didWork says whether a session did work: a tool's edit or a decision;
// without a transcript, a change git shows too.
func didWork(s *transcript.Summary, decisions int, changed tiers.List) bool {
	if decisions > 0 || s != nil && s.DidWork() {
		return true
	}
	return s == nil && len(changed.Items) > 0
}

// scope is what of a transcript is a session's work not yet handed off:
// what it recorded in its project, after its hand-off when it wrote one.
// Without one, all of it: a client's times are not always in order (a
// line may bear a time before the first line's).
func (m *Memory) scope(k SessionMark) transcript.Scope {
	since := k.after()
	if !since.IsZero() {
		// The ledger keeps the hand-off to the second, and the agent
		// wrote it after the lines of that second it covers: work after
		// it begins with the next second (the agent must read the
		// hand-off's result before it can work again).
		since = since.Add(time.Second)
	}
	// The memory's own files are never the agent's work: a linked
	// worktree's copy of the root's path neither.
	memory := []string{m.root}
	if _, treeRoot := m.sessionDir(); treeRoot != "" {
		memory = append(memory, treeRoot)
	}
	return transcript.Scope{Since: since, Project: m.projectDir, Memory: memory}
}

// projectDir is the directory of the project of a session in cwd: the
// top of the git work tree holding cwd, told by its .git (a directory,
// or a file in a linked work tree), else cwd.
func (m *Memory) projectDir(cwd string) string {
	for dir := cwd; ; {
		if _, err := m.o.FS.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return cwd
		}
		dir = up
	}
}

// readTranscript opens a transcript file and reads it with read, at most
// its head and tail when it is long (see [transcriptHead]): a warning
// says so when whole, a reading meant to go to its end.
func (m *Memory) readTranscript(name string, whole bool, read func(io.Reader) (*transcript.Summary, error)) (*transcript.Summary, error) {
	r, file, cut, err := m.openTranscript(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	s, err := read(r)
	if err != nil {
		return nil, fmt.Errorf("transcript %s: %w", name, err)
	}
	if cut && whole {
		m.warn(cutNote(name))
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

// decisionsSince counts the decision-log changes the ledger records since
// start: a session's, when no transcript tells which are.
func (m *Memory) decisionsSince(start time.Time) (int, error) {
	entries, _, err := store.ReadLedgerSince(m.o.FS, m.root, start.UTC().Truncate(time.Second))
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

// decisionsOf counts the decision-log changes the ledger records since
// the second of since that name session id as theirs: the decisions its
// commands and MCP tools made, which its transcript may not show yet
// (Claude Code writes its transcript behind the session).
func (m *Memory) decisionsOf(id string, since time.Time) (int, error) {
	if id == "" {
		return 0, nil
	}
	entries, _, err := store.ReadLedgerSince(m.o.FS, m.root, since.UTC().Truncate(time.Second))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if store.DecisionOps[e.Op] && e.Session == id {
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
func inSession(e store.Entry, start time.Time) bool {
	return store.DecisionOps[e.Op] && !e.At.Before(start)
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

// SessionWork is what the Stop hook needs to know of a running session:
// the work it did since its mark.
type SessionWork struct {
	SessionMark
	Edited string // a file the agent's tools edited; "" when none
	// Decisions is how many decisions the transcript shows the session
	// making; those the ledger records from elsewhere are not its work.
	Decisions int
}

// DidWork reports whether the session changed something.
func (w SessionWork) DidWork() bool { return w.Edited != "" || w.Decisions > 0 }

// SessionMark reads where the work of the session of a transcript that
// is not handed off begins: the transcript's opening for its start (and
// its id, when id is ""), the ledger for its last hand-off.
func (m *Memory) SessionMark(name string, f transcript.Format, id string) (SessionMark, error) {
	h, err := m.readTranscript(name, false, func(r io.Reader) (*transcript.Summary, error) {
		return transcript.Head(r, f, 0)
	})
	if err != nil {
		return SessionMark{}, err
	}
	if h.Start.IsZero() {
		return SessionMark{}, hinted{fmt.Errorf("transcript %s: %w: it records no time", name, ErrNoStart), ""}
	}
	if id == "" {
		id = h.SessionID
	}
	return m.sessionMark(h.Start, id)
}

// SessionWork reads, as little as it can, whether the session of a
// transcript did work since its mark: the transcript up to its first
// edit or decision since. It runs at the end of every turn.
func (m *Memory) SessionWork(name string, f transcript.Format, k SessionMark) (SessionWork, error) {
	w := SessionWork{SessionMark: k}
	s, err := m.readTranscript(name, true, func(r io.Reader) (*transcript.Summary, error) {
		return transcript.ReadWork(r, f, 0, m.scope(k))
	})
	if err != nil {
		return w, err
	}
	if len(s.Edits) > 0 {
		w.Edited = s.Edits[0].Path
	}
	w.Decisions = s.Decisions
	if !w.DidWork() {
		if w.Decisions, err = m.decisionsOf(k.SessionID, k.workSince()); err != nil {
			return w, err
		}
	}
	return w, nil
}

package wake_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
	"github.com/wakeproto/wake/transcript"
)

// claudeTurn is a turn of a Claude Code session id, at at: a prompt, a
// Write of file, and a message.
func claudeTurn(id string, at time.Time, prompt, file string) string {
	ts := func(d time.Duration) string { return at.Add(d).Format(time.RFC3339Nano) }
	return `{"type":"user","message":{"role":"user","content":"` + prompt + `"},"timestamp":"` + ts(0) + `","cwd":"/p","sessionId":"` + id + `"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"w` + file + `","name":"Write","input":{"file_path":"/p/` + file + `"}}]},"timestamp":"` + ts(time.Second) + `","sessionId":"` + id + `"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"w` + file + `","content":"ok"}]},"timestamp":"` + ts(2*time.Second) + `","sessionId":"` + id + `"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"wrote ` + file + `"}]},"timestamp":"` + ts(3*time.Second) + `","sessionId":"` + id + `"}
`
}

// TestAutoHandoffAfterHandoff: a session that went on working after the
// agent's own hand-off (the next turns of an interactive session, or a
// resumed one, whose transcript goes on) is handed off again, for the
// work after it alone; the agent's hand-off is rotated, not overwritten,
// and its next priority kept as an open thread. A session that did nothing after
// its hand-off is not.
func TestAutoHandoffAfterHandoff(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t) // 10:00, a hand-off at 09:00
	ctx := context.Background()
	t0 := now.Add(-30 * time.Minute)
	afero.WriteFile(fsys, "/t/s.jsonl", []byte(claudeTurn("s1", t0, "write a", "a.txt")), 0o644)
	// The agent hands off at 09:40.
	*now = t0.Add(10 * time.Minute)
	handedOff := *now
	in := handoff.Input{Session: tiers.Session{Summary: "Wrote a", NextPriority: "Write b"}}
	if _, err := m.Handoff(ctx, in, wake.BootFiles{NoSkill: true}); err != nil {
		t.Fatal(err)
	}
	*now = now.Add(5 * time.Minute)
	res, err := m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/s.jsonl"})
	if err != nil || res.Written != nil || !strings.Contains(res.Skipped, "no work was done after it") {
		t.Fatalf("no work after the agent's hand-off: %+v %v", res, err)
	}
	// The session goes on (resumed, or its next turn) and writes b.txt.
	f, _ := fsys.OpenFile("/t/s.jsonl", 1|1024, 0) // O_WRONLY|O_APPEND
	f.WriteString(claudeTurn("s1", handedOff.Add(10*time.Minute), "now write b", "b.txt"))
	f.Close()
	*now = now.Add(10 * time.Minute)
	res, err = m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/s.jsonl", Boot: wake.BootFiles{NoSkill: true}})
	if err != nil || res.Written == nil {
		t.Fatalf("work after the agent's hand-off: %+v %v", res, err)
	}
	latest := readMem(t, fsys, "/p/.wake/recent/latest.md")
	for _, want := range []string{
		"summary: 'Automatic hand-off of the work after the hand-off of 2026-11-22T09:40:00Z (the session ended without another): the agent''s tools edited 1 file (b.txt); the user asked: “now write b”'",
		"- The agent's tools edited: b.txt (Write)\n",
	} {
		if !strings.Contains(latest, want) {
			t.Errorf("latest.md lacks %q:\n%s", want, latest)
		}
	}
	if strings.Contains(latest, "a.txt") || strings.Contains(latest, "write a") {
		t.Errorf("latest.md holds the work before the hand-off:\n%s", latest)
	}
	if prev := readMem(t, fsys, "/p/.wake/recent/previous.md"); !strings.Contains(prev, "summary: Wrote a\n") {
		t.Errorf("previous.md is not the agent's hand-off:\n%s", prev)
	}
	if !strings.Contains(latest, "- The previous hand-off's next priority, which this session may or may not have taken up: “Write b”\n") {
		t.Errorf("latest.md does not keep the agent's next priority as an open thread:\n%s", latest)
	}
	if main := readMem(t, fsys, "/p/.wake/main.md"); !strings.Contains(main, "next_priority: Check this automatic hand-off against the work tree, then take up the user's last request: “now write b”\n") {
		t.Errorf("main.md's next priority is not the session's:\n%s", main)
	}
	// Its own automatic hand-off covers that work: once only.
	*now = now.Add(time.Minute)
	res, err = m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/s.jsonl"})
	if err != nil || res.Written != nil || !strings.Contains(res.Skipped, "an automatic hand-off was written in this session already") {
		t.Fatalf("again: %+v %v", res, err)
	}
}

// TestAutoHandoffOverlappingSessions: the automatic hand-off of one
// session neither hides another session's work from its Stop hook nor
// keeps it from its own automatic hand-off.
func TestAutoHandoffOverlappingSessions(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	ctx := context.Background()
	afero.WriteFile(fsys, "/t/a.jsonl", []byte(claudeTurn("A", now.Add(-20*time.Minute), "write a", "a.txt")), 0o644)
	afero.WriteFile(fsys, "/t/b.jsonl", []byte(claudeTurn("B", now.Add(-10*time.Minute), "write b", "b.txt")), 0o644)
	res, err := m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/a.jsonl"})
	if err != nil || res.Written == nil {
		t.Fatalf("A: %+v %v", res, err)
	}
	if w, err := sessionWork(m, "/t/b.jsonl", transcript.Claude); err != nil || !w.DidWork() || !w.HandedOff.IsZero() {
		t.Fatalf("B's Stop hook, after A's automatic hand-off: %+v %v", w, err)
	}
	*now = now.Add(time.Minute)
	res, err = m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/b.jsonl"})
	if err != nil || res.Written == nil {
		t.Fatalf("B, after A's automatic hand-off: %+v %v", res, err)
	}
	ledger := readMem(t, fsys, "/p/.wake/ledger.jsonl")
	if !strings.Contains(ledger, `"auto":true,"session":"A",`) || !strings.Contains(ledger, `"auto":true,"session":"B",`) {
		t.Errorf("the ledger lines do not name their sessions:\n%s", ledger)
	}
	// A's session is covered; a manual hand-off covers every session.
	*now = now.Add(time.Minute)
	if res, err = m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/a.jsonl"}); err != nil || res.Written != nil {
		t.Fatalf("A again: %+v %v", res, err)
	}
}

// TestStopAskedSince: the Stop hook's note of what it asked is by session
// and by where the work asked for began.
func TestStopAskedSince(t *testing.T) {
	t.Parallel()
	m, _, now := autoMemory(t)
	first, later := now.Add(-time.Hour), *now
	if m.StopAsked("s1", first) {
		t.Fatal("asked before any note")
	}
	if err := m.NoteStopAsked(context.Background(), "s\x001", first); err != nil {
		t.Fatal(err)
	}
	if !m.StopAsked("s1", first) || m.StopAsked("s1", later) || m.StopAsked("s2", first) {
		t.Error("asked for the wrong session or work")
	}
}

// TestOthersDecisionIsNotWork: a decision logged while a session ran, by
// someone else (a terminal, another session), is not the session's work:
// the session's decisions are those its transcript shows it making.
func TestOthersDecisionIsNotWork(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	ctx := context.Background()
	start := now.Add(-10 * time.Minute)
	talk := `{"type":"user","message":{"role":"user","content":"what is VAT?"},"timestamp":"` + start.Format(time.RFC3339) + `","cwd":"/p","sessionId":"t"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"A tax."}]},"timestamp":"` + start.Add(time.Second).Format(time.RFC3339) + `"}
`
	afero.WriteFile(fsys, "/t/talk.jsonl", []byte(talk), 0o644)
	if _, err := m.Decide(ctx, store.NewDecision{What: "Use cents", Why: "floats round"}); err != nil {
		t.Fatal(err)
	}
	if w, err := sessionWork(m, "/t/talk.jsonl", transcript.Claude); err != nil || w.DidWork() {
		t.Fatalf("another's decision is the session's work: %+v %v", w, err)
	}
	res, err := m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/talk.jsonl"})
	if err != nil || res.Written != nil || !strings.Contains(res.Skipped, "did no work") {
		t.Fatalf("AutoHandoff: %+v %v", res, err)
	}
	// The session's own wake decide is its work.
	own := talk + `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"d1","name":"Bash","input":{"command":"wake decide \"Round half up because the bank does\""}}]},"timestamp":"` + start.Add(2*time.Second).Format(time.RFC3339) + `"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"d1","content":"D-2"}]},"timestamp":"` + start.Add(3*time.Second).Format(time.RFC3339) + `"}
`
	afero.WriteFile(fsys, "/t/talk.jsonl", []byte(own), 0o644)
	if w, err := sessionWork(m, "/t/talk.jsonl", transcript.Claude); err != nil || w.Decisions != 1 {
		t.Fatalf("the session's own decision: %+v %v", w, err)
	}
	res, err = m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/talk.jsonl"})
	if err != nil || res.Written == nil || !strings.Contains(string(res.Written.Summary), "recorded 1 decision;") {
		t.Fatalf("AutoHandoff of the session's decision: %+v %v", res, err)
	}
}

// TestEditsOutsideProject: the files a session's tools edit outside its
// project (its working directory, or its git work tree's top) are not
// its work, and their paths stay out of the hand-off.
func TestEditsOutsideProject(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	ctx := context.Background()
	fsys.MkdirAll("/p/.git", 0o755)
	at := now.Add(-10 * time.Minute)
	plan := claudeTurn("s", at, "plan it", "x.md")
	plan = strings.ReplaceAll(plan, `"file_path":"/p/x.md"`, `"file_path":"/root/.claude/plans/x.md"`)
	plan = strings.ReplaceAll(plan, `"cwd":"/p"`, `"cwd":"/p/sub"`)
	afero.WriteFile(fsys, "/t/plan.jsonl", []byte(plan), 0o644)
	if w, err := sessionWork(m, "/t/plan.jsonl", transcript.Claude); err != nil || w.DidWork() {
		t.Fatalf("an edit outside the project is work: %+v %v", w, err)
	}
	res, err := m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/plan.jsonl"})
	if err != nil || res.Written != nil || !strings.Contains(res.Skipped, "did no work") {
		t.Fatalf("AutoHandoff: %+v %v", res, err)
	}
	// An edit at the git work tree's top, above the working directory, is.
	both := plan + claudeTurn("s", at.Add(time.Minute), "and the code", "top.go")
	afero.WriteFile(fsys, "/t/plan.jsonl", []byte(both), 0o644)
	if w, err := sessionWork(m, "/t/plan.jsonl", transcript.Claude); err != nil || w.Edited != "top.go" {
		t.Fatalf("an edit in the git work tree: %+v %v", w, err)
	}
	res, err = m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/plan.jsonl"})
	if err != nil || res.Written == nil {
		t.Fatalf("AutoHandoff: %+v %v", res, err)
	}
	latest := readMem(t, fsys, "/p/.wake/recent/latest.md")
	if strings.Contains(latest, "/root") || strings.Contains(latest, "x.md") {
		t.Errorf("latest.md names the file outside the project:\n%s", latest)
	}
	for _, want := range []string{"tools edited 1 file (top.go)", "- The agent's tools also edited 1 file outside the project, not listed.\n"} {
		if !strings.Contains(latest, want) {
			t.Errorf("latest.md lacks %q:\n%s", want, latest)
		}
	}
}

// TestAutoHandoffSameSecond: a hand-off of the session's first second (the
// ledger keeps seconds) may be from before the session: the session's
// work since its start is handed off, as that of a session without one.
func TestAutoHandoffSameSecond(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t) // a hand-off at 09:00:00
	start := now.Add(-time.Hour + 500*time.Millisecond)
	afero.WriteFile(fsys, "/t/s.jsonl", []byte(claudeTurn("s", start, "write a", "a.txt")), 0o644)
	if w, err := sessionWork(m, "/t/s.jsonl", transcript.Claude); err != nil || !w.DidWork() || !w.Since().Equal(start) {
		t.Fatalf("%+v %v", w, err)
	}
	res, err := m.AutoHandoff(context.Background(), wake.AutoOptions{Transcript: "/t/s.jsonl"})
	if err != nil || res.Written == nil || !strings.Contains(string(res.Written.Summary), "summary: '"+handoff.AutoPrefix) {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestTimesOutOfOrder: Claude Code stamps some lines with a time before
// the first line's (its attachments, as 2.1.330 writes them): without a
// hand-off, the whole transcript is the session's work.
func TestTimesOutOfOrder(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	start := now.Add(-10 * time.Minute)
	tr := `{"type":"queue-operation","operation":"enqueue","timestamp":"` + start.Format(time.RFC3339Nano) + `","sessionId":"s"}
` + claudeTurn("s", start.Add(-2*time.Second), "write a", "a.txt")
	afero.WriteFile(fsys, "/t/s.jsonl", []byte(tr), 0o644)
	if w, err := sessionWork(m, "/t/s.jsonl", transcript.Claude); err != nil || w.Edited != "a.txt" {
		t.Fatalf("%+v %v", w, err)
	}
	res, err := m.AutoHandoff(context.Background(), wake.AutoOptions{Transcript: "/t/s.jsonl"})
	if err != nil || res.Written == nil {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestAutoHandoffOddSessionID: a client's session id that is not one
// printable line is recorded as one, and still tells the session's own
// hand-off.
func TestAutoHandoffOddSessionID(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	afero.WriteFile(fsys, "/t/s.jsonl", []byte(claudeTurn("s", now.Add(-10*time.Minute), "write a", "a.txt")), 0o644)
	id := "s\n1\x00\u2028" + strings.Repeat("x", 300)
	res, err := m.AutoHandoff(context.Background(), wake.AutoOptions{Transcript: "/t/s.jsonl", SessionID: id})
	if err != nil || res.Written == nil {
		t.Fatalf("%+v %v", res, err)
	}
	if !strings.Contains(readMem(t, fsys, "/p/.wake/ledger.jsonl"), `"session":"s1xxx`) {
		t.Errorf("ledger:\n%s", readMem(t, fsys, "/p/.wake/ledger.jsonl"))
	}
	*now = now.Add(time.Minute)
	if res, err = m.AutoHandoff(context.Background(), wake.AutoOptions{Transcript: "/t/s.jsonl", SessionID: id}); err != nil || res.Written != nil {
		t.Fatalf("again: %+v %v", res, err)
	}
}

// TestHandoffCoversItsOwnSecond: an edit in the same second as the
// agent's hand-off, just before it, is the hand-off's: the ledger keeps
// seconds, and the work after a hand-off begins with the next one.
func TestHandoffCoversItsOwnSecond(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	ctx := context.Background()
	// The prompt at :00.1, the Write at :01.1, the hand-off at :01.9.
	t0 := now.Add(-30 * time.Minute).Truncate(time.Second).Add(100 * time.Millisecond)
	afero.WriteFile(fsys, "/t/s.jsonl", []byte(claudeTurn("s1", t0, "write a", "a.txt")), 0o644)
	*now = t0.Add(time.Second + 800*time.Millisecond)
	in := handoff.Input{Session: tiers.Session{Summary: "Wrote a", NextPriority: "Write b"}}
	if _, err := m.Handoff(ctx, in, wake.BootFiles{NoSkill: true}); err != nil {
		t.Fatal(err)
	}
	*now = now.Add(5 * time.Minute)
	if w, err := m.SessionWork("/t/s.jsonl", transcript.Claude, mustMark(t, m, "/t/s.jsonl")); err != nil || w.DidWork() {
		t.Fatalf("the hand-off's own second counted as work after it: %+v %v", w, err)
	}
	res, err := m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/s.jsonl"})
	if err != nil || res.Written != nil {
		t.Fatalf("an automatic hand-off replaced the agent's for work it covered: %+v %v", res, err)
	}
}

func mustMark(t *testing.T, m *wake.Memory, name string) wake.SessionMark {
	t.Helper()
	k, err := m.SessionMark(name, transcript.Claude, "s1")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestManualHandoffOfOneSessionIsNotAnothers: with two sessions on one
// root, the manual hand-off one makes (its client naming the session in
// the environment, as Claude Code and Codex do for their shell commands)
// counts for that session only: the other's Stop hook still asks for its
// hand-off and its SessionEnd still writes one (DESIGN section 12).
func TestManualHandoffOfOneSessionIsNotAnothers(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	ctx := context.Background()
	afero.WriteFile(fsys, "/t/a.jsonl", []byte(claudeTurn("A", now.Add(-20*time.Minute), "write a", "a.txt")), 0o644)
	afero.WriteFile(fsys, "/t/b.jsonl", []byte(claudeTurn("B", now.Add(-10*time.Minute), "write b", "b.txt")), 0o644)
	// Session A's agent runs `wake handoff` in its shell.
	ma, err := wake.Open("/p/.wake", wake.Options{FS: fsys, Env: map[string]string{"CLAUDE_CODE_SESSION_ID": "A"},
		Now: func() time.Time { return *now }, Locker: &memlock.Locker{}})
	if err != nil {
		t.Fatal(err)
	}
	in := handoff.Input{Session: tiers.Session{Summary: "A wrote a", NextPriority: "review a"}}
	if _, err := ma.Handoff(ctx, in, wake.BootFiles{NoSkill: true}); err != nil {
		t.Fatal(err)
	}
	if ledger := readMem(t, fsys, "/p/.wake/ledger.jsonl"); !strings.Contains(ledger, `"summary":"A wrote a","session":"A",`) {
		t.Fatalf("the manual hand-off does not name its session:\n%s", ledger)
	}
	if w, err := sessionWork(m, "/t/b.jsonl", transcript.Claude); err != nil || !w.DidWork() || !w.HandedOff.IsZero() {
		t.Fatalf("B's Stop hook, after A's manual hand-off: %+v %v", w, err)
	}
	if w, err := sessionWork(m, "/t/a.jsonl", transcript.Claude); err != nil || w.HandedOff.IsZero() {
		t.Fatalf("A's Stop hook, after its own hand-off: %+v %v", w, err)
	}
	*now = now.Add(time.Minute)
	res, err := m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/b.jsonl"})
	if err != nil || res.Written == nil {
		t.Fatalf("B's SessionEnd, after A's manual hand-off: %+v %v", res, err)
	}
	if res, err = m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/a.jsonl"}); err != nil || res.Written != nil {
		t.Fatalf("A's SessionEnd, after its own hand-off: %+v %v", res, err)
	}
}

// TestEightParallelSessions: eight sessions on one root hand off at once,
// each from its own client session (DESIGN section 12): none is lost,
// the next start shows each one's summary, next priority and risk, and
// each session's Stop hook sees its own hand-off and no other's.
func TestEightParallelSessions(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	ctx := context.Background()
	const n = 8
	locker := &memlock.Locker{}
	at := *now
	for i := range n {
		id := fmt.Sprintf("s%d", i)
		afero.WriteFile(fsys, "/t/"+id+".jsonl", []byte(claudeTurn(id, at.Add(-time.Duration(20-i)*time.Minute), "work "+id, id+".txt")), 0o644)
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("s%d", i)
			ms, err := wake.Open("/p/.wake", wake.Options{FS: fsys, Env: map[string]string{"CLAUDE_CODE_SESSION_ID": id},
				Now: func() time.Time { return at.Add(time.Duration(i) * time.Second) }, Locker: locker})
			if err != nil {
				errs <- err
				return
			}
			in := handoff.Input{Session: tiers.Session{Summary: "Session " + id + " did its part", NextPriority: "next of " + id, OpenRisk: "risk of " + id}}
			_, err = ms.Handoff(ctx, in, wake.BootFiles{NoSkill: true})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	*now = at.Add(time.Minute)
	_, text, err := m.BootContext(false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		id := fmt.Sprintf("s%d", i)
		for _, want := range []string{"Session " + id + " did its part. Next: next of " + id + ". Risk: risk of " + id + ".", "risk of " + id} {
			if !strings.Contains(text, want) {
				t.Errorf("the next start does not show %q", want)
			}
		}
		w, err := sessionWork(m, "/t/"+id+".jsonl", transcript.Claude)
		if err != nil || w.HandedOff.IsZero() || !w.HandedOff.Equal(at.Add(time.Duration(i)*time.Second)) {
			t.Errorf("%s's Stop hook: handed off %v (%v), want its own hand-off at %v", id, w.HandedOff, err, at.Add(time.Duration(i)*time.Second))
		}
	}
}

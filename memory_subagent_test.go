package wake_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/capsule"
	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/store"
)

// subagents reads the registry, failing on a bad line.
func subagents(t *testing.T, fsys afero.Fs) []store.SubagentRecord {
	t.Helper()
	rs, bad, err := store.ReadSubagents(fsys, "/demo")
	if err != nil || len(bad) > 0 {
		t.Fatalf("reading subagents.jsonl: %v %v", err, bad)
	}
	return rs
}

// lastEntry is the ledger's last line.
func lastEntry(t *testing.T, fsys afero.Fs) store.Entry {
	t.Helper()
	es, _, err := store.ReadLedger(fsys, "/demo")
	if err != nil || len(es) == 0 {
		t.Fatalf("ledger: %d entries, %v", len(es), err)
	}
	return es[len(es)-1]
}

// TestSubagentStartBuildsThenReuses: with no capsule of the branch the
// hook builds one and gives it, wrapped in the consumption prompt, within
// the default 4 KiB; the registry and the ledger name it and the agent.
// The next subagent gets the same capsule while the memory is unchanged,
// and a new one once it changed.
func TestSubagentStartBuildsThenReuses(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "", &now)
	ctx := context.Background()
	in := wake.SubagentStartInput{Client: "claude", AgentID: "a1b2c3", AgentType: "general-purpose", Session: "sess-1"}
	inj, err := m.SubagentStart(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if !inj.Built || inj.Limit != 4096 || inj.Capsule.ID != "no-branch/"+now.UTC().Format(capsule.StampLayout) {
		t.Fatalf("built %v, limit %d, capsule %q", inj.Built, inj.Limit, inj.Capsule.ID)
	}
	stored, err := afero.ReadFile(fsys, "/demo/"+inj.Capsule.Path)
	if err != nil {
		t.Fatalf("the capsule built was not stored: %v", err)
	}
	c, err := capsule.Parse(stored)
	if err != nil {
		t.Fatal(err)
	}
	mission := c.Section(capsule.MissionSnapshot)
	if mission == "" || c.Front.SourceSession != "sess-1" {
		t.Fatalf("capsule: mission %q, source_session %q", mission, c.Front.SourceSession)
	}
	text := inj.Text
	for _, want := range []string{"## Context Capsule\n", "Capsule " + inj.Capsule.ID + " (/demo/" + inj.Capsule.Path + ")",
		"### " + capsule.MissionSnapshot + "\n\n" + mission, "Treat this capsule as authoritative for current context", "Capsule gap"} {
		if !strings.Contains(text, want) {
			t.Errorf("the injection lacks %q:\n%s", want, text)
		}
	}
	if len(text) > 4096 || !strings.HasSuffix(text, "stays accurate. The main session hands off, not you: do not run `wake handoff`.\n") {
		t.Errorf("%d bytes, or the consumption prompt is not last:\n%s", len(text), text)
	}
	rs := subagents(t, fsys)
	want := store.SubagentRecord{At: now.UTC(), Capsule: inj.Capsule.ID, AgentID: "a1b2c3", AgentType: "general-purpose",
		Client: "claude", Session: "sess-1", Bytes: len(text), Cut: inj.Cut}
	if len(rs) != 1 || rs[0] != want {
		t.Fatalf("registry %+v, want %+v", rs, want)
	}
	e := lastEntry(t, fsys)
	if e.Op != "subagent" || len(e.Paths) != 1 || e.Paths[0] != "subagents.jsonl" ||
		!strings.Contains(e.ChangeSummary, "capsule "+inj.Capsule.ID+" given to subagent general-purpose (agent a1b2c3, claude)") {
		t.Fatalf("ledger line %+v", e)
	}

	// Unchanged memory: the same capsule, nothing built.
	now = now.Add(time.Minute)
	again, err := m.SubagentStart(ctx, wake.SubagentStartInput{Client: "codex", AgentID: "x9", AgentType: "worker"})
	if err != nil {
		t.Fatal(err)
	}
	if again.Built || again.Capsule.ID != inj.Capsule.ID || again.Text != text {
		t.Fatalf("second subagent: built %v, capsule %q (first %q)", again.Built, again.Capsule.ID, inj.Capsule.ID)
	}
	if rs := subagents(t, fsys); len(rs) != 2 || rs[1].Client != "codex" || rs[1].AgentType != "worker" {
		t.Fatalf("registry %+v", rs)
	}

	// A reminder changes the memory: a new capsule, which takes it in.
	now = now.Add(time.Minute)
	if _, err := m.Remember(ctx, store.NewReminder{Text: "Ask about the bakery's VAT rules"}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	third, err := m.SubagentStart(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if !third.Built || third.Capsule.ID == inj.Capsule.ID || !strings.Contains(third.Text, "VAT rules") {
		t.Fatalf("after a change: built %v, capsule %q:\n%s", third.Built, third.Capsule.ID, third.Text)
	}
}

// TestSubagentStartLimits: [capsule.agents] sets a type's limit; 0 gives
// nothing and records nothing; a small limit cuts the capsule's lines
// from the bottom, keeping the wrapper and saying where the whole is; a
// limit too small for the wrapper gives a pointer to the file.
func TestSubagentStartLimits(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "\n[capsule]\nhook_bytes = 4096\n\n[capsule.agents]\nExplore = 0\nPlan = 1200\nTiny = 150\n", &now)
	ctx := context.Background()
	ledgerBefore, _, _ := store.ReadLedger(fsys, "/demo")
	none, err := m.SubagentStart(ctx, wake.SubagentStartInput{Client: "claude", AgentID: "e1", AgentType: "Explore"})
	if err != nil || none.Text != "" || none.Limit != 0 {
		t.Fatalf("Explore: %q, limit %d, %v", none.Text, none.Limit, err)
	}
	if _, err := fsys.Stat("/demo/subagents.jsonl"); !os.IsNotExist(err) {
		t.Errorf("an agent type given nothing was recorded: %v", err)
	}
	if es, _, _ := store.ReadLedger(fsys, "/demo"); len(es) != len(ledgerBefore) {
		t.Errorf("an agent type given nothing left a ledger line: %+v", es[len(es)-1])
	}
	whole, err := m.SubagentStart(ctx, wake.SubagentStartInput{Client: "claude", AgentID: "g1", AgentType: "general-purpose"})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := m.SubagentStart(ctx, wake.SubagentStartInput{Client: "claude", AgentID: "p1", AgentType: "Plan"})
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Text) <= 1200 {
		t.Fatalf("the whole injection is %d bytes: too small to test a cut", len(whole.Text))
	}
	if len(plan.Text) > 1200 || plan.Cut == 0 || len(plan.Cuts) == 0 || plan.Capsule.ID != whole.Capsule.ID {
		t.Fatalf("Plan: %d bytes, %d lines cut (%d recorded), capsule %q", len(plan.Text), plan.Cut, len(plan.Cuts), plan.Capsule.ID)
	}
	// What is kept is the head of the whole: the cut is bottom-up.
	head, _, _ := strings.Cut(plan.Text, "\n_(")
	if !strings.HasPrefix(whole.Text, head) || !strings.Contains(head, "### "+capsule.MissionSnapshot) {
		t.Errorf("Plan's capsule is not the head of the whole one:\n%s", plan.Text)
	}
	for _, want := range []string{"left out to fit 1,200 bytes: the whole capsule is /demo/" + plan.Capsule.Path, "Treat this capsule as authoritative"} {
		if !strings.Contains(plan.Text, want) {
			t.Errorf("Plan's injection lacks %q:\n%s", want, plan.Text)
		}
	}
	tiny, err := m.SubagentStart(ctx, wake.SubagentStartInput{Client: "codex", AgentID: "t1", AgentType: "tiny"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tiny.Text) > 150 || !strings.HasPrefix(tiny.Text, "Context capsule "+whole.Capsule.ID+": read /demo/") {
		t.Fatalf("tiny (matched ignoring case): %d bytes: %q", len(tiny.Text), tiny.Text)
	}
	rs := subagents(t, fsys)
	if len(rs) != 3 || rs[1].AgentType != "Plan" || rs[1].Cut != plan.Cut || rs[1].Bytes != len(plan.Text) || rs[0].Cut != 0 {
		t.Fatalf("registry %+v", rs)
	}
}

// TestSubagentStartReuseCountsNoTokens: giving the newest capsule again
// while nothing changed never builds the tokenizer.
func TestSubagentStartReuseCountsNoTokens(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "", &now)
	ctx := context.Background()
	if _, err := m.SubagentStart(ctx, wake.SubagentStartInput{Client: "claude", AgentID: "a", AgentType: "general-purpose"}); err != nil {
		t.Fatal(err)
	}
	enc, err := budget.NewEncoder(demo.Encoder(t).Name())
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home", "PATH": os.Getenv("PATH")}, Now: func() time.Time { return now },
		Locker: &memlock.Locker{}, Encoder: func(string) (*budget.Encoder, error) { return enc, nil }}
	m2, err := wake.Open("/demo", o)
	if err != nil {
		t.Fatal(err)
	}
	inj, err := m2.SubagentStart(ctx, wake.SubagentStartInput{Client: "claude", AgentID: "b", AgentType: "general-purpose"})
	if err != nil || inj.Built {
		t.Fatalf("built %v: %v", inj.Built, err)
	}
	if enc.Built() {
		t.Error("reusing the newest capsule built the tokenizer")
	}
}

// TestSubagentStartRegistryError: a registry wake cannot append to is an
// error naming it, and the ledger gets no line.
func TestSubagentStartRegistryError(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "", &now)
	if err := fsys.MkdirAll("/demo/subagents.jsonl", 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := m.SubagentStart(context.Background(), wake.SubagentStartInput{Client: "claude", AgentID: "a", AgentType: "general-purpose"})
	if err == nil || !strings.Contains(err.Error(), "subagents.jsonl") {
		t.Fatalf("got %v, want an error naming subagents.jsonl", err)
	}
	if e := lastEntry(t, fsys); e.Op == "subagent" {
		t.Fatalf("a failed injection left a ledger line: %+v", e)
	}
}

// TestSubagentStartHandWrittenCapsule: a capsule an agent wrote (no
// ledger line of wake's) is given while no ledger line is newer than its
// created_at, and replaced by a built one once the memory changed.
func TestSubagentStartHandWrittenCapsule(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "", &now)
	ctx := context.Background()
	c := capsule.New(capsule.FrontMatter{Branch: "no-branch", SourceSession: "s-hand", CreatedAt: now.Add(-time.Hour),
		PrimaryObjective: "Audit the October report", TokenBudget: 1200, Version: capsule.Version})
	c.Set(capsule.MissionSnapshot, "- Written by the agent itself (hand-marker-91c2).")
	id := capsule.ID("no-branch", capsule.Stamp(now.Add(-time.Hour), 1))
	write(t, fsys, "/demo/"+capsule.PathOf(id), string(capsule.Render(c)))
	in := wake.SubagentStartInput{Client: "claude", AgentID: "h1", AgentType: "general-purpose"}
	inj, err := m.SubagentStart(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if inj.Built || inj.Capsule.ID != id || !strings.Contains(inj.Text, "hand-marker-91c2") {
		t.Fatalf("built %v, capsule %q:\n%s", inj.Built, inj.Capsule.ID, inj.Text)
	}
	if _, err := m.Remember(ctx, store.NewReminder{Text: "Check the till rolls"}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	after, err := m.SubagentStart(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if !after.Built || after.Capsule.ID == id || strings.Contains(after.Text, "hand-marker-91c2") {
		t.Fatalf("after a change: built %v, capsule %q", after.Built, after.Capsule.ID)
	}
}

// TestSubagentStartSeesHandEdits: a decision added to warm/decisions.md by
// hand after the branch's newest capsule was built is a change of the
// memory, as a session start would record it: the next subagent gets a
// capsule built anew, with the decision, not the stale one.
func TestSubagentStartSeesHandEdits(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "", &now)
	ctx := context.Background()
	if _, err := m.Start(ctx, wake.BootFiles{NoSkill: true}); err != nil {
		t.Fatal(err)
	}
	in := wake.SubagentStartInput{Client: "claude", AgentID: "a1", AgentType: "general-purpose"}
	first, err := m.SubagentStart(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	log, err := afero.ReadFile(fsys, "/demo/warm/decisions.md")
	if err != nil {
		t.Fatal(err)
	}
	write(t, fsys, "/demo/warm/decisions.md", string(log)+"\n[2026-11-22] DECISION: Knead the rye dough by hand BECAUSE: the mixer tears it\nSTATUS: active\n")
	now = now.Add(time.Minute)
	second, err := m.SubagentStart(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if !second.Built || second.Capsule.ID == first.Capsule.ID || !strings.Contains(second.Text, "Knead the rye dough") {
		t.Fatalf("after a hand edit: built %v, capsule %q (first %q):\n%s", second.Built, second.Capsule.ID, first.Capsule.ID, second.Text)
	}
}

// TestSubagentStartBoundsNames: whatever the hook's input held, the
// agent's id, type and session reach the registry, the ledger and the
// capsule as one printable line of at most 160 characters.
func TestSubagentStartBoundsNames(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "", &now)
	huge := strings.Repeat("x", 1<<20)
	in := wake.SubagentStartInput{Client: "claude", AgentID: "id\n" + huge, AgentType: "general-purpose\x1b[2J", Session: huge}
	inj, err := m.SubagentStart(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	rs := subagents(t, fsys)
	if len(rs) != 1 {
		t.Fatalf("%d registry lines", len(rs))
	}
	for name, v := range map[string]string{"agent_id": rs[0].AgentID, "agent_type": rs[0].AgentType, "session": rs[0].Session, "source_session": inj.Capsule.Capsule.Front.SourceSession} {
		if len([]rune(v)) > 160 || strings.ContainsAny(v, "\n\x1b") {
			t.Errorf("%s is %d characters or holds a control character: %.40q", name, len([]rune(v)), v)
		}
	}
	if e := lastEntry(t, fsys); len(e.ChangeSummary) > 1000 {
		t.Errorf("the ledger line's summary is %d bytes", len(e.ChangeSummary))
	}
}

// TestSubagentStartTranscriptNotYetWritten: Claude Code names the main
// session's transcript before it has written it when the session's first
// request spawns the subagent; the subagent still gets its capsule, without
// highlights, and the injection is recorded. Asked for by hand, the missing
// transcript is still an error.
func TestSubagentStartTranscriptNotYetWritten(t *testing.T) {
	now := capsuleClock
	fsys, m, notes := capsuleRoot(t, "", &now)
	ctx := context.Background()
	missing := "/home/ava/.claude/projects/p/not-yet.jsonl"
	inj, err := m.SubagentStart(ctx, wake.SubagentStartInput{Client: "claude", AgentID: "a1", AgentType: "general-purpose", Session: "s1", Transcript: missing})
	if err != nil || !inj.Built || !strings.Contains(inj.Text, "## Context Capsule") {
		t.Fatalf("no capsule for a transcript not yet written: %v (%+v)", err, inj)
	}
	if rs := subagents(t, fsys); len(rs) != 1 {
		t.Fatalf("%d registry lines", len(rs))
	}
	warned := false
	for _, n := range *notes {
		warned = warned || strings.Contains(n.Msg, "no transcript highlights")
	}
	if !warned {
		t.Errorf("no warning: %+v", *notes)
	}
	if _, err := m.Capsule(ctx, wake.CapsuleOptions{Transcript: missing}); err == nil {
		t.Error("wake capsule --transcript of a missing file is not an error")
	}
}

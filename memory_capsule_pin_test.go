package wake_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/store"
)

// TestSubagentStartGivesThePinnedCapsule: a capsule pinned to the branch
// (by id or path) is what a subagent gets, though a newer one exists and
// the memory changed since; the registry records the pin and marks the
// injection pinned; after an unpin the branch's newest is given again. A
// pin's own lines are not injections, and a ref that is no capsule is an
// error.
func TestSubagentStartGivesThePinnedCapsule(t *testing.T) {
	now := capsuleClock
	fsys, m, notes := capsuleRoot(t, "", &now)
	ctx := context.Background()
	old, err := m.Capsule(ctx, wake.CapsuleOptions{Objective: "PINNED-OBJECTIVE"})
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Hour)
	_, err = m.Capsule(ctx, wake.CapsuleOptions{Objective: "NEWER-OBJECTIVE"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.PinCapsule(ctx, "main/20200101T000000Z", ""); !errors.As(err, new(*wake.CapsulePinError)) {
		t.Fatalf("pinning a capsule that is not there: %v, want a *CapsulePinError", err)
	}
	for _, ref := range []string{old.ID, "/demo/" + old.Path} {
		f, p, err := m.PinCapsule(ctx, ref, "")
		if err != nil || f.ID != old.ID || p.ID != old.ID || p.Branch != "no-branch" {
			t.Fatalf("PinCapsule(%q) = %+v, %+v, %v", ref, f.ID, p, err)
		}
	}
	if e := lastEntry(t, fsys); e.Op != store.OpCapsulePin || !strings.Contains(e.ChangeSummary, old.ID) {
		t.Errorf("ledger line %+v", e)
	}
	// The memory changes after both: a pinned capsule is given as it is.
	now = now.Add(time.Hour)
	if _, err := m.Remember(ctx, store.NewReminder{Text: "a change after the pin"}); err != nil {
		t.Fatal(err)
	}
	inj, err := m.SubagentStart(ctx, wake.SubagentStartInput{Client: "claude", AgentID: "p1", AgentType: "general-purpose"})
	if err != nil {
		t.Fatal(err)
	}
	if !inj.Pinned || inj.Built || inj.Capsule.ID != old.ID || !strings.Contains(inj.Text, "PINNED-OBJECTIVE") {
		t.Fatalf("pinned %v, built %v, capsule %s (want %s):\n%s", inj.Pinned, inj.Built, inj.Capsule.ID, old.ID, inj.Text)
	}
	rs := subagents(t, fsys)
	if len(rs) != 1 || rs[0].Capsule != old.ID || !rs[0].Pinned {
		t.Fatalf("registry injections %+v, want one, pinned, of %s", rs, old.ID)
	}
	if pins, err := store.ReadCapsulePins(fsys, "/demo"); err != nil || len(pins) != 2 {
		t.Fatalf("registry pins %+v, %v", pins, err)
	}
	// Unpinned: the newest again (rebuilt, since the memory changed).
	now = now.Add(time.Hour)
	if p, err := m.UnpinCapsule(ctx, ""); err != nil || p.ID != old.ID {
		t.Fatalf("UnpinCapsule = %+v, %v", p, err)
	}
	if p, _ := m.PinnedCapsule(ctx, ""); p.ID != "" {
		t.Fatalf("still pinned after the unpin: %+v", p)
	}
	inj, err = m.SubagentStart(ctx, wake.SubagentStartInput{Client: "claude", AgentID: "p2", AgentType: "general-purpose"})
	if err != nil || inj.Pinned || inj.Capsule.ID == old.ID {
		t.Fatalf("after unpinning: pinned %v, capsule %s, %v", inj.Pinned, inj.Capsule.ID, err)
	}
	// A pin whose capsule is gone falls back to the newest, with a warning.
	if _, _, err := m.PinCapsule(ctx, old.ID, ""); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Remove("/demo/" + old.Path); err != nil {
		t.Fatal(err)
	}
	*notes = nil
	inj, err = m.SubagentStart(ctx, wake.SubagentStartInput{Client: "claude", AgentID: "p3", AgentType: "general-purpose"})
	if err != nil || inj.Pinned || inj.Capsule.ID == old.ID {
		t.Fatalf("a pin whose capsule is gone: pinned %v, capsule %s, %v", inj.Pinned, inj.Capsule.ID, err)
	}
	warned := false
	for _, n := range *notes {
		warned = warned || strings.Contains(n.Msg, "pinned to branch no-branch cannot be given")
	}
	if !warned {
		t.Errorf("no warning that the pinned capsule is gone: %+v", *notes)
	}
}

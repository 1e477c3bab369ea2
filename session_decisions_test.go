package wake_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// TestHandoffDecisionsOfParallelSessions: two sessions run side by side
// and hand off by hand. The later hand-off's "Decisions made" lists what
// its own session decided, though that came before the other session's
// hand-off, and what a terminal decided since that hand-off; not what the
// other session decided.
func TestHandoffDecisionsOfParallelSessions(t *testing.T) {
	t.Parallel()
	_, fsys, now := autoMemory(t) // 10:00; a hand-off at 09:00
	ctx := context.Background()
	at := *now
	open := func(session string) *wake.Memory {
		env := map[string]string{}
		if session != "" {
			env["CLAUDE_CODE_SESSION_ID"] = session
		}
		m, err := wake.Open("/p/.wake", wake.Options{FS: fsys, Env: env, Now: func() time.Time { return at }, Locker: &memlock.Locker{}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	decide := func(session, what string) {
		t.Helper()
		if _, err := open(session).Decide(ctx, store.NewDecision{What: what, Why: "it is simpler"}); err != nil {
			t.Fatal(err)
		}
		at = at.Add(5 * time.Minute)
	}
	handoffBy := func(session, summary string) {
		t.Helper()
		in := handoff.Input{Session: tiers.Session{Summary: summary, NextPriority: "Go on"}}
		if _, err := open(session).Handoff(ctx, in, wake.BootFiles{NoSkill: true}); err != nil {
			t.Fatal(err)
		}
		at = at.Add(5 * time.Minute)
	}
	decide("s1", "Bake at dawn")
	decide("s2", "Sell rye on Mondays")
	handoffBy("s2", "The rye plan")
	decide("", "Close on Sundays") // from a terminal
	handoffBy("s1", "The baking plan")
	latest, err := afero.ReadFile(fsys, "/p/.wake/recent/latest.md")
	if err != nil {
		t.Fatal(err)
	}
	made := string(latest)
	if i := strings.Index(made, "## Decisions made"); i >= 0 {
		made = made[i:]
		if j := strings.Index(made[3:], "\n## "); j >= 0 {
			made = made[:j+3]
		}
	}
	for _, want := range []string{"Bake at dawn", "Close on Sundays"} {
		if !strings.Contains(made, want) {
			t.Errorf("the hand-off's decisions lack %q:\n%s", want, made)
		}
	}
	if strings.Contains(made, "Sell rye") {
		t.Errorf("the hand-off lists the other session's decision:\n%s", made)
	}
}

package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// TestHandoffPassesTheContinuityCheck runs the checks of the checks package
// on a root right after `wake init` and its first hand-off: continuity and
// task awareness pass on what the hand-off wrote, decision consistency
// holds with the decision it appended, and nothing is stale.
func TestHandoffPassesTheContinuityCheck(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	now := time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC)
	s := &store.Store{FS: fs, Root: "/p/.wake", Now: func() time.Time { return now }, Locker: &memlock.Locker{}, Writer: "wtest"}
	if _, err := store.Init(context.Background(), s, skeleton.Params{Project: "p"}); err != nil {
		t.Fatal(err)
	}
	opts := checks.Options{StaleAfter: time.Hour, Now: func() time.Time { return now.Add(time.Minute) }}
	m, err := checks.ReadMemory(fs, s.Root)
	if err != nil {
		t.Fatal(err)
	}
	// Before any hand-off continuity passes only as a first wake.
	if r := checks.Run(m, opts); !r.FirstWake {
		t.Fatal("not a first wake before any hand-off; the test proves nothing")
	}
	in := store.SessionWrite{
		Session:   tiers.Session{Summary: "Built the loader", NextPriority: "Port the flags", Happened: tiers.List{Items: []string{"wrote it"}}},
		Decisions: []store.NewDecision{{What: "Use TOML", Why: "YAML broke"}},
	}
	if _, err := store.WriteSession(context.Background(), s, in); err != nil {
		t.Fatal(err)
	}
	if m, err = checks.ReadMemory(fs, s.Root); err != nil {
		t.Fatal(err)
	}
	r := checks.Run(m, opts)
	for _, c := range []string{checks.Continuity, checks.Tasks, checks.Consistency} {
		if !passed(r, c) {
			t.Errorf("check %s failed: %+v", c, r.Findings)
		}
	}
	for _, f := range r.Findings {
		if f.Check == checks.Continuity && (f.Severity != checks.OK || f.Message != "last session: Built the loader") {
			t.Errorf("continuity finding %+v", f)
		}
	}
	if r.LastSession != "Built the loader" || r.Focus != "Port the flags" || r.FirstWake {
		t.Fatalf("report %+v", r)
	}
}

// passed reports whether the named check of r passed (warnings allowed).
func passed(r checks.Report, check string) bool {
	for _, f := range r.Findings {
		if f.Check == check && !f.Pass {
			return false
		}
	}
	return true
}

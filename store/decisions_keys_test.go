package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/tiers"
)

// TestBranchesNeverShareIDs is the collision test of issue 25: two clones
// (two writer ids) adding 1,000 decisions each, on the same day and with
// the same texts, give no ID in common. With the IDs older wakes gave,
// every one of them would be shared.
func TestBranchesNeverShareIDs(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC)
	branch := func(writer string) []string {
		s := &Store{FS: afero.NewMemMapFs(), Root: testRoot, Now: func() time.Time { return at }, Locker: &memlock.Locker{}, Writer: writer}
		ds := make([]NewDecision, 1000)
		for i := range ds {
			ds[i] = NewDecision{What: fmt.Sprintf("Use option %d", i%100), Why: "it fits"}
		}
		if err := s.AppendDecisionsLocked(ds); err != nil {
			t.Fatal(err)
		}
		log := tiers.ParseDecisions([]byte(readLog(t, s)))
		var ids []string
		for _, e := range log.Entries {
			ids = append(ids, e.ID)
		}
		if len(ids) != 1000 || len(log.DuplicateIDs()) != 0 {
			t.Fatalf("writer %s: %d entries, duplicates %v", writer, len(ids), log.DuplicateIDs())
		}
		return ids
	}
	a, b := branch("k3f9qa"), branch("m7x2pb")
	seen := tiers.IDSet{}
	for _, id := range a {
		seen.Add(id)
	}
	for _, id := range b {
		if seen.Has(id) {
			t.Fatalf("both branches gave %s", id)
		}
	}
}

// TestShortIDsResolve: an ID an older wake gave names its entry as
// before; a new ID is named whole or by its first four hex digits or
// more.
func TestShortIDsResolve(t *testing.T) {
	t.Parallel()
	s, tick := newDecisionStore(t, "[2026-02-14] DECISION: Use YAML BECAUSE: y\nID: d-1234\nSTATUS: active\n")
	ctx := context.Background()
	if err := s.Mutate(ctx, func() (Entry, error) {
		return s.ledgerEntry("decide", "x"), s.AppendDecisionsLocked([]NewDecision{{What: "Keep one binary", Why: "b"}})
	}); err != nil {
		t.Fatal(err)
	}
	log := tiers.ParseDecisions([]byte(readLog(t, s)))
	long := log.Entries[1].ID
	if !strings.HasSuffix(long, "-wtest") || len(long) != len("d-7f3a9c-wtest") {
		t.Fatalf("new id %q", long)
	}
	tick()
	if ch, err := s.Contest(ctx, DecisionRef{ID: "d-1234"}, "o", "p"); err != nil || ch.Number != 1 {
		t.Fatalf("contest by the short id: %+v %v", ch, err)
	}
	for i, ref := range []string{long[:6], long[:8], strings.ToUpper(long)} {
		tick()
		var ch DecisionChange
		var err error
		if i%2 == 0 {
			ch, err = s.Contest(ctx, DecisionRef{ID: ref}, "o", "p")
		} else {
			ch, err = s.Uphold(ctx, DecisionRef{ID: ref}, "w")
		}
		if err != nil || ch.Number != 2 {
			t.Fatalf("%s: %+v %v", ref, ch, err)
		}
	}
}

// TestAmbiguousIDRefused: an ID two entries share (merged from two
// branches) and the start of two entries' IDs are refused, naming both
// entries, and nothing is written.
func TestAmbiguousIDRefused(t *testing.T) {
	t.Parallel()
	log := "[2026-02-14] DECISION: Use YAML BECAUSE: y\nID: d-1234\nSTATUS: active\n\n" +
		"[2026-02-15] DECISION: Use JSON BECAUSE: j\nID: d-1234\nSTATUS: active\n\n" +
		"[2026-02-16] DECISION: Use TOML BECAUSE: t\nID: d-abcd01-k3f9qa\nSTATUS: active\n\n" +
		"[2026-02-17] DECISION: Use INI BECAUSE: i\nID: d-abcd02-m7x2pb\nSTATUS: active\n"
	s, _ := newDecisionStore(t, log)
	ctx := context.Background()
	for _, tc := range []struct {
		ref  string
		want []string
	}{
		{"d-1234", []string{"#1 [2026-02-14] Use YAML", "#2 [2026-02-15] Use JSON"}},
		{"d-abcd", []string{"d-abcd01-k3f9qa (#3 [2026-02-16] Use TOML)", "d-abcd02-m7x2pb (#4 [2026-02-17] Use INI)"}},
	} {
		_, err := s.Reverse(ctx, DecisionRef{ID: tc.ref}, NewDecision{What: "Use XML", Why: "x"})
		if !errors.Is(err, ErrAmbiguousID) {
			t.Fatalf("%s: %v", tc.ref, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v: does not name %q", tc.ref, err, w)
			}
		}
		var h interface{ Hint() string }
		if !errors.As(err, &h) || h.Hint() == "" {
			t.Errorf("%s: no hint", tc.ref)
		}
	}
	if got := readLog(t, s); got != log {
		t.Fatalf("a refused reverse wrote:\n%s", got)
	}
	if _, err := s.Reverse(ctx, DecisionRef{ID: "d-abcd01"}, NewDecision{What: "Use XML", Why: "x"}); err != nil {
		t.Fatalf("a longer prefix: %v", err)
	}
}

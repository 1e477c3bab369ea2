package store

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestNoneSince: a hand-off given NoneSince writes nothing when the
// ledger holds one at or after it, to the second, and goes on when the
// last one is older; Auto marks its ledger line, which older code reads
// as any hand-off's.
func TestNoneSince(t *testing.T) {
	t.Parallel()
	s, clock := newHandoffStore(t, afero.NewMemMapFs())
	if _, err := WriteSession(context.Background(), s, hoInput("the agent's")); err != nil {
		t.Fatal(err)
	}
	written := clock.t
	before := hoRead(t, s, tiers.LatestPath)
	clock.t = clock.t.Add(time.Hour)
	for _, since := range []time.Time{written.Add(-time.Minute), written, written.Add(900 * time.Millisecond)} {
		in := hoInput("automatic")
		in.Auto, in.NoneSince = true, since
		_, err := WriteSession(context.Background(), s, in)
		var he *HandedOffError
		if !errors.As(err, &he) || !errors.Is(err, ErrHandedOff) || !he.At.Equal(written) || he.Auto {
			t.Fatalf("since %v: %v", since, err)
		}
		if got := hoRead(t, s, tiers.LatestPath); got != before {
			t.Fatalf("since %v: the summary was rewritten:\n%s", since, got)
		}
	}
	in := hoInput("automatic")
	in.Auto, in.NoneSince = true, written.Add(time.Second)
	if _, err := WriteSession(context.Background(), s, in); err != nil {
		t.Fatal(err)
	}
	ledger := hoRead(t, s, tiers.LedgerPath)
	lines := strings.Split(strings.TrimSpace(ledger), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"op":"handoff"`) || !strings.HasSuffix(last, `"auto":true,"writer":"wtest"}`) {
		t.Fatalf("the ledger line does not say automatic: %s", last)
	}
	if strings.Count(ledger, `"auto"`) != 1 {
		t.Fatalf("a hand-off not automatic says auto:\n%s", ledger)
	}
	if es, err := SessionHandoffs(s.FS, s.Root, written.Add(time.Second), ""); err != nil || len(es) != 1 || !es[0].Auto {
		t.Fatalf("SessionHandoffs: %+v %v", es, err)
	}
	in = hoInput("again")
	in.Auto, in.NoneSince = true, written.Add(time.Second)
	_, err := WriteSession(context.Background(), s, in)
	var he *HandedOffError
	if !errors.As(err, &he) || !he.Auto {
		t.Fatalf("a second automatic hand-off: %v", err)
	}
}

// TestSessionHandoffs: an automatic hand-off's ledger line names its
// session; a session's hand-offs are the manual ones and its own
// automatic ones, not another session's. A hand-off given NoneSince and
// Seen writes nothing only when more of them are in the ledger than the
// caller went by.
func TestSessionHandoffs(t *testing.T) {
	t.Parallel()
	s, clock := newHandoffStore(t, afero.NewMemMapFs())
	start := clock.t
	ctx := context.Background()
	auto := func(summary, session string, seen int) error {
		in := hoInput(summary)
		in.Auto, in.SessionID, in.NoneSince, in.Seen = true, session, start, seen
		_, err := WriteSession(ctx, s, in)
		clock.t = clock.t.Add(time.Minute)
		return err
	}
	if err := auto("A's", "A", 0); err != nil {
		t.Fatal(err)
	}
	// B's session overlaps A's: A's automatic hand-off is not B's.
	if err := auto("B's", "B", 0); err != nil {
		t.Fatalf("B's automatic hand-off after A's: %v", err)
	}
	if !strings.Contains(hoRead(t, s, tiers.LedgerPath), `"summary":"B's","auto":true,"session":"B","writer":"wtest"}`) {
		t.Fatalf("B's ledger line does not name its session:\n%s", hoRead(t, s, tiers.LedgerPath))
	}
	list := func(session string) []string {
		es, err := SessionHandoffs(s.FS, s.Root, start, session)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, e.Summary)
		}
		return out
	}
	if got := list("B"); !reflect.DeepEqual(got, []string{"B's"}) {
		t.Errorf("B's hand-offs: %q", got)
	}
	if _, err := WriteSession(ctx, s, hoInput("manual")); err != nil {
		t.Fatal(err)
	}
	clock.t = clock.t.Add(time.Minute)
	if got := list("A"); !reflect.DeepEqual(got, []string{"A's", "manual"}) {
		t.Errorf("A's hand-offs: %q", got)
	}
	if !strings.Contains(hoRead(t, s, tiers.LedgerPath), `"summary":"manual","writer":"wtest"}`) {
		t.Errorf("a manual hand-off names a session")
	}
	// A, having gone by its 2 hand-offs, writes; going by 1, it finds one
	// written meanwhile and writes nothing.
	var he *HandedOffError
	if err := auto("A's again", "A", 1); !errors.As(err, &he) || he.Auto {
		t.Errorf("a hand-off written meanwhile: %v", err)
	}
	if err := auto("A's again", "A", 2); err != nil {
		t.Errorf("A's second automatic hand-off: %v", err)
	}
}

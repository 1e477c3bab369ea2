package handoff

import (
	"context"
	"errors"
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
	if _, err := Handoff(context.Background(), s, hoInput("the agent's")); err != nil {
		t.Fatal(err)
	}
	written := clock.t
	before := hoRead(t, s, tiers.LatestPath)
	clock.t = clock.t.Add(time.Hour)
	for _, since := range []time.Time{written.Add(-time.Minute), written, written.Add(900 * time.Millisecond)} {
		in := hoInput("automatic")
		in.Auto, in.NoneSince = true, since
		_, err := Handoff(context.Background(), s, in)
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
	if _, err := Handoff(context.Background(), s, in); err != nil {
		t.Fatal(err)
	}
	ledger := hoRead(t, s, tiers.LedgerPath)
	lines := strings.Split(strings.TrimSpace(ledger), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"op":"handoff"`) || !strings.HasSuffix(last, `"auto":true}`) {
		t.Fatalf("the ledger line does not say automatic: %s", last)
	}
	if strings.Count(ledger, `"auto"`) != 1 {
		t.Fatalf("a hand-off not automatic says auto:\n%s", ledger)
	}
	if e, ok, err := LastHandoffSince(s.FS, s.Root, written.Add(time.Second)); err != nil || !ok || !e.Auto {
		t.Fatalf("LastHandoffSince: %+v %v %v", e, ok, err)
	}
	in = hoInput("again")
	in.Auto, in.NoneSince = true, written.Add(time.Second)
	_, err := Handoff(context.Background(), s, in)
	var he *HandedOffError
	if !errors.As(err, &he) || !he.Auto {
		t.Fatalf("a second automatic hand-off: %v", err)
	}
}

package store

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// The readers take only the head of an inbox over the read limit; the
// writers still read it whole: a new entry is numbered past every entry,
// those past the head included, and no byte of the file is lost.
func TestRememberOnInboxOverReadLimit(t *testing.T) {
	t.Parallel()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	ctx := context.Background()
	old := "# Remember later\n\n## 1 · 2026-11-20\n- reminder: in the head\n\n" +
		strings.Repeat(strings.Repeat("z", 1023)+"\n", tiers.MaxDocBytes/1024+1) +
		"## 700 · 2026-11-21\n- reminder: past the head\n"
	if err := s.Write(tiers.InboxPath, []byte(old)); err != nil {
		t.Fatal(err)
	}
	r, err := s.Remember(ctx, NewReminder{Text: "new"})
	if err != nil || r.N != 701 {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := s.CloseReminder(ctx, 700, "seen"); err != nil {
		t.Fatal(err)
	}
	// #700, written without an id as older wakes did, still closes by
	// its number.
	want := old + "- done: seen at 2026-11-22T03:24:20Z\n\n## 701 · 2026-11-22T03:24:20Z\n- id: " + tiers.ReminderID("wtest", 701, "2026-11-22T03:24:20Z", "new") + "\n- reminder: new\n"
	if got := hoRead(t, s, tiers.InboxPath); got != want {
		t.Fatalf("%d bytes, want %d; tail %q", len(got), len(want), got[max(0, len(got)-200):])
	}
}

package store

import (
	"context"
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

// TestEditScanOwnWrites proves wake's own writes, logged in the ledger,
// are not edits: whether its record was brought up to date after the
// write, or a crash left it behind and the ledger line alone tells.
func TestEditScanOwnWrites(t *testing.T) {
	t.Parallel()
	s := baselined(t)
	err := s.Mutate(context.Background(), func() (Entry, error) {
		return Entry{Op: "remember", Paths: []string{tiers.TasksPath}, ChangeSummary: "noted a task"}, s.Write(tiers.TasksPath, []byte(tasksV2))
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := scanAll(t, s); len(got) != 0 {
		t.Fatalf("wake's own write recorded as %v", got)
	}
	// As a crash between the ledger line and the record leaves it.
	put(t, s, tiers.TasksPath, tasksV1)
	put(t, s, "cold/notes/bank.md", "# Bank\n")
	if err := appendLedger(s.FS, s.Root, Entry{At: s.Now(), Op: "remember", Paths: []string{tiers.TasksPath, "cold/notes/bank.md"}, ChangeSummary: "x"}); err != nil {
		t.Fatal(err)
	}
	if got := scanAll(t, s); len(got) != 0 {
		t.Fatalf("wake's own write, its record left behind, recorded as %v", got)
	}
	if len(edits(t, s)) != 0 {
		t.Fatalf("edits: %v", edits(t, s))
	}
}

// TestEditScanHandEditAroundOwnWrite proves an edit by hand is recorded
// whether it came before wake wrote over the file (recorded before the
// write) or after (not taken for the write).
func TestEditScanHandEditAroundOwnWrite(t *testing.T) {
	t.Parallel()
	s := baselined(t)
	main := hoRead(t, s, tiers.MainPath)
	put(t, s, tiers.MainPath, main+"- Never push on Fridays.\n")
	if _, err := WriteSession(context.Background(), s, hoInput("first")); err != nil {
		t.Fatal(err)
	}
	all, _, _ := ReadLedger(s.FS, s.Root)
	if n := len(all); n < 2 || all[n-2].Op != OpEdit || all[n-1].Op != "handoff" {
		t.Fatalf("ledger:\n%s", summaries(all))
	}
	if got := summaries(edits(t, s)); got != "main.md: edited by hand: +1 -0 lines under \"## Standing Directives\"\n" {
		t.Fatalf("edits:\n%s", got)
	}
	if got := scanAll(t, s); len(got) != 0 {
		t.Fatalf("the hand-off was recorded as %v", got)
	}
	put(t, s, tiers.MainPath, hoRead(t, s, tiers.MainPath)+"- Ask before deleting.\n")
	if got := summaries(scanAll(t, s)); got != "main.md: edited by hand: +1 -0 lines under \"## Standing Directives\"\n" {
		t.Fatalf("an edit after the hand-off:\n%s", got)
	}
}

// TestEditScanRotation proves an edit by hand of the summaries a
// hand-off moves is recorded before they move, and the rotation itself
// (latest to previous, previous to cold/sessions) is not an edit.
func TestEditScanRotation(t *testing.T) {
	t.Parallel()
	s := baselined(t)
	ctx := context.Background()
	for _, sum := range []string{"first", "second"} {
		if _, err := WriteSession(ctx, s, hoInput(sum)); err != nil {
			t.Fatal(err)
		}
	}
	put(t, s, tiers.LatestPath, hoRead(t, s, tiers.LatestPath)+"A note by hand.\n")
	put(t, s, tiers.PreviousPath, strings.Replace(hoRead(t, s, tiers.PreviousPath), "did first", "did the first", 1))
	if _, err := WriteSession(ctx, s, hoInput("third")); err != nil {
		t.Fatal(err)
	}
	got := summaries(edits(t, s))
	want := "recent/previous.md: edited by hand: +1 -1 lines under \"## What happened\"\n" +
		"recent/latest.md: edited by hand: +1 -0 lines under \"## For my successor\"\n"
	if got != want {
		t.Fatalf("edits:\n%swant:\n%s", got, want)
	}
	if got := scanAll(t, s); len(got) != 0 {
		t.Fatalf("the rotation was recorded as %v", summaries(got))
	}
}

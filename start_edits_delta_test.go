package wake_test

import (
	"context"
	"slices"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

// TestStartAfterHandoffRecordsColdEdits: after a hand-off, whose look at
// the cold documents compares only the ones its scan read with wake's
// record (see store.ColdLook's Loaded), a start still records every cold
// document edited, added or deleted by hand since: the next look reads
// what changed and stats what it did not find.
func TestStartAfterHandoffRecordsColdEdits(t *testing.T) {
	t.Parallel()
	o, start := editsMemory(t)
	afero.WriteFile(o.FS, editsRoot+"/cold/notes/bank.md", []byte("# Bank\n\nFees: 0.3%.\n"), 0o644)
	start()
	ctx := context.Background()
	m, err := wake.Open(editsRoot, o)
	if err != nil {
		t.Fatal(err)
	}
	summary, next := "a session", "more"
	in, err := (&handoff.Fields{Summary: &summary, Next: &next}).Over(handoff.Input{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Handoff(ctx, in, wake.BootFiles{NoSkill: true}); err != nil {
		t.Fatal(err)
	}
	start()
	if got := editEntries(t, o); len(got) != 0 {
		t.Fatalf("wake's own writes recorded as edits: %+v", got)
	}
	afero.WriteFile(o.FS, editsRoot+"/cold/notes/vat.md", []byte("---\nsummary: VAT rates\n---\n# VAT\n\nBread: 7%.\nCake: 19%.\n"), 0o644)
	o.FS.Remove(editsRoot + "/cold/notes/bank.md")
	afero.WriteFile(o.FS, editsRoot+"/cold/notes/rent.md", []byte("# Rent\n\nDue on the first.\n"), 0o644)
	records, _ := afero.ReadDir(o.FS, editsRoot+"/"+tiers.SessionsDir)
	if len(records) != 1 {
		t.Fatalf("records: %d", len(records))
	}
	rec := editsRoot + "/" + tiers.SessionsDir + "/" + records[0].Name()
	data, _ := afero.ReadFile(o.FS, rec)
	afero.WriteFile(o.FS, rec, append(data, "\nA line added by hand.\n"...), 0o644)
	start()
	var paths []string
	for _, e := range editEntries(t, o) {
		paths = append(paths, e.Paths...)
	}
	slices.Sort(paths)
	want := []string{"cold/notes/bank.md", "cold/notes/rent.md", "cold/notes/vat.md", tiers.SessionsDir + "/" + records[0].Name()}
	if !slices.Equal(paths, want) {
		t.Fatalf("recorded %v, want %v", paths, want)
	}
}

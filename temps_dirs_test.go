package wake_test

import (
	"context"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/internal/touchfs"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// Every directory of the root where the everyday commands make a
// temporary file is one Recover sweeps: a kill there leaves nothing that
// stays for good. cold/ is the user's and left out by design (wake's own
// files in it, the session records and the compaction archives aside,
// sweep their temporary files at their next write or through their
// creation record). (issue 23: those a killed wake left in .state/seen/
// were never swept; the crash campaign's compact scenario found those of
// cold/archive/ left too.)
func TestSweepCoversEveryDirectoryWritten(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fs := touchfs.New(afero.NewMemMapFs())
	clock := time.Date(2026, 11, 28, 7, 0, 0, 0, time.UTC)
	o := wake.Options{FS: fs, Env: map[string]string{"HOME": "/home/ava"}, Now: func() time.Time { clock = clock.Add(time.Minute); return clock },
		Locker: &memlock.Locker{}}
	if _, err := wake.Init(ctx, editsRoot, skeleton.Params{Agent: "Ava", Project: "bakery"}, o); err != nil {
		t.Fatal(err)
	}
	m, err := wake.Open(editsRoot, o)
	if err != nil {
		t.Fatal(err)
	}
	afero.WriteFile(fs, editsRoot+"/cold/notes/vat.md", []byte("# VAT\n\nBread: 7%.\n"), 0o644)
	steps := []func() error{
		func() error { _, err := m.Start(ctx, wake.BootFiles{NoSkill: true}); return err },
		func() error {
			_, err := m.Decide(ctx, store.NewDecision{What: "Bake at night", Why: "the oven is free"})
			return err
		},
		func() error { _, err := m.Remember(ctx, store.NewReminder{Text: "order flour"}); return err },
		func() error {
			_, err := m.Reverse(ctx, store.DecisionRef{Number: 1}, store.NewDecision{What: "Bake at dawn", Why: "the night is cold"})
			return err
		},
		func() error { _, err := m.Compact(ctx, false); return err },
		func() error {
			_, err := m.Handoff(ctx, handoff.Input{Session: tiers.Session{Summary: "Baked", NextPriority: "Sell"}}, wake.BootFiles{NoSkill: true})
			return err
		},
		func() error {
			_, err := m.Handoff(ctx, handoff.Input{Session: tiers.Session{Summary: "Sold", NextPriority: "Bake"}}, wake.BootFiles{NoSkill: true})
			return err
		},
		func() error {
			_, err := m.Handoff(ctx, handoff.Input{Session: tiers.Session{Summary: "Baked again", NextPriority: "Rest"}}, wake.BootFiles{NoSkill: true})
			return err
		},
		func() error { _, err := m.Start(ctx, wake.BootFiles{NoSkill: true}); return err },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	swept := store.TempDirs(fs, editsRoot)
	seen := map[string]bool{}
	for _, w := range fs.Writes() {
		p, ok := strings.CutPrefix(w, "open for writing "+editsRoot+"/")
		if !ok || !strings.Contains(path.Base(p), ".tmp-") {
			continue
		}
		dir := path.Dir(p)
		seen[dir] = true
		if strings.HasPrefix(dir, tiers.StateDir+"/"+store.JournalDir+"/") {
			dir = tiers.StateDir + "/" + store.JournalDir // a journal's own, gone with it
		}
		inCold := dir == tiers.ColdDir || strings.HasPrefix(dir, tiers.ColdDir+"/")
		if !slices.Contains(swept, dir) && (!inCold || dir == tiers.SessionsDir || dir == store.ArchiveDir) {
			t.Errorf("a temporary file was made in %s, which Recover does not sweep (%v)", dir, swept)
		}
	}
	if !seen[tiers.StateDir+"/"+store.SeenDir] || !seen[store.ArchiveDir] {
		t.Errorf("the steps wrote no temporary file in .state/seen (they wrote in %v): the test lost its point", seen)
	}
}

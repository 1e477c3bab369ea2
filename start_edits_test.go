package wake_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/internal/touchfs"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

const editsRoot = "/p/.wake"

// editsMemory lays out a root on an in-memory file system and returns
// the options to open it with, and a start function.
func editsMemory(t *testing.T) (wake.Options, func() *wake.Start) {
	t.Helper()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	o := wake.Options{FS: afero.NewMemMapFs(), Env: map[string]string{"HOME": "/home/ava"}, Now: func() time.Time { return now },
		Locker: &memlock.Locker{}}
	if _, err := wake.Init(context.Background(), editsRoot, skeleton.Params{Agent: "Ava", Project: "bakery"}, o); err != nil {
		t.Fatal(err)
	}
	afero.WriteFile(o.FS, editsRoot+"/"+tiers.TasksPath, []byte("# Active tasks\n\n## In progress\n- [ ] Bake bread.\n"), 0o644)
	afero.WriteFile(o.FS, editsRoot+"/cold/notes/vat.md", []byte("---\nsummary: VAT rates\n---\n# VAT\n\nBread: 7%.\n"), 0o644)
	start := func() *wake.Start {
		t.Helper()
		m, err := wake.Open(editsRoot, o)
		if err != nil {
			t.Fatal(err)
		}
		st, err := m.Start(context.Background(), wake.BootFiles{NoSkill: true})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	return o, start
}

func editEntries(t *testing.T, o wake.Options) []store.Entry {
	t.Helper()
	l, err := wake.ReadLedger(editsRoot, o, wake.LogFilter{Op: store.OpEdit})
	if err != nil {
		t.Fatal(err)
	}
	return l.Entries
}

// TestStartRecordsHandEdit proves an edit by hand between two session
// starts is one ledger entry, shown by the digest of the start that
// found it; the first start only took the baseline.
func TestStartRecordsHandEdit(t *testing.T) {
	t.Parallel()
	o, start := editsMemory(t)
	start()
	if got := editEntries(t, o); len(got) != 0 {
		t.Fatalf("the first start recorded %+v", got)
	}
	afero.WriteFile(o.FS, editsRoot+"/"+tiers.TasksPath, []byte("# Active tasks\n\n## In progress\n- [ ] Bake rye bread.\n- [ ] Order flour.\n"), 0o644)
	st := start()
	want := "edit warm/active_tasks.md: edited by hand: +2 -1 lines under \"## In progress\""
	if !strings.Contains(st.Text, want) {
		t.Fatalf("the digest lacks %q:\n%s", want, st.Text)
	}
	if got := editEntries(t, o); len(got) != 1 || got[0].ChangeSummary != "edited by hand: +2 -1 lines under \"## In progress\"" {
		t.Fatalf("entries %+v", got)
	}
	start()
	if got := editEntries(t, o); len(got) != 1 {
		t.Fatalf("a start with no change recorded more: %+v", got)
	}
}

// TestStartHandoffIsNoEdit proves wake's own writes between two starts (a
// decision, a hand-off with its rotation) are not recorded as edits.
func TestStartHandoffIsNoEdit(t *testing.T) {
	t.Parallel()
	o, start := editsMemory(t)
	start()
	ctx := context.Background()
	m, err := wake.Open(editsRoot, o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Decide(ctx, store.NewDecision{What: "Bake at night", Why: "the oven is free"}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"first", "second", "third"} {
		summary, next := s+" session", "more"
		in, err := (&handoff.Fields{Summary: &summary, Next: &next}).Over(handoff.Input{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Handoff(ctx, in, wake.BootFiles{NoSkill: true}); err != nil {
			t.Fatal(err)
		}
	}
	start()
	if got := editEntries(t, o); len(got) != 0 {
		t.Fatalf("wake's own writes recorded as edits: %+v", got)
	}
}

// togetherFS holds its first n opens of wake's record of the files until
// all n are made, so that n session starts surely look at the root at
// once, each before any of them could record what it found.
type togetherFS struct {
	afero.Fs
	n       int
	mu      sync.Mutex
	arrived int
	all     chan struct{}
}

func (f *togetherFS) Open(name string) (afero.File, error) {
	if strings.HasSuffix(name, "/"+tiers.StateDir+"/"+store.SeenFile) {
		f.mu.Lock()
		f.arrived++
		if f.arrived == f.n {
			close(f.all)
		}
		first := f.arrived <= f.n
		f.mu.Unlock()
		if first {
			<-f.all
		}
	}
	return f.Fs.Open(name)
}

// TestStartsAtOnceRecordOnce proves sessions starting at once record an
// edit once: each finds it, but the entries are appended under the
// exclusive lock, after a second look.
func TestStartsAtOnceRecordOnce(t *testing.T) {
	t.Parallel()
	o, start := editsMemory(t)
	start()
	afero.WriteFile(o.FS, editsRoot+"/cold/notes/vat.md", []byte("---\nsummary: VAT rates\n---\n# VAT\n\nBread: 7%.\nBeer: 19%.\n"), 0o644)
	afero.WriteFile(o.FS, editsRoot+"/"+tiers.TasksPath, []byte("# Active tasks\n\n## In progress\n- [ ] Bake rye bread.\n"), 0o644)
	const n = 4
	o.FS = &togetherFS{Fs: o.FS, n: n, all: make(chan struct{})}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			m, err := wake.Open(editsRoot, o)
			if err != nil {
				t.Error(err)
				return
			}
			if _, err := m.Start(context.Background(), wake.BootFiles{NoSkill: true}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got := editEntries(t, o)
	if len(got) != 2 || got[0].Paths[0] != "cold/notes/vat.md" || got[1].Paths[0] != tiers.TasksPath {
		t.Fatalf("entries %+v", got)
	}
}

// TestWarmStartEditsCost proves the cost promise. A session start with
// nothing changed writes nothing, opens no file twice and no cold
// document at all, and of wake's record of the files only the small one
// of the tier files, once: not the cold documents' nor the signatures.
// The first start after a hand-off (which saved the cold index with the
// session archived) reads no more of the record either, and writes none.
func TestWarmStartEditsCost(t *testing.T) {
	t.Parallel()
	o, start := editsMemory(t)
	// Files older than any racy window, as a real root's are.
	hourAgo := time.Now().Add(-time.Hour)
	for _, p := range []string{tiers.MainPath, tiers.TasksPath, tiers.DecisionsPath, tiers.QuestionsPath, "cold/notes/vat.md", tiers.WarmDir} {
		o.FS.Chtimes(editsRoot+"/"+p, hourAgo, hourAgo)
	}
	start()
	ctx := context.Background()
	m, err := wake.Open(editsRoot, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"first", "second", "third"} {
		summary, next := s+" session", "more"
		in, _ := (&handoff.Fields{Summary: &summary, Next: &next}).Over(handoff.Input{})
		if _, err := m.Handoff(ctx, in, wake.BootFiles{NoSkill: true}); err != nil {
			t.Fatal(err)
		}
	}
	fsys := touchfs.New(o.FS)
	o.FS = fsys
	for _, afterHandoff := range []bool{true, false} {
		m, err := wake.Open(editsRoot, o)
		if err != nil {
			t.Fatal(err)
		}
		fsys.Reset()
		if _, err := m.Start(ctx, wake.BootFiles{NoSkill: true}); err != nil {
			t.Fatal(err)
		}
		for _, w := range fsys.Writes() {
			if !afterHandoff || strings.Contains(w, "/"+tiers.StateDir+"/seen") {
				t.Errorf("after a hand-off %v: a start wrote %s", afterHandoff, w)
			}
		}
		for name, n := range fsys.Opens() {
			rel := strings.TrimPrefix(name, editsRoot+"/")
			switch {
			case strings.HasPrefix(rel, tiers.StateDir+"/"+store.SeenDir+"/"):
				t.Errorf("after a hand-off %v: a start opened the signatures %s", afterHandoff, rel)
			case rel == tiers.StateDir+"/"+store.SeenColdFile:
				t.Errorf("after a hand-off %v: a start opened the record of the cold documents", afterHandoff)
			case !afterHandoff && strings.HasPrefix(rel, tiers.ColdDir+"/") && strings.HasSuffix(rel, ".md"):
				t.Errorf("a warm start opened the cold document %s", rel)
			case !afterHandoff && n > 1 && rel != tiers.LedgerPath:
				// The build reads the ledger twice (its digest and the
				// decision IDs); looking for edits reads it only for a change.
				t.Errorf("a warm start opened %s %d times", rel, n)
			}
		}
		if n := fsys.Opens()[editsRoot+"/"+tiers.StateDir+"/"+store.SeenFile]; n != 1 {
			t.Errorf("after a hand-off %v: the record of the tier files was opened %d times", afterHandoff, n)
		}
	}
	if got := editEntries(t, o); len(got) != 0 {
		t.Fatalf("entries %+v", got)
	}
}

// TestFirstStartWritesStateOnce proves a first session start writes each
// file of the state directory once: the count cache after skill.md's
// build, not also after the context's; the record of the files after the
// look at the cold documents, not also after the tier files'.
func TestFirstStartWritesStateOnce(t *testing.T) {
	t.Parallel()
	o, _ := editsMemory(t)
	if err := o.FS.RemoveAll(editsRoot + "/" + tiers.StateDir); err != nil {
		t.Fatal(err)
	}
	fsys := touchfs.New(o.FS)
	o.FS = fsys
	m, err := wake.Open(editsRoot, o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Start(context.Background(), wake.BootFiles{}); err != nil {
		t.Fatal(err)
	}
	renamed := map[string]int{}
	for _, w := range fsys.Writes() {
		if f := strings.Fields(w); f[0] == "rename" {
			renamed[strings.TrimPrefix(f[2], editsRoot+"/")]++
		}
	}
	for _, want := range []string{store.SeenFile, store.SeenColdFile, budget.CacheFile} {
		if n := renamed[tiers.StateDir+"/"+want]; n != 1 {
			t.Errorf("%s written %d times, want once", want, n)
		}
	}
	for p, n := range renamed {
		if n > 1 {
			t.Errorf("%s written %d times", p, n)
		}
	}
}

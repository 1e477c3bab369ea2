package wake_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/internal/memgen"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/internal/touchfs"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

const cacheRoot = "/p/.wake"

// cacheBench is a generated root on an in-memory file system with a
// clock the test moves, and a start through the start cache that says
// whether it was served from it.
type cacheBench struct {
	t     *testing.T
	fs    *touchfs.FS
	now   time.Time
	o     wake.Options
	notes []string
}

func newCacheBench(t *testing.T, g memgen.Options) *cacheBench {
	t.Helper()
	b := &cacheBench{t: t, fs: touchfs.New(afero.NewMemMapFs()), now: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)}
	if err := memgen.Generate(b.fs, cacheRoot, g); err != nil {
		t.Fatal(err)
	}
	b.o = wake.Options{FS: b.fs, Env: map[string]string{"HOME": "/home/ava"}, Now: func() time.Time { return b.now }, Locker: &memlock.Locker{},
		Notify: func(n wake.Notice) {
			// A note that wake wrote a file outside the root is said
			// the first time only, by design: a fresh start after it
			// has nothing to say.
			if n.Kind != "note" {
				b.notes = append(b.notes, n.Kind+": "+n.Msg+" | "+n.Hint)
			}
		}}
	return b
}

// view renders the load text and, so that the view's own reads are keyed,
// the project's CLAUDE.md read through the start's file system.
func (b *cacheBench) view(rendered *bool) wake.View {
	return wake.View{Name: "test", Render: func(st *wake.Start, fsys afero.Fs, notify func(wake.Notice)) (string, error) {
		*rendered = true
		notify(wake.Notice{Kind: "warning", Msg: "rendered"})
		extra, _ := afero.ReadFile(fsys, "/p/CLAUDE.md")
		return st.Text + "\n--\n" + string(extra), nil
	}}
}

// start runs one session start: its output, its notices, and whether it
// was served from the cache.
func (b *cacheBench) start() (string, string, bool) {
	b.t.Helper()
	b.notes = nil
	m, err := wake.Open(cacheRoot, b.o)
	if err != nil {
		b.t.Fatal(err)
	}
	rendered := false
	out, err := m.StartView(context.Background(), wake.BootFiles{}, b.view(&rendered))
	if err != nil {
		b.t.Fatal(err)
	}
	return out, strings.Join(b.notes, "\n"), !rendered
}

// fresh is what a start prints with no cache at all.
func (b *cacheBench) fresh() (string, string) {
	b.t.Helper()
	b.fs.Remove(filepath.Join(cacheRoot, tiers.StateDir, "start-cache"))
	out, notes, hit := b.start()
	if hit {
		b.t.Fatal("a start without a cache file was served from it")
	}
	return out, notes
}

// settle starts until a start is served from the cache, which must
// happen within three starts of a change (the first may rewrite the boot
// files it read), and checks that start against a fresh one.
func (b *cacheBench) settle(what string) string {
	b.t.Helper()
	for range 3 {
		out, notes, hit := b.start()
		if !hit {
			continue
		}
		fresh, freshNotes := b.fresh()
		if out != fresh {
			b.t.Fatalf("%s: the start served from the cache differs from a fresh one:\n%s", what, firstDiff(out, fresh))
		}
		if notes != freshNotes {
			b.t.Fatalf("%s: notices from the cache:\n%s\nfresh:\n%s", what, notes, freshNotes)
		}
		return out
	}
	b.t.Fatalf("%s: three starts in a row, none served from the cache", what)
	return ""
}

// changed applies a change and checks that the next start is not served
// from the cache, and prints what a fresh start prints.
func (b *cacheBench) changed(what string, change func()) string {
	b.t.Helper()
	b.settle("before " + what)
	change()
	out, notes, hit := b.start()
	if hit {
		b.t.Fatalf("%s: the start after it was served from the cache", what)
	}
	if fresh, freshNotes := b.fresh(); out != fresh || notes != freshNotes {
		b.t.Fatalf("%s: the start after it differs from a fresh one:\n%s", what, firstDiff(out, fresh))
	}
	return b.settle("after " + what)
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  %q\n  %q", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(al), len(bl))
}

func (b *cacheBench) write(rel, data string) {
	b.t.Helper()
	if err := afero.WriteFile(b.fs, filepath.Join(cacheRoot, rel), []byte(data), 0o644); err != nil {
		b.t.Fatal(err)
	}
}

func (b *cacheBench) read(rel string) string {
	b.t.Helper()
	data, err := afero.ReadFile(b.fs, filepath.Join(cacheRoot, rel))
	if err != nil {
		b.t.Fatal(err)
	}
	return string(data)
}

// TestStartCacheMatchesFreshBuild proves, on generated roots, that a
// start served from the cache prints byte for byte what a fresh build
// prints, notices included, and that each kind of change the output
// depends on is a miss: a tier file (same size, just modified), the
// configuration, trust, a ledger line, the clock crossing the digest's
// window, a new cold document, the inbox appearing, a file the view
// reads, and a damaged cache file.
func TestStartCacheMatchesFreshBuild(t *testing.T) {
	for _, g := range []memgen.Options{{TierScale: 1, ColdFiles: 12, TypedEvery: 3}, {TierScale: 1, ColdFiles: 3}} {
		t.Run(fmt.Sprintf("scale%d-cold%d", g.TierScale, g.ColdFiles), func(t *testing.T) {
			b := newCacheBench(t, g)
			b.settle("a new root")

			out := b.changed("a tier file edited in place", func() {
				d := b.read(tiers.DecisionsPath)
				b.write(tiers.DecisionsPath, strings.Replace(d, "practice 1 ", "practice X ", 1))
			})
			if !strings.Contains(out, "practice X ") {
				t.Error("the edited decision is not in the context")
			}
			out = b.changed("main.md replaced", func() {
				b.write(tiers.MainPath, strings.Replace(b.read(tiers.MainPath), "Agent: Ava", "Agent: Bea", 1))
			})
			if !strings.Contains(out, "Agent: Bea") {
				t.Error("main.md's new identity is not in the context")
			}
			out = b.changed("wake.toml written", func() {
				b.write(tiers.ConfigPath, "[budget]\ndigest = 300\n")
			})
			b.changed("trust given", func() {
				if _, err := wake.SetTrust(context.Background(), cacheRoot, b.o, false); err != nil {
					t.Fatal(err)
				}
			})
			b.changed("a ledger line", func() {
				e := store.Entry{At: b.now.Add(-23*time.Hour - 58*time.Minute), Op: "remember", Paths: []string{tiers.TasksPath}, ChangeSummary: "reshuffled the tasks"}
				if err := store.AppendLedger(b.fs, cacheRoot, e); err != nil {
					t.Fatal(err)
				}
			})
			out = b.settle("the ledger line in the window")
			if !strings.Contains(out, "reshuffled the tasks") {
				t.Fatal("the digest lacks the ledger line")
			}
			b.now = b.now.Add(time.Minute)
			if _, _, hit := b.start(); !hit {
				t.Error("a minute later, with the entry still in the window, the start was not served from the cache")
			}
			out = b.changed("the clock past the digest's window", func() { b.now = b.now.Add(2 * time.Minute) })
			if strings.Contains(out, "reshuffled the tasks") {
				t.Error("the digest still lists the entry that left its window")
			}
			out = b.changed("a cold document added", func() {
				b.write("cold/2026/11/fresh-note.md", "---\nsummary: A fresh note about ovens\n---\n# Ovens\n\nHot.\n")
			})
			if !strings.Contains(out, "A fresh note about ovens") {
				t.Error("the new cold document is not listed")
			}
			out = b.changed("a reminder left in the inbox (a file no start had read)", func() {
				m, err := wake.Open(cacheRoot, b.o)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := m.Remember(context.Background(), store.NewReminder{Text: "Check the oven thermostat"}); err != nil {
					t.Fatal(err)
				}
			})
			if !strings.Contains(out, "Check the oven thermostat") {
				t.Error("the new reminder is not in the context")
			}
			out = b.changed("a file the view reads", func() {
				afero.WriteFile(b.fs, "/p/CLAUDE.md", []byte("imported\n"), 0o644)
			})
			if !strings.HasSuffix(out, "--\nimported\n") {
				t.Error("the view's own file is not in its output")
			}
			b.changed("a damaged cache", func() {
				name := filepath.Join(cacheRoot, tiers.StateDir, "start-cache")
				data, _ := afero.ReadFile(b.fs, name)
				afero.WriteFile(b.fs, name, data[:len(data)/2], 0o644)
			})
			b.changed("a cache whose output was altered", func() {
				name := filepath.Join(cacheRoot, tiers.StateDir, "start-cache")
				data, _ := afero.ReadFile(b.fs, name)
				afero.WriteFile(b.fs, name, append(data[:len(data)-2:len(data)-2], 'x', '\n'), 0o644)
			})
		})
	}
}

// TestStartCacheHitOpensNoTierFile proves a start served from the cache
// opens none of the tier files, however large, when their identities are
// old enough to trust: it stats them. (Files wake wrote a moment ago, such
// as skill.md, are racy and hashed.)
func TestStartCacheHitOpensNoTierFile(t *testing.T) {
	b := newCacheBench(t, memgen.Options{TierScale: 1})
	b.settle("a new root")
	b.changed("the tier files' times moved back", func() {
		old := time.Now().Add(-time.Hour)
		for _, rel := range []string{tiers.MainPath, tiers.LatestPath, tiers.PreviousPath, tiers.TasksPath, tiers.DecisionsPath, tiers.QuestionsPath} {
			b.fs.Chtimes(filepath.Join(cacheRoot, rel), old, old)
		}
	})
	b.fs.Reset()
	if _, _, hit := b.start(); !hit {
		t.Fatal("not served from the cache")
	}
	opens := b.fs.Opens()
	for _, p := range tiers.Phases() {
		for _, rel := range p.Paths {
			if n := opens[cacheRoot+"/"+rel]; n > 0 {
				t.Errorf("a start served from the cache opened %s (%d times)", rel, n)
			}
		}
	}
}

// TestStartCacheHandoffTurningStale: a start served from the cache just
// before the HANDOFF block turns stale is the fresh start's text, and the
// first start past the boundary, and past each hour of the stale block's
// age, is not served from it.
func TestStartCacheHandoffTurningStale(t *testing.T) {
	b := newCacheBench(t, memgen.Options{TierScale: 1})
	updated := time.Date(2026, 11, 21, 17, 40, 0, 0, time.UTC)
	b.now = updated.Add(168*time.Hour - time.Minute)
	out := b.settle("just before the HANDOFF turns stale")
	b.now = updated.Add(168*time.Hour - time.Second)
	if _, _, hit := b.start(); !hit {
		t.Error("a second before the boundary the start was not served from the cache")
	}
	stale := b.changed("the HANDOFF turning stale", func() { b.now = updated.Add(168*time.Hour + time.Second) })
	if stale == out {
		t.Error("the HANDOFF turning stale changed nothing in the context")
	}
	b.changed("the stale block's age past its next hour", func() { b.now = b.now.Add(time.Hour) })
	b.changed("a day on", func() { b.now = b.now.Add(24 * time.Hour) })
}

// TestStartCacheSettlesRacyFiles proves that files a start kept by their
// content (wake wrote them a moment before) are read at the hits within
// their racy window, and no longer once it has closed: the first hit
// after it keeps the entry by size and time alone.
func TestStartCacheSettlesRacyFiles(t *testing.T) {
	t.Parallel()
	b := newCacheBench(t, memgen.Options{TierScale: 1})
	want := b.settle("a new root")
	racy := func() int {
		n := 0
		for p, c := range b.fs.Opens() {
			if c > 0 && strings.HasSuffix(p, ".md") {
				n++
			}
		}
		return n
	}
	b.fs.Reset()
	if _, _, hit := b.start(); !hit {
		t.Fatal("not served from the cache")
	}
	if racy() == 0 {
		t.Fatal("a hit right after the files were written read none of them: nothing to settle")
	}
	time.Sleep(fsrecord.RacyWindow + 100*time.Millisecond)
	for i := range 2 {
		b.fs.Reset()
		out, _, hit := b.start()
		if !hit || out != want {
			t.Fatalf("start %d after the racy window: hit %v, same output %v", i+1, hit, out == want)
		}
		if n := racy(); i == 1 && n > 0 {
			t.Errorf("a hit after the racy window closed still read %d files: %v", n, b.fs.Opens())
		}
	}
}

// TestPrimeStart: after a hand-off, which rewrites what a start reads, a
// primed start makes the next start of the view one served from the
// cache, byte for byte and notice for notice what a fresh start prints;
// the priming tells nothing and leaves the session's cold accounting as
// it was; a view never primed still builds.
func TestPrimeStart(t *testing.T) {
	b := newCacheBench(t, memgen.Options{TierScale: 1, ColdFiles: 3})
	b.settle("a new root")
	m, err := wake.Open(cacheRoot, b.o)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.StartViews(); len(got) != 1 || got[0] != "test" {
		t.Fatalf("StartViews = %q, want the test view", got)
	}
	b.now = b.now.Add(time.Hour)
	in := handoff.Input{Session: tiers.Session{Summary: "Primed the next start", NextPriority: "Start again"}}
	if _, err := m.Handoff(context.Background(), in, wake.BootFiles{}); err != nil {
		t.Fatal(err)
	}
	if _, _, hit := b.start(); hit {
		t.Fatal("the start after a hand-off, unprimed, was served from the cache")
	}
	// Again, primed this time.
	if _, err := m.Handoff(context.Background(), handoff.Input{Session: tiers.Session{Summary: "Primed it again", NextPriority: "Start"}}, wake.BootFiles{}); err != nil {
		t.Fatal(err)
	}
	coldSession := b.read(tiers.StateDir + "/cold-session.json")
	b.notes = nil
	kept := false
	rendered := false
	for range 2 {
		if kept, err = m.PrimeStart(context.Background(), b.view(&rendered)); err != nil {
			t.Fatal(err)
		}
		if kept {
			break
		}
		t.Log("a priming wrote a file it read; priming again")
	}
	if !kept || !rendered {
		t.Fatalf("two primings kept nothing (rendered %v)", rendered)
	}
	if len(b.notes) > 0 {
		t.Errorf("the priming told %q", b.notes)
	}
	if got := b.read(tiers.StateDir + "/cold-session.json"); got != coldSession {
		t.Errorf("the priming opened a cold session:\n%s\nwas\n%s", got, coldSession)
	}
	b.now = b.now.Add(time.Minute)
	out, notes, hit := b.start()
	if !hit {
		t.Fatal("the start after a primed hand-off was not served from the cache")
	}
	if !strings.Contains(out, "Primed it again") {
		t.Error("the primed start lacks the hand-off")
	}
	if notes == "" {
		t.Error("the primed start told none of the notices its build gave")
	}
	if got := b.read(tiers.StateDir + "/cold-session.json"); got == coldSession {
		t.Error("the start served from the primed cache opened no cold session")
	}
	fresh, freshNotes := b.fresh()
	if out != fresh || notes != freshNotes {
		t.Fatalf("the primed start differs from a fresh one:\n%s\nnotices:\n%s\nfresh:\n%s", firstDiff(out, fresh), notes, freshNotes)
	}
}

// TestPrimeStartKeptMeansKept: PrimeStart says the view is kept only when
// it is: after a hand-off that left skill.md out (--no-skill), a priming
// writes the skill.md it read and keeps nothing, although the view's
// entry from before the hand-off is still in the file; a second priming
// reads the file as written and is kept, and the next start is served
// from it.
func TestPrimeStartKeptMeansKept(t *testing.T) {
	b := newCacheBench(t, memgen.Options{TierScale: 1, ColdFiles: 3})
	b.settle("a new root")
	m, err := wake.Open(cacheRoot, b.o)
	if err != nil {
		t.Fatal(err)
	}
	b.now = b.now.Add(time.Hour)
	in := handoff.Input{Session: tiers.Session{Summary: "Primed the next start", NextPriority: "Start again"}}
	if _, err := m.Handoff(context.Background(), in, wake.BootFiles{NoSkill: true}); err != nil {
		t.Fatal(err)
	}
	rendered := false
	var kept []bool
	for range 2 {
		k, err := m.PrimeStart(context.Background(), b.view(&rendered))
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, k)
	}
	b.now = b.now.Add(time.Minute)
	_, _, hit := b.start()
	if kept[0] || !kept[1] || !hit {
		t.Fatalf("primings kept %v, next start served from the cache %v; want [false true] and a hit", kept, hit)
	}
}

package boot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

// touchFS counts what a run does to the files under it: every open by
// path, and every write (an open for writing, a create, a rename, a
// removal, a new directory).
type touchFS struct {
	afero.Fs
	mu     sync.Mutex
	opens  map[string]int
	writes []string
}

func newTouchFS(fsys afero.Fs) *touchFS { return &touchFS{Fs: fsys, opens: map[string]int{}} }

func (f *touchFS) reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opens, f.writes = map[string]int{}, nil
}

// filesUnder returns the files (not directories) whose path contains dir,
// opened since the last reset, with how often each was opened.
func (f *touchFS) filesUnder(dir string) map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for name, n := range f.opens {
		if fi, err := f.Fs.Stat(name); err == nil && !fi.IsDir() && strings.Contains(name, dir) {
			out[name] = n
		}
	}
	return out
}

func (f *touchFS) opened(name string) {
	f.mu.Lock()
	f.opens[filepath.ToSlash(name)]++
	f.mu.Unlock()
}

func (f *touchFS) wrote(what string) {
	f.mu.Lock()
	f.writes = append(f.writes, what)
	f.mu.Unlock()
}

func (f *touchFS) Open(name string) (afero.File, error) {
	f.opened(name)
	return f.Fs.Open(name)
}

func (f *touchFS) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	f.opened(name)
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_APPEND|os.O_TRUNC) != 0 {
		f.wrote("open for writing " + name)
	}
	return f.Fs.OpenFile(name, flag, perm)
}

func (f *touchFS) Create(name string) (afero.File, error) {
	f.wrote("create " + name)
	return f.Fs.Create(name)
}

func (f *touchFS) Rename(from, to string) error {
	f.wrote("rename " + from + " " + to)
	return f.Fs.Rename(from, to)
}

func (f *touchFS) Remove(name string) error {
	f.wrote("remove " + name)
	return f.Fs.Remove(name)
}

func (f *touchFS) RemoveAll(name string) error {
	f.wrote("remove all " + name)
	return f.Fs.RemoveAll(name)
}

func (f *touchFS) Mkdir(name string, perm os.FileMode) error {
	f.wrote("mkdir " + name)
	return f.Fs.Mkdir(name, perm)
}

func (f *touchFS) MkdirAll(name string, perm os.FileMode) error {
	f.wrote("mkdir all " + name)
	return f.Fs.MkdirAll(name, perm)
}

func (f *touchFS) Chtimes(name string, a, m time.Time) error {
	f.wrote("chtimes " + name)
	return f.Fs.Chtimes(name, a, m)
}

// LstatIfPossible keeps the symlink checks of the file system underneath.
func (f *touchFS) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	if l, ok := f.Fs.(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := f.Fs.Stat(name)
	return fi, false, err
}

// warmRoot is the demo root with a secret and a confidential cold document,
// a secret warm file and ledger entries naming tier files, wake.toml and
// cold documents.
func warmRoot(t *testing.T) afero.Fs {
	t.Helper()
	mem := demoFS(t)
	// Older than the racy window, so that the cold index keeps them all.
	hourAgo := demoTime.Add(-time.Hour)
	afero.Walk(mem, "/demo", func(p string, _ os.FileInfo, err error) error {
		if err == nil {
			err = mem.Chtimes(p, hourAgo, hourAgo)
		}
		return err
	})
	put := func(rel, data string) {
		name := filepath.Join("/demo", rel)
		if err := afero.WriteFile(mem, name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		mem.Chtimes(name, hourAgo, hourAgo)
	}
	put("cold/sessions/keys.md", "---\nsensitivity: secret\n---\nsk-live-1\n")
	put("cold/sessions/pay.md", "---\nsummary: Salary bands\nsensitivity: confidential\n---\nBen earns a lot.\n")
	put(tiers.QuestionsPath, "---\nsensitivity: secret\n---\nWho holds the keys?\n")
	entry := func(ago time.Duration, summary string, paths ...string) {
		e := handoff.Entry{At: demoTime.Add(-ago), Op: "remember", Paths: paths, ChangeSummary: summary}
		if err := handoff.AppendLedger(mem, "/demo", e); err != nil {
			t.Fatal(err)
		}
	}
	entry(5*time.Hour, "edited the tiers", tiers.MainPath, tiers.TasksPath, tiers.ConfigPath)
	entry(4*time.Hour, "filed notes", "cold/notes/vat-rules.md", "cold/sessions/2026-11-17T10-00-00Z.md")
	entry(3*time.Hour, "stored the keys", "cold/sessions/keys.md")
	entry(2*time.Hour, "raised a band", "cold/sessions/pay.md", tiers.DecisionsPath)
	entry(time.Hour, "asked about keys", tiers.QuestionsPath)
	return mem
}

// bootOnce is what `wake load` does to a root: load the count cache and
// the cold index, build, save both.
func bootOnce(t *testing.T, fsys afero.Fs, enc *budget.Encoder) (*Context, *budget.Cache) {
	t.Helper()
	cache := OpenCache(fsys, "/demo", enc)
	idx := OpenColdIndex(fsys, "/demo", tiers.EncodingCL100K)
	cfg := tiers.DefaultConfig()
	ctx, err := Build(Options{FS: fsys, Root: "/demo", Config: cfg, Counter: cache, Now: func() time.Time { return demoTime }, ColdIndex: idx})
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveCache(fsys, "/demo", cache); err != nil {
		t.Fatal(err)
	}
	if err := SaveColdIndex(fsys, "/demo", idx); err != nil {
		t.Fatal(err)
	}
	return ctx, cache
}

// TestWarmStartTouches proves a warm start opens each file at most once,
// no cold document at all, writes nothing and does not load the tokenizer,
// and that the digest still applies the sensitivity policy.
func TestWarmStartTouches(t *testing.T) {
	t.Parallel()
	fsys := newTouchFS(warmRoot(t))
	first, _ := bootOnce(t, fsys, encoder(t))
	fsys.reset()
	enc := freshEncoder(t)
	ctx, _ := bootOnce(t, fsys, enc)
	if len(fsys.writes) > 0 {
		t.Errorf("a warm start wrote: %q", fsys.writes)
	}
	for name, n := range fsys.opens {
		rel := strings.TrimPrefix(name, "/demo/")
		switch {
		case strings.HasPrefix(rel, tiers.ColdDir+"/") && strings.HasSuffix(rel, ".md"):
			t.Errorf("a warm start opened the cold document %s %d times", rel, n)
		case n > 1:
			t.Errorf("a warm start opened %s %d times", rel, n)
		}
	}
	if fsys.opens["/demo/"+tiers.ConfigPath] > 0 {
		t.Error("a warm start opened wake.toml")
	}
	if enc.Built() {
		t.Error("a warm start loaded the tokenizer")
	}
	if ctx.Text() != first.Text() || ctx.Text() == "" {
		t.Fatal("a warm start rendered a different context")
	}
	d := ctx.Digest
	text := d.Text()
	if d.HeldBack != 2 || strings.Contains(text, "keys.md") || strings.Contains(text, "pay.md") ||
		!strings.Contains(text, "(confidential), "+tiers.DecisionsPath+": changed a confidential document") ||
		!strings.Contains(text, tiers.MainPath+", "+tiers.TasksPath+", "+tiers.ConfigPath+": edited the tiers") {
		t.Errorf("digest held %d:\n%s", d.HeldBack, text)
	}
}

// TestLedgerLevelsMatchHeads proves the levels Build gives the digest are
// the ones read from the files' heads.
func TestLedgerLevelsMatchHeads(t *testing.T) {
	t.Parallel()
	fsys := warmRoot(t)
	ctx, _ := bootOnce(t, fsys, encoder(t))
	level := ctx.ledgerLevels(Options{FS: fsys, Root: "/demo"})
	paths := []string{tiers.MainPath, tiers.TasksPath, tiers.QuestionsPath, tiers.ConfigPath, tiers.PreviousPath,
		"cold/sessions/keys.md", "cold/sessions/pay.md", "cold/notes/vat-rules.md", "cold/gone.md", "recent/", "../x.md"}
	for _, p := range paths {
		got, want := level(p), pathLevel(fsys, "/demo", p)
		if got != want && !(want == tiers.Internal && got == "") {
			t.Errorf("%s: level %q, its head says %q", p, got, want)
		}
	}
}

// TestMeasureRemembersOnlyTheContext proves Build leaves the measured text
// on the context and that the count cache keeps no whole context but it:
// no trial render with a guessed footer.
func TestMeasureRemembersOnlyTheContext(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	enc := encoder(t)
	cache := budget.NewCache(enc.Name(), enc, nil)
	ctx, err := Build(Options{FS: fsys, Root: "/demo", Config: tiers.DefaultConfig(), Counter: cache, Now: func() time.Time { return demoTime }})
	if err != nil {
		t.Fatal(err)
	}
	text := ctx.Text()
	if text != Markdown(ctx) || enc.Count(text) != ctx.Totals.Output {
		t.Fatalf("Text() is not the context counted in its footer (%d tokens)", ctx.Totals.Output)
	}
	var saved struct {
		Entries map[string]json.RawMessage `json:"entries"`
	}
	if err := json.Unmarshal(cache.Marshal(), &saved); err != nil {
		t.Fatal(err)
	}
	again := budget.NewCache(enc.Name(), budget.CounterFunc(func(string) int { return -1 }), cache.Marshal())
	if again.CountTransient(text) != ctx.Totals.Output {
		t.Error("the measured context is not remembered")
	}
	for _, out := range []int{0, ctx.Totals.Output - 1, ctx.Totals.Output + 1} {
		trial := *ctx
		trial.setOutput(out)
		if again.CountTransient(Markdown(&trial)) != -1 {
			t.Errorf("a trial context with %d in its footer was remembered", out)
		}
	}
}

// TestColdIndexUnchangedNotRewritten proves a start that reads a cold
// document modified within the racy window, but learns nothing the index
// would save, does not rewrite the index.
func TestColdIndexUnchangedNotRewritten(t *testing.T) {
	t.Parallel()
	mem := coldFS(t, []coldFile{
		{"cold/old.md", "# Old\n", time.Hour},
		{"cold/sessions/now.md", "# Just written\n", time.Second},
	})
	fsys := newTouchFS(mem)
	enc := encoder(t)
	for run := range 3 {
		fsys.reset()
		o := tocOptions(fsys, enc)
		o.ColdIndex = OpenColdIndex(fsys, "/r", o.Config.Encoding)
		buildTOC(t, o, 1000)
		if err := SaveColdIndex(fsys, "/r", o.ColdIndex); err != nil {
			t.Fatal(err)
		}
		if wrote := len(fsys.writes) > 0; wrote != (run == 0) {
			t.Errorf("run %d: writes %q", run, fsys.writes)
		}
		if n := fsys.opens["/r/cold/sessions/now.md"]; n != 1 {
			t.Errorf("run %d: the racy document opened %d times", run, n)
		}
	}
}

// TestWithheldIsExplicit proves a file cut to nothing by its tier's budget
// is shown as cut, not as withheld: only enforceMax withholds a file.
func TestWithheldIsExplicit(t *testing.T) {
	t.Parallel()
	f := &File{Path: tiers.TasksPath, Tokens: 40, Truncated: true, Omitted: &Omit{Blocks: 3, Tokens: 40}}
	var b strings.Builder
	writeFile(&b, f)
	if strings.Contains(b.String(), "withheld") || !strings.Contains(b.String(), "cut to 0") {
		t.Errorf("a cut file:\n%s", b.String())
	}
	f.withheld = true
	b.Reset()
	writeFile(&b, f)
	if !strings.Contains(b.String(), "(not shown: withheld: 40 tokens would pass the memory maximum)") {
		t.Errorf("a withheld file:\n%s", b.String())
	}
}

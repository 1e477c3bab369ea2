package boot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/countfn"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/internal/coldtree"
	"github.com/wakeproto/wake/internal/touchfs"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

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
		e := store.Entry{At: demoTime.Add(-ago), Op: "remember", Paths: paths, ChangeSummary: summary}
		if err := store.AppendLedger(mem, "/demo", e); err != nil {
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
	idx := cold.OpenIndex(fsys, "/demo", tiers.EncodingCL100K)
	cfg := tiers.DefaultConfig()
	ctx, err := Build(Options{FS: fsys, Root: "/demo", Config: cfg, Counter: cache, Now: func() time.Time { return demoTime }, ColdIndex: idx})
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveCache(fsys, "/demo", cache); err != nil {
		t.Fatal(err)
	}
	if err := cold.SaveIndex(fsys, "/demo", idx); err != nil {
		t.Fatal(err)
	}
	return ctx, cache
}

// TestWarmStartTouches proves a warm start opens each file at most once,
// no cold document at all, writes nothing and does not load the tokenizer,
// and that the digest still applies the sensitivity policy.
func TestWarmStartTouches(t *testing.T) {
	t.Parallel()
	fsys := touchfs.New(warmRoot(t))
	first, _ := bootOnce(t, fsys, encoder(t))
	fsys.Reset()
	enc := freshEncoder(t)
	ctx, _ := bootOnce(t, fsys, enc)
	if len(fsys.Writes()) > 0 {
		t.Errorf("a warm start wrote: %q", fsys.Writes())
	}
	for name, n := range fsys.Opens() {
		rel := strings.TrimPrefix(name, "/demo/")
		switch {
		case strings.HasPrefix(rel, tiers.ColdDir+"/") && strings.HasSuffix(rel, ".md"):
			t.Errorf("a warm start opened the cold document %s %d times", rel, n)
		case n > 1:
			t.Errorf("a warm start opened %s %d times", rel, n)
		}
	}
	if fsys.Opens()["/demo/"+tiers.ConfigPath] > 0 {
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
		got, want := level(p), policy.OfPath(fsys, "/demo", p)
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
	again := budget.NewCache(enc.Name(), countfn.Func(func(string) int { return -1 }), cache.Marshal())
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
	mem := coldtree.FS(t, []coldtree.File{
		{Path: "cold/old.md", Data: "# Old\n", Age: time.Hour},
		{Path: "cold/sessions/now.md", Data: "# Just written\n", Age: time.Second},
	})
	fsys := touchfs.New(mem)
	enc := encoder(t)
	for run := range 3 {
		fsys.Reset()
		o := tocOptions(fsys, enc)
		o.ColdIndex = cold.OpenIndex(fsys, "/r", o.Config.Encoding)
		mustTOC(t, o.Cold(), 1000)
		if err := cold.SaveIndex(fsys, "/r", o.ColdIndex); err != nil {
			t.Fatal(err)
		}
		if wrote := len(fsys.Writes()) > 0; wrote != (run == 0) {
			t.Errorf("run %d: writes %q", run, fsys.Writes())
		}
		if n := fsys.Opens()["/r/cold/sessions/now.md"]; n != 1 {
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

// TestColdIndexWarmRunOpensNothing proves the scale promise: once the index
// knows the cold documents, a build opens none of them and counts nothing,
// and a changed document is read again.
func TestColdIndexWarmRunOpensNothing(t *testing.T) {
	t.Parallel()
	fsys := touchfs.New(coldtree.FS(t, coldtree.Large()))
	first := encoder(t)
	cache := OpenCache(fsys, "/r", first)
	o := tocOptions(fsys, cache).Cold()
	o.Index = cold.OpenIndex(fsys, "/r", first.Name())
	want, _ := mustTOC(t, o, 1500)
	if len(fsys.FilesUnder("/cold/")) != 364 {
		t.Fatalf("cold run opened %d documents", len(fsys.FilesUnder("/cold/")))
	}
	if err := cold.SaveIndex(fsys, "/r", o.Index); err != nil {
		t.Fatal(err)
	}
	// Keep only the listing's own counts: the documents' counts must come
	// from the index, not from the content cache.
	listing := budget.NewCache(first.Name(), first, nil)
	o.Counter, o.Index = listing, cold.OpenIndex(fsys, "/r", first.Name())
	mustTOC(t, o, 1500)
	if err := SaveCache(fsys, "/r", listing); err != nil {
		t.Fatal(err)
	}

	warm := func() (*cold.TOC, *cold.Index, *budget.Encoder) {
		fsys.Reset()
		enc := freshEncoder(t)
		c := OpenCache(fsys, "/r", enc)
		o := tocOptions(fsys, c).Cold()
		o.Index = cold.OpenIndex(fsys, "/r", enc.Name())
		toc, _, err := cold.BuildTOC(o, 1500)
		if err != nil {
			t.Fatal(err)
		}
		return toc, o.Index, enc
	}
	got, idx, enc := warm()
	if len(fsys.FilesUnder("/cold/")) != 0 || enc.Built() || idx.Dirty() {
		t.Fatalf("warm run opened %v, built the encoder %v, dirty %v", fsys.FilesUnder("/cold/"), enc.Built(), idx.Dirty())
	}
	if got.Text() != want.Text() {
		t.Fatal("warm listing differs from the cold one")
	}

	// A changed document (new size) and a removed one.
	afero.WriteFile(fsys, "/r/cold/index.md", []byte("# Archive index, longer now\n"), 0o644)
	fsys.Remove("/r/cold/2023/01/note-00.md")
	_, idx, _ = warm()
	if len(fsys.FilesUnder("/cold/")) != 1 || fsys.FilesUnder("/cold/")["/r/cold/index.md"] != 1 || !idx.Dirty() {
		t.Fatalf("after a change: opened %v", fsys.FilesUnder("/cold/"))
	}
	cold.SaveIndex(fsys, "/r", idx)
	if data, _ := afero.ReadFile(fsys, filepath.Join("/r", tiers.StateDir, cold.IndexFile)); strings.Contains(string(data), "note-00.md\t") && strings.Contains(string(data), "cold/2023/01/note-00.md") {
		t.Fatal("the removed document is still in the index")
	}
}

func mustTOC(t *testing.T, o cold.Options, limit int) (*cold.TOC, []string) {
	t.Helper()
	toc, warns, err := cold.BuildTOC(o, limit)
	if err != nil {
		t.Fatal(err)
	}
	return toc, warns
}

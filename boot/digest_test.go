package boot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/coldtree"
	"github.com/wakeproto/wake/store"
)

// ledgerFS holds a ledger with one entry an hour for the 48 hours before
// tocT0, then a torn line.
func ledgerFS(t *testing.T) afero.Fs {
	t.Helper()
	fsys := afero.NewMemMapFs()
	for h := 48; h >= 1; h-- {
		e := store.Entry{At: tocT0.Add(-time.Duration(h) * time.Hour), Op: "decide", Paths: []string{"warm/decisions.md"}, ChangeSummary: fmt.Sprintf("decision made %dh ago", h)}
		if h%12 == 0 {
			e.Op, e.Paths = "handoff", []string{"main.md", "recent/latest.md", "recent/previous.md", "cold/sessions/x.md", "ledger.jsonl"}
		}
		if err := store.AppendLedger(fsys, "/r", e); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := fsys.OpenFile("/r/ledger.jsonl", 1|1024, 0o644) // O_WRONLY|O_APPEND
	f.Write([]byte(`{"at":"2026-11-22T03:2`))
	f.Close()
	return fsys
}

func TestDigestWindow(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	o := tocOptions(ledgerFS(t), enc)
	d, warns, err := BuildDigest(o)
	if err != nil {
		t.Fatal(err)
	}
	// The two hand-offs of the window (the trajectory shows them) are
	// counted, not listed.
	if d.Total != 24 || len(d.Entries) != 22 || d.Own != 2 || d.Unlisted != 0 || d.Window != "24h" || !d.Since.Equal(tocT0.Add(-24*time.Hour)) {
		t.Fatalf("digest: total %d listed %d own %d unlisted %d window %s since %s", d.Total, len(d.Entries), d.Own, d.Unlisted, d.Window, d.Since)
	}
	lines := strings.Split(strings.TrimSuffix(d.Text(), "\n"), "\n")
	if lines[0] != "- 2026-11-22 02:24Z decide warm/decisions.md: decision made 1h ago" ||
		lines[21] != "- 2026-11-21 04:24Z decide warm/decisions.md: decision made 23h ago" ||
		lines[22] != "- And 2 lines of hand-offs and wake's bookkeeping: `wake log --since 24h`" ||
		strings.Contains(d.Text(), "handoff") {
		t.Fatalf("lines, newest first:\n%s", d.Text())
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "ledger.jsonl:49: skipped an unreadable ledger line") {
		t.Fatalf("warnings: %v", warns)
	}
	if d.Tokens != enc.Count(d.Text()) {
		t.Fatal("token count is not exact")
	}

	// A configured window of 6 hours.
	o.Config.Digest.Window = 6 * time.Hour
	d, _, _ = BuildDigest(o)
	if d.Total != 6 || d.Window != "6h" || !strings.HasPrefix(d.Text(), "- 2026-11-22 02:24Z") {
		t.Fatalf("6h window: %d entries:\n%s", d.Total, d.Text())
	}
	// Later on the clock, nothing is in the window.
	o.Now = func() time.Time { return tocT0.Add(72 * time.Hour) }
	if d, _, _ = BuildDigest(o); d.Total != 0 || d.Text() != "" {
		t.Fatalf("stale ledger: %+v", d)
	}
}

// TestDigestBudget proves entries past the budget are counted, not listed,
// and the listing stays within its budget counted exactly.
func TestDigestBudget(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	o := tocOptions(ledgerFS(t), enc)
	for _, limit := range []int{200, 60, 30, 5, 0} {
		o.Config.Budget.Digest = limit
		d, _, err := BuildDigest(o)
		if err != nil {
			t.Fatal(err)
		}
		if d.Tokens > limit || d.Tokens != enc.Count(d.Text()) || len(d.Entries)+d.Unlisted+d.Own != 24 || d.Own != 2 {
			t.Fatalf("limit %d: %d tokens, %d listed, %d unlisted", limit, d.Tokens, len(d.Entries), d.Unlisted)
		}
		if d.Unlisted > 0 && d.Text() != "" && !strings.Contains(d.Text(), fmt.Sprintf("- %d changes more in the last 24h, not listed, and 2 lines of hand-offs and wake's bookkeeping: `wake log --since 24h`", d.Unlisted)) {
			t.Fatalf("limit %d: no count of the rest:\n%s", limit, d.Text())
		}
		if limit == 200 && (len(d.Entries) == 0 || d.Unlisted == 0) || limit == 0 && d.Text() != "" {
			t.Fatalf("limit %d: %d listed, %d unlisted", limit, len(d.Entries), d.Unlisted)
		}
	}
}

// TestLoadShowsColdAndDigest proves the boot context carries phase 4 and
// the digest, and that both give way, bottom up, when the whole context is
// over memory_max.
func TestLoadShowsColdAndDigest(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	fsys := ledgerFS(t)
	for _, f := range coldtree.Large() {
		afero.WriteFile(fsys, "/r/"+f.Path, []byte(f.Data), 0o644)
	}
	afero.WriteFile(fsys, "/r/main.md", []byte("# P\n\n## Purpose\nKeep the books.\n"), 0o644)
	o := tocOptions(fsys, enc)
	ctx, err := Build(o)
	if err != nil {
		t.Fatal(err)
	}
	md := ctx.Measure(enc)
	for _, want := range []string{"## Phase 4: cold (not loaded)", "Pull one with `wake cold PATH` (at most 20,000 tokens a session)", "- cold/ — 364 documents", "## Changes in the last 24h", "- 2026-11-22 02:24Z decide warm/decisions.md: decision made 1h ago", "| cold TOC | ", "| changes (24h) | "} {
		if !strings.Contains(md, want) {
			t.Errorf("context lacks %q", want)
		}
	}
	if !strings.Contains(strings.Join(ctx.Warnings, "\n"), "ledger.jsonl:49") {
		t.Errorf("the torn ledger line is not in the warnings: %v", ctx.Warnings)
	}
	if ctx.TOC == nil || ctx.Digest == nil {
		t.Fatal("the context lacks the TOC or the digest")
	}
	full := ctx.Totals.Output

	// A maximum just under the full context: the digest shrinks, the TOC
	// and main.md stay.
	o.Config.Budget.MemoryMax, o.Config.Budget.MemoryTarget = full-50, full-50
	ctx, _ = Build(o)
	md = ctx.Measure(enc)
	if n := enc.Count(md); n > full-50 || ctx.Digest.Unlisted == 0 || ctx.TOC.Omitted || ctx.Phases[0].Files[0].Truncated {
		t.Fatalf("max %d: %d tokens, digest unlisted %d, toc omitted %v", full-50, n, ctx.Digest.Unlisted, ctx.TOC.Omitted)
	}
	// Just room for the context without either: the digest goes, the TOC
	// folds to a line at most, main.md stays.
	bare := o
	bare.Config.Budget.TOC, bare.Config.Budget.Digest = 0, 0
	ctx, _ = Build(bare)
	base := ctx.Measure(enc)
	limit := enc.Count(base) + 30
	o.Config.Budget.MemoryMax, o.Config.Budget.MemoryTarget = limit, limit
	ctx, _ = Build(o)
	md = ctx.Measure(enc)
	if n := enc.Count(md); n > limit || ctx.Digest.Tokens != 0 || ctx.TOC.Tokens > 20 || !ctx.TOC.Squeezed || ctx.Phases[0].Files[0].Truncated ||
		!strings.Contains(md, "24 changes recorded, not listed") {
		t.Fatalf("max %d: %d tokens, digest %d, toc %d:\n%s", limit, n, ctx.Digest.Tokens, ctx.TOC.Tokens, md)
	}
	if !strings.Contains(ctx.Phases[0].Files[0].Content, "Keep the books.") {
		t.Fatal("main.md was cut while the TOC or the digest could give way")
	}
}

// TestDigestMergedLedger proves the digest selects by time: a ledger
// merged by hand, another clone's day-old lines after the window's, lists
// the window whole, newest first.
func TestDigestMergedLedger(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	for _, h := range []int{30, 20, 3, 2, 1, 40, 36} { // the last two: theirs, older
		e := store.Entry{At: tocT0.Add(-time.Duration(h) * time.Hour), Op: "decide", Paths: []string{"warm/decisions.md"}, ChangeSummary: fmt.Sprintf("decision made %dh ago", h)}
		if err := store.AppendLedger(fsys, "/r", e); err != nil {
			t.Fatal(err)
		}
	}
	d, _, err := BuildDigest(tocOptions(fsys, encoder(t)))
	if err != nil {
		t.Fatal(err)
	}
	want := "- 2026-11-22 02:24Z decide warm/decisions.md: decision made 1h ago\n" +
		"- 2026-11-22 01:24Z decide warm/decisions.md: decision made 2h ago\n" +
		"- 2026-11-22 00:24Z decide warm/decisions.md: decision made 3h ago\n" +
		"- 2026-11-21 07:24Z decide warm/decisions.md: decision made 20h ago\n"
	if d.Total != 4 || d.Text() != want {
		t.Fatalf("digest of %d entries:\n%s", d.Total, d.Text())
	}
}

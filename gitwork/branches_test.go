package gitwork

import (
	"context"
	"path/filepath"
	"testing"
)

// TestBranches: the branches in flight are the local branches not merged
// into the default one, newest first, each with how far it is ahead and
// behind and its last commit; merged branches and the default are not.
func TestBranches(t *testing.T) {
	if !Found() {
		t.Skip("git not found")
	}
	dir := t.TempDir()
	g := Git{Env: map[string]string{"HOME": dir, "GIT_CONFIG_GLOBAL": filepath.Join(dir, "global"), "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}}
	ctx := context.Background()
	run := func(date string, args ...string) {
		t.Helper()
		g.Env["GIT_COMMITTER_DATE"], g.Env["GIT_AUTHOR_DATE"] = date, date
		if _, err := g.Run(ctx, dir, args...); err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
	}
	d1, d2, d3, d4 := "2026-11-01T10:00:00Z", "2026-11-02T10:00:00Z", "2026-11-03T10:00:00Z", "2026-11-04T10:00:00Z"
	run(d1, "init", "-q", "-b", "main")
	run(d1, "commit", "-q", "--allow-empty", "-m", "start")
	run(d2, "checkout", "-q", "-b", "done")
	run(d2, "commit", "-q", "--allow-empty", "-m", "merged work")
	run(d2, "checkout", "-q", "main")
	run(d2, "merge", "-q", "--ff-only", "done")
	run(d2, "checkout", "-q", "-b", "csv-export")
	run(d2, "commit", "-q", "--allow-empty", "-m", "Export reports as CSV")
	run(d3, "commit", "-q", "--allow-empty", "-m", "CSV: quote fields")
	run(d3, "checkout", "-q", "main")
	run(d3, "commit", "-q", "--allow-empty", "-m", "on main")
	run(d4, "checkout", "-q", "-b", "vat-fix")
	run(d4, "commit", "-q", "--allow-empty", "-m", "Round VAT per invoice")

	bs := g.Branches(ctx, dir)
	if len(bs) != 2 {
		t.Fatalf("branches %+v, want vat-fix and csv-export", bs)
	}
	if b := bs[0]; b.Name != "vat-fix" || !b.Current || b.Ahead != 1 || b.Behind != 0 || b.Last != "Round VAT per invoice" || b.Status() != "1 ahead of main, 0 behind" {
		t.Errorf("first %+v (%s)", b, b.Status())
	}
	if b := bs[1]; b.Name != "csv-export" || b.Current || b.Ahead != 2 || b.Behind != 1 || b.Last != "CSV: quote fields" || b.LastDate.Format("2006-01-02") != "2026-11-03" {
		t.Errorf("second %+v", b)
	}
	if got := (Git{Env: g.Env}).Branches(ctx, t.TempDir()); got != nil {
		t.Errorf("not a work tree, yet %+v", got)
	}
}

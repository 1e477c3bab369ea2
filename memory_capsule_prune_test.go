package wake_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/capsule"
	"github.com/wakeproto/wake/store"
)

// TestPruneMergedBranches: prune --merged moves the capsules of a branch
// `git branch --merged` lists as merged into the default branch (main)
// to the archive, whatever their age, and nothing else: not those of an
// unmerged branch, of main, of the current branch, of a branch just made
// at main's commit, nor a file in a merged branch's capsule directory
// that is not a capsule wake named. Nothing is deleted.
func TestPruneMergedBranches(t *testing.T) {
	dir, m, git := capsuleProject(t)
	ctx := context.Background()
	git("branch", "main")
	git("checkout", "-q", "-b", "feat/a")
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644)
	git("add", "a.go")
	git("commit", "-qm", "a")
	git("checkout", "-q", "main")
	git("merge", "-q", "--no-ff", "-m", "merge a", "feat/a")
	git("checkout", "-q", "-b", "feat/b")
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("package b\n"), 0o644)
	git("add", "b.go")
	git("commit", "-qm", "b")
	git("checkout", "-q", "main")
	git("branch", "fresh")
	git("checkout", "-q", "feature/capsules") // merged into main, but current
	w, err := m.Capsule(ctx, wake.CapsuleOptions{Objective: "x"})
	if err != nil {
		t.Fatal(err)
	}
	fsys := afero.NewOsFs()
	stamp := filepath.Base(w.Path)
	for _, b := range []string{"feat/a", "feat/b", "main", "fresh"} {
		p := filepath.Join(m.Root(), filepath.FromSlash(capsule.Dir), filepath.FromSlash(capsule.BranchDir(b)), stamp)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := afero.WriteFile(fsys, p, w.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	notes := filepath.Join(m.Root(), filepath.FromSlash(capsule.Dir), "feat", "a", "notes.md")
	if err := os.WriteFile(notes, []byte("# my own notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dry, err := m.PruneCapsulesWith(ctx, wake.PruneOptions{Merged: true, DryRun: true})
	if err != nil || len(dry.Moves) != 1 || dry.Into != "main" {
		t.Fatalf("dry run: %+v, %v", dry, err)
	}
	p, err := m.PruneCapsulesWith(ctx, wake.PruneOptions{Merged: true})
	if err != nil {
		t.Fatal(err)
	}
	id := "feat/a/" + strings.TrimSuffix(stamp, ".md")
	if len(p.Moves) != 1 || p.Moves[0].ID != id || p.Moves[0].Merged != "feat/a" || p.Into != "main" || len(p.Merged) != 1 {
		t.Fatalf("prune --merged: %+v", p)
	}
	if _, err := os.Stat(filepath.Join(m.Root(), filepath.FromSlash(capsule.ArchivePathOf(id)))); err != nil {
		t.Errorf("the merged branch's capsule is not in the archive: %v", err)
	}
	if _, err := os.Stat(notes); err != nil {
		t.Errorf("prune moved a file of the user's: %v", err)
	}
	left, _ := m.Capsules(ctx, "", false)
	if len(left) != 4 {
		t.Errorf("left %+v, want the capsules of feature/capsules, feat/b, main and fresh", left)
	}
	es, _, _ := store.ReadLedger(fsys, m.Root())
	if e := es[len(es)-1]; e.Op != "capsule-prune" || !strings.Contains(e.ChangeSummary, "of branches merged into main") {
		t.Errorf("ledger line %+v", e)
	}
	if _, err := m.PruneCapsulesWith(ctx, wake.PruneOptions{Merged: true, Into: "nope"}); err == nil {
		t.Errorf("a default branch git does not know was taken")
	}
}

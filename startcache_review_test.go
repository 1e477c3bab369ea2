package wake

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/gitwork"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
)

// TestStartCacheHoldsAReviewSearchBriefly proves a start whose review of
// decisions asked git about the project's files is served from the start
// cache for a while only: git's answer is in no key, and a project file
// changed since shows in the review once projectSearchHolds has passed.
func TestStartCacheHoldsAReviewSearchBriefly(t *testing.T) {
	if !gitwork.Found() {
		t.Skip("no git")
	}
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	env := map[string]string{"HOME": filepath.Join(dir, "home"), "XDG_CONFIG_HOME": filepath.Join(dir, "home", ".config"), "GIT_CONFIG_NOSYSTEM": "1"}
	if _, err := (gitwork.Git{Env: env}).Run(ctx, dir, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	mainGo := filepath.Join(dir, "main.go")
	if err := os.WriteFile(mainGo, []byte("package main\n\nvar dryRun = flag.Bool(\"dry-run\", false, \"\")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	o := Options{FS: afero.NewOsFs(), Env: env, Locker: &memlock.Locker{}, Now: func() time.Time { return now }}
	root := filepath.Join(dir, ".wake")
	if _, err := Init(ctx, root, skeleton.Params{Agent: "Ava", Project: "deploy"}, o); err != nil {
		t.Fatal(err)
	}
	m, err := Open(root, o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Decide(ctx, store.NewDecision{What: "Keep the dry run", Why: "`--dry-run` guards the deploy"}); err != nil {
		t.Fatal(err)
	}
	start := func() (string, bool) {
		t.Helper()
		m, err := Open(root, o)
		if err != nil {
			t.Fatal(err)
		}
		built := false
		out, err := m.StartView(ctx, BootFiles{NoSkill: true}, View{Name: "review", Render: func(st *Start, _ afero.Fs, _ func(Notice)) (string, error) {
			built = true
			return st.Text, nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		return out, !built
	}
	const gone = "--dry-run, which no file of the project mentions"
	hit := false
	for range 3 {
		out, h := start()
		if strings.Contains(out, gone) {
			t.Fatal("the option is reported gone while main.go mentions it")
		}
		if hit = h; hit {
			break
		}
	}
	if !hit {
		t.Fatal("three starts in a row, none served from the cache")
	}
	if err := os.WriteFile(mainGo, []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	now = now.Add(projectSearchHolds - time.Minute)
	if out, hit := start(); !hit || strings.Contains(out, gone) {
		t.Errorf("within the time a review's search holds, the start was built (%v) or tells the option gone", !hit)
	}
	now = now.Add(2 * time.Minute)
	if out, hit := start(); hit || !strings.Contains(out, gone) {
		t.Errorf("once the review's search no longer holds, the start was served from the cache (%v) or does not tell the option gone", hit)
	}
}

package wake_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
)

// A kill at any point of `wake capsule prompt --stub` leaves, once the
// next wake command has run, either no stub or the whole stub with its
// one ledger line: never a stub without its line, never an empty one,
// and no record or temporary file. (issue 23: 161 kills left 9 complete
// stubs with no ledger line and one zero-byte capsule.)
func TestCapsuleStubCrashLeavesNoUnrecordedStub(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 11, 28, 7, 0, 0, 0, time.UTC)
	for at := 1; ; at++ {
		root := filepath.Join(t.TempDir(), ".wake")
		o := wake.Options{FS: afero.NewOsFs(), Env: map[string]string{"HOME": t.TempDir()}, Now: func() time.Time { return now }, Locker: &memlock.Locker{}}
		if _, err := wake.Init(ctx, root, skeleton.Params{Agent: "Ava", Project: "p"}, o); err != nil {
			t.Fatal(err)
		}
		crash := &crashFs{Fs: o.FS, at: at}
		co := o
		co.FS = crash
		m, err := wake.Open(root, co)
		if err != nil {
			t.Fatal(err)
		}
		crash.arm()
		_, err = m.CapsulePrompt(ctx, wake.CapsulePromptOptions{Stub: true})
		if !crash.died() {
			if err != nil {
				t.Fatal(err)
			}
			checkStubs(t, root, o, at, 1)
			return
		}
		if _, err := wake.Open(root, o); err != nil { // the next command recovers
			t.Fatalf("kill at op %d: the next open: %v", at, err)
		}
		// and one past StaleTempAge sweeps a temporary file the kill left.
		later := o
		later.Now = func() time.Time { return time.Now().Add(store.StaleTempAge + time.Minute) }
		wake.Recover(root, later)
		checkStubs(t, root, o, at, -1)
	}
}

// checkStubs fails unless every file under cold/capsules is a whole stub
// with exactly one capsule-stub ledger line, want of them (-1: 0 or 1), and
// the state directory holds no creation record and the tree no temporary
// file.
func checkStubs(t *testing.T, root string, o wake.Options, at, want int) {
	t.Helper()
	es, _, err := store.ReadLedger(o.FS, root)
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{}
	for _, e := range es {
		if e.Op == wake.OpCapsuleStub {
			lines[e.Paths[0]]++
		}
	}
	stubs := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case err != nil || d.IsDir():
		case strings.Contains(d.Name(), ".tmp-") || strings.HasPrefix(rel, ".state/creates/"):
			t.Errorf("kill at op %d: %s left", at, rel)
		case strings.HasPrefix(rel, "cold/capsules/"):
			stubs++
			if fi, _ := os.Stat(p); fi.Size() == 0 {
				t.Errorf("kill at op %d: %s is empty", at, rel)
			}
			if lines[rel] != 1 {
				t.Errorf("kill at op %d: %s has %d ledger lines", at, rel, lines[rel])
			}
		}
		return nil
	})
	if len(lines) != stubs || want >= 0 && stubs != want {
		t.Errorf("kill at op %d: %d stubs, ledger lines for %v", at, stubs, lines)
	}
}

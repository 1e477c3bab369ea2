package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// mountFs refuses, as the kernel does with EXDEV, a rename between two
// directories that it says are on different file systems: the one under
// prefix and the rest.
type mountFs struct {
	afero.Fs
	prefix string
}

func (m mountFs) Rename(from, to string) error {
	if strings.HasPrefix(from, m.prefix) != strings.HasPrefix(to, m.prefix) {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EXDEV}
	}
	return m.Fs.Rename(from, to)
}

// A .state/ on another file system does not wedge the root: the hand-off
// stages its summary beside recent/latest.md, so that every rename it
// makes stays in one directory tree. (issue 9: the hand-off committed,
// rotated, then failed installing latest.md, and every later load woke
// without recent context.)
func TestHandoffWithStateOnAnotherFileSystem(t *testing.T) {
	t.Parallel()
	fs, _ := faultRoot(t)
	mfs := mountFs{Fs: fs, prefix: filepath.Join(hoRoot, tiers.StateDir) + string(filepath.Separator)}
	s := storeOn(mfs, faultAt)
	for _, sum := range []string{"one", "two"} {
		if _, err := WriteSession(context.Background(), s, faultInput(sum)); err != nil {
			t.Fatalf("hand-off %s: %v", sum, err)
		}
	}
	checkConsistent(t, s, []string{"archived", "previous", "latest", "one", "two"})
}

// cold/sessions/ on another file system is found before the hand-off
// commits: it is refused naming the cause, nothing changes, and the root
// takes a hand-off again once the mount is gone.
func TestHandoffRefusesArchiveOnAnotherFileSystem(t *testing.T) {
	t.Parallel()
	fs, _ := faultRoot(t)
	mfs := mountFs{Fs: fs, prefix: filepath.Join(hoRoot, tiers.SessionsDir) + string(filepath.Separator)}
	before := memSnapshot(t, fs)
	_, err := WriteSession(context.Background(), storeOn(mfs, faultAt), faultInput("one"))
	if err == nil || !strings.Contains(err.Error(), "recent cannot be moved to cold/sessions") || !strings.Contains(err.Error(), "cross-device") {
		t.Fatalf("hand-off: %v", err)
	}
	if got := memSnapshot(t, fs); got != before {
		t.Fatalf("the root changed:\n%s\nwas\n%s", got, before)
	}
	s := storeOn(fs, faultAt)
	if _, err := WriteSession(context.Background(), s, faultInput("one")); err != nil {
		t.Fatal(err)
	}
	checkConsistent(t, s, []string{"archived", "previous", "latest", "one"})
}

// memSnapshot lists every file under the root with its content, in walk
// order.
func memSnapshot(t *testing.T, fs afero.Fs) string {
	t.Helper()
	var b strings.Builder
	afero.Walk(fs, hoRoot, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			data, _ := afero.ReadFile(fs, p)
			fmt.Fprintf(&b, "%s %q\n", p, data)
		}
		return nil
	})
	return b.String()
}

// An unwritable ledger is found before the decision log changes: decide
// fails with nothing written, and a retry once the ledger is mended records
// the decision once. (issue 9: decide changed the log, then exited
// "interrupted", and a retry duplicated the entry.)
func TestDecideChecksTheLedgerFirst(t *testing.T) {
	t.Parallel()
	fs, _ := faultRoot(t)
	s := storeOn(fs, faultAt)
	ledger := s.Path(tiers.LedgerPath)
	fs.Remove(ledger)
	fs.Mkdir(ledger, 0o755)
	before := memSnapshot(t, fs)
	if _, err := s.Decide(context.Background(), NewDecision{What: "Use TOML", Why: "it reads well"}); err == nil || !strings.Contains(err.Error(), "ledger.jsonl") {
		t.Fatalf("decide: %v", err)
	}
	if got := memSnapshot(t, fs); got != before {
		t.Fatalf("decide wrote something:\n%s", got)
	}
	if _, err := WriteSession(context.Background(), s, faultInput("one")); err == nil || !strings.Contains(err.Error(), "ledger.jsonl") {
		t.Fatalf("hand-off: %v", err)
	}
	if got := memSnapshot(t, fs); got != before {
		t.Fatalf("the hand-off wrote something:\n%s", got)
	}
	fs.Remove(ledger)
	if _, err := s.Decide(context.Background(), NewDecision{What: "Use TOML", Why: "it reads well"}); err != nil {
		t.Fatal(err)
	}
	log, _ := afero.ReadFile(fs, s.Path(tiers.DecisionsPath))
	if n := strings.Count(string(log), "Use TOML"); n != 1 {
		t.Fatalf("the decision is in the log %d times:\n%s", n, log)
	}
}

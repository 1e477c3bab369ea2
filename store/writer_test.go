package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/tiers"
)

// TestWriterIDRace: processes making the writer id of one root at once
// all end with the same id, the one in .state/writer, and leave no
// temporary behind.
func TestWriterIDRace(t *testing.T) {
	if root := os.Getenv("WAKE_TEST_WRITER_ROOT"); root != "" {
		id, err := WriterID(afero.NewOsFs(), root)
		if err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString("writer=" + id + "\n")
		return
	}
	t.Parallel()
	for round := range 3 {
		root := filepath.Join(t.TempDir(), ".wake")
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
		const procs = 4
		ids := make([]string, procs)
		var wg sync.WaitGroup
		for i := range procs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(os.Args[0], "-test.run=^TestWriterIDRace$")
				cmd.Env = append(os.Environ(), "WAKE_TEST_WRITER_ROOT="+root)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Errorf("round %d, process %d: %v\n%s", round, i, err, out)
					return
				}
				for _, line := range strings.Split(string(out), "\n") {
					if id, ok := strings.CutPrefix(line, "writer="); ok {
						ids[i] = id
					}
				}
			}()
		}
		wg.Wait()
		data, err := os.ReadFile(filepath.Join(root, tiers.StateDir, WriterFile))
		if err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSpace(string(data))
		for i, id := range ids {
			if id != want {
				t.Fatalf("round %d: process %d got writer %q, the file holds %q (all: %q)", round, i, id, want, ids)
			}
		}
		names, _ := os.ReadDir(filepath.Join(root, tiers.StateDir))
		for _, n := range names {
			if strings.Contains(n.Name(), ".tmp-") {
				t.Fatalf("round %d: a temporary was left: %s", round, n.Name())
			}
		}
	}
}

// TestWriterIDMadeOnce: the id is random, readable, kept, and given by
// Store.Writer only when the root has none; a damaged file is refused,
// naming it.
func TestWriterIDMadeOnce(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	a, err := WriterID(fs, "/a")
	if err != nil || !ValidWriter(a) || len(a) != writerLen {
		t.Fatalf("WriterID = %q, %v", a, err)
	}
	if again, _ := WriterID(fs, "/a"); again != a {
		t.Fatalf("the id changed: %q then %q", a, again)
	}
	if b, _ := WriterID(fs, "/b"); b == a {
		t.Fatalf("two roots share the id %q", a)
	}
	s := &Store{FS: fs, Root: "/c", Writer: "given"}
	if got, err := s.WriterID(); got != "given" || err != nil {
		t.Fatalf("Store.Writer given: %q, %v", got, err)
	}
	s.Writer = "other"
	if got, _ := s.WriterID(); got != "given" {
		t.Fatalf("a root that has an id took another: %q", got)
	}
	if ignore, err := afero.ReadFile(fs, "/a/.state/.gitignore"); err != nil || string(ignore) != StateIgnore {
		t.Fatalf(".state/.gitignore: %q, %v", ignore, err)
	}
	afero.WriteFile(fs, "/d/.state/writer", []byte("12 not an id\n"), 0o644)
	if _, err := WriterID(fs, "/d"); err == nil || !strings.Contains(err.Error(), ".state/writer:1:") {
		t.Fatalf("a damaged id: %v", err)
	}
	seen := map[string]bool{}
	for range 1000 {
		id := NewWriterID()
		if !ValidWriter(id) || seen[id] {
			t.Fatalf("NewWriterID gave %q (seen before: %v)", id, seen[id])
		}
		seen[id] = true
	}
}

// TestLedgerAndRecordCarryWriter: a ledger line and a session record's
// name carry the writer id.
func TestLedgerAndRecordCarryWriter(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	at := time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC)
	s := &Store{FS: fs, Root: "/r", Now: func() time.Time { return at }, Locker: &memlock.Locker{}, Writer: "k3f9qa"}
	res, err := WriteSession(context.Background(), s, hoInput("one"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Record != "cold/sessions/2026-11-22T03-24-20Z-k3f9qa.md" {
		t.Fatalf("record %q", res.Record)
	}
	es, _, err := ReadLedger(fs, "/r")
	if err != nil || len(es) == 0 || es[len(es)-1].Writer != "k3f9qa" {
		t.Fatalf("ledger: %+v, %v", es, err)
	}
	// A line written without a store is given the root's id.
	if err := AppendLedger(fs, "/r", Entry{At: at, Op: "x", ChangeSummary: "y"}); err != nil {
		t.Fatal(err)
	}
	if es, _, _ := ReadLedger(fs, "/r"); es[len(es)-1].Writer != "k3f9qa" {
		t.Fatalf("a free line's writer: %q", es[len(es)-1].Writer)
	}
}

//go:build unix

package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/tiers"
)

// A creation with its ledger line, crashed at any operation and then
// recovered, ends as nothing or as the whole file with exactly one line,
// with no record and no temporary file left; the recovery says which. The
// clock has a fraction of a second, which the ledger drops: recovery must
// still find the line the creation wrote.
func TestCreateLoggedCrashRecovers(t *testing.T) {
	t.Parallel()
	now := func() time.Time { return time.Date(2026, 11, 28, 7, 0, 0, 123456789, time.UTC) }
	data := []byte("---\ncapsule: stub\n---\n")
	rel := "cold/capsules/main/x.md"
	for at := 1; ; at++ {
		root := filepath.Join(t.TempDir(), ".wake")
		os.MkdirAll(filepath.Join(root, tiers.StateDir), 0o755)
		f := &faultFs{Fs: afero.NewOsFs(), failAt: at, crash: true}
		s := &Store{FS: linkFaultFs{f}, Root: root, Now: now, Locker: &memlock.Locker{}, Writer: "wtest"}
		err := s.CreateLogged(context.Background(), func() (NewFile, error) {
			return NewFile{Path: rel, Data: data, Entry: Entry{Op: "capsule-stub", Paths: []string{rel}, ChangeSummary: "stub " + rel}}, nil
		})
		done := at > len(f.ops)
		clean := &Store{FS: afero.NewOsFs(), Root: root, Now: now, Locker: &memlock.Locker{}, Writer: "wtest"}
		rec, rerr := Recover(context.Background(), clean)
		if rerr != nil {
			t.Fatalf("crash at op %d: recovery: %v", at, rerr)
		}
		got, ferr := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		es, _, _ := ReadLedger(clean.FS, root)
		switch {
		case errors.Is(ferr, os.ErrNotExist) && len(es) == 0:
			if done {
				t.Fatalf("no fault left, yet nothing created: %v", err)
			}
		case string(got) != string(data) || len(es) != 1:
			t.Fatalf("crash at op %d (%v): file %q, %d ledger lines", at, f.ops, got, len(es))
		}
		for _, r := range rec {
			if msg := r.String(); !strings.Contains(msg, rel) && !strings.Contains(msg, "torn record") {
				t.Errorf("crash at op %d: recovery says %q", at, msg)
			}
		}
		if names, _ := os.ReadDir(filepath.Join(root, tiers.StateDir, CreatesDir)); len(names) > 0 && !strings.Contains(names[0].Name(), ".tmp-") {
			t.Fatalf("crash at op %d: record left: %v", at, names)
		}
		if names, _ := os.ReadDir(filepath.Dir(filepath.Join(root, filepath.FromSlash(rel)))); len(names) > 1 {
			t.Fatalf("crash at op %d: left beside the file: %v", at, names)
		}
		if done {
			if err != nil {
				t.Fatal(err)
			}
			return
		}
	}
}

// A record naming a temporary file that is not the creation's own (a
// cloned repository's) is refused, and nothing is removed.
func TestCreateRecordFromElsewhereRefused(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), ".wake")
	os.MkdirAll(filepath.Join(root, tiers.StateDir, CreatesDir), 0o755)
	os.WriteFile(filepath.Join(root, "main.md"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(root, tiers.StateDir, CreatesDir, "0123456789ab.json"),
		[]byte(`{"version":1,"path":"x.md","temp":"../main.md","sha256":"00","ledger":{"op":"x","change_summary":"y"}}`), 0o644)
	s := &Store{FS: afero.NewOsFs(), Root: root, Now: time.Now, Locker: &memlock.Locker{}, Writer: "wtest"}
	if _, err := Recover(context.Background(), s); err == nil || !strings.Contains(err.Error(), "not a temporary name") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "main.md")); string(b) != "mine" {
		t.Fatal("main.md touched")
	}
}

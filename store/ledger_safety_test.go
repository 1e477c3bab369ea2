package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// TestLedgerOutsideOrIrregular proves wake neither reads nor appends to a
// ledger that is a symlink out of the root or not a regular file, and says
// which file and why; a link to a ledger inside the root is still used.
func TestLedgerOutsideOrIrregular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, outside := filepath.Join(dir, "root"), filepath.Join(dir, "outside.jsonl")
	os.MkdirAll(filepath.Join(root, ".state"), 0o755)
	line := `{"at":"2026-11-22T03:24:20Z","op":"decide","paths":[],"change_summary":"outside"}` + "\n"
	os.WriteFile(outside, []byte(line), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "ledger.jsonl")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	fs := afero.NewOsFs()
	if _, _, err := ReadLedger(fs, root); err == nil || !strings.Contains(err.Error(), "ledger.jsonl: not read: symlink ledger.jsonl leads outside the memory root") {
		t.Errorf("read through a link out of the root: %v", err)
	}
	if _, _, err := ReadLedgerSince(fs, root, ledgerT0); err == nil || !strings.Contains(err.Error(), "leads outside the memory root") {
		t.Errorf("read since through a link out of the root: %v", err)
	}
	err := AppendLedger(fs, root, ledgerEntry(1))
	if err == nil || !strings.Contains(err.Error(), "ledger.jsonl: not appended to: ledger.jsonl is a symlink (to "+outside+"); wake does not write through symlinks") {
		t.Errorf("append through a link out of the root: %v", err)
	}
	if data, _ := os.ReadFile(outside); string(data) != line {
		t.Errorf("the outside file was changed: %q", data)
	}

	// A link that stays inside the root is read through, never appended
	// through: wake writes through no symlink.
	os.Remove(filepath.Join(root, "ledger.jsonl"))
	os.MkdirAll(filepath.Join(root, ".state"), 0o755)
	os.WriteFile(filepath.Join(root, ".state", "ledger.jsonl"), []byte(line), 0o644)
	os.Symlink(".state/ledger.jsonl", filepath.Join(root, "ledger.jsonl"))
	if err := AppendLedger(fs, root, ledgerEntry(1)); err == nil || !strings.Contains(err.Error(), "is a symlink (to .state/ledger.jsonl)") {
		t.Fatalf("append through a link inside the root: %v", err)
	}
	if got, _, err := ReadLedger(fs, root); err != nil || len(got) != 1 {
		t.Fatalf("read through a link inside the root: %v %v", got, err)
	}

	// A directory is neither read nor appended to.
	os.Remove(filepath.Join(root, "ledger.jsonl"))
	os.Mkdir(filepath.Join(root, "ledger.jsonl"), 0o755)
	if _, _, err := ReadLedger(fs, root); err == nil || err.Error() != "ledger.jsonl: not read: is a directory" {
		t.Errorf("read a directory: %v", err)
	}
	if err := AppendLedger(fs, root, ledgerEntry(2)); err == nil || err.Error() != "ledger.jsonl: not appended to: is a directory" {
		t.Errorf("append to a directory: %v", err)
	}
}

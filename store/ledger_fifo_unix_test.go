//go:build unix

package store

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// TestLedgerFIFO proves a named pipe at ledger.jsonl is refused at once:
// reading it would block until a writer came, and appending would pour
// the entry into a pipe.
func TestLedgerFIFO(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "ledger.jsonl"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan [2]error, 1)
	go func() {
		_, _, rerr := ReadLedger(afero.NewOsFs(), root)
		done <- [2]error{rerr, AppendLedger(afero.NewOsFs(), root, ledgerEntry(1))}
	}()
	select {
	case errs := <-done:
		if errs[0] == nil || errs[0].Error() != "ledger.jsonl: not read: not a regular file (named pipe)" {
			t.Errorf("read: %v", errs[0])
		}
		if errs[1] == nil || errs[1].Error() != "ledger.jsonl: not appended to: not a regular file (named pipe)" {
			t.Errorf("append: %v", errs[1])
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the ledger FIFO blocked")
	}
}

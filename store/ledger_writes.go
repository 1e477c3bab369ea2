package store

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// ledgerWrites reads the ledger past offset from and returns, for each
// path an entry there names (edit entries aside: they record what wake
// did not write), the offset just past the last such entry. A ledger
// shorter than from was cut since: nothing in it can be told apart, and
// nothing is returned.
func ledgerWrites(fsys afero.Fs, root string, from int64) (map[string]int64, error) {
	f, err := openLedger(fsys, root, false)
	if err != nil || f == nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, &ledgerError{tiers.LedgerPath, "not read", err}
	}
	if from > fi.Size() {
		return nil, nil
	}
	data, err := io.ReadAll(io.NewSectionReader(f, from, fi.Size()-from))
	if err != nil {
		return nil, &ledgerError{tiers.LedgerPath, "not read", err}
	}
	out := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	end := from
	for sc.Scan() {
		end += int64(len(sc.Bytes())) + 1
		e, ok, _ := parseLine(sc.Bytes(), 0)
		if !ok || e.Op == OpEdit {
			continue
		}
		for _, p := range e.Paths {
			out[path.Clean(p)] = end
		}
	}
	return out, nil
}

// ledgerSize is the ledger's size in bytes: 0 when it does not exist.
func ledgerSize(fsys afero.Fs, root string) (int64, error) {
	f, err := openLedger(fsys, root, false)
	if err != nil || f == nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("reading %s: %w", tiers.LedgerPath, err)
	}
	return fi.Size(), nil
}

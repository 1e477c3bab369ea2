package handoff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// Entry is one line of ledger.jsonl (DESIGN section 5).
type Entry struct {
	At            time.Time `json:"at"`
	Op            string    `json:"op"`
	Paths         []string  `json:"paths"`
	ChangeSummary string    `json:"change_summary"`
	Summary       string    `json:"summary,omitempty"`
}

// Validate checks that the entry can be written.
func (e Entry) Validate() error {
	switch {
	case e.Op == "":
		return errors.New("ledger entry: op is required")
	case strings.TrimSpace(e.ChangeSummary) == "":
		return errors.New("ledger entry: change_summary is required")
	case strings.ContainsAny(e.ChangeSummary, "\r\n"):
		return errors.New("ledger entry: change_summary must be one line")
	case strings.ContainsAny(e.Summary, "\r\n"):
		return errors.New("ledger entry: summary must be one line")
	}
	return nil
}

// AppendLedger appends one entry to <root>/ledger.jsonl and syncs it. A
// torn last line left by a crash is closed with a newline first, so it
// stays one bad line rather than spoiling the new one.
func AppendLedger(fsys afero.Fs, root string, e Entry) error {
	if err := e.Validate(); err != nil {
		return err
	}
	e.At = e.At.UTC().Truncate(time.Second)
	if e.Paths == nil {
		e.Paths = []string{}
	}
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	name := filepath.Join(root, tiers.LedgerPath)
	f, err := fsys.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("opening %s: %w", tiers.LedgerPath, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("opening %s: %w", tiers.LedgerPath, err)
	}
	if fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err != nil && err != io.EOF {
			return fmt.Errorf("reading %s: %w", tiers.LedgerPath, err)
		}
		if last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	line = append(line, '\n')
	if _, err := f.Write(line); err != nil {
		return fmt.Errorf("appending to %s: %w", tiers.LedgerPath, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", tiers.LedgerPath, err)
	}
	return f.Close()
}

// BadLine is a ledger line that could not be parsed.
type BadLine struct {
	Line int
	Err  string
}

// ReadLedger parses <root>/ledger.jsonl in file order. Unparseable lines are
// returned as BadLines, never as an error; a missing ledger is empty.
func ReadLedger(fsys afero.Fs, root string) ([]Entry, []BadLine, error) {
	data, err := afero.ReadFile(fsys, filepath.Join(root, tiers.LedgerPath))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", tiers.LedgerPath, err)
	}
	var out []Entry
	var bad []BadLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil {
			bad = append(bad, BadLine{Line: n, Err: err.Error()})
			continue
		}
		if err := e.Validate(); err != nil || e.At.IsZero() {
			bad = append(bad, BadLine{Line: n, Err: "missing at, op or change_summary"})
			continue
		}
		out = append(out, e)
	}
	return out, bad, nil
}

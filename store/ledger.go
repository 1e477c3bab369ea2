package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// DecisionOps are the ledger's operations on the decision log that a
// session's work includes.
var DecisionOps = map[string]bool{"decide": true, "reverse": true, "contest": true, "uphold": true}

// Entry is one line of ledger.jsonl (DESIGN section 5).
type Entry struct {
	At            time.Time `json:"at"`
	Op            string    `json:"op"`
	Paths         []string  `json:"paths"`
	ChangeSummary string    `json:"change_summary"`
	Summary       string    `json:"summary,omitempty"`
	// DecisionIDs are the IDs of the decision-log entries the mutation
	// wrote: those it added, annotated or gave an ID. Together they are
	// every entry wake ever wrote, so that one missing from the log can be
	// found without wake's state directory ([WrittenDecisionIDs]).
	DecisionIDs []string `json:"decision_ids,omitempty"`
	// Sensitivity is the level the entry's documents had when it was
	// written, when that is confidential or secret: for a document that
	// may be gone by the time the entry is shown, so that its level can no
	// longer be read from its head (an edit entry of a deleted secret
	// document). Outputs take the stricter of it and the level read now.
	Sensitivity string `json:"sensitivity,omitempty"`
	// Auto marks a hand-off wake wrote itself, from the session's
	// transcript, because the session ended without one (wake handoff
	// --auto). Older wakes read the line as any hand-off's.
	Auto bool `json:"auto,omitempty"`
	// Session is the client's id of the session a hand-off was written for
	// (the hook's, or the one its client put in the environment), so that
	// it is told from another session's ([SessionHandoffs]); on a
	// decision's line, the session whose command or MCP tool made it,
	// when its client put one in the environment.
	Session string `json:"session,omitempty"`
	// Writer is the writer id of the clone or worktree that wrote the line
	// ([WriterID]), so that lines from two clones merged into one ledger
	// are told apart. Lines older wakes wrote have none.
	Writer string `json:"writer,omitempty"`
}

// Validate checks that the entry can be written: an op of one word, a
// one-line change_summary, and a summary, when present, of one line.
func (e Entry) Validate() error {
	switch {
	case e.Op == "":
		return errors.New("ledger entry: op is required")
	case strings.ContainsAny(e.Op, " \t\r\n"):
		return fmt.Errorf("ledger entry: op %q must be one word", e.Op)
	case strings.TrimSpace(e.ChangeSummary) == "":
		return errors.New("ledger entry: change_summary is required")
	case strings.ContainsAny(e.ChangeSummary, "\r\n"):
		return errors.New("ledger entry: change_summary must be one line")
	case strings.ContainsAny(e.Summary, "\r\n"):
		return errors.New("ledger entry: summary must be one line")
	case strings.ContainsAny(e.Session, "\r\n"):
		return errors.New("ledger entry: session must be one line")
	case e.Writer != "" && !ValidWriter(e.Writer):
		return fmt.Errorf("ledger entry: writer %q is not a writer id", e.Writer)
	case e.Sensitivity != "" && e.Sensitivity != tiers.Confidential && e.Sensitivity != tiers.Secret:
		return fmt.Errorf("ledger entry: sensitivity %q is neither %s nor %s", e.Sensitivity, tiers.Confidential, tiers.Secret)
	}
	return nil
}

// AppendLedger appends one entry to <root>/ledger.jsonl and syncs it. A
// torn last line left by a crash is closed with a newline first, so it
// stays one bad line rather than spoiling the new one. The line is the
// entry as the ledger may keep it: no text of a held-back document, and
// no secret-looking string (see [sealed]).
//
// The entry is wake's own account of a change, so wake's record of the
// memory files it names ([SeenFile]) is then brought up to date: the next
// session start does not take the change for an edit by hand.
//
// An entry without a writer id is given the root's ([WriterID]).
func AppendLedger(fsys afero.Fs, root string, e Entry) error {
	if e.Writer == "" {
		w, err := WriterID(fsys, root)
		if err != nil {
			return err
		}
		e.Writer = w
	}
	if err := appendLedger(fsys, root, e); err != nil {
		return err
	}
	noteOwnWrite(fsys, root, e)
	return nil
}

func appendLedger(fsys afero.Fs, root string, e Entry) error {
	if err := e.Validate(); err != nil {
		return err
	}
	e = sealed(fsys, root, e)
	e.At = e.At.UTC().Truncate(time.Second)
	if e.Paths == nil {
		e.Paths = []string{}
	}
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return appendLine(fsys, root, tiers.LedgerPath, line)
}

// appendLine appends line and a newline to the JSON-lines file rel under
// the root (the ledger, the subagent registry), creating it, and syncs
// it. A torn last line left by a crash is closed with a newline first.
// Only a regular file inside the root is appended to (see [openJSONL]).
func appendLine(fsys afero.Fs, root, rel string, line []byte) error {
	f, err := openJSONL(fsys, root, rel, true)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("opening %s: %w", rel, err)
	}
	if fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err != nil && err != io.EOF {
			return fmt.Errorf("reading %s: %w", rel, err)
		}
		if last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	line = append(line, '\n')
	if _, err := f.Write(line); err != nil {
		return fmt.Errorf("appending to %s: %w", rel, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", rel, err)
	}
	return f.Close()
}

// BadLine is a ledger line that could not be parsed: torn by a crash
// mid-append or edited by hand.
type BadLine struct {
	Line int    `json:"line"`
	Err  string `json:"error"`
}

// String describes the line for a warning.
func (b BadLine) String() string {
	return fmt.Sprintf("%s:%d: skipped an unreadable ledger line (torn or edited by hand): %s", tiers.LedgerPath, b.Line, b.Err)
}

// ReadLedger parses <root>/ledger.jsonl in file order. Unparseable lines are
// returned as BadLines, never as an error; a missing ledger is empty.
func ReadLedger(fsys afero.Fs, root string) ([]Entry, []BadLine, error) {
	data, err := readLedgerFile(fsys, root)
	if err != nil || data == nil {
		return nil, nil, err
	}
	var out []Entry
	var bad []BadLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for n := 1; sc.Scan(); n++ {
		e, ok, b := parseLine(sc.Bytes(), n)
		switch {
		case b != nil:
			bad = append(bad, *b)
		case ok:
			out = append(out, e)
		}
	}
	return out, bad, nil
}

// ReadLedgerSince returns the entries stamped at or after since, oldest
// first (lines of one time in file order), with the bad lines met among
// them. It selects by time, not by the lines' place: a ledger merged by
// hand, with another clone's older lines after newer ones, or written
// under a clock set back, gives the same window as one in order. The cost
// depends on the window, not on the ledger's age: the ledger's runs in
// time order are kept in the state directory ([LedgerRunsFile]), and of
// each run whose newest line is in the window only the tail is read, a
// growing block at a time from its end. A bad line is in the window when
// the readable line before it is (with none before it, the one after it;
// with none after it, always: a torn append is the newest line); one met
// in a tail has the whole ledger read, to number it.
func ReadLedgerSince(fsys afero.Fs, root string, since time.Time) ([]Entry, []BadLine, error) {
	out, whole, err := readLedgerTail(fsys, root, since)
	if err != nil || !whole {
		return out, nil, err
	}
	data, err := readLedgerFile(fsys, root)
	if err != nil || data == nil {
		return nil, nil, err
	}
	return ledgerSince(data, since)
}

// ledgerTailBlock is the first block [readLedgerTail] reads: about a day
// of a busy ledger. Each further block doubles it.
const ledgerTailBlock = 32 << 10

// readLedgerTail is [ReadLedgerSince] reading the tails of the ledger's
// runs. It reports whole when a tail holds a bad line, or when the file
// did not read as it stated its size (cut while read): then it returns no
// entries and the caller reads the ledger whole.
func readLedgerTail(fsys afero.Fs, root string, since time.Time) (out []Entry, whole bool, err error) {
	f, err := openLedger(fsys, root, false)
	if err != nil || f == nil {
		return nil, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, &ledgerError{tiers.LedgerPath, "not read", err}
	}
	runs, err := ledgerRunsOf(fsys, root, f, fi)
	if err != nil {
		return nil, true, nil
	}
	if len(runs) == 0 {
		// No line with a time: the whole file is one region.
		runs = []ledgerRun{{start: 0, last: since}}
	}
	var tails [][]Entry
	end := fi.Size()
	for i := len(runs) - 1; i >= 0; i-- {
		r := runs[i]
		// The last run is read even when older than the window: a bad
		// line after every entry (an append a crash tore) is the newest.
		if !r.last.Before(since) || i == len(runs)-1 {
			tail, whole := tailSince(f, r.start, end, since)
			if whole {
				return nil, true, nil
			}
			tails = append(tails, tail)
		}
		end = r.start
	}
	for i := len(tails) - 1; i >= 0; i-- {
		out = append(out, tails[i]...)
	}
	if len(tails) > 1 {
		slices.SortStableFunc(out, func(a, b Entry) int { return a.At.Compare(b.At) })
	}
	return out, false, nil
}

// tailSince returns, in file order, the entries of f between lo and hi,
// a run of lines in time order, from the last back to the first older
// than since. whole is set when a bad line is met, or f did not read.
func tailSince(f afero.File, lo, hi int64, since time.Time) (out []Entry, whole bool) {
	// buf holds the file from off to hi; end is where in buf the lines
	// not yet parsed end.
	off := hi
	var buf []byte
	end := 0
	block := int64(ledgerTailBlock)
	if off > lo {
		var err error
		if buf, err = readBlock(f, off-min(block, off-lo), off); err != nil {
			return nil, true
		}
		off -= int64(len(buf))
		end = len(buf)
		if buf[end-1] == '\n' {
			end--
		}
	}
	for {
		i := bytes.LastIndexByte(buf[:end], '\n')
		if i < 0 && off > lo {
			block *= 2
			more, err := readBlock(f, off-min(block, off-lo), off)
			if err != nil {
				return nil, true
			}
			off -= int64(len(more))
			buf = append(more, buf...)
			end += len(more)
			continue
		}
		e, ok, b := parseLine(buf[i+1:end], 0)
		if b != nil {
			return nil, true
		}
		if ok {
			if e.At.Before(since) {
				break
			}
			out = append(out, e)
		}
		if i < 0 {
			break
		}
		end = i
	}
	slices.Reverse(out)
	return out, false
}

// readBlock reads the bytes of f from from to to, all of them or an error.
func readBlock(f afero.File, from, to int64) ([]byte, error) {
	b := make([]byte, to-from)
	if _, err := f.ReadAt(b, from); err != nil {
		return nil, err
	}
	return b, nil
}

// ledgerSince is [ReadLedgerSince] on the ledger's whole text.
func ledgerSince(data []byte, since time.Time) ([]Entry, []BadLine, error) {
	var out []Entry
	var bad, pending []BadLine // pending: bad lines before the first entry
	seen, inWindow := false, false
	lines := bytes.Split(data, []byte{'\n'})
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	for n, line := range lines {
		e, ok, b := parseLine(line, n+1)
		switch {
		case b != nil && !seen:
			pending = append(pending, *b)
		case b != nil && inWindow:
			bad = append(bad, *b)
		case ok:
			inWindow = !e.At.Before(since)
			if !seen && inWindow {
				bad = append(bad, pending...)
			}
			seen = true
			if inWindow {
				out = append(out, e)
			}
		}
	}
	if !seen {
		bad = pending
	}
	// Bad lines after every entry are the newest (an append a crash
	// tore): in the window whatever it is.
	if seen && !inWindow {
		for n := len(lines) - 1; n >= 0; n-- {
			_, ok, b := parseLine(lines[n], n+1)
			if ok {
				break
			}
			if b != nil {
				bad = append(bad, *b)
			}
		}
		slices.SortFunc(bad, func(a, b BadLine) int { return a.Line - b.Line })
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return a.At.Compare(b.At) })
	return out, bad, nil
}

// readLedgerFile reads the ledger whole; a missing ledger is nil. A ledger
// that is a symlink out of the root, or not a regular file (a directory, a
// FIFO that would block the read), is an error naming it.
func readLedgerFile(fsys afero.Fs, root string) ([]byte, error) {
	f, err := openLedger(fsys, root, false)
	if err != nil || f == nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, &ledgerError{tiers.LedgerPath, "not read", err}
	}
	return data, nil
}

// openLedger opens the ledger for reading, or for appending (creating it)
// when write is set. Only a regular file inside the root is opened: a
// symlink out of the root is refused both ways, so wake neither shows an
// outside file as its history nor appends to one. A missing ledger opened
// for reading is nil, without an error.
func openLedger(fsys afero.Fs, root string, write bool) (afero.File, error) {
	return openJSONL(fsys, root, tiers.LedgerPath, write)
}

// openJSONL is [openLedger] for the JSON-lines file rel under the root.
func openJSONL(fsys afero.Fs, root, rel string, write bool) (afero.File, error) {
	verb := "not read"
	if write {
		verb = "not appended to"
	}
	fail := func(why string) error { return &ledgerError{rel, verb, errors.New(why)} }
	name := filepath.Join(root, filepath.FromSlash(rel))
	var ue *UnsafePathError
	if err := CheckWritable(fsys, root, rel); write && errors.As(err, &ue) && ue.Target != "" {
		return nil, fail(fmt.Sprintf("%s is a symlink (to %s); wake does not write through symlinks", ue.Rel, ue.Target))
	}
	reason, err := tiers.Inside(fsys, root, rel)
	switch {
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, &ledgerError{rel, verb, err}
	case reason != "":
		return nil, fail(reason)
	}
	fi, err := fsys.Stat(name)
	switch {
	case errors.Is(err, os.ErrNotExist) && !write:
		return nil, nil
	case err == nil && tiers.NotRegular(fi) != "":
		return nil, fail(tiers.NotRegular(fi))
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, &ledgerError{rel, verb, err}
	}
	var f afero.File
	if write {
		f, err = fsys.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	} else {
		f, err = fsys.Open(name)
	}
	if errors.Is(err, os.ErrNotExist) && !write {
		return nil, nil
	}
	if err != nil {
		return nil, &ledgerError{rel, verb, err}
	}
	return f, nil
}

// CheckLedgerWritable reports whether a line could be appended to the
// ledger now: it is a regular file in the root, not a symlink, that opens
// for appending, or it is missing and would be created. A mutation checks
// it before its commit point.
func CheckLedgerWritable(fsys afero.Fs, root string) error {
	if _, err := fsys.Stat(filepath.Join(root, tiers.LedgerPath)); errors.Is(err, os.ErrNotExist) {
		return CheckWritable(fsys, root, tiers.LedgerPath)
	}
	f, err := openLedger(fsys, root, true)
	if err != nil {
		return err
	}
	return f.Close()
}

// ledgerError names the ledger and what was not done, with the cause
// shorn of its absolute path; the cause stays reachable with errors.Is.
type ledgerError struct {
	rel  string // the file: tiers.LedgerPath, or another JSON-lines file
	verb string
	err  error
}

func (e *ledgerError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.rel, e.verb, tiers.Cause(e.err))
}

func (e *ledgerError) Unwrap() error { return e.err }

// parseLine parses line n. ok is false for a blank line; bad is set for a
// line that is not a valid entry.
func parseLine(raw []byte, n int) (e Entry, ok bool, bad *BadLine) {
	line := bytes.TrimSpace(raw)
	if len(line) == 0 {
		return e, false, nil
	}
	if err := json.Unmarshal(line, &e); err != nil {
		return e, false, &BadLine{Line: n, Err: err.Error()}
	}
	if e.At.IsZero() {
		return e, false, &BadLine{Line: n, Err: "no \"at\" time"}
	}
	if err := e.Validate(); err != nil {
		return e, false, &BadLine{Line: n, Err: strings.TrimPrefix(err.Error(), "ledger entry: ")}
	}
	return e, true, nil
}

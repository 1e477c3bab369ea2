package store

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/afero"
)

// LedgerRunsFile, in the state directory, keeps where the ledger is in
// time order: the ledger's runs, each a stretch of lines whose times never
// go back, with the newest time stamped in it. Lines are appended in time
// order, so a ledger is one run, until a merge resolved by hand puts
// another clone's older lines after newer ones, or a clock is set back:
// each such place starts a run. A reader of the lines since a time then
// reads, of each run whose newest line is in the window, the run's tail
// ([ReadLedgerSince]), and skips the others: it selects by time whatever
// the lines' order, at the cost of the window and the number of runs.
const LedgerRunsFile = "ledger-runs.tsv"

const (
	ledgerRunsHead    = "wake-ledger-runs"
	ledgerRunsVersion = 1
)

// ledgerRun is one run of the ledger: where its first line starts, and
// the newest time its lines stamp.
type ledgerRun struct {
	start int64
	last  time.Time
}

// ledgerRunsOf returns the runs of the open ledger f, described by fi,
// as far as its last whole line: from the record of [LedgerRunsFile]
// while that holds for f, the lines after it read and the record brought
// up to date; else from the whole file, read once. A run's region is from
// its start to the next run's; the last run's reaches the end of f, its
// torn last line included.
func ledgerRunsOf(fsys afero.Fs, root string, f afero.File, fi os.FileInfo) ([]ledgerRun, error) {
	var runs []ledgerRun
	var from int64
	if m, body, ok := readLedgerRecord(fsys, root, LedgerRunsFile, ledgerRunsHead, ledgerRunsVersion); ok && m.holds(f, fi) {
		if rs, ok := parseLedgerRuns(body, m.size); ok {
			runs, from = rs, m.size
		}
	}
	if from == fi.Size() {
		return runs, nil
	}
	data, err := readBlock(f, from, fi.Size())
	if err != nil {
		return nil, err
	}
	whole := bytes.LastIndexByte(data, '\n') + 1
	for off := 0; off < len(data); {
		n := bytes.IndexByte(data[off:], '\n')
		if n < 0 {
			// The last line, not yet ended (torn, or being appended):
			// counted for this read, not kept in the record.
			n = len(data) - off
		}
		if off == whole && whole > 0 {
			saveLedgerRuns(fsys, root, markAt(f, fi, from+int64(whole)), runs)
		}
		runs = addLedgerLine(runs, data[off:off+n], from+int64(off))
		off += n + 1
	}
	if whole == len(data) && whole > 0 {
		saveLedgerRuns(fsys, root, markAt(f, fi, from+int64(whole)), runs)
	}
	return runs, nil
}

// addLedgerLine adds the ledger line starting at off to runs.
func addLedgerLine(runs []ledgerRun, line []byte, off int64) []ledgerRun {
	at, ok := lineTime(line)
	switch k := len(runs); {
	case !ok:
	case k == 0:
		runs = append(runs, ledgerRun{start: 0, last: at})
	case !at.Before(runs[k-1].last):
		runs[k-1].last = at
	default:
		// A line going back in time starts a run only if it is an entry:
		// a bad line stays in the run it breaks, where a reader of that
		// run's tail meets it.
		if _, ok, _ := parseLine(line, 0); ok {
			runs = append(runs, ledgerRun{start: off, last: at})
		}
	}
	return runs
}

// saveLedgerRuns writes the record of [LedgerRunsFile]: a cache, so
// unsynced, and an error only costs the next reader the whole ledger.
func saveLedgerRuns(fsys afero.Fs, root string, m ledgerMark, runs []ledgerRun) {
	var b strings.Builder
	for _, r := range runs {
		fmt.Fprintf(&b, "%d\t%s\n", r.start, r.last.Format(time.RFC3339Nano))
	}
	writeLedgerRecord(fsys, root, LedgerRunsFile, ledgerRunsHead, ledgerRunsVersion, m, b.String())
}

// parseLedgerRuns reads the body of a [LedgerRunsFile] record whose
// ledger was read to size; ok is false for one that is not sound.
func parseLedgerRuns(body []byte, size int64) (runs []ledgerRun, ok bool) {
	for line := range strings.Lines(string(body)) {
		a, b, found := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		start, err1 := strconv.ParseInt(a, 10, 64)
		last, err2 := time.Parse(time.RFC3339Nano, b)
		if !found || err1 != nil || err2 != nil || start < 0 || start >= size ||
			len(runs) == 0 && start != 0 || len(runs) > 0 && start <= runs[len(runs)-1].start {
			return nil, false
		}
		runs = append(runs, ledgerRun{start: start, last: last})
	}
	return runs, true
}

// lineTime is the time a ledger line stamps. wake writes "at" first, so
// the time is read without parsing the line; any other shape (and a line
// naming "at" twice in any case, or with escapes, where the JSON's last
// would win) is parsed whole.
// A line that is not an entry has none.
func lineTime(line []byte) (time.Time, bool) {
	const key = `{"at":"`
	// JSON matches keys without regard to case, and a key may be spelt
	// with escapes: a line naming "at" otherwise is parsed whole.
	if bytes.HasPrefix(line, []byte(key)) && bytes.Count(bytes.ToLower(line), []byte(`"at"`)) == 1 && !bytes.Contains(line, []byte(`\u`)) {
		rest := line[len(key):]
		if i := bytes.IndexByte(rest, '"'); i > 0 {
			if at, err := time.Parse(time.RFC3339Nano, string(rest[:i])); err == nil {
				return at, true
			}
		}
	}
	e, ok, _ := parseLine(line, 0)
	return e.At, ok
}

package store

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"
)

// OutsideWrite is the last ledger entry naming a file outside the root
// (as an install writes; see [LedgerPath]): when, and by which op.
type OutsideWrite struct {
	At time.Time
	Op string
}

// OutsideWritesFile, in the state directory, keeps [OutsideWrites]'s
// answer for the ledger as far as it was read, keyed as [WrittenIDsFile]
// is (the same file, no shorter, the same bytes before the record's end),
// so that the next answer decodes only the lines appended since. Anything
// else has the ledger read whole again.
const OutsideWritesFile = "outside-writes.tsv"

const (
	outsideWritesHead    = "wake-outside-writes"
	outsideWritesVersion = 2
)

// OutsideWrites returns, for each path outside the root the ledger names
// (as it names it: absolute, "../…" or "~/…", see [OutsidePath]), the
// last entry naming it: of entries stamped alike, the later line. It reads the ledger from where the record of
// [OutsideWritesFile] ends, and writes that record again when it has
// read more; the record is a cache, written atomically and unsynced, its
// loss costing only a whole read. A ledger that cannot be read answers
// nothing, as an empty one.
func OutsideWrites(fsys afero.Fs, root string) map[string]OutsideWrite {
	f, err := openLedger(fsys, root, false)
	if err != nil || f == nil {
		return map[string]OutsideWrite{}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return map[string]OutsideWrite{}
	}
	size := fi.Size()
	out := map[string]OutsideWrite{}
	from := int64(0)
	old := readOutsideWrites(fsys, root)
	if old != nil && old.holds(f, fi) {
		from = old.size
		maps.Copy(out, old.last)
	}
	data, err := readBlock(f, from, size)
	if err != nil {
		return map[string]OutsideWrite{}
	}
	// The record covers whole lines only: a torn last line may yet be
	// closed otherwise.
	whole := bytes.LastIndexByte(data, '\n') + 1
	scanOutsideWrites(data[:whole], out)
	if end := from + int64(whole); old == nil || end != old.size {
		saveOutsideWrites(fsys, root, &outsideWrites{ledgerMark: markAt(f, fi, end), last: out})
	}
	// A torn last line is read as the whole ledger read would.
	if whole < len(data) {
		out = maps.Clone(out)
		scanOutsideWrites(data[whole:], out)
	}
	return out
}

// scanOutsideWrites folds the entries of the ledger lines data into last.
// A line that can name no path outside the root (no string beginning
// with a slash, "../" or "~/", no drive letter, no escape) is not decoded.
func scanOutsideWrites(data []byte, last map[string]OutsideWrite) {
	for line := range bytes.Lines(data) {
		if !bytes.Contains(line, []byte(`"/`)) && !bytes.Contains(line, []byte(`:/`)) && !bytes.Contains(line, []byte(`:\\`)) && !bytes.Contains(line, []byte(`\u`)) &&
			!bytes.Contains(line, []byte(`"../`)) && !bytes.Contains(line, []byte(`"~/`)) {
			continue
		}
		e, ok, bad := parseLine(line, 0)
		if !ok || bad != nil {
			continue
		}
		for _, p := range e.Paths {
			if outsideForm(p) && !e.At.Before(last[p].At) {
				last[p] = OutsideWrite{At: e.At, Op: e.Op}
			}
		}
	}
}

// outsideWrites is the record of [OutsideWritesFile]. On disk: a line
// with the SHA-256 of the rest, a head line ("wake-outside-writes 1",
// inode, device, size, tail, tab-separated), then a line a path (path,
// time, op, tab-separated).
type outsideWrites struct {
	ledgerMark
	last map[string]OutsideWrite
}

// readOutsideWrites reads the record of [OutsideWritesFile]; nil when
// there is none, or none this wake can trust.
func readOutsideWrites(fsys afero.Fs, root string) *outsideWrites {
	m, body, ok := readLedgerRecord(fsys, root, OutsideWritesFile, outsideWritesHead, outsideWritesVersion)
	if !ok {
		return nil
	}
	r := outsideWrites{ledgerMark: m, last: map[string]OutsideWrite{}}
	for line := range bytes.Lines(body) {
		f := strings.Split(strings.TrimSuffix(string(line), "\n"), "\t")
		if len(f) != 3 || f[0] == "" {
			return nil
		}
		at, err := time.Parse(time.RFC3339Nano, f[1])
		if err != nil {
			return nil
		}
		r.last[f[0]] = OutsideWrite{At: at, Op: f[2]}
	}
	return &r
}

// saveOutsideWrites writes r to [OutsideWritesFile]; nothing when a path
// or op holds a tab or a line break (a ledger edited by hand), or the
// ledger's tail could not be read.
func saveOutsideWrites(fsys afero.Fs, root string, r *outsideWrites) {
	var b strings.Builder
	for _, p := range slices.Sorted(maps.Keys(r.last)) {
		w := r.last[p]
		if strings.ContainsAny(p, "\t\r\n") || strings.ContainsAny(w.Op, "\t\r\n") {
			return
		}
		b.WriteString(p + "\t" + w.At.Format(time.RFC3339Nano) + "\t" + w.Op + "\n")
	}
	writeLedgerRecord(fsys, root, OutsideWritesFile, outsideWritesHead, outsideWritesVersion, r.ledgerMark, b.String())
}

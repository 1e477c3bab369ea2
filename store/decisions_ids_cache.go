package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// WrittenIDsFile, in the state directory, keeps [WrittenDecisionIDs]'s
// answer for the ledger as far as it was read, so that the next answer
// decodes only the lines appended since: the ledger is append-only, and
// the answer for its first lines does not change as more are added. The
// record holds for a ledger that is the same file (inode and device), no
// shorter, and whose bytes just before the record's end are the ones it
// read there; anything else (a ledger cut, replaced, or edited by hand
// there) has the ledger read whole again. A mutation of the decision log
// writes it, under the root's lock; a reader only reads it.
const WrittenIDsFile = "written-ids.tsv"

const (
	writtenIDsVersion = 1
	// writtenIDsTail is how many bytes before the record's end it checks.
	writtenIDsTail = 4 << 10
	// writtenIDsSlack is how far the ledger may grow past the record
	// before a write of the decision log writes it again.
	writtenIDsSlack = 64 << 10
)

// writtenIDs is the record of [WrittenIDsFile]. On disk: a line with
// the SHA-256 of the rest, a head line ("wake-written-ids 1", inode,
// device, size, tail, tab-separated), then a line an ID (ID, time, op,
// change summary, tab-separated): a plain format, quick to read back.
type writtenIDs struct {
	ledgerMark
	IDs []WrittenID
}

const writtenIDsHead = "wake-written-ids"

// writtenDecisionIDs is [WrittenDecisionIDs] with the record of its
// answer, nil when the record read was already that.
func writtenDecisionIDs(fsys afero.Fs, root string) ([]WrittenID, *writtenIDs, error) {
	f, err := openLedger(fsys, root, false)
	if err != nil || f == nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, &ledgerError{tiers.LedgerPath, "not read", err}
	}
	size := fi.Size()
	var out []WrittenID
	seen := tiers.IDSet{}
	from := int64(0)
	old := readWrittenIDs(fsys, root)
	if old != nil && old.holds(f, fi) {
		from = old.size
		out = slices.Clone(old.IDs)
		for _, w := range out {
			seen.Add(w.ID)
		}
	}
	data, err := readBlock(f, from, size)
	if err != nil {
		return nil, nil, &ledgerError{tiers.LedgerPath, "not read", err}
	}
	// The record covers whole lines only: a torn last line may yet be
	// closed otherwise.
	whole := bytes.LastIndexByte(data, '\n') + 1
	out = scanWrittenIDs(data[:whole], out, seen)
	end := from + int64(whole)
	var rec *writtenIDs
	// The record is written again once what it misses is worth more than
	// its own writing: not at every decision, for it holds every ID.
	if old == nil || from != old.size || end-old.size > writtenIDsSlack {
		rec = &writtenIDs{ledgerMark: markAt(f, fi, end), IDs: slices.Clone(out)}
	}
	return scanWrittenIDs(data[whole:], out, seen), rec, nil
}

// ledgerTail is the SHA-256 of the writtenIDsTail bytes of f before end,
// or of all of them when there are fewer; "" when they cannot be read.
func ledgerTail(f afero.File, end int64) string {
	b, err := readBlock(f, max(0, end-writtenIDsTail), end)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// readWrittenIDs reads the record of [WrittenIDsFile]; nil when there is
// none, or none this wake can trust (another version, a damaged file).
func readWrittenIDs(fsys afero.Fs, root string) *writtenIDs {
	m, body, ok := readLedgerRecord(fsys, root, WrittenIDsFile, writtenIDsHead, writtenIDsVersion)
	if !ok {
		return nil
	}
	r := writtenIDs{ledgerMark: m}
	// One string for the whole body, the fields cut from it: no
	// allocation a line but the entry's own.
	text := string(body)
	if n := strings.Count(text, "\n"); n > 0 {
		r.IDs = make([]WrittenID, 0, n)
	}
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		id, rest, ok1 := strings.Cut(line, "\t")
		stamp, rest, ok2 := strings.Cut(rest, "\t")
		op, summary, ok3 := strings.Cut(rest, "\t")
		if !ok1 || !ok2 || !ok3 {
			return nil
		}
		at, err := time.Parse(time.RFC3339Nano, stamp)
		if err != nil {
			return nil
		}
		r.IDs = append(r.IDs, WrittenID{ID: id, At: at, Op: op, ChangeSummary: summary})
	}
	return &r
}

// saveWrittenIDs writes r to [WrittenIDsFile]: a cache, so unsynced, and
// an error only costs the next reader the whole ledger. A record whose
// IDs or ops hold a tab or a line break, or whose summaries a line break
// (a ledger edited by hand), is not written.
func saveWrittenIDs(fsys afero.Fs, root string, r *writtenIDs) {
	if r == nil {
		return
	}
	var b strings.Builder
	for _, w := range r.IDs {
		if strings.ContainsAny(w.ID, "\t\r\n") || strings.ContainsAny(w.Op, "\t\r\n") || strings.ContainsAny(w.ChangeSummary, "\r\n") {
			return
		}
		b.WriteString(w.ID + "\t" + w.At.Format(time.RFC3339Nano) + "\t" + w.Op + "\t" + w.ChangeSummary + "\n")
	}
	writeLedgerRecord(fsys, root, WrittenIDsFile, writtenIDsHead, writtenIDsVersion, r.ledgerMark, b.String())
}

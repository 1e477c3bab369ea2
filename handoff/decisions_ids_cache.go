package handoff

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
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
const WrittenIDsFile = "written-ids.json"

const (
	writtenIDsVersion = 1
	// writtenIDsTail is how many bytes before the record's end it checks.
	writtenIDsTail = 4 << 10
	// writtenIDsSlack is how far the ledger may grow past the record
	// before a write of the decision log writes it again.
	writtenIDsSlack = 64 << 10
)

// writtenIDs is the record of [WrittenIDsFile], after the line that holds
// the SHA-256 of the rest.
type writtenIDs struct {
	Version int         `json:"version"`
	Ino     uint64      `json:"ino"`
	Dev     uint64      `json:"dev"`
	Size    int64       `json:"size"` // the ledger's bytes read, whole lines
	Tail    string      `json:"tail"` // the SHA-256 of the last writtenIDsTail of them
	IDs     []WrittenID `json:"ids"`
}

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
	ino, dev := fsrecord.FileID(fi)
	size := fi.Size()
	var out []WrittenID
	seen := tiers.IDSet{}
	from := int64(0)
	old := readWrittenIDs(fsys, root)
	if old != nil && old.Ino == ino && old.Dev == dev && old.Size <= size && ledgerTail(f, old.Size) == old.Tail {
		from = old.Size
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
	if old == nil || from != old.Size || end-old.Size > writtenIDsSlack {
		rec = &writtenIDs{Version: writtenIDsVersion, Ino: ino, Dev: dev, Size: end, Tail: ledgerTail(f, end), IDs: slices.Clone(out)}
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
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+WrittenIDsFile)
	if err != nil {
		return nil
	}
	sum, body, ok := bytes.Cut(data, []byte{'\n'})
	got := sha256.Sum256(body)
	if !ok || string(sum) != hex.EncodeToString(got[:]) {
		return nil
	}
	var r writtenIDs
	if json.Unmarshal(body, &r) != nil || r.Version != writtenIDsVersion || r.Size < 0 || r.Tail == "" {
		return nil
	}
	return &r
}

// saveWrittenIDs writes r to [WrittenIDsFile]: a cache, so unsynced, and
// an error only costs the next reader the whole ledger.
func saveWrittenIDs(fsys afero.Fs, root string, r *writtenIDs) {
	if r == nil || r.Tail == "" {
		return
	}
	body, err := json.Marshal(r)
	if err != nil {
		return
	}
	sum := sha256.Sum256(body)
	_ = WriteStateUnsynced(fsys, root, WrittenIDsFile, append([]byte(hex.EncodeToString(sum[:])+"\n"), body...))
}

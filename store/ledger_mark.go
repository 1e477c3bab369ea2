package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/tiers"
)

// ledgerMark says how far a record derived from the ledger read it: the
// ledger file's identity, the bytes read (whole lines) and the SHA-256 of
// the last [writtenIDsTail] of them. The records of the state directory
// that spare a command reading the whole ledger ([WrittenIDsFile],
// [OutsideWritesFile]) hold one, and are trusted only while it holds.
type ledgerMark struct {
	ino, dev uint64
	size     int64
	tail     string
}

// markAt is the mark of the ledger f, described by fi, read to end.
func markAt(f afero.File, fi os.FileInfo, end int64) ledgerMark {
	ino, dev := fsrecord.FileID(fi)
	return ledgerMark{ino: ino, dev: dev, size: end, tail: ledgerTail(f, end)}
}

// holds reports whether f, described by fi, is the ledger m was taken of,
// as it was or grown: the same file, no shorter, the same bytes before
// the mark's end.
func (m ledgerMark) holds(f afero.File, fi os.FileInfo) bool {
	ino, dev := fsrecord.FileID(fi)
	return m.ino == ino && m.dev == dev && m.size <= fi.Size() && ledgerTail(f, m.size) == m.tail
}

// readLedgerRecord reads the state file name, a record derived from the
// ledger: a line with the SHA-256 of the rest, a head line (head, version,
// inode, device, size, tail, tab-separated), then the body. ok is false
// when there is none, or none this wake can trust.
func readLedgerRecord(fsys afero.Fs, root, name, head string, version int) (m ledgerMark, body []byte, ok bool) {
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+name)
	if err != nil {
		return m, nil, false
	}
	sum, rest, found := bytes.Cut(data, []byte{'\n'})
	got := sha256.Sum256(rest)
	if !found || string(sum) != hex.EncodeToString(got[:]) {
		return m, nil, false
	}
	line, body, _ := bytes.Cut(rest, []byte{'\n'})
	f := strings.Split(string(line), "\t")
	if len(f) != 6 || f[0] != head || f[1] != strconv.Itoa(version) || f[5] == "" {
		return m, nil, false
	}
	var e1, e2, e3 error
	m.ino, e1 = strconv.ParseUint(f[2], 10, 64)
	m.dev, e2 = strconv.ParseUint(f[3], 10, 64)
	m.size, e3 = strconv.ParseInt(f[4], 10, 64)
	if e1 != nil || e2 != nil || e3 != nil || m.size < 0 {
		return m, nil, false
	}
	m.tail = f[5]
	return m, body, true
}

// writeLedgerRecord writes the state file name as [readLedgerRecord]
// reads it: a cache, so unsynced, and an error only costs the next reader
// the whole ledger. Nothing is written without a tail.
func writeLedgerRecord(fsys afero.Fs, root, name, head string, version int, m ledgerMark, body string) {
	if m.tail == "" {
		return
	}
	text := fmt.Sprintf("%s\t%d\t%d\t%d\t%d\t%s\n", head, version, m.ino, m.dev, m.size, m.tail) + body
	sum := sha256.Sum256([]byte(text))
	_ = WriteStateUnsynced(fsys, root, name, append([]byte(hex.EncodeToString(sum[:])+"\n"), text...))
}

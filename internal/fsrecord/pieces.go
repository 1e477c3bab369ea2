package fsrecord

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/afero"
)

// A racy file (see [RacyWindow]) is keyed by the content the run read of
// it, not by all of it: the pieces it read, each with the hash of its
// bytes as read. A start reads the ledger's tail, not the megabytes
// before it, and its output depends on no more than what it read and the
// file's identity (an append changes the size); hashing the whole of
// such a file at every start would make the start's cost follow the
// history.

// maxPieces bounds the pieces a file is keyed by: a run that reads a racy
// file in more scattered pieces than this is not kept.
const maxPieces = 16

// piecesPrefix starts a hash field that lists pieces: "p" then
// "OFFSET+LENGTH=HEX" for each, comma-separated.
const piecesPrefix = "p"

// piece is a stretch of a file read in one go or in reads that followed
// each other, with its bytes hashed as read.
type piece struct {
	off, n int64
	h      hash.Hash
}

// reads are the pieces the run read of one racy file, in the order read,
// through every open of it.
type reads struct {
	mu     sync.Mutex
	pieces []*piece
}

// field is the pieces as a key's hash field; false when there are too
// many to key by.
func (r *reads) field() (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pieces) > maxPieces {
		return "", false
	}
	var b strings.Builder
	b.WriteString(piecesPrefix)
	for i, p := range r.pieces {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(p.off, 10) + "+" + strconv.FormatInt(p.n, 10) + "=" + hex.EncodeToString(p.h.Sum(nil)))
	}
	return b.String(), true
}

// readTracker is a racy file the run opened, its reads noted in reads.
type readTracker struct {
	afero.File
	r   *reads
	pos int64
	cur *piece // the piece this open's sequential reads extend
}

func (t *readTracker) note(off int64, b []byte) {
	if len(b) == 0 {
		return
	}
	t.r.mu.Lock()
	defer t.r.mu.Unlock()
	if t.cur == nil || t.cur.off+t.cur.n != off {
		t.cur = &piece{off: off, h: sha256.New()}
		t.r.pieces = append(t.r.pieces, t.cur)
	}
	t.cur.h.Write(b)
	t.cur.n += int64(len(b))
}

func (t *readTracker) Read(b []byte) (int, error) {
	n, err := t.File.Read(b)
	t.note(t.pos, b[:n])
	t.pos += int64(n)
	return n, err
}

func (t *readTracker) ReadAt(b []byte, off int64) (int, error) {
	n, err := t.File.ReadAt(b, off)
	t.note(off, b[:n])
	return n, err
}

func (t *readTracker) Seek(off int64, whence int) (int64, error) {
	pos, err := t.File.Seek(off, whence)
	if err == nil {
		t.pos = pos
	}
	return pos, err
}

// samePieces reports whether the file at name holds, in each piece a
// hash field of pieces names, the bytes it was hashed from.
func samePieces(fsys afero.Fs, name, field string) bool {
	list, ok := strings.CutPrefix(field, piecesPrefix)
	if !ok {
		return false
	}
	if list == "" {
		return true // the run read none of it
	}
	file, err := fsys.Open(name)
	if err != nil {
		return false
	}
	defer file.Close()
	for _, p := range strings.Split(list, ",") {
		span, sum, ok := strings.Cut(p, "=")
		o, n, ok2 := strings.Cut(span, "+")
		off, err1 := strconv.ParseInt(o, 10, 64)
		size, err2 := strconv.ParseInt(n, 10, 64)
		if !ok || !ok2 || errors.Join(err1, err2) != nil || off < 0 || size < 0 {
			return false
		}
		h := sha256.New()
		if got, err := io.Copy(h, io.NewSectionReader(file, off, size)); err != nil || got != size || hex.EncodeToString(h.Sum(nil)) != sum {
			return false
		}
	}
	return true
}

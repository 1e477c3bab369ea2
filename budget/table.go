package budget

//go:generate go run ./internal/bpegen

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/maphash"
	"math/bits"
	"unsafe"
)

// The encodings' tokens in rank order, written by internal/bpegen from
// tiktoken-go-loader's tables (the format is described there).
// TestTablesMatchLoader checks them rank by rank against the loader.
var (
	//go:embed cl100k_base.bpe
	cl100kTable string
	//go:embed o200k_base.bpe
	o200kTable string
)

// table maps an encoding's tokens to their ranks. The tokens are substrings
// of the embedded table, never copied; a token's rank is found through an
// open-addressing hash index built when the table is loaded.
type table struct {
	data  string   // the tokens, concatenated in rank order
	off   []uint32 // token r is data[off[r]:off[r+1]]
	slots []uint32 // rank+1 of the token hashed there, or 0 for none
	mask  uint64   // len(slots)-1
	seed  maphash.Seed
}

// loadTable reads an encoded table, checking its checksum.
func loadTable(enc string) (*table, error) {
	const magic = "wakebpe1"
	if len(enc) < len(magic)+4 || enc[:len(magic)] != magic {
		return nil, errors.New("not a table: bad magic")
	}
	body := enc[:len(enc)-4]
	// The checksum reads the embedded bytes in place: crc32 only reads them.
	sum := crc32.Checksum(unsafe.Slice(unsafe.StringData(body), len(body)), crc32.MakeTable(crc32.Castagnoli))
	if sum != binary.LittleEndian.Uint32([]byte(enc[len(body):])) {
		return nil, errors.New("table checksum mismatch")
	}
	p, bad := len(magic), false
	uvarint := func() uint64 {
		v, w := uvarintString(body[p:])
		if w <= 0 {
			bad = true
			return 0
		}
		p += w
		return v
	}
	n, size := uvarint(), uvarint()
	if bad || n == 0 || n >= 1<<31 || p+int(n) > len(body) {
		return nil, errors.New("table header is damaged")
	}
	t := &table{off: make([]uint32, n+1)}
	var at uint64
	for r := range n {
		at += uvarint()
		t.off[r+1] = uint32(at)
	}
	if bad || at != size || uint64(len(body)-p) != size || size >= 1<<32 {
		return nil, fmt.Errorf("table of %d tokens is damaged", n)
	}
	t.data = body[p:]
	t.index()
	return t, nil
}

// index builds the hash index of the tokens data and off hold.
func (t *table) index() {
	n := t.size()
	t.seed = maphash.MakeSeed()
	t.slots = make([]uint32, 1<<bits.Len(uint(2*n-1))) // at most half full
	t.mask = uint64(len(t.slots) - 1)
	for r := range uint32(n) {
		i := maphash.String(t.seed, t.token(r)) & t.mask
		for t.slots[i] != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = r + 1
	}
}

// uvarintString is binary.Uvarint over a string, without copying it.
func uvarintString(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			return x | uint64(c)<<shift, i + 1
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

// token returns the token of rank r.
func (t *table) token(r uint32) string { return t.data[t.off[r]:t.off[r+1]] }

// size returns the number of tokens.
func (t *table) size() int { return len(t.off) - 1 }

// rank returns the rank of the token s, if s is one.
func (t *table) rank(s string) (int32, bool) {
	i := maphash.String(t.seed, s) & t.mask
	for {
		r := t.slots[i]
		if r == 0 {
			return 0, false
		}
		if t.data[t.off[r-1]:t.off[r]] == s {
			return int32(r - 1), true
		}
		i = (i + 1) & t.mask
	}
}

package budget

//go:generate go run ./internal/bpegen

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
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
	shift uint     // 64 - log2(len(slots)): a hash's top bits pick its slot
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
	log := bits.Len(uint(2*n - 1)) // at most half full
	t.slots = make([]uint32, 1<<log)
	t.shift = uint(64 - log)
	mask := len(t.slots) - 1
	for r := range uint32(n) {
		i := int(hashString(t.token(r)) >> t.shift)
		for t.slots[i] != 0 {
			i = (i + 1) & mask
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
	mask := len(t.slots) - 1
	for i := int(hashString(s) >> t.shift); ; i = (i + 1) & mask {
		r := t.slots[i]
		if r == 0 {
			return 0, false
		}
		if t.data[t.off[r-1]:t.off[r]] == s {
			return int32(r - 1), true
		}
	}
}

// hashString hashes s for the index: a multiply-xorshift hash that reads
// eight bytes at a time, and a string of up to eight bytes in at most two
// loads, since most tokens and pieces are that short. The tables are
// fixed, so a seed would buy nothing: a text cannot make a lookup probe
// further than the longest run of full slots.
func hashString(s string) uint64 {
	const m1, m2 = 0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9
	h := uint64(len(s)) * m1
	for len(s) > 8 {
		h = (h ^ le64(s)) * m2
		h ^= h >> 31
		s = s[8:]
	}
	var x uint64
	switch {
	case len(s) >= 4:
		x = uint64(le32(s)) | uint64(le32(s[len(s)-4:]))<<32
	case len(s) > 0:
		x = uint64(s[0]) | uint64(s[len(s)/2])<<8 | uint64(s[len(s)-1])<<16
	}
	h = (h ^ x) * m1
	h ^= h >> 29
	h *= m2
	return h ^ h>>32
}

func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

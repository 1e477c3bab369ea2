package codex

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
)

// fileUndo is how to turn a file as install left it back into the file as
// install found it, byte for byte, without keeping a copy of the file in
// the record: the memory root may be shared, and ~/.codex/config.toml can
// hold API keys. It keeps the digests of both versions and the few lines
// install's edit replaced, usually none.
type fileUndo struct {
	Existed bool   `json:"existed"` // there was a file before install
	Before  string `json:"before"`  // the SHA-256 of the file before install
	After   string `json:"after"`   // the SHA-256 of the file as install left it
	Hunks   []hunk `json:"hunks"`   // turn the after bytes into the before bytes
}

// hunk replaces Del bytes at offset At of the after bytes with Ins.
type hunk struct {
	At  int    `json:"at"`
	Del int    `json:"del"`
	Ins string `json:"ins,omitempty"`
}

// maxDiffCells bounds the work of the line diff: a pair of files with
// more changed lines than that gets no undo, and uninstall falls back to
// taking out wake's entries.
const maxDiffCells = 4 << 20

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// makeUndo is the undo of an edit that turned before (existed false: no
// file) into after; nil when the diff would cost too much.
//
// The record must never hold the user's text (a config.toml can hold API
// keys): each hunk keeps only the bytes its lines do not share with the
// file as install left it, and an edit whose undo would still hold more
// than white space (Codex rewrote a CRLF file with LF, say) gets none, so
// that uninstall falls back to taking out wake's entries.
func makeUndo(before []byte, existed bool, after []byte) *fileUndo {
	hunks, ok := diffLines(after, before)
	if !ok {
		return nil
	}
	for i := range hunks {
		h := &hunks[i]
		del := after[h.At : h.At+h.Del]
		p := 0
		for p < len(del) && p < len(h.Ins) && del[p] == h.Ins[p] {
			p++
		}
		q := 0
		for q < len(del)-p && q < len(h.Ins)-p && del[len(del)-1-q] == h.Ins[len(h.Ins)-1-q] {
			q++
		}
		h.At, h.Del, h.Ins = h.At+p, h.Del-p-q, h.Ins[p:len(h.Ins)-q]
		if strings.TrimSpace(h.Ins) != "" {
			return nil
		}
	}
	return &fileUndo{Existed: existed, Before: digest(before), After: digest(after), Hunks: hunks}
}

// apply gives back the file as install found it when cur is the file as
// install left it; ok false otherwise.
func (u *fileUndo) apply(cur []byte) (out []byte, ok bool) {
	if u == nil || digest(cur) != u.After {
		return nil, false
	}
	var b bytes.Buffer
	pos := 0
	for _, h := range u.Hunks {
		if h.At < pos || h.Del < 0 || h.At+h.Del > len(cur) {
			return nil, false
		}
		b.Write(cur[pos:h.At])
		b.WriteString(h.Ins)
		pos = h.At + h.Del
	}
	b.Write(cur[pos:])
	if digest(b.Bytes()) != u.Before {
		return nil, false
	}
	return append([]byte{}, b.Bytes()...), true
}

// chain is the undo of a second edit, from cur to after, composed with u,
// the undo of the first: nil when cur is no longer as the first left it,
// since what was there before it is then unknown.
func (u *fileUndo) chain(cur, after []byte) *fileUndo {
	before, ok := u.apply(cur)
	if !ok {
		return nil
	}
	return makeUndo(before, u.Existed, after)
}

// splitLines cuts b into lines, each with its line ending.
func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n') + 1
		if i == 0 {
			i = len(b)
		}
		out = append(out, b[:i])
		b = b[i:]
	}
	return out
}

// diffLines gives the hunks that turn a into b, a line at a time, from a
// longest common subsequence of their lines; ok false when the lines that
// differ are too many to compare.
func diffLines(a, b []byte) ([]hunk, bool) {
	x, y := splitLines(a), splitLines(b)
	pre := 0
	for pre < len(x) && pre < len(y) && bytes.Equal(x[pre], y[pre]) {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && bytes.Equal(x[len(x)-1-suf], y[len(y)-1-suf]) {
		suf++
	}
	xs, ys := x[pre:len(x)-suf], y[pre:len(y)-suf]
	if (len(xs)+1)*(len(ys)+1) > maxDiffCells {
		return nil, false
	}
	// lcs[i][j] is the length of a longest common subsequence of xs[i:]
	// and ys[j:].
	lcs := make([][]int32, len(xs)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(ys)+1)
	}
	for i := len(xs) - 1; i >= 0; i-- {
		for j := len(ys) - 1; j >= 0; j-- {
			if bytes.Equal(xs[i], ys[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	off := 0
	for _, l := range x[:pre] {
		off += len(l)
	}
	var hunks []hunk
	var cur *hunk
	flush := func() {
		if cur != nil {
			hunks = append(hunks, *cur)
			cur = nil
		}
	}
	open := func() *hunk {
		if cur == nil {
			cur = &hunk{At: off}
		}
		return cur
	}
	i, j := 0, 0
	for i < len(xs) || j < len(ys) {
		switch {
		case i < len(xs) && j < len(ys) && bytes.Equal(xs[i], ys[j]):
			flush()
			off += len(xs[i])
			i, j = i+1, j+1
		case j < len(ys) && (i == len(xs) || lcs[i][j+1] >= lcs[i+1][j]):
			open().Ins += string(ys[j])
			j++
		default:
			h := open()
			h.Del += len(xs[i])
			off += len(xs[i])
			i++
		}
	}
	flush()
	return slices.Clip(hunks), true
}

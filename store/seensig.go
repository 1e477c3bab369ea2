package store

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/wakeproto/wake/tiers"
)

// signature is what wake keeps of one version of a file to diff a later
// one against: a hash a line, and the headings with their line numbers.
// Never kept of a secret document (see [seenRecord]).
type signature struct {
	lines []uint64
	heads []sigHeading
}

type sigHeading struct {
	line int // 0-based
	text string
}

// sigHeader opens a bucket of signatures; "@HASH" lines open each, and
// a last line sigTrailer + the FNV-64a of everything before it, in hex,
// closes it. A bucket is written without syncing (see [seen.save]): the
// trailer is how a reader knows it whole after a crash. sigHeaderV1 opens
// the buckets of earlier versions, synced and without a trailer.
const (
	sigHeader   = "wake seen lines v2\n"
	sigHeaderV1 = "wake seen lines v1\n"
	sigTrailer  = "end "
)

// sigBuckets is how many files the signatures are kept in (see [SeenDir]).
const sigBuckets = 64

// bucketOf names the file holding the signature of the version hash.
func bucketOf(hash string) string {
	b, err := strconv.ParseUint(hash[:min(2, len(hash))], 16, 8)
	if err != nil {
		return "00"
	}
	const digits = "0123456789abcdef"
	n := b * sigBuckets / 256
	return string([]byte{digits[n>>4], digits[n&15]})
}

// sigPack is one bucket: encoded signatures by hash.
type sigPack map[string][]byte

// parsePack reads a bucket; one that is not wholly well formed, or whose
// trailer does not match its content (a write a crash cut short), is
// empty: it only costs the next edits of its files their line counts.
func parsePack(data []byte) sigPack {
	p := sigPack{}
	rest, ok := bytes.CutPrefix(data, []byte(sigHeader))
	if ok {
		body, sum, found := cutTrailer(data)
		if !found || packSum(body) != sum {
			return p
		}
		rest = body[len(sigHeader):]
	} else if rest, ok = bytes.CutPrefix(data, []byte(sigHeaderV1)); !ok {
		return p
	}
	cur := ""
	for line := range bytes.Lines(rest) {
		if !bytes.HasSuffix(line, []byte("\n")) {
			return sigPack{}
		}
		if h, ok := bytes.CutPrefix(line, []byte("@")); ok {
			cur = string(h[:len(h)-1])
			if _, dup := p[cur]; dup || cur == "" || strings.Trim(cur, "0123456789abcdef") != "" {
				return sigPack{}
			}
			p[cur] = nil
			continue
		}
		if cur == "" {
			return sigPack{}
		}
		p[cur] = append(p[cur], line...)
	}
	for _, body := range p {
		if len(body) == 0 {
			return sigPack{}
		}
	}
	return p
}

func (p sigPack) marshal() []byte {
	var b bytes.Buffer
	b.WriteString(sigHeader)
	for _, h := range slices.Sorted(maps.Keys(p)) {
		b.WriteString("@" + h + "\n")
		b.Write(p[h])
	}
	b.WriteString(sigTrailer + packSum(b.Bytes()) + "\n")
	return b.Bytes()
}

// cutTrailer splits a bucket into what its trailer sums and the sum.
func cutTrailer(data []byte) (body []byte, sum string, ok bool) {
	line, found := bytes.CutSuffix(data, []byte("\n"))
	if !found {
		return nil, "", false
	}
	i := bytes.LastIndexByte(line, '\n') + 1
	sumText, found := bytes.CutPrefix(line[i:], []byte(sigTrailer))
	if !found {
		return nil, "", false
	}
	return data[:i], string(sumText), true
}

// packSum is the FNV-64a of a bucket's content, in hex.
func packSum(body []byte) string {
	h := fnv.New64a()
	h.Write(body)
	return fmt.Sprintf("%016x", h.Sum64())
}

// makeSignature reads text's lines and its headings: ATX headings outside
// fenced code and outside the front matter.
func makeSignature(text string) signature {
	body := 0
	if _, rest, ok := tiers.SplitFrontMatter([]byte(text)); ok {
		body = len(text) - len(rest)
	}
	lines := tiers.HeadingLines(text)
	g := signature{lines: make([]uint64, len(lines))}
	for i, l := range lines {
		g.lines[i] = lineHash(l.Text)
		if l.InFence || l.Start < body {
			continue
		}
		if lvl, _ := tiers.HeadingLevel(l.Text); lvl > 0 {
			g.heads = append(g.heads, sigHeading{i, strings.TrimSpace(l.Text)})
		}
	}
	return g
}

// lineHash is a line's identity for the diff: its text without the line
// ending, so that a file whose line endings alone changed reads as edited
// with no line added or removed.
func lineHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// encode gives the signature as a bucket keeps it: its line hashes on one
// line, then a line a heading.
func (g signature) encode() []byte {
	var b bytes.Buffer
	raw := make([]byte, 8*len(g.lines))
	for i, h := range g.lines {
		binary.BigEndian.PutUint64(raw[8*i:], h)
	}
	b.WriteString(base64.RawStdEncoding.EncodeToString(raw))
	b.WriteByte('\n')
	for _, h := range g.heads {
		fmt.Fprintf(&b, "%d\t%s\n", h.line, escTab(h.text))
	}
	return b.Bytes()
}

func parseSignature(data []byte) (signature, bool) {
	enc, rest, _ := bytes.Cut(data, []byte("\n"))
	raw, err := base64.RawStdEncoding.DecodeString(string(enc))
	if err != nil || len(raw)%8 != 0 {
		return signature{}, false
	}
	g := signature{lines: make([]uint64, len(raw)/8)}
	for i := range g.lines {
		g.lines[i] = binary.BigEndian.Uint64(raw[8*i:])
	}
	for line := range strings.Lines(string(rest)) {
		n, text, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		i, err := strconv.Atoi(n)
		if !ok || err != nil || i < 0 || i >= len(g.lines) {
			return signature{}, false
		}
		g.heads = append(g.heads, sigHeading{i, unescTab(text)})
	}
	return g, true
}

// lineDiff is what changed between two versions, line by line.
type lineDiff struct {
	added, removed int
	heading        string // the heading the first change falls under; "" when none
}

// maxDiffLines bounds the distinct lines two versions may hold between
// them to be diffed: each needs a rune of its own.
const maxDiffLines = 1 << 20

// diffTimeout bounds the diff's search for the shortest edit; past it
// go-diff gives a valid, possibly longer one.
const diffTimeout = 250 * time.Millisecond

// diffLines diffs two signatures with go-diff, each distinct line mapped to
// a rune as diffmatchpatch.DiffLinesToRunes does; false when they hold too
// many distinct lines.
func diffLines(old, cur signature) (lineDiff, bool) {
	ids := map[uint64]rune{}
	toRunes := func(hashes []uint64) ([]rune, bool) {
		out := make([]rune, len(hashes))
		for i, h := range hashes {
			r, ok := ids[h]
			if !ok {
				if len(ids) >= maxDiffLines {
					return nil, false
				}
				r = lineRune(len(ids))
				ids[h] = r
			}
			out[i] = r
		}
		return out, true
	}
	a, ok1 := toRunes(old.lines)
	b, ok2 := toRunes(cur.lines)
	if !ok1 || !ok2 {
		return lineDiff{}, false
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = diffTimeout
	var d lineDiff
	oi, ni, first := 0, 0, true
	for _, op := range dmp.DiffMainRunes(a, b, false) {
		n := len([]rune(op.Text))
		switch op.Type {
		case diffmatchpatch.DiffEqual:
			oi, ni = oi+n, ni+n
			continue
		case diffmatchpatch.DiffDelete:
			if first {
				d.heading = runHeading(old, oi, n)
			}
			d.removed += n
			oi += n
		case diffmatchpatch.DiffInsert:
			if first {
				d.heading = runHeading(cur, ni, n)
			}
			d.added += n
			ni += n
		}
		first = false
	}
	return d, true
}

// lineRune is the rune of the i-th distinct line: never a surrogate, so
// that it survives go-diff's conversions to string.
func lineRune(i int) rune {
	if i >= 0xD800 {
		i += 0x800
	}
	return rune(i)
}

// blankLine is the hash of an empty line.
var blankLine = lineHash("")

// runHeading is the heading of a run of n lines added or removed from
// line i of g: a run that is a section of its own (blank lines, then a
// heading) is its heading's, though the diff starts it at the blank line
// that closed the section above; any other run is under the last heading
// at or above its first line.
func runHeading(g signature, i, n int) string {
	j := i
	for j < i+n && j < len(g.lines) && g.lines[j] == blankLine {
		j++
	}
	if j < i+n {
		for _, h := range g.heads {
			if h.line == j {
				return h.text
			}
		}
	}
	return headingAt(g.heads, i)
}

// headingAt is the last heading at or above line i.
func headingAt(heads []sigHeading, i int) string {
	out := ""
	for _, h := range heads {
		if h.line > i {
			break
		}
		out = h.text
	}
	return out
}

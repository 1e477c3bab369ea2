package store

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

// TestDiffLines proves the counts and the heading of the first change of
// a line diff, on texts as the signatures keep them.
func TestDiffLines(t *testing.T) {
	t.Parallel()
	const base = "# Tasks\n\n## Active\n- a\n- b\n\n## Done\n- c\n"
	for _, tc := range []struct {
		name, cur string
		want      string
	}{
		{"one added", "# Tasks\n\n## Active\n- a\n- b\n\n## Done\n- c\n- d\n", `+1 -0 under "## Done"`},
		{"one removed", "# Tasks\n\n## Active\n- a\n\n## Done\n- c\n", `+0 -1 under "## Active"`},
		{"one replaced", "# Tasks\n\n## Active\n- a\n- B\n\n## Done\n- c\n", `+1 -1 under "## Active"`},
		{"first of two changes", "# Tasks\n\n## Active\n- A\n- b\n\n## Done\n- c\n- d\n", `+2 -1 under "## Active"`},
		{"a heading renamed", "# Tasks\n\n## Current\n- a\n- b\n\n## Done\n- c\n", `+1 -1 under "## Active"`},
		{"a heading added", "# Tasks\n\n## Active\n- a\n- b\n\n## Blocked\n- x\n\n## Done\n- c\n", `+3 -0 under "## Blocked"`},
		// A new section is its own heading's, though the diff starts the
		// insertion at the blank line before it, under the section above.
		{"a section added at the end", base + "\n## Later\n- y\n", `+3 -0 under "## Later"`},
		{"a section added after a blank", "# Tasks\n\n## Active\n- a\n- b\n\n## Waiting\n\n- w\n\n## Done\n- c\n", `+4 -0 under "## Waiting"`},
		{"a section removed at the end", "# Tasks\n\n## Active\n- a\n- b\n", `+0 -3 under "## Done"`},
		{"above every heading", "Intro.\n# Tasks\n\n## Active\n- a\n- b\n\n## Done\n- c\n", `+1 -0`},
		{"line endings only", strings.ReplaceAll(base, "\n", "\r\n"), `+0 -0`},
		{"a heading in a fence is text", "# Tasks\n\n## Active\n- a\n- b\n```\n## not one\n```\n\n## Done\n- c\n", `+3 -0 under "## Active"`},
	} {
		d, ok := diffLines(makeSignature(base), makeSignature(tc.cur))
		got := fmt.Sprintf("+%d -%d", d.added, d.removed)
		if d.heading != "" {
			got += fmt.Sprintf(" under %q", d.heading)
		}
		if !ok || got != tc.want {
			t.Errorf("%s: %s (%v), want %s", tc.name, got, ok, tc.want)
		}
	}
}

// TestSignatureFrontMatter proves a comment in the front matter is not
// taken for a heading.
func TestSignatureFrontMatter(t *testing.T) {
	t.Parallel()
	g := makeSignature("---\n# a YAML comment\nsummary: x\n---\n# Title\n")
	if len(g.heads) != 1 || g.heads[0] != (sigHeading{4, "# Title"}) || len(g.lines) != 5 {
		t.Fatalf("%+v", g)
	}
}

// TestLineRuneSkipsSurrogates proves every distinct line gets a rune of
// its own that survives a conversion to string.
func TestLineRuneSkipsSurrogates(t *testing.T) {
	t.Parallel()
	seen := map[rune]bool{}
	for _, i := range []int{0, 0xD7FF, 0xD800, 0xDFFF, 0xE000, maxDiffLines - 1} {
		r := lineRune(i)
		if back := []rune(string(r)); len(back) != 1 || back[0] != r || seen[r] {
			t.Errorf("line %d: rune %U does not survive", i, r)
		}
		seen[r] = true
	}
}

// TestSeenRoundTrip proves the record and a signature come back as
// written.
func TestSeenRoundTrip(t *testing.T) {
	t.Parallel()
	s := newSeen()
	s.mark = 42
	s.set("main.md", &seenRecord{Size: 10, MTime: 20, CTime: 21, Hash: "ab12", Lines: 3, Sig: true, Mark: 7}, []byte("sig"))
	s.set("cold/a\tb.md", &seenRecord{Size: 1, MTime: 2, Hash: "cd", Level: tiers.Secret, Racy: true}, nil)
	s.set("cold/pay.md", &seenRecord{Hash: "ef", Level: tiers.Confidential, Sig: true}, nil)
	s.set(warmDirKey, &seenRecord{MTime: 5}, nil)
	back, ok := parseSeen(s.marshal(false))
	if !ok || !bytes.Equal(back.marshal(false), s.marshal(false)) || back.refs["ab12"] != 1 || len(back.files) != 2 {
		t.Fatalf("%v:\n%s", ok, s.marshal(false))
	}
	cold, ok := bytes.CutPrefix(s.marshal(true), []byte(seenColdHeader))
	if !ok || !back.parseRecords(cold, true) || !bytes.Equal(back.marshal(true), s.marshal(true)) || back.refs["ef"] != 1 {
		t.Fatalf("cold:\n%s", s.marshal(true))
	}
	if back.parseRecords(s.marshal(false)[len(seenHeader)+3:], true) {
		t.Fatal("a tier record was read as a cold one")
	}
	if back.files["main.md"].CTime != 21 {
		t.Errorf("the change time came back as %d", back.files["main.md"].CTime)
	}
	// A record an older wake wrote (no "@" in its flags) is read with no
	// change time; one with a bad change time, or an eighth field, is not
	// read.
	older, ok := parseSeen([]byte("wake seen v1 12\nmain.md\t10\t20\tab\t3\t7\tl\n"))
	if !ok || older.files["main.md"] != (seenRecord{Size: 10, MTime: 20, Hash: "ab", Lines: 3, Mark: 7, Sig: true}) {
		t.Errorf("an older record: %v %+v", ok, older.files["main.md"])
	}
	for _, bad := range []string{"main.md\t10\t20\tab\t3\t7\tl@\n", "main.md\t10\t20\tab\t3\t7\tl@x\n", "main.md\t10\t20\tab\t3\t7\tl@-1\n",
		"main.md\t10\t20\tab\t3\t7\tl@01\n", "main.md\t10\t20\tab\t3\t7\tl@1@2\n", "main.md\t10\t20\tab\t3\t7\tl\t1\n"} {
		if _, ok := parseSeen([]byte("wake seen v1 12\n" + bad)); ok {
			t.Errorf("%q was read", bad)
		}
	}
	g := makeSignature("# T\n\n## A\tB\n- x\n")
	h, ok := parseSignature(g.encode())
	if !ok || !bytes.Equal(h.encode(), g.encode()) {
		t.Fatalf("signature %+v, want %+v", h, g)
	}
}

// FuzzParseSeen: whatever parses marshals back to the same bytes, and
// nothing panics.
func FuzzParseSeen(f *testing.F) {
	f.Add([]byte("wake seen v1 0\n"))
	f.Add([]byte("wake seen v1 12\nmain.md\t10\t20\tab\t3\t7\tl\nwarm/x.md\t1\t2\tcd\t0\t7\trs\nwarm/\t0\t5\t\t0\t0\t\ncold/\t9\t5\t\t0\t0\tr\n"))
	f.Add([]byte("wake seen v1 1\nwarm/a\\tb.md\t1\t2\tcd\t0\t0\tc\n"))
	f.Add([]byte("wake seen v1 1\nmain.md\t1\t2\tcd\t0\t0\tc@33\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, ok := parseSeen(data)
		if !ok {
			return
		}
		again, ok := parseSeen(s.marshal(false))
		if !ok || !bytes.Equal(again.marshal(false), s.marshal(false)) {
			t.Fatalf("%q does not round-trip", data)
		}
	})
}

// FuzzParseSignature: whatever parses encodes back to what parses the
// same, and nothing panics.
func FuzzParseSignature(f *testing.F) {
	f.Add(makeSignature("# T\n\n## A\n- x\n").encode())
	f.Add([]byte("\n"))
	f.Add([]byte("AAAAAAAAAAE\n0\t# T\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, ok := parseSignature(data)
		if !ok {
			return
		}
		h, ok := parseSignature(g.encode())
		if !ok || !bytes.Equal(h.encode(), g.encode()) {
			t.Fatalf("%q does not round-trip", data)
		}
	})
}

// FuzzParsePack: a bucket marshals back to the same bytes once parsed,
// and nothing panics.
func FuzzParsePack(f *testing.F) {
	f.Add(sigPack{"ab12": makeSignature("# T\n- x\n").encode(), "cd34": []byte("\n")}.marshal())
	f.Add([]byte(sigHeader))
	f.Add([]byte(sigHeader + "@ab\n\n@cd\nAAAAAAAAAAE\n0\t# T\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := parsePack(data)
		again := parsePack(p.marshal())
		if !bytes.Equal(again.marshal(), p.marshal()) {
			t.Fatalf("%q does not round-trip", data)
		}
	})
}

// TestSeenRestatKeepsSignatures proves a record whose stat alone moved
// rewrites no bucket of signatures.
func TestSeenRestatKeepsSignatures(t *testing.T) {
	t.Parallel()
	s := newSeen()
	s.set("main.md", &seenRecord{Size: 10, MTime: 20, Hash: "ab12", Sig: true}, []byte("x\n"))
	s.sigs, s.unused = map[string][]byte{}, map[string]bool{}
	s.set("main.md", &seenRecord{Size: 10, MTime: 30, Hash: "ab12", Sig: true, Mark: 5}, []byte("x\n"))
	if len(s.sigs) != 0 || len(s.unused) != 0 || s.refs["ab12"] != 1 || !s.dirty {
		t.Fatalf("sigs %v unused %v refs %v dirty %v", s.sigs, s.unused, s.refs, s.dirty)
	}
}

// TestBucketOfNames checks the bucket names against their definition: the
// hash's first byte scaled to sigBuckets, as two hex digits.
func TestBucketOfNames(t *testing.T) {
	for b := range 256 {
		hash := fmt.Sprintf("%02x%s", b, "0123456789abcdef")
		if got, want := bucketOf(hash), fmt.Sprintf("%02x", b*sigBuckets/256); got != want {
			t.Errorf("bucketOf(%q) = %q, want %q", hash, got, want)
		}
	}
	if got := bucketOf("zz"); got != "00" {
		t.Errorf(`bucketOf("zz") = %q, want "00"`, got)
	}
}

// TestPackTrailer proves a bucket is read only whole: one cut short, or
// with a block zeroed, as a crash may leave a file written unsynced,
// reads as empty; a bucket of the first version, without a trailer,
// still reads.
func TestPackTrailer(t *testing.T) {
	t.Parallel()
	p := sigPack{"ab12": makeSignature("# T\n- x\n").encode(), "cd34": makeSignature("a\nb\n").encode()}
	data := p.marshal()
	if got := parsePack(data); len(got) != 2 || !bytes.Equal(got["ab12"], p["ab12"]) || !bytes.Equal(got["cd34"], p["cd34"]) {
		t.Fatalf("whole bucket read as %q", got)
	}
	body, _, ok := cutTrailer(data)
	if !ok {
		t.Fatalf("no trailer in %q", data)
	}
	// Cut at a line's end: well formed but for the trailer.
	if got := parsePack(body); len(got) != 0 {
		t.Errorf("bucket without its trailer read as %q", got)
	}
	cut := bytes.Index(data, []byte("@cd34"))
	if got := parsePack(append(append([]byte{}, data[:cut]...), data[len(body):]...)); len(got) != 0 {
		t.Errorf("bucket missing a signature read as %q", got)
	}
	zeroed := append([]byte{}, data...)
	for i := len(sigHeader); i < len(sigHeader)+4; i++ {
		zeroed[i] = 0
	}
	if got := parsePack(zeroed); len(got) != 0 {
		t.Errorf("zeroed bucket read as %q", got)
	}
	if got := parsePack(make([]byte, len(data))); len(got) != 0 {
		t.Errorf("bucket of zeroes read as %q", got)
	}
	v1 := append([]byte(sigHeaderV1), body[len(sigHeader):]...)
	if got := parsePack(v1); len(got) != 2 || !bytes.Equal(got["ab12"], p["ab12"]) {
		t.Errorf("v1 bucket read as %q", got)
	}
}

package tiers

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// plainFrontCases are front matter blocks at the edge of what plainFront
// takes: each must read as the YAML decoder reads it, or be left to it.
var plainFrontCases = []string{
	"",
	"summary: Session 12 moved the import on\nsession: 2026-01-02T09:00:00Z\nnext_priority: step 13\nmemory_type: session\n",
	"summary:\n", "summary: ~\n", "summary: null\n", "summary: NULL\n", "summary: nULL\n",
	"summary: true\n", "summary: 0x1F\n", "summary: .inf\n", "summary: 1e3\n", "summary: =\n", "summary: <<\n",
	"summary: a: b\n", "summary: a:b\n", "summary: a #b\n", "summary: a#b\n", "summary: a:\n",
	"summary: 'quoted'\n", "summary: \"quoted\"\n", "summary: it's\n", "summary: say \"hi\"\n",
	"summary: - item\n", "summary: -5\n", "summary: [a, b]\n", "summary: a, [b]\n", "summary: {a}\n",
	"summary: &a x\n", "summary: *a\n", "summary: !x y\n", "summary: |\n  x\n", "summary: >\n  x\n",
	"summary: %x\n", "summary: @x\n", "summary: `x`\n", "summary: ?x\n", "summary: :x\n",
	"summary:  two spaces\n", "summary: trailing \n", "summary:\ttab\n", "summary: a\tb\n",
	"summary: a\rb\n", "summary: a\r\n", "summary: a\u0085b\n", "summary: a\u2028b\n", "summary: a\u00a0b\n",
	"summary: a\ufeffb\n", "summary: a\u200bb\n", "summary: é — ok\n", "summary: \xff\n", "summary: a\x7fb\n",
	"summary: x\nsummary: y\n", "Summary: x\n", "summary : x\n", "summary:x\n", " summary: x\n",
	"summary: x\n  continued\n", "summary: x\n\n", "# c\nsummary: x\n", "summary: x # c\n",
	"sensitivity: confidential\n", "sensitivity: Confidential\n", "sensitivity: secret\n",
	"sensitivity: confidental\n", "sensitivity: nope\n", "sensitivty: secret\n", "sensitivity:\n",
	"source_of_truth: true\n", "source_of_truth: yes\n", "other: x\nother: y\n", "null: x\n", "_x: y\n",
	strings.Repeat("a", 1025) + ": x\nsensitivity: secret\n", "summary: x\n" + strings.Repeat("b", 1025) + ": y\n",
	strings.Repeat("c", 64) + ": z\n", strings.Repeat("c", 65) + ": z\n",
	"summary: x\n---\n", "...\n", "- a\n", "summary: x", "project_id: p-1\nprimary_objective: do it\nopen_risk: r\nemotional_register: calm\n",
}

// TestPlainFrontReadsAsYAML proves the fast reader of front matter reads
// what it takes as the YAML decoder does, on cases at its edges and on
// random blocks of the lines wake writes and their neighbours.
func TestPlainFrontReadsAsYAML(t *testing.T) {
	for _, y := range plainFrontCases {
		checkPlainFront(t, y)
	}
	keys := []string{"summary", "session", "next_priority", "memory_type", "sensitivity", "open_risk", "other", "Summary", "sensitivty"}
	pieces := []string{"Session 12", "step", ": ", " #", "#", ":", "'", "\"", "-", "~", "null", "true", "é", "\u2028", "\t", " ", "confidential", "secret", "*", "&", "!", "[", "]"}
	r := rand.New(rand.NewPCG(3, 5))
	taken := 0
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(5) {
			b.WriteString(keys[r.IntN(len(keys))] + ":")
			if r.IntN(5) > 0 {
				b.WriteString(" ")
			}
			for range r.IntN(4) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			b.WriteString("\n")
		}
		if checkPlainFront(t, b.String()) {
			taken++
		}
	}
	if taken < 200 {
		t.Errorf("the fast reader took %d of 3,000 random blocks: the test proves little", taken)
	}
}

// FuzzPlainFront checks the fast reader against the YAML decoder on any
// block.
func FuzzPlainFront(f *testing.F) {
	for _, y := range plainFrontCases {
		f.Add(y)
	}
	f.Fuzz(func(t *testing.T, y string) { checkPlainFront(t, y) })
}

// checkPlainFront fails t when plainFront takes y and reads it otherwise
// than the YAML decoder; it reports whether plainFront took it.
func checkPlainFront(t *testing.T, y string) bool {
	t.Helper()
	got, ok := plainFront([]byte(y))
	if !ok {
		return false
	}
	want, err := decodeYAMLFront([]byte(y))
	if err != nil || !reflect.DeepEqual(got, want) {
		if len(y) > 200 {
			y = y[:200] + "…"
		}
		t.Errorf("front matter %q: read %+v, the YAML decoder %+v (%v)", y, got, want, err)
	}
	return true
}

package budget

import (
	"fmt"
	"strings"
)

// runKinds are the long unbroken runs the counter must count in
// O(n log n) time, each made by makeRun. scripts/longruns.cjs makes the same texts for
// the reference counts in testdata/longruns.jsonl: a change here must be
// made there too, and the fixture regenerated.
var runKinds = []string{
	"letter", "mixedcase", "digits", "spaces", "newlines", "whitespace",
	"spaces-letter", "punct", "cjk", "emoji", "dna", "base64", "hex",
}

// makeRun returns a text of n code points of the given kind. Random kinds
// draw from a 32-bit linear congruential generator seeded with seed, which
// JavaScript reproduces exactly with Math.imul.
func makeRun(kind string, n int, seed uint32) (string, error) {
	x := seed
	pick := func(k int) int {
		x = x*1664525 + 1013904223
		return int(x>>16) % k
	}
	from := func(alphabet string) string {
		rs := []rune(alphabet)
		var b strings.Builder
		for range n {
			b.WriteRune(rs[pick(len(rs))])
		}
		return b.String()
	}
	span := func(lo, size int) string {
		var b strings.Builder
		for range n {
			b.WriteRune(rune(lo + pick(size)))
		}
		return b.String()
	}
	switch kind {
	case "letter":
		return strings.Repeat("a", n), nil
	case "mixedcase":
		return from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"), nil
	case "digits":
		return from("0123456789"), nil
	case "spaces":
		return strings.Repeat(" ", n), nil
	case "newlines":
		return strings.Repeat("\n", n), nil
	case "whitespace":
		return from(" \t\n\r"), nil
	case "spaces-letter":
		if n == 0 {
			return "", nil
		}
		return strings.Repeat(" ", n-1) + "a", nil
	case "punct":
		return from("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"), nil
	case "cjk":
		return span(0x4E00, 0x5200), nil
	case "emoji":
		return span(0x1F600, 0x50), nil
	case "dna":
		return from("ACGT"), nil
	case "base64":
		return from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"), nil
	case "hex":
		return from("0123456789abcdef"), nil
	}
	return "", fmt.Errorf("unknown run kind %q", kind)
}

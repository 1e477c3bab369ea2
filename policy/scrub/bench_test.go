package scrub

import (
	"slices"
	"strings"
	"testing"
)

// benchSize is about what a full boot context weighs: 60k tokens.
const benchSize = 250 << 10

// benchText is about 250 KB of notes made from the clean corpus, one
// inlined image among them, with a section of the true-positive corpus
// after every note when dirty.
func benchText(b *testing.B, dirty bool) string {
	b.Helper()
	clean := cleanCorpus(b)
	names := make([]string, 0, len(clean))
	for name := range clean {
		if name != "images.md" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	pos := positives(b)
	var t strings.Builder
	t.WriteString(clean["images.md"])
	for i := 0; t.Len() < benchSize; i++ {
		t.WriteString(clean[names[i%len(names)]])
		if dirty {
			t.WriteString(pos[i%len(pos)].text)
		}
	}
	return t.String()
}

func benchScrub(b *testing.B, text string) {
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	var red Redactions
	for b.Loop() {
		_, red = Text(text)
	}
	b.ReportMetric(float64(red.Total()), "secrets/op")
}

func BenchmarkScrubClean(b *testing.B) { benchScrub(b, benchText(b, false)) }

func BenchmarkScrubDirty(b *testing.B) { benchScrub(b, benchText(b, true)) }

// BenchmarkScrubNoKeyword is the floor: text in which no rule's keyword
// occurs costs the one pass of the keyword scan.
func BenchmarkScrubNoKeyword(b *testing.B) {
	line := "The importer reads each bank's export, one format a file, and writes journal entries in cents.\n"
	benchScrub(b, strings.Repeat(line, benchSize/len(line)))
}

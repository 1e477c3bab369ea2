package budget

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestFitRecordsEachBlockOnce: a heading that went because its section
// was emptied is recorded once, though the bottom-up order reaches it
// later (the fitter it replaced counted it twice: 7 blocks, 78 tokens).
func TestFitRecordsEachBlockOnce(t *testing.T) {
	t.Parallel()
	w := func(n int) string { return strings.TrimSpace(strings.Repeat("w ", n)) }
	doc := "# T\n## A\n" + w(30) + "\n\n## C\n" + w(30) + "\n\n## HANDOFF\nsession_summary: keep\n\n## B\n" + w(10) + "\n"
	f := Fit(doc, 62, words, "main.md", func(s string) bool { return s == "HANDOFF" })
	want := []Cut{
		{What: w(10), Where: "main.md § B", Tokens: 10}, {What: "## B", Where: "main.md § B", Tokens: 2},
		{What: w(30), Where: "main.md § C", Tokens: 30}, {What: "## C", Where: "main.md § C", Tokens: 2},
		{What: w(30), Where: "main.md § A", Tokens: 30}, {What: "## A", Where: "main.md § A", Tokens: 2},
	}
	if f.Over || fmt.Sprint(f.Cuts) != fmt.Sprint(want) || f.DroppedBlocks != 6 || f.DroppedTokens != 76 {
		t.Fatalf("over %v, %d blocks, %d tokens, cuts:\n%+v", f.Over, f.DroppedBlocks, f.DroppedTokens, f.Cuts)
	}
}

// TestFitRecordIsComplete: over random documents and budgets, the record
// holds every block the markers say was left out, with its count.
func TestFitRecordIsComplete(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 9))
	marker := regexp.MustCompile(`(\d+) block\(s\) left out here, ([\d,]+) tokens`)
	keep := func(s string) bool { return s == "HANDOFF" }
	cuts := 0
	for range 300 {
		doc := randomMarkdown(r)
		total := words.Count(doc)
		for _, b := range []int{0, total / 4, total / 2, total - 1} {
			f := Fit(doc, b, words, "main.md", keep)
			blocks, tokens := 0, 0
			for _, m := range marker.FindAllStringSubmatch(f.Text, -1) {
				n, _ := strconv.Atoi(m[1])
				tok, _ := strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
				blocks, tokens = blocks+n, tokens+tok
			}
			sum := 0
			for _, c := range f.Cuts {
				sum += c.Tokens
				if c.Tokens != words.Count(c.What) && !strings.Contains(c.What, "```") {
					t.Fatalf("cut %q recorded at %d tokens", c.What, c.Tokens)
				}
			}
			if len(f.Cuts) != blocks || sum != tokens || f.DroppedBlocks != blocks || f.DroppedTokens != tokens {
				t.Fatalf("markers say %d blocks, %d tokens; the record has %d, %d; Fitted %d, %d\n%s",
					blocks, tokens, len(f.Cuts), sum, f.DroppedBlocks, f.DroppedTokens, f.Text)
			}
			cuts += len(f.Cuts)
		}
	}
	if cuts == 0 {
		t.Fatal("nothing was ever cut")
	}
}

// randomMarkdown is a document of headings, protected sections, fences
// and list items, each block on one line so that its first line is all of
// it.
func randomMarkdown(r *rand.Rand) string {
	var b strings.Builder
	for i := range r.IntN(60) {
		switch r.IntN(8) {
		case 0:
			fmt.Fprintf(&b, "# Title %d\n\n", i)
		case 1:
			fmt.Fprintf(&b, "## Section %d\n", i)
		case 2:
			b.WriteString("## HANDOFF\nsession_summary: keep this one\n\n")
		case 3:
			fmt.Fprintf(&b, "### Sub %d\n\n", i)
		case 4:
			b.WriteString("```\ncode here\n```\n")
		default:
			fmt.Fprintf(&b, "- item %d %s\n", i, strings.Repeat("w ", r.IntN(12)))
		}
	}
	return b.String()
}

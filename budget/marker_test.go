package budget

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestFitMarksEachGap proves a marker stands in each place content was
// left out, with what that place lost, and that the markers claim a cut
// "to fit" only when the text does fit.
func TestFitMarksEachGap(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("## Above\n")
	for i := range 30 {
		fmt.Fprintf(&b, "- above %d with a few more words\n", i)
	}
	b.WriteString("\n## HANDOFF\nsession_summary: keep me\n\n## Below\n")
	for i := range 30 {
		fmt.Fprintf(&b, "- below %d with a few more words\n", i)
	}
	keep := func(s string) bool { return s == "HANDOFF" }
	f := Fit(b.String(), 120, words, "main.md", keep)
	if f.Over || f.Tokens > 120 {
		t.Fatalf("does not fit: %d tokens", f.Tokens)
	}
	marks := strings.Count(f.Text, "[wake: main.md cut to fit 120 tokens: ")
	h := strings.Index(f.Text, "## HANDOFF")
	if marks != 2 || !strings.Contains(f.Text[:h], "[wake:") || !strings.Contains(f.Text[h:], "[wake:") {
		t.Fatalf("want a marker on each side of the HANDOFF block:\n%s", f.Text)
	}
	// The gaps' counts add up to what was dropped.
	var blocks, tokens int
	for _, m := range regexp.MustCompile(`(\d+) block\(s\) left out here, ([\d,]+) tokens`).FindAllStringSubmatch(f.Text, -1) {
		n, _ := strconv.Atoi(m[1])
		tok, _ := strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
		blocks, tokens = blocks+n, tokens+tok
	}
	if blocks != f.DroppedBlocks || tokens != f.DroppedTokens {
		t.Errorf("markers count %d blocks, %d tokens; dropped %d, %d", blocks, tokens, f.DroppedBlocks, f.DroppedTokens)
	}

	// Protected content alone over the budget: no marker says "cut to fit".
	f = Fit(b.String(), 4, words, "main.md", keep)
	if !f.Over || strings.Contains(f.Text, "cut to fit") ||
		!strings.Contains(f.Text, "[wake: main.md cut, but still over its 4-token budget (the HANDOFF section is never cut): ") {
		t.Fatalf("over budget:\n%s", f.Text)
	}
}

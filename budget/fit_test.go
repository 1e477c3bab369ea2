package budget

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wakeproto/wake/internal/countfn"
)

func TestAllocate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		total int
		wants []int
		want  []int
	}{
		{12000, []int{3000, 9000}, []int{3000, 9000}},
		{12000, []int{3000, 20000}, []int{3000, 9000}},
		{12000, []int{20000, 20000}, []int{6000, 6000}},
		{25000, []int{100, 31204, 200}, []int{100, 24700, 200}},
		{25000, []int{0, 0, 0}, []int{0, 0, 0}},
		{9, []int{10, 10, 10}, []int{3, 3, 3}},
		{0, []int{5}, []int{0}},
	} {
		got := Allocate(tc.total, tc.wants)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("Allocate(%d, %v) = %v, want %v", tc.total, tc.wants, got, tc.want)
		}
	}
}

func TestBlocksRoundTrip(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"",
		"plain\n",
		"# T\n\npara one\nstill one\n\n- a\n  more a\n- b\n\n```go\n# not a heading\n\n- not an item\n```\n\n## S\ntext",
		"- [ ] task\n- [x] done\n1. one\n2) two\n",
		"~~~\nunclosed fence\n",
	} {
		var b strings.Builder
		for _, bl := range Blocks(text) {
			b.WriteString(bl.Text)
		}
		if b.String() != text {
			t.Errorf("blocks of %q join to %q", text, b.String())
		}
	}
	bl := Blocks("# T\n\n```\n# x\n- y\n```\n- z\n")
	if len(bl) != 3 || bl[1].Heading != 0 || !strings.Contains(bl[1].Text, "- y") {
		t.Fatalf("fenced code not kept whole: %+v", bl)
	}
}

// words counts space-separated words: a cheap, deterministic stand-in.
var words = countfn.Func(func(s string) int { return len(strings.Fields(s)) })

func TestFitDropsFromTheBottom(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("# Log\n\n## Old\n")
	for i := range 20 {
		fmt.Fprintf(&b, "- item %d with some words\n", i)
	}
	b.WriteString("\n## HANDOFF\nsession_summary: keep me always\n")
	text := b.String()
	f := Fit(text, 60, words, "main.md", func(s string) bool { return s == "HANDOFF" })
	if !f.Truncated || f.Tokens > 60 || f.Tokens != words.Count(f.Text) {
		t.Fatalf("fit: truncated=%v tokens=%d (exact %d)", f.Truncated, f.Tokens, words.Count(f.Text))
	}
	if !strings.Contains(f.Text, "session_summary: keep me always") {
		t.Fatal("protected section dropped")
	}
	if !strings.Contains(f.Text, "- item 0 ") || strings.Contains(f.Text, "- item 19 ") {
		t.Fatalf("did not drop from the bottom:\n%s", f.Text)
	}
	if !strings.Contains(f.Text, "[wake: main.md cut to fit 60 tokens:") {
		t.Fatalf("no marker:\n%s", f.Text)
	}
	// Never cut mid-line: every output line is an input line or the marker.
	in := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		in[l] = true
	}
	for _, l := range strings.Split(f.Text, "\n") {
		if !in[l] && !strings.HasPrefix(l, "[wake: ") {
			t.Errorf("line %q is not from the input", l)
		}
	}
}

func TestFitUnchangedWhenItFits(t *testing.T) {
	t.Parallel()
	text := "# A\n\n- one\n- two\n"
	f := Fit(text, 100, words, "x.md", nil)
	if f.Truncated || f.Text != text {
		t.Fatalf("fitting text was changed: %+v", f)
	}
}

func TestFitDropsEmptiedSections(t *testing.T) {
	t.Parallel()
	text := "## Keep\n- a\n\n## Gone\n" + strings.Repeat("- many words here\n", 30)
	f := Fit(text, 27, words, "x.md", nil)
	if strings.Contains(f.Text, "## Gone") {
		t.Fatalf("heading of an emptied section kept:\n%s", f.Text)
	}
}

func TestFitWithRealEncoderStaysInBudget(t *testing.T) {
	t.Parallel()
	enc := sharedEncoders(t)["cl100k_base"]
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "## Section %d\n\nSome prose about topic %d, which goes on for a while.\n\n- a point\n- another point\n\n", i, i)
	}
	for _, budget := range []int{50, 500, 3000} {
		f := Fit(b.String(), budget, enc, "warm/x.md", nil)
		if f.Tokens > budget || enc.Count(f.Text) != f.Tokens {
			t.Errorf("budget %d: got %d tokens (exact %d)", budget, f.Tokens, enc.Count(f.Text))
		}
	}
}

func TestThousands(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 31204: "31,204", 1234567: "1,234,567", -2500: "-2,500"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func FuzzBlocks(f *testing.F) {
	for _, s := range []string{"# a\n- b\n", "```\n# x\n```\n", "  - nested\n    more\n\n\n", "~~~~\n~~~\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b strings.Builder
		for _, bl := range Blocks(s) {
			b.WriteString(bl.Text)
		}
		if b.String() != s {
			t.Fatalf("blocks of %q join to %q", s, b.String())
		}
		r := Fit(s, 5, words, "f.md", nil)
		if !r.Over && r.Tokens > 5 {
			t.Fatalf("fit over budget without Over")
		}
	})
}

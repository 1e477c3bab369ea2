package boot

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestHookLen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc\n", 4},
		{"é", 1},      // 2 bytes, 1 UTF-16 unit
		{"€", 1},      // 3 bytes
		{"😀", 2},      // 4 bytes, a surrogate pair
		{"a\xffb", 3}, // an invalid byte decodes to one U+FFFD
		{"漢字😀x", 5},   // 2 + 2 + 1
	} {
		if got := HookLen(tc.s); got != tc.want {
			t.Errorf("HookLen(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func TestCutUTF16(t *testing.T) {
	t.Parallel()
	s := strings.Repeat("😀", 10) // 20 units
	for n := 1; n <= 22; n++ {
		got := cutUTF16(s, n)
		if HookLen(got) > n {
			t.Fatalf("cutUTF16(_, %d) is %d units", n, HookLen(got))
		}
		if !strings.HasPrefix(s, strings.TrimSuffix(got, "…")) {
			t.Fatalf("cutUTF16(_, %d) = %q split a character", n, got)
		}
	}
}

// hugeContext is a context with far more to say than a hook may print.
func hugeContext(r *rand.Rand, lines int) *Context {
	c := &Context{Root: "/home/ava/work/tallybook/.wake"}
	pick := []string{"a", "é", "漢", "😀", " ", "-", "\xff"}
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pick[r.IntN(len(pick))])
		}
		return b.String()
	}
	for i := range lines {
		c.Directives = append(c.Directives, fmt.Sprintf("Then: compress file-%d.md %s", i, word(r.IntN(300))))
		c.Warnings = append(c.Warnings, fmt.Sprintf("cold/x-%d.md: %s", i, word(r.IntN(300))))
	}
	return c
}

// TestHookNeverOverLimit is the property the hook promises Claude Code:
// whatever the context holds, the text is within the limit and still says
// where the whole context is.
func TestHookNeverOverLimit(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	targets := []HookTarget{
		{BootPath: "/home/ava/work/tallybook/.wake/boot.md"},
		{BootPath: "/p/.wake/boot.md", BootChanged: true},
		{SkillPath: "/home/ava/work/tallybook/.wake/skill.md", SkillImported: true},
		{Problems: []string{strings.Repeat("boot.md could not be written 😀 ", 2000)}},
	}
	for _, lines := range []int{0, 1, 5, 40, 200, 5000} {
		for _, limit := range []int{HookLimit, 2000, 300} {
			for i, tg := range targets {
				c := hugeContext(r, lines)
				out := Hook(c, tg, limit)
				if n := HookLen(out); n > limit {
					t.Fatalf("lines=%d limit=%d target %d: %d characters", lines, limit, i, n)
				}
				if limit == HookLimit && i < 3 && !strings.Contains(out, "## Full context") {
					t.Fatalf("lines=%d target %d: no pointer to the full context:\n%s", lines, i, out)
				}
				if lines >= 200 && limit == HookLimit && !strings.Contains(out, "left out to stay within Claude Code's 10,000-character hook limit") {
					t.Fatalf("lines=%d: nothing says lines were left out", lines)
				}
			}
		}
	}
}

func TestHookSmallContextWhole(t *testing.T) {
	t.Parallel()
	c := &Context{Root: "/p/.wake", Directives: []string{"First task: compress warm/decisions.md (31,204 tokens; budget 8,333) before proceeding."},
		Warnings: []string{"cold/x.md: skipped: binary file"}}
	out := Hook(c, HookTarget{BootPath: "/p/.wake/boot.md"}, HookLimit)
	for _, want := range []string{"Memory root: /p/.wake\n", c.Directives[0] + "\n", "## Warnings\n\n- cold/x.md: skipped: binary file\n", "is in /p/.wake/boot.md, which CLAUDE.md imports"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "left out") {
		t.Errorf("a small context was cut:\n%s", out)
	}
}

// TestHookCutsFromTheBottom checks the order: directives stay before
// warnings are cut, and a long first line that does not fit is shown cut.
func TestHookCutsFromTheBottom(t *testing.T) {
	t.Parallel()
	c := &Context{Root: "/p/.wake"}
	for i := range 50 {
		c.Directives = append(c.Directives, fmt.Sprintf("Then: compress d%02d.md", i))
		c.Warnings = append(c.Warnings, fmt.Sprintf("w%02d %s", i, strings.Repeat("x", 100)))
	}
	out := Hook(c, HookTarget{BootPath: "/p/.wake/boot.md"}, 3000)
	if !strings.Contains(out, "Then: compress d49.md") {
		t.Fatalf("a directive was cut before the warnings:\n%s", out)
	}
	if strings.Contains(out, "w49 ") || !strings.Contains(out, "w00 ") {
		t.Fatalf("warnings not cut from the bottom:\n%s", out)
	}
	long := &Context{Root: "/p", Directives: []string{strings.Repeat("y", 50000)}}
	out = Hook(long, HookTarget{BootPath: "/p/boot.md"}, HookLimit)
	if HookLen(out) > HookLimit || !strings.Contains(out, "yyyy…\n") {
		t.Fatalf("a long line was not shown cut (%d characters)", HookLen(out))
	}
}

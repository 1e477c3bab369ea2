package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/capsule"
)

// TestCapsuleTextBoundsCuts: the text names at most maxCutLines cuts, a
// line each, then one line for the rest with their count and tokens.
func TestCapsuleTextBoundsCuts(t *testing.T) {
	for _, n := range []int{0, 3, maxCutLines, maxCutLines + 1, 5000} {
		c := capsule.Written{ID: "main/x", Path: "cold/capsules/main/x.md", Tokens: 100, Budget: 1200}
		for i := range n {
			c.Cuts = append(c.Cuts, budget.Cut{What: fmt.Sprintf("reminder %d", i), Where: "x", Tokens: 2})
		}
		var b bytes.Buffer
		CapsuleText(&b, c)
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		want := 1 + min(n, maxCutLines)
		if n > maxCutLines {
			want++
			last := lines[len(lines)-1]
			if !strings.Contains(last, budget.Plural(n-maxCutLines, "item")+" more ("+budget.Thousands(2*(n-maxCutLines))+" tokens)") {
				t.Errorf("%d cuts: last line %q", n, last)
			}
		}
		if len(lines) != want {
			t.Errorf("%d cuts: %d lines, want %d", n, len(lines), want)
		}
	}
}

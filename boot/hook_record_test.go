package boot

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestHookKeepsWhatFits: a hook text that fits whole is shown whole,
// though its last line is shorter than the note that lines were left out.
// (The fitter this replaced kept lines while they fitted with that note,
// so it cut the last warning here and said it had to.)
func TestHookKeepsWhatFits(t *testing.T) {
	t.Parallel()
	c := &Context{Root: "/p/.wake", Warnings: []string{strings.Repeat("w", 300), "short"}}
	// No boot file: a closing pointer short enough to stay whole.
	tg := HookTarget{}
	whole := Hook(c, tg, HookLimit)
	if strings.Contains(whole, "left out") {
		t.Fatalf("the whole text was cut:\n%s", whole)
	}
	// The limit is the whole's length, with the closing pointer the same.
	if out := Hook(c, tg, HookLen(whole)); out != whole {
		t.Fatalf("a hook text that fits was cut to %d characters:\n%s", HookLen(out), out)
	}
}

// TestHookRecordIsComplete: each line the hook leaves out is in the cut
// record with its length in UTF-16 units, and a line shown cut with the
// length of its tail: what is shown and what is recorded add up to the
// whole.
func TestHookRecordIsComplete(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(4, 4))
	partial := 0
	for _, lines := range []int{1, 5, 40, 200} {
		blocks := blocksOf(hugeContext(r, lines))
		whole, none := fitHook(blocks, 1<<30, ClaudeCode)
		if len(none()) != 0 {
			t.Fatalf("nothing cut, %d recorded", len(none()))
		}
		for _, room := range []int{HookLen(whole), HookLen(whole) - 1, 9000, 3000, 300, 0} {
			out, record := fitHook(blocks, room, ClaudeCode)
			units := 0
			for _, c := range record() {
				if c.Units <= 0 || c.Tokens != 0 || !strings.HasPrefix(c.Where, hookWhat) {
					t.Fatalf("room %d: cut %+v", room, c)
				}
				units += c.Units
			}
			shown := out
			if i := strings.Index(out, "\n[wake: "); i >= 0 {
				shown = out[:i]
			}
			if strings.HasSuffix(shown, "…\n") {
				// The ellipsis is the hook's own, not the line's.
				shown = strings.TrimSuffix(shown, "…\n") + "\n"
				partial++
			}
			if HookLen(shown)+units != HookLen(whole) {
				t.Fatalf("lines %d room %d: shown %d + recorded %d, whole %d", lines, room, HookLen(shown), units, HookLen(whole))
			}
		}
	}
	if partial == 0 {
		t.Fatal("no line was ever shown cut")
	}
}

package budget

import (
	"testing"

	"github.com/wakeproto/wake/internal/countfn"
)

// TestCountTransient proves a transient count uses what the cache knows
// but never grows it.
func TestCountTransient(t *testing.T) {
	t.Parallel()
	calls := 0
	c := NewCache("cl100k_base", countfn.Func(func(s string) int { calls++; return len(s) }), nil)
	if n := c.CountTransient("new text"); n != 8 || calls != 1 || c.Dirty() {
		t.Fatalf("miss: n %d calls %d dirty %v", n, calls, c.Dirty())
	}
	if n := c.CountTransient("new text"); n != 8 || calls != 2 {
		t.Fatalf("a transient count was remembered: calls %d", calls)
	}
	c.Count("known")
	if n := c.CountTransient("known"); n != 5 || calls != 3 {
		t.Fatalf("known text recounted: calls %d", calls)
	}
	if c.CountTransient("") != 0 || calls != 3 {
		t.Fatal("empty text counted")
	}
	again := NewCache("cl100k_base", countfn.Func(func(s string) int { return -1 }), c.Marshal())
	if again.CountTransient("new text") != -1 || again.CountTransient("known") != 5 {
		t.Fatal("the saved cache holds the wrong texts")
	}
}

package tiers

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Entry numbers at and past the integer limit: the largest is read, with
// its line kept as the file's last number; one too large for an integer
// is a problem saying so, not "not a number".
func TestParseInboxHugeNumbers(t *testing.T) {
	in := "# Remember later\n\n## 9223372036854775807 · 2026-11-22T22:24:46Z\n- reminder: at the limit\n\n" +
		"## 9223372036854775808 · 2026-11-22T22:24:46Z\n- reminder: one past it\n\n" +
		"## 99999999999999999999999999 · 2026-11-22T22:24:46Z\n- reminder: far past it\n"
	b, err := ParseInbox([]byte(in))
	var ie *InboxError
	if !errors.As(err, &ie) || len(ie.Problems) != 2 {
		t.Fatalf("err = %v", err)
	}
	for i, line := range []int{6, 9} {
		p := ie.Problems[i]
		if p.Line != line || !strings.Contains(p.Reason, "too large") || !strings.Contains(p.Reason, "9223372036854775807") {
			t.Errorf("problem %d: %+v", i, p)
		}
	}
	if len(b.Reminders) != 1 || b.Reminders[0].N != math.MaxInt || b.Last != math.MaxInt || b.LastLine != 3 {
		t.Fatalf("last %d on line %d, %+v", b.Last, b.LastLine, b.Reminders)
	}
}

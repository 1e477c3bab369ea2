package tiers

import (
	"errors"
	"math"
	"slices"
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

// The head of a huge inbox is read up to its last heading: the entry that
// heading opens may be closed past the head.
func TestParseInboxHead(t *testing.T) {
	for name, tc := range map[string]struct {
		head string
		want []int
	}{
		"last entry cut":   {"# T\n\n## 1 · 2026-11-01\n- reminder: a\n\n## 2 · 2026-11-01\n- reminder: b\n", []int{1}},
		"front matter":     {"---\nsummary: x\n---\n## 1 · 2026-11-01\n- reminder: a\n## 2 · 2026-11-01\n", []int{1}},
		"no heading":       {"prose\nmore prose\n", nil},
		"one entry, CRLF":  {"## 1 · 2026-11-01\r\n- reminder: a\r\n", nil},
		"indented heading": {"## 1 · 2026-11-01\n- reminder: a\n  ## 2 · 2026-11-01\n- reminder: b\n", []int{1}},
	} {
		b, err := ParseInboxHead([]byte(tc.head))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var ns []int
		for _, r := range b.Reminders {
			ns = append(ns, r.N)
		}
		if !b.Partial || !slices.Equal(ns, tc.want) {
			t.Errorf("%s: %v (partial %v), want %v", name, ns, b.Partial, tc.want)
		}
	}
}

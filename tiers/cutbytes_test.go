package tiers

import (
	"testing"
	"unicode/utf8"
)

// TestCutBytes: the head is at most n bytes, valid where s is, and as long
// as it can be without splitting a character.
func TestCutBytes(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"}, {"abc", 3, "abc"}, {"abc", 2, "ab"}, {"abc", 0, ""}, {"abc", -1, ""},
		{"aé", 2, "a"}, {"aé", 3, "aé"}, {"a€b", 3, "a"}, {"a€b", 4, "a€"}, {"😀", 3, ""},
	} {
		got := CutBytes(c.s, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("CutBytes(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

package tiers

import (
	"slices"
	"testing"
)

func TestConflictMarkers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		in   string
		want []int
	}{
		{"none", "# Title\n\ntext\n", nil},
		{"setext heading", "Title\n=======\n\ntext\n", nil},
		{"a conflict", "a\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> b\nz\n", []int{2, 4, 6}},
		{"diff3 and CRLF", "<<<<<<< ours\r\nx\r\n||||||| base\r\ny\r\n=======\r\nz\r\n>>>>>>> theirs\r\n", []int{1, 3, 5, 7}},
		{"open without close", "<<<<<<< HEAD\nx\n=======\n", nil},
		{"inside a line", "see <<<<<<< and >>>>>>> in prose\n", nil},
		{"longer runs are no markers", "<<<<<<<< x\n>>>>>>>> y\n", nil},
		{"quoted in a fenced block", "## Open threads\n```\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n```\n", nil},
		{"bare markers", "<<<<<<<\nx\n=======\ny\n>>>>>>>", []int{1, 3, 5}},
	} {
		if got := ConflictMarkers([]byte(tc.in)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

package mcpserver

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestReadLineDropsTheRestOfALongLine: of a line longer than maxLine what
// is kept is its start, never its start with a later piece spliced on,
// whatever the reader's buffer size; the next line is read whole. The
// line is as long as makes its last piece fit where the dropped ones did
// not (a buffer size that does not divide maxLine).
func TestReadLineDropsTheRestOfALongLine(t *testing.T) {
	for _, size := range []int{3 << 10, 5000, 64 << 10} {
		n := maxLine/size*size + size + 50 // bytes of the line, its newline included
		long := strings.Repeat("x", n-len("TAIL\n")) + "TAIL\n"
		r := bufio.NewReaderSize(io.MultiReader(strings.NewReader(long), strings.NewReader("next\n")), size)
		line, err := readLine(r)
		if err != nil {
			t.Fatal(err)
		}
		if len(line) > maxLine || strings.Trim(string(line), "x") != "" {
			t.Errorf("buffer %d: a long line read as %d bytes ending %q", size, len(line), line[max(0, len(line)-8):])
		}
		next, err := readLine(r)
		if string(next) != "next\n" || err != nil && !errors.Is(err, io.EOF) {
			t.Errorf("buffer %d: the next line read as %q (%v)", size, next, err)
		}
	}
}

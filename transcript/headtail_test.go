package transcript

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// TestHeadAndTail: a transcript longer than the bound is read as the
// whole lines of its head and of its tail, one run of lines; a shorter
// one whole.
func TestHeadAndTail(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, `{"n":%d,"pad":"%s"}`+"\n", i, strings.Repeat("x", i%7))
	}
	text := b.String()
	fsys := afero.NewMemMapFs()
	afero.WriteFile(fsys, "/t.jsonl", []byte(text), 0o644)
	f, _ := fsys.Open("/t.jsonl")
	defer f.Close()
	size := int64(len(text))
	for _, c := range []struct{ head, tail int64 }{{100, 200}, {1, 1}, {0, 0}, {size / 2, size / 2}, {size, 0}, {37, size - 100}} {
		r, cut, err := HeadAndTail(f, size, c.head, c.tail)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(r)
		got := string(data)
		if cut != (size > c.head+c.tail) {
			t.Errorf("%v: cut %v", c, cut)
		}
		// Every line is whole, and the lines are a run from the start
		// then a run to the end, within the bounds.
		lines := strings.SplitAfter(got, "\n")
		lines = lines[:len(lines)-1]
		all := strings.SplitAfter(text, "\n")
		i := 0
		for i < len(lines) && lines[i] == all[i] {
			i++
		}
		headLen := len(strings.Join(lines[:i], ""))
		rest := strings.Join(lines[i:], "")
		if !strings.HasSuffix(text, rest) || !strings.HasSuffix(got, "\n") && got != "" ||
			cut && (int64(headLen) > c.head || int64(len(rest)) > c.tail) {
			t.Errorf("%v: read %d bytes of head, %d of tail:\n%s", c, headLen, len(rest), got)
		}
		if !cut && got != text {
			t.Errorf("%v: not read whole", c)
		}
	}
}

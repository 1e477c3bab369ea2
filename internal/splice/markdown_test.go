package splice

import (
	"errors"
	"strings"
	"testing"
)

const testLine = "@.wake/boot.md"

func TestLineRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		src    string
		exists bool
		want   string // after AddLine
	}{
		{"missing file", "", false, "@.wake/boot.md\n"},
		{"empty file", "", true, "\n@.wake/boot.md\n"},
		{"ends in a newline", "# Rules\n\nBe brief.\n", true, "# Rules\n\nBe brief.\n\n@.wake/boot.md\n"},
		{"no final newline", "# Rules", true, "# Rules\n@.wake/boot.md\n"},
		{"CRLF", "# Rules\r\n", true, "# Rules\r\n\r\n@.wake/boot.md\r\n"},
		{"CRLF, no final newline", "# Rules\r\nBe brief.", true, "# Rules\r\nBe brief.\r\n@.wake/boot.md\r\n"},
		{"LF first, CRLF later", "a\nb\r\n", true, "a\nb\r\n\n@.wake/boot.md\n"},
		{"lone CR at the end", "a\r", true, "a\r\n@.wake/boot.md\n"},
		{"import only in code", "```\n@.wake/boot.md\n```\n", true, "```\n@.wake/boot.md\n```\n\n@.wake/boot.md\n"},
		{"other imports", "@AGENTS.md\n@docs/style.md\n", true, "@AGENTS.md\n@docs/style.md\n\n@.wake/boot.md\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := AddLine([]byte(tc.src), tc.exists, testLine)
			if err != nil || !changed || string(out) != tc.want {
				t.Fatalf("add: changed=%v\n got %q\nwant %q", changed, out, tc.want)
			}
			if again, changed, _ := AddLine(out, true, testLine); changed || string(again) != string(out) {
				t.Fatalf("a second add changed the file: %q", again)
			}
			back, removed := RemoveLine(out, testLine)
			if !removed {
				t.Fatal("remove: the line was not found")
			}
			if string(back) != tc.src {
				t.Fatalf("remove:\n got %q\nwant %q", back, tc.src)
			}
		})
	}
}

func TestLinePresent(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"@.wake/boot.md\n", "intro\n  @.wake/boot.md  \nmore\n"} {
		if out, changed, _ := AddLine([]byte(src), true, testLine); changed || string(out) != src {
			t.Fatalf("%q: add changed it to %q", src, out)
		}
	}
	// Moved by hand into the middle: only the line goes.
	out, removed := RemoveLine([]byte("a\n@.wake/boot.md\nb\n"), testLine)
	if !removed || string(out) != "a\nb\n" {
		t.Fatalf("got %q removed=%v", out, removed)
	}
	if out, removed := RemoveLine([]byte("a\n"), testLine); removed || string(out) != "a\n" {
		t.Fatalf("no line: got %q removed=%v", out, removed)
	}
}

func TestLineOpenFence(t *testing.T) {
	t.Parallel()
	src := "Example:\n```sh\nwake load\n"
	if _, _, err := AddLine([]byte(src), true, testLine); !errors.Is(err, ErrOpenFence) {
		t.Fatalf("got %v, want ErrOpenFence", err)
	}
}

// FuzzLine proves that adding a line then removing it gives back any
// file that does not hold the line already.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "a", "a\n", "a\n\n", "\n", "```\n", "x\r\n", "x\r\ny", "x\r", "\r\n\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Contains(src, testLine) {
			return
		}
		out, changed, err := AddLine([]byte(src), true, testLine)
		if err != nil {
			return // ends in an unclosed fence: refused
		}
		if !changed {
			t.Fatalf("not added to %q", src)
		}
		back, removed := RemoveLine(out, testLine)
		if !removed || string(back) != src {
			t.Fatalf("round trip of %q: got %q removed=%v", src, back, removed)
		}
	})
}

package codex

import (
	"strings"
	"testing"
)

var agentsFiles = []struct{ name, src string }{
	{"empty", ""},
	{"one line", "# Tallybook\n"},
	{"no final newline", "# Tallybook\n\nUse tabs."},
	{"CRLF", "# Tallybook\r\n\r\nUse tabs.\r\n"},
	{"blank end", "# Tallybook\n\n"},
	{"fence with wake's markers", "# Notes\n\n```\n<!-- wake:begin x -->\n<!-- wake:end -->\n```\n"},
}

// TestBlockRoundTrip: the block goes at the end, once, and comes out
// again with the blank line install put before it.
func TestBlockRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range agentsFiles {
		t.Run(c.name, func(t *testing.T) {
			out, where, changed := addBlock([]byte(c.src), ".wake/", ".wake/boot.md", DocMaxBytes)
			if !changed || where.Top || !strings.HasSuffix(string(out), blockEnd+eolOf(c.src)) || !strings.HasPrefix(string(out), c.src) {
				t.Fatalf("%v %+v:\n%s", changed, where, out)
			}
			if strings.Contains(c.src, "\r\n") && strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
				t.Errorf("mixed line endings: %q", out)
			}
			if again, _, changed := addBlock(out, ".wake/", ".wake/boot.md", DocMaxBytes); changed || string(again) != string(out) {
				t.Fatalf("second add changed the file:\n%s", again)
			}
			back, ok := removeBlock(out)
			want := c.src
			if c.name == "no final newline" {
				want += "\n" // which of the two line breaks was the user's is not knowable: the undo knows
			}
			if !ok || string(back) != want {
				t.Fatalf("got back %q, want %q", back, want)
			}
		})
	}
}

func eolOf(s string) string {
	if strings.Contains(s, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// TestBlockPlacement: the block goes where Codex reads it: at the top of a
// file whose end lies past project_doc_max_bytes or inside a code fence
// never closed, and it is brought up to date where it stands.
func TestBlockPlacement(t *testing.T) {
	t.Parallel()
	long := "# Big\n" + strings.Repeat("x", 2000) + "\n"
	out, where, _ := addBlock([]byte(long), ".wake/", ".wake/boot.md", 1500)
	if !where.Top || !strings.HasPrefix(string(out), blockBegin) || !strings.HasSuffix(string(out), long) || where.sizeWarning("AGENTS.md") == "" {
		t.Fatalf("%+v:\n%.200s", where, out)
	}
	if back, _ := removeBlock(out); string(back) != long {
		t.Fatalf("got back %q", back)
	}
	open := "# Notes\n\n```sh\ngo test\n"
	if out, where, _ := addBlock([]byte(open), ".wake/", ".wake/boot.md", DocMaxBytes); !where.Top || !strings.HasSuffix(string(out), open) {
		t.Fatalf("%+v:\n%s", where, out)
	}
	old := "# T\n\n" + strings.Replace(string(agentsBlock(".wake/", ".wake/boot.md", "\n")), ".wake/boot.md", "old/boot.md", 1) + "\nMine.\n"
	out, _, changed := addBlock([]byte(old), ".wake/", ".wake/boot.md", DocMaxBytes)
	if !changed || string(out) != "# T\n\n"+string(agentsBlock(".wake/", ".wake/boot.md", "\n"))+"\nMine.\n" {
		t.Fatalf("not brought up to date:\n%s", out)
	}
}

// TestBlockSays: the block names where the memory is and the exact
// hand-off command, and stays small.
func TestBlockSays(t *testing.T) {
	t.Parallel()
	b := string(agentsBlock("/m/.wake/", "/m/.wake/boot.md", "\n"))
	for _, want := range []string{"memory is wake's, in /m/.wake/", "read /m/.wake/boot.md", "# wake: memory loaded", `wake handoff --summary "`, `--next "`} {
		if !strings.Contains(b, want) {
			t.Errorf("block lacks %q:\n%s", want, b)
		}
	}
	if len(b) > 1024 {
		t.Errorf("block is %d bytes", len(b))
	}
}

// TestBlockOrphanedBegin: an opening line whose closing line the user
// deleted stays the user's: a later install and its uninstall leave the
// text after it alone.
func TestBlockOrphanedBegin(t *testing.T) {
	t.Parallel()
	old := string(agentsBlock(".wake", ".wake/boot.md", "\n"))
	orphaned := "# Rules\n\n" + strings.Replace(old, blockEnd+"\n", "", 1) + "USER RULE: use tabs.\n"
	out, _, changed := addBlock([]byte(orphaned), "/elsewhere/.wake", "/elsewhere/.wake/boot.md", DocMaxBytes)
	if !changed || !strings.Contains(string(out), "USER RULE: use tabs.") {
		t.Fatalf("install took the user's text:\n%s", out)
	}
	back, ok := removeBlock(out)
	if !ok || string(back) != orphaned {
		t.Fatalf("uninstall gave back\n%q\nwant\n%q", back, orphaned)
	}
}

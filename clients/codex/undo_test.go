package codex

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestUndo: the undo of any edit gives back the file before it, from the
// file after it and nothing else.
func TestUndo(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a\n", "b\n", "[x]\n", "\n", "k = 1\n", "c\r\n", "z"}
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[r.IntN(len(words)-1)])
		}
		if r.IntN(3) == 0 {
			b.WriteString("z")
		}
		return b.String()
	}
	undone := 0
	for i := range 2000 {
		before := gen(r.IntN(12))
		lines := splitLines([]byte(before))
		var after strings.Builder
		for _, l := range lines {
			switch r.IntN(5) {
			case 0: // dropped
			case 1:
				after.WriteString(gen(1 + r.IntN(2)))
			default:
				after.Write(l)
			}
			if r.IntN(4) == 0 {
				after.WriteString(gen(1))
			}
		}
		existed := i%7 != 0 || before != ""
		u := makeUndo([]byte(before), existed, []byte(after.String()))
		if u == nil {
			// The undo would hold the user's text: none is kept.
			continue
		}
		for _, h := range u.Hunks {
			if strings.TrimSpace(h.Ins) != "" {
				t.Fatalf("before %q after %q: the undo holds %q", before, after.String(), h.Ins)
			}
		}
		undone++
		got, ok := u.apply([]byte(after.String()))
		if !ok || string(got) != before {
			t.Fatalf("before %q after %q: got %q %v (%+v)", before, after.String(), got, ok, u)
		}
		if after.String() != before+"x" {
			if _, ok := u.apply([]byte(after.String() + "x")); ok {
				t.Fatalf("applied to another file")
			}
		}
	}
	if undone < 500 {
		t.Errorf("only %d of 2,000 edits got an undo", undone)
	}
}

// TestUndoKeepsNoSecret: what Codex's app server does to a config.toml
// with an API key (appends after a last line with no newline; rewrites a
// CRLF file with LF) never puts the key in the record: the first undo
// holds a line ending at most, the second is none.
func TestUndoKeepsNoSecret(t *testing.T) {
	t.Parallel()
	const key = `experimental_bearer_token = "sk-SECRET123"`
	before := "model = \"gpt-5.5\"\n" + key
	after := before + "\n\n[projects.\"/p\"]\ntrust_level = \"trusted\"\n"
	u := makeUndo([]byte(before), true, []byte(after))
	if u == nil {
		t.Fatal("no undo for an edit that only appends")
	}
	data, _ := json.Marshal(u)
	if strings.Contains(string(data), "SECRET") {
		t.Fatalf("the record holds the key: %s", data)
	}
	if got, ok := u.apply([]byte(after)); !ok || string(got) != before {
		t.Fatalf("apply: %q %v", got, ok)
	}
	crlf := strings.ReplaceAll(before, "\n", "\r\n") + "\r\n"
	if u := makeUndo([]byte(crlf), true, []byte(after)); u != nil {
		data, _ := json.Marshal(u)
		t.Fatalf("an undo of a CRLF file rewritten with LF: %s", data)
	}
}

// TestUndoChain: a second install's undo gives back the file as the first
// found it, and none is made when the file changed in between.
func TestUndoChain(t *testing.T) {
	t.Parallel()
	u := makeUndo([]byte("a\n"), true, []byte("a\nb\n"))
	c := u.chain([]byte("a\nb\n"), []byte("a\nb\nc\n"))
	if got, ok := c.apply([]byte("a\nb\nc\n")); !ok || string(got) != "a\n" {
		t.Fatalf("%q %v", got, ok)
	}
	if u.chain([]byte("a\nB\n"), []byte("x")) != nil {
		t.Fatal("chained from a file the first undo did not make")
	}
	var none *fileUndo
	if _, ok := none.apply(nil); ok || none.chain(nil, nil) != nil {
		t.Fatal("nil undo")
	}
	if u := makeUndo(nil, false, []byte("x\n")); !u.Hunks[0].isDeleteAll(2) {
		t.Fatalf("%+v", u)
	}
}

func (h hunk) isDeleteAll(n int) bool { return h.At == 0 && h.Del == n && h.Ins == "" }

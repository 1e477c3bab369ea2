package splice

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseJSONErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{"{\n  \"a\": 1,\n}\n", "3:1: "},
		{`{"a": {`, "1:8: "},
		{"{\r\n  \"a\": [\r\n", "3:1: "},
		{"{\"été\": x}", "1:9: "},
		{"{\"a\": 01}", "1:8: "},
	} {
		_, err := ParseJSON([]byte(tc.src))
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a *SyntaxError at %s", tc.src, err, tc.want)
		}
	}
}

func TestInsertRemove(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{"{}", "{\n  \"k\": 1\n}"},
		{"{\n}", "{\n  \"k\": 1\n}"},
		{"{\r\n\t\"a\": 1\r\n}\r\n", "{\r\n\t\"a\": 1,\r\n\t\"k\": 1\r\n}\r\n"},
		{"{\"a\": {\n    \"b\": []\n}}", "{\"a\": {\n    \"b\": []\n},\n  \"k\": 1}"},
	} {
		src := []byte(tc.src)
		top, err := ParseJSON(src)
		if err != nil {
			t.Fatal(err)
		}
		st := StyleOf(src, top)
		out := top.Insert(src, st, `"k": `+Marshal(1, st, 1))
		if string(out) != tc.want {
			t.Errorf("%q: inserted\n got %q\nwant %q", tc.src, out, tc.want)
		}
		back := restore(t, src, top, out, st)
		if string(back) != tc.src {
			t.Errorf("%q: removed, got %q", tc.src, back)
		}
	}
}

// restore takes out again the item [Node.Insert] added to top, the
// top-level container of src, giving out.
func restore(t *testing.T, src []byte, top *Node, out []byte, st Style) []byte {
	t.Helper()
	after, err := ParseJSON(out)
	if err != nil {
		t.Fatalf("inserting gave malformed JSON: %v\n%q", err, out)
	}
	if top.Len() == 0 {
		return after.SetInside(out, string(top.Inside(src)))
	}
	return after.Remove(out, after.Len()-1, st)
}

// FuzzJSON proves that any input is refused with the place it goes wrong,
// or parsed into nodes each spanning a JSON value of its own, with an item
// added to the top-level container and taken out again byte for byte.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{"{}", "[]", "{\n}", `{"a": [1, {"b": null}], "c": "d"}`, "[\r\n 1,\r\n 2\r\n]", "1e400", `"x"`, "{,}", "{\"a\": 1,}", "\f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte(s)
		top, err := ParseJSON(src)
		if err != nil {
			var se *SyntaxError
			if json.Valid(src) || !errors.As(err, &se) || se.Line < 1 || se.Line > strings.Count(s, "\n")+1 || se.Col < 1 {
				t.Fatalf("%q: refused with %v", s, err)
			}
			return
		}
		if !json.Valid(src) {
			t.Fatalf("%q: malformed JSON parsed", s)
		}
		var walk func(n *Node)
		walk = func(n *Node) {
			if !json.Valid(src[n.Start:n.End]) {
				t.Fatalf("%q: node %q is not a JSON value", s, src[n.Start:n.End])
			}
			for _, m := range n.Members {
				walk(m.Val)
			}
			for _, e := range n.Elems {
				walk(e)
			}
		}
		walk(top)
		if top.Kind != '{' && top.Kind != '[' {
			return
		}
		st := StyleOf(src, top)
		item := Marshal([]string{"x"}, st, 1)
		if top.Kind == '{' {
			item = `"k": ` + item
		}
		out := top.Insert(src, st, item)
		if back := restore(t, src, top, out, st); string(back) != s {
			t.Fatalf("round trip of %q through %q gave %q", s, out, back)
		}
	})
}

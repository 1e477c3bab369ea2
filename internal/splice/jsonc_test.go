package splice

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseJSONC(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, blank string }{
		{"{\"a\": 1}", "{\"a\": 1}"},
		{"{\"a\": 1,}", "{\"a\": 1 }"},
		{"[1, 2, ]", "[1, 2  ]"},
		{"{\n  // note\n  \"a\": [1,],\n}\n", "{\n         \n  \"a\": [1 ] \n}\n"},
		{"{/* x\r\ny */\"a\": 2}", "{    \r\n    \"a\": 2}"},
		{`{"u": "http://x/*y*/", "c": "a,]"}`, `{"u": "http://x/*y*/", "c": "a,]"}`},
		{"{\"a\": \"\\\"//\"} // end", "{\"a\": \"\\\"//\"}       "},
		{"{\"a\": 1, /* c */ }", "{\"a\": 1          }"},
	} {
		top, blank, err := ParseJSONC([]byte(tc.src))
		if err != nil || string(blank) != tc.blank || top == nil {
			t.Errorf("%q: got %q, %v; want %q", tc.src, blank, err, tc.blank)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"{\"a\": 1 /* open", "1:9: unterminated"},
		{"[,]", "1:2: "},
		{"{\"a\": 1,,}", "1:9: "},
		{"{\n  \"a\": 1\n  \"b\": 2\n}", "3:3: "},
		{"// only a comment", "1:18: "},
	} {
		_, _, err := ParseJSONC([]byte(tc.src))
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a *SyntaxError at %s", tc.src, err, tc.want)
		}
	}
}

// FuzzJSONC proves that blanking keeps every offset and line break, never
// touches a string, and that what it accepts is JSON once blanked, with
// an item added and taken out of the original byte for byte.
func FuzzJSONC(f *testing.F) {
	for _, s := range []string{"{}", "{\"a\": 1,}", "{\n  // c\n  \"a\": [1, 2,],\n}\n", "/* */[]", "{\"s\": \"//\"}", "[1,/*x*/]", "{\"a\":1 // c\n}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte(s)
		top, blank, err := ParseJSONC(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Line > strings.Count(s, "\n")+1 || se.Col < 1 {
				t.Fatalf("%q: refused with %v", s, err)
			}
			return
		}
		if !json.Valid(blank) || len(blank) != len(src) {
			t.Fatalf("%q: blanked into %q", s, blank)
		}
		for i := range src {
			if (src[i] == '\n' || src[i] == '\r') != (blank[i] == '\n' || blank[i] == '\r') || blank[i] != src[i] && blank[i] != ' ' {
				t.Fatalf("%q: blanked into %q", s, blank)
			}
		}
		var walk func(n *Node)
		walk = func(n *Node) {
			if n.Kind == '"' && !bytes.Equal(src[n.Start:n.End], blank[n.Start:n.End]) {
				t.Fatalf("%q: string %q blanked", s, src[n.Start:n.End])
			}
			for _, m := range n.Members {
				walk(m.Val)
			}
			for _, e := range n.Elems {
				walk(e)
			}
		}
		walk(top)
		if top.Kind != '{' && top.Kind != '[' || top.Len() == 0 {
			return
		}
		st := StyleOf(blank, top)
		item := Marshal([]string{"x"}, st, 1)
		if top.Kind == '{' {
			item = `"k": ` + item
		}
		out := top.Insert(src, st, item)
		after, _, err := ParseJSONC(out)
		if err != nil {
			t.Fatalf("inserting into %q gave %q: %v", s, out, err)
		}
		if back := after.Remove(out, after.Len()-1, st); string(back) != s {
			t.Fatalf("round trip of %q through %q gave %q", s, out, back)
		}
	})
}

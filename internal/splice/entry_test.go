package splice

import (
	"strings"
	"testing"
)

type testServer struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

func testEntry(jsonc bool) Entry {
	return Entry{Outer: "servers", Name: "wake", Value: testServer{"wake", []string{"mcp"}}, JSONC: jsonc,
		Fresh: func(e Entry, eol string) []byte {
			s := Marshal(map[string]any{e.Name: e.Value}, Style{Unit: "  ", EOL: eol}, 1)
			return []byte("{" + eol + `  "$schema": "x",` + eol + `  "servers": ` + s + eol + "}" + eol)
		}}
}

// TestEntryRoundTrip adds the entry and removes it with the record, and
// gets every file back byte for byte.
func TestEntryRoundTrip(t *testing.T) {
	cases := []struct {
		name, src string
		jsonc     bool
		made      string
	}{
		{"no file", "", false, "file"},
		{"whitespace", " \n\n", false, "file"},
		{"empty object", "{}", false, "member"},
		{"empty object lines", "{\n}\n", false, "member"},
		{"other member", "{\n  \"a\": 1\n}\n", false, "member"},
		{"tabs crlf", "{\r\n\t\"a\": 1\r\n}\r\n", false, "member"},
		{"empty servers", "{\"servers\": {}}", false, "entry"},
		{"empty servers spaced", "{\n  \"servers\": {\n  }\n}\n", false, "entry"},
		{"user's server", "{\n  \"servers\": {\n    \"other\": {\"command\": \"x\"}\n  },\n  \"z\": true\n}\n", false, "entry"},
		{"jsonc comments", "// mine\n{\n  \"servers\": { // keep\n    \"o\": {}, /* c */\n  },\n}\n", true, "entry"},
		{"jsonc comment in empty", "{\n  \"servers\": { /* none yet */ }\n}\n", true, "entry"},
		{"jsonc comment top", "{ // top\n}\n", true, "member"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := testEntry(c.jsonc)
			out, ed, changed, err := e.Add([]byte(c.src))
			if err != nil || !changed || ed.Made != c.made {
				t.Fatalf("Add: %v changed %v made %q, want %q", err, changed, ed.Made, c.made)
			}
			if !e.Has(out) {
				t.Fatalf("Add wrote no entry:\n%s", out)
			}
			again, _, changed, err := e.Add(out)
			if err != nil || changed || string(again) != string(out) {
				t.Fatalf("second Add changed the file: %v", err)
			}
			back, removed, gone, err := e.Remove(out, &ed)
			if err != nil || !removed {
				t.Fatalf("Remove: %v removed %v", err, removed)
			}
			if string(back) != c.src {
				t.Fatalf("round trip:\n%q\nwant\n%q", back, c.src)
			}
			if gone != (c.made == "file") {
				t.Fatalf("gone %v for %s", gone, c.made)
			}
		})
	}
}

// TestEntryUserAdded keeps what the user added after install: the other
// servers, and the object install made once it holds them.
func TestEntryUserAdded(t *testing.T) {
	e := testEntry(false)
	out, ed, _, err := e.Add([]byte("{\n  \"a\": 1\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	mine := strings.Replace(string(out), "\"servers\": {", "\"servers\": {\n    \"mine\": {},", 1)
	back, removed, _, err := e.Remove([]byte(mine), &ed)
	if err != nil || !removed {
		t.Fatal(err, removed)
	}
	if want := "{\n  \"a\": 1,\n  \"servers\": {\n    \"mine\": {}\n  }\n}\n"; string(back) != want {
		t.Fatalf("got\n%s\nwant\n%s", back, want)
	}
}

// TestEntryRefuses names the line of what wake will not edit, and leaves
// a changed entry where it is.
func TestEntryRefuses(t *testing.T) {
	e := testEntry(false)
	for src, want := range map[string]string{
		"[1]":                     "not a JSON object",
		"{\n  \"servers\": []\n}": "2:14: \"servers\" is not an object",
		"{\n  \"servers\": {\"wake\": {\"command\": \"other\"}}\n}": "2:23: \"servers.wake\" already names another server",
		"{\n  \"a\": 1,,\n}": "2:10",
	} {
		if _, _, _, err := e.Add([]byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
	changed := "{\"servers\": {\"wake\": {\"command\": \"wake\", \"args\": [\"mcp\", \"-v\"]}}}"
	out, removed, _, err := e.Remove([]byte(changed), &EntryEdit{Made: "member"})
	if err != nil || removed || string(out) != changed {
		t.Fatalf("a changed entry went: %v %v", removed, err)
	}
}

// TestEntryUserMembers takes wake's entry with members the user added
// for wake's: install leaves it, uninstall too, as it is not as written.
func TestEntryUserMembers(t *testing.T) {
	e := testEntry(false)
	src := "{\"servers\": {\"wake\": {\"command\": \"wake\", \"args\": [\"mcp\"], \"env\": {\"A\": \"1\"}}}}"
	out, _, changed, err := e.Add([]byte(src))
	if err != nil || changed || string(out) != src || !e.Has([]byte(src)) {
		t.Fatalf("Add: %v changed %v", err, changed)
	}
	out, removed, _, err := e.Remove([]byte(src), &EntryEdit{Made: "member"})
	if err != nil || removed || string(out) != src {
		t.Fatalf("Remove: %v removed %v", err, removed)
	}
}

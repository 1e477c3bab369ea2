package opencode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wakeproto/wake/internal/splice"
)

// configs are opencode.json files as users have them, JSONC included.
// Each must survive adding and removing wake's entry byte for byte.
var configs = []struct{ name, src string }{
	{"no file", ""},
	{"whitespace", " \n"},
	{"CRLF whitespace", "\r\n"},
	{"empty object", "{}"},
	{"empty object, two lines", "{\n}\n"},
	{"schema only", "{\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n"},
	{"provider", `{
  "$schema": "https://opencode.ai/config.json",
  "provider": {
    "stub": {"npm": "@ai-sdk/openai-compatible", "options": {"baseURL": "http://127.0.0.1:1/v1"}}
  },
  "model": "stub/m"
}
`},
	{"instructions of its own", "{\n\t\"instructions\": [\"CONTRIBUTING.md\", \"docs/*.md\"]\n}\n"},
	{"empty instructions", "{\"instructions\": []}"},
	{"empty instructions on two lines", "{\n  \"instructions\": [\n  ]\n}\n"},
	{"comments", `{
  // the model we pay for
  "model": "anthropic/claude", /* inline */
  "instructions": [
    "AGENTS.extra.md", // ours
  ],
}
`},
	{"comment in empty instructions", "{\"instructions\": [ /* none\n yet */ ]}\n"},
	{"comment in empty object", "{ // nothing\n}\n"},
	{"trailing comma", "{\"theme\": \"dark\",}"},
	{"CRLF", "{\r\n  \"theme\": \"dark\"\r\n}\r\n"},
	{"duplicate instructions", `{"instructions": 1, "instructions": ["a.md"]}`},
}

const entry = ".wake/boot.md"

func TestConfigRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range configs {
		src := []byte(c.src)
		out, ed, added, err := addInstruction(src, entry)
		if err != nil || !added {
			t.Errorf("%s: add: %v %v", c.name, added, err)
			continue
		}
		if !hasEntry(out, entry) {
			t.Errorf("%s: the entry is not in\n%s", c.name, out)
		}
		if _, blank, err := splice.ParseJSONC(out); err != nil || !json.Valid(blank) {
			t.Errorf("%s: added into something OpenCode cannot read: %v\n%s", c.name, err, out)
		}
		if again, _, added, err := addInstruction(out, entry); err != nil || added || string(again) != string(out) {
			t.Errorf("%s: a second add changed the file: %v %v", c.name, added, err)
		}
		back, removed, gone, err := removeInstruction(out, entry, &ed)
		if err != nil || !removed {
			t.Errorf("%s: remove: %v %v", c.name, removed, err)
			continue
		}
		if string(back) != c.src {
			t.Errorf("%s: round trip through\n%s\ngave\n%q, want\n%q", c.name, out, back, c.src)
		}
		if ed.Made == "file" && !gone {
			t.Errorf("%s: gone %v for a file made %q", c.name, gone, ed.Made)
		}
	}
}

// TestConfigAddedTo: what the user adds to the instructions or the file
// after install stays when uninstall takes wake's entry out.
func TestConfigAddedTo(t *testing.T) {
	t.Parallel()
	out, ed, _, err := addInstruction(nil, entry)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"instructions\": [\n    \".wake/boot.md\"\n  ]\n}\n"
	if string(out) != want {
		t.Fatalf("new file:\n%s", out)
	}
	user := strings.Replace(string(out), "\n  ]", ",\n    \"mine.md\"\n  ]", 1)
	back, removed, gone, err := removeInstruction([]byte(user), entry, &ed)
	if err != nil || !removed || gone || !strings.Contains(string(back), `"instructions": [`+"\n    \"mine.md\"") || strings.Contains(string(back), entry) {
		t.Fatalf("got %v %v %v\n%s", removed, gone, err, back)
	}
	user = strings.Replace(string(out), "{\n", "{\n  \"model\": \"x/y\",\n", 1)
	back, _, gone, err = removeInstruction([]byte(user), entry, &ed)
	if err != nil || gone || string(back) != "{\n  \"model\": \"x/y\",\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n" {
		t.Fatalf("got %v %v\n%s", gone, err, back)
	}
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{"[]", "the file is not a JSON object"},
		{"{\n  \"instructions\": \".wake/boot.md\"\n}", "2:19: \"instructions\" is not an array"},
		{"{\n  \"a\": 1\n  \"b\": 2\n}", "3:3: "},
		{"{\"a\": 1 /* open", "1:9: unterminated /* comment"},
	} {
		_, _, _, err := addInstruction([]byte(tc.src), entry)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s", tc.src, err, tc.want)
		}
	}
}

func TestInstructionEntry(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ project, boot, home, want string }{
		{"/p", "/p/.wake/boot.md", "/home", ".wake/boot.md"},
		{"/p/app", "/p/.wake/boot.md", "/home", "/p/.wake/boot.md"},
		{"/p", "/home/mem/.wake/boot.md", "/home", "~/mem/.wake/boot.md"},
		{"/home/p", "/home/p/.wake/boot.md", "/home", ".wake/boot.md"},
		{"/p", "/m/boot.md", "", "/m/boot.md"},
	} {
		if got := instructionEntry(tc.project, tc.boot, tc.home); got != tc.want {
			t.Errorf("%+v: got %q", tc, got)
		}
	}
}

// FuzzConfig proves that any config is refused with the place it goes
// wrong, or gets wake's entry and gives it back byte for byte.
func FuzzConfig(f *testing.F) {
	for _, c := range configs {
		f.Add(c.src)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, ed, added, err := addInstruction([]byte(s), entry)
		if err != nil || !added {
			return
		}
		if !hasEntry(out, entry) {
			t.Fatalf("%q: no entry in %q", s, out)
		}
		back, removed, _, err := removeInstruction(out, entry, &ed)
		if err != nil || !removed || string(back) != s {
			t.Fatalf("round trip of %q through %q gave %q (%v %v)", s, out, back, removed, err)
		}
	})
}

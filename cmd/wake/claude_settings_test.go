package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// settingsCases are settings files as users have them. Each must survive
// install and uninstall byte for byte.
var settingsCases = []struct{ name, src string }{
	{"empty object", "{}"},
	{"empty object with newline", "{}\n"},
	{"other settings", `{
  "model": "opus",
  "permissions": {
    "allow": ["Bash(go test:*)", "Read(~/notes/**)"],
    "deny": []
  },
  "env": {"FOO": "1 \u00e9 \"quoted\""}
}
`},
	{"other hooks, four spaces", `{
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
        ]
    },
    "includeCoAuthoredBy": false
}
`},
	{"own SessionStart hook, tabs", "{\n\t\"hooks\": {\n\t\t\"SessionStart\": [\n\t\t\t{\n\t\t\t\t\"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}]\n\t\t\t}\n\t\t]\n\t}\n}\n"},
	{"compact", `{"a":[1,2.5e10,null,true],"hooks":{"Stop":[]}}`},
	{"numbers beyond float64", "{\"big\": 1e400, \"neg\": -0, \"e\": 1E+2, \"tiny\": 0.0000001, \"under\": -1.5e-400}\n"},
	{"no trailing newline, CRLF", "{\r\n  \"theme\": \"dark\"\r\n}"},
	{"CRLF", "{\r\n  \"theme\": \"dark\",\r\n  \"hooks\": {\r\n    \"Stop\": []\r\n  }\r\n}\r\n"},
	{"CRLF, tabs", "{\r\n\t\"hooks\": {\"SessionStart\": [{\"hooks\": []}]}\r\n}\r\n"},
}

func TestClaudeHookRoundTrip(t *testing.T) {
	for _, tc := range settingsCases {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			out, changed, err := addClaudeHook(src, true)
			if err != nil || !changed {
				t.Fatalf("install: changed=%v err=%v", changed, err)
			}
			if !json.Valid(out) {
				t.Fatalf("install gave invalid JSON:\n%s", out)
			}
			assertKeepsSettings(t, src, out)
			if crlf := strings.Contains(tc.src, "\r\n"); crlf && strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
				t.Fatalf("install mixed LF into a CRLF file: %q", out)
			}
			again, changed, err := addClaudeHook(out, true)
			if err != nil || changed || string(again) != string(out) {
				t.Fatalf("second install changed the file (changed=%v err=%v):\n%s", changed, err, again)
			}
			back, removed, gone, err := removeClaudeHook(out)
			if err != nil || !removed || gone {
				t.Fatalf("uninstall: removed=%v gone=%v err=%v", removed, gone, err)
			}
			if string(back) != tc.src {
				t.Fatalf("uninstall did not give back the original:\n got %q\nwant %q\nafter install:\n%s", back, tc.src, out)
			}
		})
	}
}

// assertKeepsSettings checks that after holds every setting of before and
// wake's hook, and nothing else new.
func assertKeepsSettings(t *testing.T, before, after []byte) {
	t.Helper()
	b, a := decodeSettings(t, before), decodeSettings(t, after)
	hooks, _ := a["hooks"].(map[string]any)
	starts, _ := hooks["SessionStart"].([]any)
	if len(starts) == 0 {
		t.Fatalf("no SessionStart hook in:\n%s", after)
	}
	last := starts[len(starts)-1].(map[string]any)
	want := map[string]any{"matcher": claudeHookMatcher, "hooks": []any{map[string]any{"type": "command", "command": claudeHookCommand}}}
	if !reflect.DeepEqual(last, want) {
		t.Fatalf("wake's group is %v, want %v", last, want)
	}
	starts = starts[:len(starts)-1]
	if len(starts) == 0 {
		delete(hooks, "SessionStart")
	} else {
		hooks["SessionStart"] = starts
	}
	if bh, ok := b["hooks"]; !ok && len(hooks) == 0 {
		delete(a, "hooks")
	} else if ok && reflect.DeepEqual(bh, map[string]any{}) {
		a["hooks"] = hooks
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("settings changed beyond the hook:\nbefore %v\nafter  %v", b, a)
	}
}

// decodeSettings decodes settings keeping numbers as written.
func decodeSettings(t *testing.T, src []byte) map[string]any {
	t.Helper()
	var v map[string]any
	d := json.NewDecoder(bytes.NewReader(src))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decoding %q: %v", src, err)
	}
	return v
}

func TestClaudeHookNewFile(t *testing.T) {
	for _, src := range []string{"", "  \n", "\r\n"} {
		exists := src != ""
		out, changed, err := addClaudeHook([]byte(src), exists)
		if err != nil || !changed || !json.Valid(out) {
			t.Fatalf("%q: changed=%v err=%v\n%s", src, changed, err, out)
		}
		if want := newClaudeSettings(lineEnding([]byte(src))); string(out) != string(want) {
			t.Fatalf("%q: install wrote %q, want %q", src, out, want)
		}
		back, removed, gone, err := removeClaudeHook(out)
		if err != nil || !removed || !gone {
			t.Fatalf("uninstall of a created file: removed=%v gone=%v err=%v\n%s", removed, gone, err, back)
		}
	}
}

// TestClaudeHookUninstallKeepsOthers covers files changed after install:
// other groups added after wake's, and a hook added to wake's own group;
// a group running wake's command at fewer sources is not wake's hook.
func TestClaudeHookUninstallKeepsOthers(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"group after wake's",
			`{"hooks": {"SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [{"type": "command", "command": "wake load --hook claude"}]}, {"hooks": [{"type": "command", "command": "mine"}]}]}}`,
			`{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "mine"}]}]}}`},
		{"hook in wake's group",
			`{"hooks": {"SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [{"type": "command", "command": "mine"}, {"type": "command", "command": "wake load --hook claude"}]}]}}`,
			`{"hooks": {"SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [{"type": "command", "command": "mine"}]}]}}`},
		{"other events stay",
			`{"hooks": {"Stop": [], "SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [{"type": "command", "command": "wake load --hook claude"}]}]}}`,
			`{"hooks": {"Stop": []}}`},
		{"two of wake's: the last goes",
			`{"hooks": {"SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [{"type": "command", "command": "wake load --hook claude"}]}, {"matcher": "startup|resume|clear|compact", "hooks": [{"type": "command", "command": "wake load --hook claude"}]}]}}`,
			`{"hooks": {"SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [{"type": "command", "command": "wake load --hook claude"}]}]}}`},
		{"a narrower hook is not wake's",
			`{"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "wake load --hook claude"}]}, {"matcher": "startup|resume|clear|compact", "hooks": [{"type": "command", "command": "wake load --hook claude"}]}]}, "x": 1}`,
			`{"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "wake load --hook claude"}]}]}, "x": 1}`},
		{"CRLF, the only hook",
			"{\r\n  \"hooks\": {\r\n    \"SessionStart\": [\r\n      {\"matcher\": \"startup|resume|clear|compact\", \"hooks\": [{\"type\": \"command\", \"command\": \"wake load --hook claude\"}]}\r\n    ]\r\n  },\r\n  \"x\": 1\r\n}\r\n",
			"{\r\n  \"x\": 1\r\n}\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, removed, gone, err := removeClaudeHook([]byte(tc.src))
			if err != nil || !removed || gone || string(out) != tc.want {
				t.Fatalf("removed=%v gone=%v err=%v\n got %q\nwant %q", removed, gone, err, out, tc.want)
			}
		})
	}
}

// TestClaudeHookBadSettings: malformed settings are refused, naming the
// line and column (in characters) where the JSON goes wrong.
func TestClaudeHookBadSettings(t *testing.T) {
	line7 := "{\n  \"a\": 1,\n  \"big\": 1e400,\n  \"c\": [\n    1,\n    2,\n    \"caf\u00e9\" 3\n  ]\n}\n"
	for _, tc := range []struct{ name, src, want string }{
		{"trailing comma", "{\n  \"a\": 1,\n}\n", "3:1: "},
		{"not an object", "[1, 2]\n", "not a JSON object"},
		{"hooks not an object", "{\n  \"hooks\": [1]\n}", `2:12: "hooks" is not an object`},
		{"SessionStart not an array", `{"hooks": {"SessionStart": {}}}`, `1:28: "hooks.SessionStart" is not an array`},
		{"truncated", `{"hooks": {`, "1:12: "},
		{"truncated, CRLF", "{\r\n  \"a\": [\r\n", "3:1: "},
		{"line 7, after a big number", line7, "7:12: invalid character '3'"},
		{"line 7, CRLF", strings.ReplaceAll(line7, "\n", "\r\n"), "7:12: invalid character '3'"},
		{"a number out of the grammar", "{\"a\": 01}", "1:8: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := addClaudeHook([]byte(tc.src), true)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("install: got %v, want an error containing %q", err, tc.want)
			}
			_, _, _, err = removeClaudeHook([]byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("uninstall: got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// FuzzClaudeHook proves, for any JSON object, that install keeps it valid
// and uninstall gives it back byte for byte whenever it had no SessionStart
// hooks to begin with and no empty containers install could have made.
func FuzzClaudeHook(f *testing.F) {
	for _, tc := range settingsCases {
		f.Add(tc.src)
	}
	f.Add(`{"hooks": {"SessionStart": [1, "x", {"hooks": "no"}]}}`)
	f.Add("{\r}")
	f.Add("{\r\n\"a\": 1,\n\"b\": []\r\n}")
	f.Fuzz(func(t *testing.T, src string) {
		var v map[string]any
		if json.Unmarshal([]byte(src), &v) != nil || strings.Contains(src, claudeHookCommand) {
			return
		}
		out, changed, err := addClaudeHook([]byte(src), true)
		if err != nil {
			return // hooks or SessionStart of the wrong type
		}
		if !changed || !json.Valid(out) {
			t.Fatalf("install: changed=%v valid=%v\n%s", changed, json.Valid(out), out)
		}
		back, removed, _, err := removeClaudeHook(out)
		if err != nil || !removed {
			t.Fatalf("uninstall: removed=%v err=%v", removed, err)
		}
		if !json.Valid(back) {
			t.Fatalf("uninstall gave invalid JSON:\n%s", back)
		}
		if oneEOL(src) && !emptyHookContainers(v) && !newlineOnlyTarget([]byte(src)) && string(back) != src {
			t.Fatalf("round trip:\n got %q\nwant %q", back, src)
		}
	})
}

// oneEOL reports that src ends every line the same way, LF or CRLF, and
// has no CR elsewhere: uninstall reads line breaks so.
func oneEOL(src string) bool {
	crlf := strings.Count(src, "\r\n")
	return strings.Count(src, "\r") == crlf && (crlf == 0 || crlf == strings.Count(src, "\n"))
}

// newlineOnlyTarget reports that the container install adds to is empty
// and ends in a line break and its closing indentation with no other line
// break: it comes back without that line break (the other documented
// exception, as install writes "{}" and "{\n}" alike).
func newlineOnlyTarget(src []byte) bool {
	top, hooks, start, err := claudeHookNodes(src)
	if err != nil {
		return false
	}
	c := top
	if start != nil {
		c = start
	} else if hooks != nil {
		c = hooks
	}
	inner := string(c.inside(src))
	st := styleOf(src, top)
	closing := st.eol + indent(st.unit, c.depth)
	return c.itemCount() == 0 && strings.HasSuffix(inner, closing) && !strings.Contains(strings.TrimSuffix(inner, closing), "\n")
}

// emptyHookContainers reports an empty hooks object or SessionStart array,
// which uninstall removes along with wake's hook (the documented exception
// to the byte-for-byte round trip).
func emptyHookContainers(v map[string]any) bool {
	h, ok := v["hooks"].(map[string]any)
	if !ok {
		return false
	}
	s, ok := h["SessionStart"].([]any)
	return len(h) == 0 || ok && len(s) == 0
}

// TestClaudeHookNarrowMatcher: a group running wake's command at fewer
// sources than wake's matcher is not wake's hook installed: install adds its
// own, and names the narrower one.
func TestClaudeHookNarrowMatcher(t *testing.T) {
	for _, tc := range []struct{ name, src, partial string }{
		{"startup only", `{"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "wake load --hook claude"}]}]}}`, `"startup"`},
		{"no matcher", `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "wake load --hook claude"}]}]}}`, "no matcher"},
		{"reordered", `{"hooks": {"SessionStart": [{"matcher": "resume|startup|clear|compact", "hooks": [{"type": "command", "command": "wake load --hook claude"}]}]}}`, `"resume|startup|clear|compact"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := addClaudeHook([]byte(tc.src), true)
			if err != nil || !changed {
				t.Fatalf("changed=%v err=%v: the narrower hook counted as installed", changed, err)
			}
			assertKeepsSettings(t, []byte(tc.src), out)
			if got := otherWakeHooks(out); len(got) != 1 || !strings.Contains(got[0], tc.partial) {
				t.Fatalf("otherWakeHooks = %q, want one naming %s", got, tc.partial)
			}
			if _, changed, _ := addClaudeHook(out, true); changed {
				t.Fatal("a second install changed the file")
			}
		})
	}
	exact := `{"hooks": {"SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [{"type": "command", "command": "wake load --hook claude", "timeout": 30}]}]}}`
	if _, changed, err := addClaudeHook([]byte(exact), true); changed || err != nil {
		t.Fatalf("wake's hook with a timeout added: changed=%v err=%v", changed, err)
	}
	if got := otherWakeHooks([]byte(exact)); len(got) != 0 {
		t.Fatalf("otherWakeHooks of wake's own = %q", got)
	}
}

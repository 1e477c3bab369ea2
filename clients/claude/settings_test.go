package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/wakeproto/wake/internal/claudecases"
	"github.com/wakeproto/wake/internal/splice"
)

// TestClaudeHookRoundTrip: install keeps every setting and adds wake's
// hook in the file's style; uninstall with install's record gives back
// the file byte for byte.
func TestClaudeHookRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range claudecases.Settings {
		tc := struct{ name, src string }{c.Name, c.Src}
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			out, ed, changed, err := addHook(src, startHook)
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
			again, _, changed, err := addHook(out, startHook)
			if err != nil || changed || string(again) != string(out) {
				t.Fatalf("second install changed the file (changed=%v err=%v):\n%s", changed, err, again)
			}
			back, removed, _, err := removeHook(out, startHook, recordTrip(t, ed))
			if err != nil || !removed {
				t.Fatalf("uninstall: removed=%v err=%v", removed, err)
			}
			if string(back) != tc.src {
				t.Fatalf("uninstall did not give back the original:\n got %q\nwant %q\nafter install:\n%s", back, tc.src, out)
			}
		})
	}
}

// recordTrip passes ed through the manifest's JSON, as uninstall reads it.
func recordTrip(t testing.TB, ed hookEdit) *hookEdit {
	t.Helper()
	data, err := json.Marshal(hookRecord{File: "f", hookEdit: ed})
	if err != nil {
		t.Fatal(err)
	}
	var back hookRecord
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	return &back.hookEdit
}

// decodeSettings decodes settings keeping numbers as written; blank is {}.
func decodeSettings(t *testing.T, src []byte) map[string]any {
	t.Helper()
	v := map[string]any{}
	if splice.Blank(src) {
		return v
	}
	d := json.NewDecoder(bytes.NewReader(src))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decoding %q: %v", src, err)
	}
	return v
}

// assertKeepsSettings checks that after holds every setting of before and
// wake's hook, and nothing else new but the containers holding it (and
// the schema, in a file wake created).
func assertKeepsSettings(t *testing.T, before, after []byte) {
	t.Helper()
	b, a := decodeSettings(t, before), decodeSettings(t, after)
	hooks, _ := a["hooks"].(map[string]any)
	starts, _ := hooks["SessionStart"].([]any)
	if len(starts) == 0 {
		t.Fatalf("no SessionStart hook in:\n%s", after)
	}
	last := starts[len(starts)-1].(map[string]any)
	want := map[string]any{"matcher": HookMatcher, "hooks": []any{map[string]any{"type": "command", "command": HookCommand}}}
	if !reflect.DeepEqual(last, want) {
		t.Fatalf("wake's group is %v, want %v", last, want)
	}
	hooks["SessionStart"] = starts[:len(starts)-1]
	bh, _ := b["hooks"].(map[string]any)
	if _, ok := bh["SessionStart"]; !ok {
		delete(hooks, "SessionStart")
	}
	if _, ok := b["hooks"]; !ok {
		delete(a, "hooks")
	}
	if splice.Blank(before) {
		delete(a, "$schema")
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("settings changed beyond the hook:\nbefore %v\nafter  %v", b, a)
	}
}

// TestClaudeHookNewFile: where there is no file, or only whitespace,
// install writes wake's own file, and uninstall finds it holding nothing
// else and gives back what was there.
func TestClaudeHookNewFile(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"", "  \n", "\r\n"} {
		in := []byte(src)
		if src == "" {
			in = nil // no file
		}
		out, ed, changed, err := addHook(in, startHook)
		if err != nil || !changed || !json.Valid(out) || ed.Made != "file" {
			t.Fatalf("%q: changed=%v err=%v made=%q\n%s", src, changed, err, ed.Made, out)
		}
		if want := newClaudeSettings(splice.LineEnding(in), startHook); string(out) != string(want) {
			t.Fatalf("%q: install wrote %q, want %q", src, out, want)
		}
		back, removed, gone, err := removeHook(out, startHook, &ed)
		if err != nil || !removed || !gone || string(back) != src {
			t.Fatalf("uninstall of a created file: removed=%v gone=%v err=%v: %q", removed, gone, err, back)
		}
		if back, _, gone, _ := removeHook(out, startHook, nil); !gone || string(back) != string(emptyClaudeSettings(splice.LineEnding(in))) {
			t.Fatalf("uninstall without a record: gone=%v %q", gone, back)
		}
	}
}

// TestClaudeHookUninstallKeepsOthers covers files changed after an install
// wake has no record of, or one from an older wake that does not say what
// install made: other groups added after wake's, and a hook added
// to wake's own group; a group running wake's command at fewer sources is
// not wake's hook.
func TestClaudeHookUninstallKeepsOthers(t *testing.T) {
	t.Parallel()
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
			// No record, an older wake's record, and one that is not
			// install's (it would put more than whitespace back).
			odd := `"x": 1`
			for _, ed := range []*hookEdit{nil, {}, {Made: "group", Inside: &odd}} {
				out, removed, gone, err := removeHook([]byte(tc.src), startHook, ed)
				if err != nil || !removed || gone || string(out) != tc.want {
					t.Fatalf("record %v: removed=%v gone=%v err=%v\n got %q\nwant %q", ed, removed, gone, err, out, tc.want)
				}
			}
		})
	}
}

// TestClaudeHookUninstallAfterEdits: when the file changed after install,
// uninstall takes away wake's hook and the containers install created
// that nothing else is left in; every other byte stays.
func TestClaudeHookUninstallAfterEdits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		from, to  string // the edit made to the installed file
		want      string
		gone      bool
	}{
		{"a setting beside the hooks install added to",
			`{"hooks": {}}`, `{"hooks"`, `{"model": "opus", "hooks"`,
			`{"model": "opus", "hooks": {}}`, false},
		{"a group after wake's in the SessionStart install added to",
			"{\"hooks\": {\"SessionStart\": []}}", "}\n    ]", "},\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}\n    ]",
			"{\"hooks\": {\"SessionStart\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}\n    ]}}", false},
		{"another event in the hooks install created",
			"{\n  \"a\": 1\n}\n", "\"hooks\": {", "\"hooks\": {\n    \"Stop\": [],",
			"{\n  \"a\": 1,\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n", false},
		{"a group before wake's in the SessionStart install created",
			"{\"hooks\": {\"Stop\": []}}", "\"SessionStart\": [", "\"SessionStart\": [{\"hooks\": []},",
			"{\"hooks\": {\"Stop\": [],\n    \"SessionStart\": [{\"hooks\": []}\n    ]}}", false},
		{"a setting in the file install created from whitespace",
			"\n", "\"hooks\"", "\"model\": \"opus\",\n  \"hooks\"",
			"{\n  \"$schema\": \"" + claudeSchema + "\",\n  \"model\": \"opus\"\n}\n", false},
		{"a timeout on wake's hook in the file install created",
			"  \n", "\"wake load --hook claude\"", "\"wake load --hook claude\", \"timeout\": 30",
			"  \n", true},
		{"a hook in wake's group, CRLF",
			"{\r\n  \"hooks\": {}\r\n}\r\n", "\"wake load --hook claude\"", "\"wake load --hook claude\"\r\n          }, {\"type\": \"command\", \"command\": \"mine\"",
			"{\r\n  \"hooks\": {\r\n    \"SessionStart\": [\r\n      {\r\n        \"matcher\": \"startup|resume|clear|compact\",\r\n        \"hooks\": [\r\n          {\"type\": \"command\", \"command\": \"mine\"\r\n          }\r\n        ]\r\n      }\r\n    ]\r\n  }\r\n}\r\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, ed, _, err := addHook([]byte(tc.src), startHook)
			if err != nil || !strings.Contains(string(out), tc.from) {
				t.Fatalf("install: err=%v, or no %q in\n%s", err, tc.from, out)
			}
			edited := strings.Replace(string(out), tc.from, tc.to, 1)
			back, removed, gone, err := removeHook([]byte(edited), startHook, recordTrip(t, ed))
			if err != nil || !removed || gone != tc.gone || string(back) != tc.want {
				t.Fatalf("removed=%v gone=%v err=%v\nedited %q\n   got %q\n  want %q", removed, gone, err, edited, back, tc.want)
			}
		})
	}
}

// TestClaudeHookBadSettings: malformed settings are refused, naming the
// line and column (in characters) where the JSON goes wrong.
func TestClaudeHookBadSettings(t *testing.T) {
	t.Parallel()
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
		{"column in characters", "{\"été\": x}", "1:9: "},
		{"a number out of the grammar", "{\"a\": 01}", "1:8: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, err := addHook([]byte(tc.src), startHook)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("install: got %v, want an error containing %q", err, tc.want)
			}
			_, _, _, err = removeHook([]byte(tc.src), startHook, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("uninstall: got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// FuzzClaudeSettings proves, for any input, that install either refuses it
// with an error or adds wake's hook, keeping the file valid, such that
// uninstall with install's record gives back the input byte for byte.
// Without a record uninstall still takes wake's hook away, and gives the
// input back but for the documented exceptions.
func FuzzClaudeSettings(f *testing.F) {
	for _, c := range claudecases.Settings {
		tc := struct{ name, src string }{c.Name, c.Src}
		f.Add(tc.src)
	}
	f.Add(`{"hooks": {"SessionStart": [1, "x", {"hooks": "no"}]}}`)
	f.Add("{\n  \"a\": 1,\n}\n")
	f.Add(`{"hooks": []}`)
	f.Add("[]")
	f.Add("\f")
	f.Add("{\r}")
	f.Add("{\r\n\"a\": 1,\n\"b\": []\r\n}")
	f.Fuzz(func(t *testing.T, src string) {
		out, ed, changed, err := addHook([]byte(src), startHook)
		if err != nil {
			assertRefusal(t, src, err)
			return
		}
		if !json.Valid(out) {
			t.Fatalf("install gave invalid JSON:\n%s", out)
		}
		if !changed {
			if string(out) != src {
				t.Fatalf("install changed a file it says it left:\n%q\n%q", src, out)
			}
			return
		}
		if again, _, changed, err := addHook(out, startHook); err != nil || changed || string(again) != string(out) {
			t.Fatalf("second install: changed=%v err=%v", changed, err)
		}
		back, removed, _, err := removeHook(out, startHook, recordTrip(t, ed))
		if err != nil || !removed || string(back) != src {
			t.Fatalf("uninstall: removed=%v err=%v\n got %q\nwant %q", removed, err, back, src)
		}
		guess, removed, _, err := removeHook(out, startHook, nil)
		if err != nil || !removed || !json.Valid(guess) {
			t.Fatalf("uninstall without a record: removed=%v err=%v\n%q", removed, err, guess)
		}
		if _, _, start, _ := claudeHookNodes(guess, startHook.Event); start != nil && findWakeHook(guess, start, startHook) >= 0 {
			t.Fatalf("uninstall without a record left wake's hook:\n%s", guess)
		}
		if oneEOL(src) && !splice.Blank([]byte(src)) && !emptyHookContainers([]byte(src)) && !newlineOnlyTarget([]byte(src)) && string(guess) != src {
			t.Fatalf("uninstall without a record:\n got %q\nwant %q", guess, src)
		}
	})
}

// assertRefusal checks that install refused src for a reason: malformed
// JSON, at a place in the file, or a valid file wake cannot edit.
func assertRefusal(t *testing.T, src string, err error) {
	t.Helper()
	var se *splice.SyntaxError
	switch {
	case splice.Blank([]byte(src)):
		t.Fatalf("install refused a blank file: %v", err)
	case errors.As(err, &se):
		if json.Valid([]byte(src)) || se.Line < 1 || se.Line > strings.Count(src, "\n")+1 || se.Col < 1 {
			t.Fatalf("syntax error %v for %q", err, src)
		}
	case !json.Valid([]byte(src)):
		t.Fatalf("malformed JSON refused without a place: %v", err)
	}
}

// oneEOL reports that src ends every line the same way, LF or CRLF, and
// has no CR elsewhere: without a record, uninstall reads line breaks so.
func oneEOL(src string) bool {
	crlf := strings.Count(src, "\r\n")
	return strings.Count(src, "\r") == crlf && (crlf == 0 || crlf == strings.Count(src, "\n"))
}

// newlineOnlyTarget reports that the container install adds to is empty
// and ends in a line break and its closing indentation with no other line
// break: without a record it comes back without that line break, as
// install writes "{}" and "{\n}" alike.
func newlineOnlyTarget(src []byte) bool {
	top, hooks, start, err := claudeHookNodes(src, startHook.Event)
	if err != nil {
		return false
	}
	c := top
	if start != nil {
		c = start
	} else if hooks != nil {
		c = hooks
	}
	inner := string(c.Inside(src))
	st := splice.StyleOf(src, top)
	closing := st.EOL + st.Indent(c.Depth)
	return c.Len() == 0 && strings.HasSuffix(inner, closing) && !strings.Contains(strings.TrimSuffix(inner, closing), "\n")
}

// emptyHookContainers reports an empty hooks object or SessionStart array,
// which uninstall without a record removes along with wake's hook.
func emptyHookContainers(src []byte) bool {
	_, hooks, start, err := claudeHookNodes(src, startHook.Event)
	return err == nil && (hooks != nil && hooks.Len() == 0 || start != nil && start.Len() == 0)
}

// TestClaudeHookNarrowMatcher: a group running wake's command at fewer
// sources than wake's matcher is not wake's hook installed: install adds its
// own, and names the narrower one.
func TestClaudeHookNarrowMatcher(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, src, partial string }{
		{"startup only", `{"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "wake load --hook claude"}]}]}}`, `"startup"`},
		{"no matcher", `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "wake load --hook claude"}]}]}}`, "no matcher"},
		{"reordered", `{"hooks": {"SessionStart": [{"matcher": "resume|startup|clear|compact", "hooks": [{"type": "command", "command": "wake load --hook claude"}]}]}}`, `"resume|startup|clear|compact"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, changed, err := addHook([]byte(tc.src), startHook)
			if err != nil || !changed {
				t.Fatalf("changed=%v err=%v: the narrower hook counted as installed", changed, err)
			}
			assertKeepsSettings(t, []byte(tc.src), out)
			if got := otherWakeHooks(out); len(got) != 1 || !strings.Contains(got[0], tc.partial) {
				t.Fatalf("OtherWakeHooks = %q, want one naming %s", got, tc.partial)
			}
			if _, _, changed, _ := addHook(out, startHook); changed {
				t.Fatal("a second install changed the file")
			}
		})
	}
	exact := `{"hooks": {"SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [{"type": "command", "command": "wake load --hook claude", "timeout": 30}]}]}}`
	if _, _, changed, err := addHook([]byte(exact), startHook); changed || err != nil {
		t.Fatalf("wake's hook with a timeout added: changed=%v err=%v", changed, err)
	}
	if got := otherWakeHooks([]byte(exact)); len(got) != 0 {
		t.Fatalf("OtherWakeHooks of wake's own = %q", got)
	}
}

package codex

import (
	"encoding/json"
	"strings"
	"testing"
)

// hooksFiles are hooks.json files as users have them. Each must come back
// byte for byte from install and uninstall.
var hooksFiles = []struct{ name, src string }{
	{"no file", ""},
	{"a newline", "\n"},
	{"CRLF whitespace", "\r\n"},
	{"empty object", "{}"},
	{"empty object with newline", "{}\n"},
	{"empty hooks", `{"hooks": {}}`},
	{"empty hooks, indented", "{\n    \"hooks\": {}\n}\n"},
	{"empty Stop", "{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n"},
	{"other hooks, tabs", "{\n\t\"hooks\": {\n\t\t\"PreToolUse\": [\n\t\t\t{\"matcher\": \"^Bash$\", \"hooks\": [{\"type\": \"command\", \"command\": \"audit.sh\"}]}\n\t\t]\n\t}\n}\n"},
	{"own SessionStart and Stop", `{
  "hooks": {
    "SessionStart": [
      {"matcher": "startup", "hooks": [{"type": "command", "command": "echo start"}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "say done", "timeout": 5}]}]
  }
}
`},
	{"CRLF", "{\r\n  \"hooks\": {\r\n    \"PostToolUse\": []\r\n  }\r\n}\r\n"},
	{"compact", `{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"sync.sh"}]}]}}`},
}

// TestHooksRoundTrip: install adds wake's five hooks, valid JSON in the
// file's own style, once; uninstall takes out what install made and
// nothing else.
func TestHooksRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range hooksFiles {
		t.Run(c.name, func(t *testing.T) {
			out, made, err := addHooks([]byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			var file struct {
				Hooks map[string][]struct {
					Matcher *string `json:"matcher"`
					Hooks   []hookEntry
				} `json:"hooks"`
			}
			if err := json.Unmarshal(out, &file); err != nil {
				t.Fatalf("%v:\n%s", err, out)
			}
			for _, h := range wakeHooks {
				groups := file.Hooks[h.Event]
				g := groups[len(groups)-1]
				if g.Matcher != nil || len(g.Hooks) != 1 || g.Hooks[0] != (hookEntry{"command", h.Command, h.Timeout}) || made[h.Event] == "" {
					t.Errorf("%s: %+v (made %q)", h.Event, groups, made[h.Event])
				}
			}
			if strings.Contains(c.src, "\r\n") && strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
				t.Errorf("mixed line endings:\n%q", out)
			}
			again, made2, err := addHooks(out)
			if err != nil || string(again) != string(out) || len(made2) != 0 {
				t.Fatalf("second add changed the file (%v):\n%s", err, again)
			}
			back, removed, gone, err := removeHooks(out, made)
			if err != nil || len(removed) != len(wakeHooks) {
				t.Fatalf("removed %q: %v", removed, err)
			}
			switch {
			case strings.TrimSpace(c.src) == "":
				if !gone {
					t.Errorf("a file install created is not gone:\n%s", back)
				}
			case string(back) != c.src:
				t.Errorf("got back:\n%q\nwant:\n%q", back, c.src)
			}
		})
	}
}

// TestRemoveHooksUnrecorded: without a record, uninstall takes out wake's
// hooks, and the containers they leave empty, and nothing of the user's.
func TestRemoveHooksUnrecorded(t *testing.T) {
	t.Parallel()
	src := "{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}]\n  }\n}\n"
	out, _, err := addHooks([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	back, removed, gone, err := removeHooks(out, nil)
	if err != nil || string(back) != src || len(removed) != len(wakeHooks) || gone {
		t.Fatalf("%q %v %v:\n%s", removed, gone, err, back)
	}
	// A hook a person gave wake's command to shares its group: only the
	// entry goes.
	shared := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}, {"type": "command", "command": "wake hook stop codex"}]}]}}`
	back, removed, _, err = removeHooks([]byte(shared), nil)
	if err != nil || string(back) != `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}` || len(removed) != 1 {
		t.Fatalf("%q %v:\n%s", removed, err, back)
	}
}

// TestHooksRefused: a file wake cannot edit safely is an error naming the
// line and column, and nothing is changed.
func TestHooksRefused(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		"[]":                              "the file is not a JSON object",
		"{\n  \"hooks\": []\n}":           `2:12: "hooks" is not an object`,
		"{\"hooks\": {\n  \"Stop\": {}}}": `2:11: "hooks.Stop" is not an array`,
		"{\n  \"hooks\": {,}\n}":          "2:13: ",
	} {
		if _, _, err := addHooks([]byte(src)); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", src, err, want)
		}
	}
}

func TestEventKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"SessionStart": "session_start", "Stop": "stop", "SessionEnd": "session_end"} {
		if got := eventKey(in); got != want {
			t.Errorf("%s: %s", in, got)
		}
	}
}

// TestTrustShifts: the user's hooks after wake's in an event lose their
// place when wake's go, and with it Codex's trust; those before do not.
func TestTrustShifts(t *testing.T) {
	t.Parallel()
	const user = `{"hooks":[{"type":"command","command":"./mine.sh"}]}`
	start := `{"hooks":{"SessionStart":[` + wakeGroup("wake load --hook codex") + `,` + user + `],"Stop":[` + user + `,` + wakeGroup("wake hook stop codex") + `]}}`
	if got := trustShifts([]byte(start)); len(got) != 1 || got[0] != "SessionStart" {
		t.Fatalf("shifts %q, want SessionStart", got)
	}
	if got := trustShifts([]byte(`{"hooks":{"Stop":[` + wakeGroup("wake hook stop codex") + `]}}`)); len(got) != 0 {
		t.Fatalf("shifts %q, want none", got)
	}
}

func wakeGroup(command string) string {
	return `{"hooks":[{"type":"command","command":"` + command + `","timeout":30}]}`
}

// TestHooksAddPreCompact: install over an older install's four hooks adds
// only the PreCompact hook, next to a PreCompact hook of the user's when
// there is one; uninstall with the record of both installs takes out
// wake's five and leaves the user's hook as it was.
func TestHooksAddPreCompact(t *testing.T) {
	t.Parallel()
	var four []hookSpec
	for _, h := range wakeHooks {
		if h.Event != "PreCompact" {
			four = append(four, h)
		}
	}
	older := newHooksFile("\n", four)
	older4 := map[string]string{}
	for _, h := range four {
		older4[h.Event] = madeFile
	}
	const user = `[{"matcher": "manual", "hooks": [{"type": "command", "command": "./save.sh"}]}]`
	withUser := strings.Replace(string(older), "\"hooks\": {\n", "\"hooks\": {\n    \"PreCompact\": "+user+",\n", 1)
	for _, c := range []struct {
		name, src, made string
		gone            bool
	}{
		{"four hooks", string(older), madeEvent, true},
		{"the user's PreCompact", withUser, madeGroup, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, made, err := addHooks([]byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			if len(made) != 1 || made["PreCompact"] != c.made {
				t.Fatalf("made %v, want PreCompact %q alone", made, c.made)
			}
			var file struct {
				Hooks map[string][]struct {
					Matcher *string     `json:"matcher"`
					Hooks   []hookEntry `json:"hooks"`
				} `json:"hooks"`
			}
			if err := json.Unmarshal(out, &file); err != nil {
				t.Fatalf("%v:\n%s", err, out)
			}
			groups := file.Hooks["PreCompact"]
			last := groups[len(groups)-1]
			if last.Matcher != nil || len(last.Hooks) != 1 || last.Hooks[0] != (hookEntry{"command", CompactCommand, 30}) {
				t.Fatalf("PreCompact: %+v", groups)
			}
			if c.made == madeGroup && (len(groups) != 2 || groups[0].Hooks[0].Command != "./save.sh") {
				t.Fatalf("the user's PreCompact hook moved: %+v", groups)
			}
			rec := map[string]string{"PreCompact": made["PreCompact"]}
			for e, m := range older4 {
				rec[e] = m
			}
			back, removed, gone, err := removeHooks(out, rec)
			if err != nil || len(removed) != len(wakeHooks) || gone != c.gone {
				t.Fatalf("removed %q, gone %v: %v\n%s", removed, gone, err, back)
			}
			if want := "{\n  \"hooks\": {\n    \"PreCompact\": " + user + "\n  }\n}\n"; !c.gone && string(back) != want {
				t.Fatalf("got back:\n%s\nwant:\n%s", back, want)
			}
		})
	}
}

package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/internal/claudecases"
)

// addAll adds each of wake's hooks in order, as install does, and returns
// the file and what each added hook made (nil for one already there).
func addAll(t testing.TB, src []byte) ([]byte, []*hookEdit) {
	t.Helper()
	eds := make([]*hookEdit, len(wakeHooks))
	for i, h := range wakeHooks {
		out, ed, changed, err := addHook(src, h)
		if err != nil {
			t.Fatalf("adding the %s hook: %v", h.Event, err)
		}
		if changed {
			eds[i], src = &ed, out
		}
	}
	return src, eds
}

// removeAll takes wake's hooks out in the reverse order, with eds (nil:
// no record).
func removeAll(t testing.TB, src []byte, eds []*hookEdit) []byte {
	t.Helper()
	for i := len(wakeHooks) - 1; i >= 0; i-- {
		var ed *hookEdit
		if eds != nil {
			if ed = eds[i]; ed == nil {
				continue
			}
			ed = recordTrip(t, *ed)
		}
		out, removed, gone, err := removeHook(src, wakeHooks[i], ed)
		if err != nil || !removed {
			t.Fatalf("removing the %s hook: removed=%v err=%v\n%s", wakeHooks[i].Event, removed, err, src)
		}
		src = out
		if gone {
			break
		}
	}
	return src
}

// TestClaudeAllHooksRoundTrip: the four hooks go in, in the file's style,
// once; with install's records they come out leaving the file byte for
// byte; the Stop, SessionEnd and SubagentStart groups have no matcher
// (SubagentStart's runs for every agent type), and SessionEnd asks for
// its time.
func TestClaudeAllHooksRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range claudecases.Settings {
		t.Run(c.Name, func(t *testing.T) {
			out, eds := addAll(t, []byte(c.Src))
			if !json.Valid(out) {
				t.Fatalf("invalid JSON:\n%s", out)
			}
			if again, _ := addAll(t, out); string(again) != string(out) {
				t.Fatalf("a second install changed the file:\n%s", again)
			}
			v := decodeSettings(t, out)
			hooks := v["hooks"].(map[string]any)
			if sub, _ := hooks["SubagentStart"].([]any); len(sub) == 0 || !strings.Contains(fmt.Sprint(sub[len(sub)-1]), "wake capsule --hook claude") {
				t.Errorf("no SubagentStart hook running wake capsule --hook claude: %v", hooks["SubagentStart"])
			}
			for _, h := range wakeHooks {
				groups, _ := hooks[h.Event].([]any)
				last, _ := groups[len(groups)-1].(map[string]any)
				want := map[string]any{"type": "command", "command": h.Command}
				if h.Timeout > 0 {
					want["timeout"] = json.Number("30")
				}
				if _, has := last["matcher"]; has != (h.Matcher != "") {
					t.Errorf("%s group: matcher %v", h.Event, last["matcher"])
				}
				if got := last["hooks"].([]any)[0]; !equalJSON(got, want) {
					t.Errorf("%s entry %v, want %v", h.Event, got, want)
				}
			}
			if back := removeAll(t, out, eds); string(back) != c.Src {
				t.Fatalf("uninstall did not give back the original:\n got %q\nwant %q\nafter install:\n%s", back, c.Src, out)
			}
			guess := removeAll(t, out, nil)
			for _, h := range wakeHooks {
				if _, _, arr, _ := claudeHookNodes(guess, h.Event); arr != nil && findWakeHook(guess, arr, h) >= 0 {
					t.Fatalf("uninstall without a record left the %s hook:\n%s", h.Event, guess)
				}
			}
		})
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestStopHookWithMatcherIsNotWakes: a Stop group running wake's command
// with a matcher is the user's; a timeout added to wake's own is still
// wake's.
func TestStopHookWithMatcherIsNotWakes(t *testing.T) {
	t.Parallel()
	theirs := `{"hooks": {"Stop": [{"matcher": "x", "hooks": [{"type": "command", "command": "wake hook stop claude"}]}]}}`
	if _, _, changed, err := addHook([]byte(theirs), stopHook); !changed || err != nil {
		t.Fatalf("changed=%v err=%v", changed, err)
	}
	ours := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "wake hook stop claude", "timeout": 5}]}]}}`
	if _, _, changed, err := addHook([]byte(ours), stopHook); changed || err != nil {
		t.Fatalf("changed=%v err=%v", changed, err)
	}
	if _, _, _, err := addHook([]byte(`{"hooks": {"Stop": {}}}`), stopHook); err == nil || !strings.Contains(err.Error(), `"hooks.Stop" is not an array`) {
		t.Fatalf("%v", err)
	}
}

// FuzzClaudeAllHooks: for any input install either refuses it or adds the
// three hooks such that uninstall with the records gives the input back.
func FuzzClaudeAllHooks(f *testing.F) {
	for _, c := range claudecases.Settings {
		f.Add(c.Src)
	}
	f.Add(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "wake hook stop claude"}]}]}}`)
	f.Add(`{"hooks": {"SessionEnd": [], "Stop": [1]}}`)
	f.Fuzz(func(t *testing.T, src string) {
		if _, _, _, err := addHook([]byte(src), startHook); err != nil {
			return
		}
		for _, h := range wakeHooks[1:] {
			if _, _, _, err := addHook([]byte(src), h); err != nil {
				return
			}
		}
		out, eds := addAll(t, []byte(src))
		if !json.Valid(out) {
			t.Fatalf("invalid JSON:\n%s", out)
		}
		if back := removeAll(t, out, eds); string(back) != src {
			t.Fatalf("uninstall:\n got %q\nwant %q", back, src)
		}
	})
}

// oldManifest is what a wake that installed the SessionStart hook alone
// recorded for a project whose settings it created.
const oldManifest = `{
  "version": 1,
  "installs": [
    {
      "project": "/p",
      "hook": {
        "file": "/p/.claude/settings.json",
        "matcher": "startup|resume|clear|compact",
        "command": "wake load --hook claude",
        "made": "hooks"
      },
      "imports": [
        {
          "file": "/p/CLAUDE.md",
          "line": "@.wake/boot.md"
        }
      ]
    }
  ]
}
`

// TestOlderInstallUninstallsExactly: a project installed by a wake that
// added SessionStart alone uninstalls exactly, whether or not this wake
// installed again over it (adding Stop, SessionEnd, SubagentStart and
// PreCompact).
func TestOlderInstallUninstallsExactly(t *testing.T) {
	t.Parallel()
	const orig = "{\n  \"model\": \"opus\"\n}\n"
	const claudeMD = "# Rules\n"
	for _, reinstall := range []bool{false, true} {
		fsys, o, _ := memProject(t)
		installed, ed, _, err := addHook([]byte(orig), startHook)
		if err != nil || ed.Made != "hooks" {
			t.Fatalf("%v %+v", err, ed)
		}
		putSettings(t, fsys, "file", string(installed))
		afero.WriteFile(fsys, "/p/CLAUDE.md", []byte(claudeMD+"\n@.wake/boot.md\n"), 0o644)
		afero.WriteFile(fsys, "/p/.wake/.state/claude-install.json", []byte(oldManifest), 0o644)
		ctx := context.Background()
		if reinstall {
			r, err := clients.Install(ctx, Client{}, o)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := afero.ReadFile(fsys, "/p/.claude/settings.json")
			if !strings.Contains(string(got), StopCommand) || !strings.Contains(string(got), EndCommand) || !strings.Contains(string(got), SubagentCommand) || strings.Count(string(got), HookCommand) != 1 {
				t.Fatalf("reinstall:\n%s", got)
			}
			if l := r.Lines()[0]; !strings.Contains(l, `added the Stop hook "wake hook stop claude", the SessionEnd hook "wake hook end claude", the SubagentStart hook "wake capsule --hook claude" and the PreCompact hook "wake hook compact claude"`) || strings.Contains(l, "SessionStart") {
				t.Fatalf("report: %s", l)
			}
			m, _ := afero.ReadFile(fsys, "/p/.wake/.state/claude-install.json")
			if !strings.Contains(string(m), `"made": "hooks"`) || !strings.Contains(string(m), `"event": "SessionEnd"`) || !strings.Contains(string(m), `"event": "SubagentStart"`) {
				t.Fatalf("manifest:\n%s", m)
			}
		}
		if _, err := clients.Uninstall(ctx, Client{}, o); err != nil {
			t.Fatal(err)
		}
		got, _ := afero.ReadFile(fsys, "/p/.claude/settings.json")
		md, _ := afero.ReadFile(fsys, "/p/CLAUDE.md")
		if string(got) != orig || string(md) != claudeMD {
			t.Fatalf("reinstall %v: uninstall left\n%q\n%q", reinstall, got, md)
		}
	}
}

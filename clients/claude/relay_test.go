package claude

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/tiers"
)

// TestRelayCommandInSh runs the relay through sh: it runs its command only
// for a session started strictly below the project, whatever the
// project's path holds (a quote, glob characters, spaces).
func TestRelayCommandInSh(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, project := range []string{"/work/bakery", "/work/it's [a] *bakery*"} {
		cmd := RelayCommand(project, "echo ran")
		for start, want := range map[string]string{
			project + "/src":        "ran --below " + project + "\n",
			project + "/src/a/b":    "ran --below " + project + "\n",
			project:                 "",
			project + "-other/src":  "",
			"/work":                 "",
			"":                      "",
			"/elsewhere" + project:  "",
			project + "x/" + "deep": "",
		} {
			c := exec.Command(sh, "-c", cmd)
			c.Env = []string{"CLAUDE_PROJECT_DIR=" + start, "PATH=/usr/bin:/bin"}
			out, err := c.CombinedOutput()
			if err != nil || string(out) != want {
				t.Errorf("project %q, session in %q: %q (%v), want %q", project, start, out, err, want)
			}
		}
	}
}

// TestRelayInstallUninstall: install adds this project's relays to the
// user's settings beside what is there, a second install changes
// nothing, another project adds its own, and uninstall takes out only
// the project's own, giving the file back byte for byte; --project-only
// adds none.
func TestRelayInstallUninstall(t *testing.T) {
	t.Parallel()
	fsys, oa, warnings := memProjectAt(t, "/a")
	ob := oa
	ob.Project, ob.Cwd = "/b", "/b"
	if _, err := wake.Init(context.Background(), "/b/.wake", skeleton.Params{Agent: "Ben"}, ob.Wake); err != nil {
		t.Fatal(err)
	}
	const user = "/home/.claude/settings.json"
	const mine = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}]\n  }\n}\n"
	if err := afero.WriteFile(fsys, user, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	install := func(o clients.Options) {
		t.Helper()
		if _, err := clients.Install(context.Background(), Client{}, o); err != nil {
			t.Fatalf("install %s: %v", o.Project, err)
		}
	}
	install(oa)
	afterA := readString(fsys, user)
	for _, h := range wakeHooks {
		if !strings.Contains(afterA, strings.ReplaceAll(RelayCommand("/a", h.Command), `"`, `\"`)) {
			t.Errorf("the user's settings lack the relay of %s:\n%s", h.Event, afterA)
		}
	}
	if !strings.Contains(afterA, `"model": "opus"`) || !strings.Contains(afterA, "notify-send done") {
		t.Fatalf("install lost the user's settings:\n%s", afterA)
	}
	install(oa)
	if got := readString(fsys, user); got != afterA {
		t.Fatalf("a second install changed the user's settings:\n%s", got)
	}
	install(ob)
	if got := readString(fsys, user); !strings.Contains(got, "--below '/b'") || !strings.Contains(got, "--below '/a'") {
		t.Fatalf("B's install did not add its own relay beside A's:\n%s", got)
	}
	if _, err := clients.Uninstall(context.Background(), Client{}, ob); err != nil {
		t.Fatal(err)
	}
	if got := readString(fsys, user); got != afterA {
		t.Fatalf("B's uninstall did not leave A's install as it was:\n%s\nwant\n%s", got, afterA)
	}
	if _, err := clients.Uninstall(context.Background(), Client{}, oa); err != nil {
		t.Fatal(err)
	}
	if got := readString(fsys, user); got != mine {
		t.Fatalf("uninstall did not give the user's settings back:\n%s\nwant\n%s", got, mine)
	}
	op := oa
	op.ProjectOnly = true
	install(op)
	if got := readString(fsys, user); got != mine {
		t.Fatalf("--project-only changed the user's settings:\n%s", got)
	}
	if !WiredAt(fsys, "/a") || WiredAt(fsys, "/b") {
		t.Error("WiredAt does not tell the wired project")
	}
	for _, w := range *warnings {
		if !strings.Contains(w, "another memory root") {
			t.Errorf("warning: %s", w)
		}
	}
}

// TestRelayRecordFromTheRoot: a record naming a relay this project's
// install would not write (another file, another command) is dropped
// with a warning, and uninstall edits nothing of it.
func TestRelayRecordFromTheRoot(t *testing.T) {
	t.Parallel()
	fsys, o, warnings := memProjectAt(t, "/a")
	if _, err := clients.Install(context.Background(), Client{}, o); err != nil {
		t.Fatal(err)
	}
	w := newWiring(clients.Env{FS: fsys, Project: "/a", Root: "/a/.wake", Home: "/home", Warn: func(s string) { *warnings = append(*warnings, s) }})
	r := record{Relay: []hookRecord{
		{Event: "Stop", File: "/home/.bashrc", Command: RelayCommand("/a", StopCommand)},
		{Event: "Stop", File: "/home/.claude/settings.json", Command: RelayCommand("/b", StopCommand)},
	}}
	got := w.checkRecord(r, &clients.Record{})
	if len(got.Relay) != 0 || len(*warnings) == 0 {
		t.Fatalf("kept %v, warnings %q", got.Relay, *warnings)
	}
}

// TestExternalImportsApproved reads Claude Code's per-directory approval.
func TestExternalImportsApproved(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	afero.WriteFile(fsys, "/home/.claude.json", []byte(`{"projects":{"/a/src":{"hasClaudeMdExternalIncludesApproved":true},"/a/doc":{}}}`), 0o600)
	for dir, want := range map[string]bool{"/a/src": true, "/a/doc": false, "/a": false} {
		if got := ExternalImportsApproved(fsys, nil, "/home", dir); got != want {
			t.Errorf("%s: %v", dir, got)
		}
	}
	afero.WriteFile(fsys, "/cfg/.claude.json", []byte(`{"projects":{"/a/doc":{"hasClaudeMdExternalIncludesApproved":true}}}`), 0o600)
	if !ExternalImportsApproved(fsys, map[string]string{"CLAUDE_CONFIG_DIR": "/cfg"}, "/home", "/a/doc") {
		t.Error("CLAUDE_CONFIG_DIR's file not read")
	}
}

// TestRelayUninstallRecordFromElsewhere (from the review): a record whose
// relays name another machine's settings file (a root cloned with its
// state) has them dropped; uninstall still takes out this project's
// relays, each identified exactly by the project's path, and leaves the
// user's own settings as they were.
func TestRelayUninstallRecordFromElsewhere(t *testing.T) {
	t.Parallel()
	fsys, o, _ := memProjectAt(t, "/a")
	const user = "/home/.claude/settings.json"
	const mine = "{\n  \"model\": \"opus\"\n}\n"
	if err := afero.WriteFile(fsys, user, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := clients.Install(context.Background(), Client{}, o); err != nil {
		t.Fatal(err)
	}
	manifest := "/a/.wake/" + tiers.StateDir + "/" + clients.ManifestFile("claude")
	data, err := afero.ReadFile(fsys, manifest)
	if err != nil || !strings.Contains(string(data), user) {
		t.Fatalf("the install record does not name %s: %v\n%s", user, err, data)
	}
	afero.WriteFile(fsys, manifest, []byte(strings.ReplaceAll(string(data), user, "/home/alice/.claude/settings.json")), 0o644)
	if _, err := clients.Uninstall(context.Background(), Client{}, o); err != nil {
		t.Fatal(err)
	}
	if got := readString(fsys, user); got != mine {
		t.Errorf("uninstall left this project's relays:\n%s", got)
	}
}

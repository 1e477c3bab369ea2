package claude

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/skill"
)

// skillMode sets [claude] boot = "skill" in the root of the project o
// names, and trusts the root again, as its user would: the root may write
// the shared skill.md (skill.path) once trusted.
func skillMode(t *testing.T, fsys afero.Fs, o clients.Options) {
	t.Helper()
	if err := afero.WriteFile(fsys, o.Project+"/.wake/wake.toml", []byte("[claude]\nboot = \"skill\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := wake.SetTrust(context.Background(), o.Project+"/.wake", o.Wake, false); err != nil {
		t.Fatal(err)
	}
}

// TestSkillModeImportsTheRootsOwnCopy: in skill mode install imports the
// root's own skill.md into the project's CLAUDE.md and touches nothing
// every project reads (~/.claude/CLAUDE.md), whoever owns the shared file.
// Two projects each import their own.
func TestSkillModeImportsTheRootsOwnCopy(t *testing.T) {
	t.Parallel()
	fsys, oa, warnings := memProjectAt(t, "/a")
	ob := oa
	ob.Project, ob.Cwd = "/b", "/b"
	if _, err := wake.Init(context.Background(), "/b/.wake", skeleton.Params{Agent: "Ben"}, ob.Wake); err != nil {
		t.Fatal(err)
	}
	for _, o := range []clients.Options{oa, ob} {
		skillMode(t, fsys, o)
		r, err := clients.Install(context.Background(), Client{}, o)
		if err != nil {
			t.Fatalf("install %s: %v", o.Project, err)
		}
		if got := readString(fsys, o.Project+"/CLAUDE.md"); got != "@.wake/skill.md\n" {
			t.Fatalf("%s/CLAUDE.md: %q", o.Project, got)
		}
		own := readString(fsys, o.Project+"/.wake/skill.md")
		if skill.MarkerRoot([]byte(own)) != "." { // the root it is in, portably
			t.Fatalf("%s's own skill.md names %q", o.Project, skill.MarkerRoot([]byte(own)))
		}
		if o.Project == "/b" && !strings.Contains(strings.Join(r.Files, "\n"), "~/.claude/agentchat.skill.md: left as it is: the skill.md at skill.path is another memory root's, /a/.wake") {
			t.Errorf("B's install does not say whose the shared file is: %q", r.Files)
		}
	}
	if ok, _ := afero.Exists(fsys, "/home/.claude/CLAUDE.md"); ok {
		t.Fatal("install wrote ~/.claude/CLAUDE.md")
	}
	if skill.MarkerRoot([]byte(readString(fsys, "/home/.claude/agentchat.skill.md"))) != "/a/.wake" {
		t.Fatal("B's install took the shared file from A")
	}
	for _, o := range []clients.Options{oa, ob} {
		if _, err := clients.Uninstall(context.Background(), Client{}, o); err != nil {
			t.Fatal(err)
		}
		if ok, _ := afero.Exists(fsys, o.Project+"/CLAUDE.md"); ok {
			t.Errorf("%s/CLAUDE.md left after uninstall", o.Project)
		}
	}
	for _, w := range *warnings {
		if !strings.Contains(w, "another memory root") {
			t.Errorf("warning: %s", w)
		}
	}
}

// oldInstall makes what an older wake's install in skill mode left: the
// hook as install writes it, and the import of the shared skill.md in
// ~/.claude/CLAUDE.md (home), recorded as such.
func oldInstall(t *testing.T, fsys afero.Fs, o clients.Options, home string) {
	t.Helper()
	if _, err := clients.Install(context.Background(), Client{}, o); err != nil {
		t.Fatal(err)
	}
	name := "/p/.wake/.state/" + ManifestFile
	var m map[string]any
	if err := json.Unmarshal([]byte(readString(fsys, name)), &m); err != nil {
		t.Fatal(err)
	}
	rec := m["installs"].([]any)[0].(map[string]any)
	rec["imports"] = []mdImport{{"/home/.claude/CLAUDE.md", "@~/.claude/agentchat.skill.md"}}
	rec["created"] = []string{"/p/.claude", "/p/.claude/settings.json"}
	data, _ := json.Marshal(m)
	for name, data := range map[string]string{name: string(data), "/home/.claude/CLAUDE.md": home} {
		if err := afero.WriteFile(fsys, name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := fsys.Remove("/p/CLAUDE.md"); err != nil {
		t.Fatal(err)
	}
}

// TestOldSkillInstall: an install an older wake made in skill mode (its
// record holds the import of the shared skill.md into ~/.claude/CLAUDE.md)
// still uninstalls exactly, and a reinstall moves the import into the
// project, leaving every other line of ~/.claude/CLAUDE.md.
func TestOldSkillInstall(t *testing.T) {
	t.Parallel()
	// As the older install left it: the line after a blank one.
	const home = "Always answer in English.\n\n@~/.claude/agentchat.skill.md\n"
	t.Run("uninstall", func(t *testing.T) {
		t.Parallel()
		fsys, o, _ := memProject(t)
		oldInstall(t, fsys, o, home)
		skillMode(t, fsys, o)
		if _, err := clients.Uninstall(context.Background(), Client{}, o); err != nil {
			t.Fatal(err)
		}
		if got := readString(fsys, "/home/.claude/CLAUDE.md"); got != "Always answer in English.\n" {
			t.Fatalf("~/.claude/CLAUDE.md: %q", got)
		}
		if ok, _ := afero.Exists(fsys, "/p/.claude"); ok {
			t.Fatal(".claude/ left")
		}
	})
	t.Run("reinstall", func(t *testing.T) {
		t.Parallel()
		fsys, o, _ := memProject(t)
		oldInstall(t, fsys, o, home)
		skillMode(t, fsys, o)
		r, err := clients.Install(context.Background(), Client{}, o)
		if err != nil {
			t.Fatal(err)
		}
		if got := readString(fsys, "/home/.claude/CLAUDE.md"); got != "Always answer in English.\n" {
			t.Fatalf("~/.claude/CLAUDE.md: %q", got)
		}
		if got := readString(fsys, "/p/CLAUDE.md"); got != "@.wake/skill.md\n" {
			t.Fatalf("CLAUDE.md: %q", got)
		}
		if !strings.Contains(strings.Join(r.Lines(), "\n"), "~/.claude/CLAUDE.md: removed the import @~/.claude/agentchat.skill.md an older 'wake install claude' added") {
			t.Errorf("report: %q", r.Lines())
		}
		var m struct {
			Installs []struct {
				Imports []mdImport `json:"imports"`
			} `json:"installs"`
		}
		if err := json.Unmarshal([]byte(readString(fsys, "/p/.wake/.state/"+ManifestFile)), &m); err != nil || len(m.Installs) != 1 ||
			len(m.Installs[0].Imports) != 1 || m.Installs[0].Imports[0] != (mdImport{"/p/CLAUDE.md", "@.wake/skill.md"}) {
			t.Fatalf("the record after the move: %+v %v", m, err)
		}
		// A second run changes nothing; uninstall then takes out the rest.
		if r, err := clients.Install(context.Background(), Client{}, o); err != nil || r.Changed() {
			t.Fatalf("second install: %v %v", r.Lines(), err)
		}
		if _, err := clients.Uninstall(context.Background(), Client{}, o); err != nil {
			t.Fatal(err)
		}
		if got := readString(fsys, "/home/.claude/CLAUDE.md"); got != "Always answer in English.\n" {
			t.Fatalf("~/.claude/CLAUDE.md after uninstall: %q", got)
		}
		for _, p := range []string{"/p/CLAUDE.md", "/p/.claude"} {
			if ok, _ := afero.Exists(fsys, p); ok {
				t.Errorf("%s left after uninstall", p)
			}
		}
	})
	t.Run("not recorded", func(t *testing.T) {
		t.Parallel()
		// A line no record of this project holds (another project's older
		// install, or the user's) is left, and named.
		fsys, o, _ := memProject(t)
		afero.WriteFile(fsys, "/home/.claude/CLAUDE.md", []byte(home), 0o644)
		r, err := clients.Install(context.Background(), Client{}, o)
		if err != nil {
			t.Fatal(err)
		}
		if got := readString(fsys, "/home/.claude/CLAUDE.md"); got != home {
			t.Fatalf("~/.claude/CLAUDE.md: %q", got)
		}
		if !strings.Contains(strings.Join(r.Notes, "\n"), "~/.claude/CLAUDE.md imports @~/.claude/agentchat.skill.md, which every Claude Code session reads") {
			t.Errorf("notes: %q", r.Notes)
		}
	})
}

func readString(fsys afero.Fs, name string) string {
	data, _ := afero.ReadFile(fsys, name)
	return string(data)
}

package codex

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/tiers"
)

var sharedEncoder = sync.OnceValues(func() (*budget.Encoder, error) { return budget.NewEncoder(tiers.EncodingCL100K) })

// env is a project /p with a memory root on a MemMapFs, HOME /home, codex
// on PATH in /bin and a fake app server.
type env struct {
	fs       afero.Fs
	opts     clients.Options
	server   *fakeAppServer
	client   Client
	warnings *[]string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	fsys := afero.NewMemMapFs()
	for _, d := range []string{"/home/.codex", "/bin"} {
		if err := fsys.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, bin := range []string{"/bin/codex", "/bin/wake"} {
		if err := afero.WriteFile(fsys, bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var warnings []string
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home", "PATH": "/bin"}, Locker: &memlock.Locker{},
		Now: func() time.Time { return time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC) },
		Notify: func(n wake.Notice) {
			if n.Kind != "note" { // the first-time notes of writes outside the root
				warnings = append(warnings, n.Msg)
			}
		},
		Encoder: func(string) (*budget.Encoder, error) { return sharedEncoder() }}
	if _, err := wake.Init(context.Background(), "/p/.wake", skeleton.Params{Agent: "Ava"}, o); err != nil {
		t.Fatal(err)
	}
	srv := &fakeAppServer{fs: fsys, codexHome: "/home/.codex"}
	return &env{fs: fsys, server: srv, client: Client{AppServer: srv.start}, warnings: &warnings,
		opts: clients.Options{Wake: o, Project: "/p", Cwd: "/p", BootFiles: wake.BootFiles{NoSkill: true}}}
}

func (e *env) put(t *testing.T, name, src string) {
	t.Helper()
	if src == "\x00none" {
		return
	}
	if err := e.fs.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(e.fs, name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// read gives a file's content, "\x00none" when there is none.
func (e *env) read(t *testing.T, name string) string {
	t.Helper()
	data, err := afero.ReadFile(e.fs, name)
	if errors.Is(err, fs.ErrNotExist) {
		return "\x00none"
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func (e *env) install(t *testing.T) *clients.Report {
	t.Helper()
	r, err := clients.Install(context.Background(), e.client, e.opts)
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	return r
}

func (e *env) uninstall(t *testing.T) *clients.Report {
	t.Helper()
	r, err := clients.Uninstall(context.Background(), e.client, e.opts)
	if err != nil {
		t.Fatalf("uninstall: %v", err)
	}
	return r
}

const (
	hooksPath  = "/p/.codex/hooks.json"
	agentsPath = "/p/AGENTS.md"
	configPath = "/home/.codex/config.toml"
)

// TestInstallUninstallExact: every combination of the three files comes
// back byte for byte, and the hooks are trusted in between.
func TestInstallUninstallExact(t *testing.T) {
	t.Parallel()
	configs := []string{"\x00none", "", "model = \"o3\"\n", "# mine\n[projects.\"/p\"]\ntrust_level = \"trusted\"\n\n[tui]\nnotifications = true\n"}
	agents := []string{"\x00none", "# T\n\nUse tabs.", "# T\r\n"}
	for i, h := range hooksFiles {
		for j, c := range configs {
			a := agents[(i+j)%len(agents)]
			src := h.src
			if h.name == "no file" {
				src = "\x00none"
			}
			t.Run(h.name+"/"+c, func(t *testing.T) {
				t.Parallel()
				e := newEnv(t)
				e.put(t, hooksPath, src)
				e.put(t, agentsPath, a)
				e.put(t, configPath, c)
				r := e.install(t)
				if len(r.Warnings) != 0 || !r.Changed() {
					t.Fatalf("install: %+v %q", r.Warnings, r.Lines())
				}
				l, _ := (&wiring{Env: clients.Env{FS: e.fs}}).listFake(e.server)
				if len(l) != len(wakeHooks) {
					t.Fatalf("trusted hooks: %v\n%s", l, e.read(t, configPath))
				}
				if r := e.install(t); r.Changed() {
					t.Fatalf("second install changed %q", r.Lines())
				}
				e.uninstall(t)
				for name, want := range map[string]string{hooksPath: src, agentsPath: a, configPath: c} {
					if got := e.read(t, name); got != want {
						t.Errorf("%s:\ngot  %q\nwant %q", name, got, want)
					}
				}
				if _, err := e.fs.Stat("/p/.codex"); (src == "\x00none") != errors.Is(err, fs.ErrNotExist) {
					t.Errorf(".codex/: %v", err)
				}
				if len(*e.warnings) != 0 {
					t.Errorf("warnings: %q", *e.warnings)
				}
			})
		}
	}
}

// listFake lists the hooks the fake server calls trusted.
func (w *wiring) listFake(s *fakeAppServer) ([]string, error) {
	var out []string
	for _, h := range s.list("/p")["hooks"].([]any) {
		if m := h.(map[string]any); m["trustStatus"] == "trusted" {
			out = append(out, m["key"].(string))
		}
	}
	return out, nil
}

// TestUninstallAfterChanges: files changed since install lose wake's
// entries alone, and uninstall says which file it could not give back.
func TestUninstallAfterChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.put(t, configPath, "model = \"o3\"\n")
	e.put(t, agentsPath, "# T\n")
	e.install(t)
	e.put(t, configPath, e.read(t, configPath)+"\n[projects.\"/q\"]\ntrust_level = \"trusted\"\n")
	e.put(t, agentsPath, "# T, edited\n"+strings.TrimPrefix(e.read(t, agentsPath), "# T\n"))
	e.put(t, hooksPath, strings.Replace(e.read(t, hooksPath), `"hooks": {`, `"hooks": {"PreToolUse": [],`, 1))
	e.uninstall(t)
	if got := e.read(t, configPath); got != "model = \"o3\"\n\n[projects.\"/q\"]\ntrust_level = \"trusted\"\n" {
		t.Errorf("config.toml:\n%s", got)
	}
	if got := e.read(t, agentsPath); got != "# T, edited\n" {
		t.Errorf("AGENTS.md: %q", got)
	}
	if got := e.read(t, hooksPath); got != "{\n  \"hooks\": {\"PreToolUse\": []\n  }\n}\n" {
		t.Errorf("hooks.json: %q", got)
	}
	if len(*e.warnings) != 1 || !strings.Contains((*e.warnings)[0], "config.toml changed since 'wake install codex' wrote to it") {
		t.Errorf("warnings: %q", *e.warnings)
	}
}

// TestNoCodexOnPath: without codex on PATH, install wires the files and
// says exactly how to trust the hooks; config.toml stays untouched.
func TestNoCodexOnPath(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if err := e.fs.Remove("/bin/codex"); err != nil {
		t.Fatal(err)
	}
	e.put(t, configPath, "model = \"o3\"\n")
	r := e.install(t)
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0].Msg, "'codex' is not on PATH") ||
		!strings.Contains(r.Warnings[0].Hint, "open /hooks and trust wake's five hooks") || !strings.Contains(r.Warnings[0].Hint, "run 'wake install codex' again") {
		t.Fatalf("warnings: %+v", r.Warnings)
	}
	if got := e.read(t, configPath); got != "model = \"o3\"\n" {
		t.Fatalf("config.toml: %q", got)
	}
	// codex on PATH later: the next install records the trust alone.
	if err := afero.WriteFile(e.fs, "/bin/codex", nil, 0o755); err != nil {
		t.Fatal(err)
	}
	r = e.install(t)
	if len(r.Warnings) != 0 || !strings.Contains(strings.Join(r.Lines(), "\n"), "~/.codex/config.toml: trusted the project; trusted 5 of wake's hooks") {
		t.Fatalf("%q %+v", r.Lines(), r.Warnings)
	}
	e.uninstall(t)
	if got := e.read(t, configPath); got != "model = \"o3\"\n" {
		t.Fatalf("config.toml: %q", got)
	}
}

// TestRefusals: a malformed config.toml or hooks.json stops install before
// anything is written, naming the file and line.
func TestRefusals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ file, src, want string }{
		{configPath, "model = \"o3\"\n[tui\n", configPath + ":2:"},
		{hooksPath, "{\n  \"hooks\": 3\n}\n", hooksPath + ": 2:12: \"hooks\" is not an object"},
		{hooksPath, "{\n  \"hooks\": {\n", hooksPath + ": 3:"},
	} {
		e := newEnv(t)
		e.put(t, c.file, c.src)
		_, err := clients.Install(context.Background(), e.client, e.opts)
		var h interface{ Hint() string }
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.As(err, &h) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
		if got := e.read(t, agentsPath); got != "\x00none" {
			t.Errorf("AGENTS.md written: %q", got)
		}
	}
}

// TestTrustProblems: an untrusted project is left so, and a failing app
// server leaves an instruction.
func TestTrustProblems(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.put(t, configPath, "[projects.\"/p\"]\ntrust_level = \"untrusted\"\n")
	r := e.install(t)
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0].Msg, "marks /p as untrusted") {
		t.Fatalf("%+v", r.Warnings)
	}
	e = newEnv(t)
	e.server.fail = "config/batchWrite"
	r = e.install(t)
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0].Msg, "did not record the project's trust (config/batchWrite: config/batchWrite failed") {
		t.Fatalf("%+v", r.Warnings)
	}
	if got := e.read(t, configPath); got != "\x00none" {
		t.Fatalf("config.toml: %q", got)
	}
}

// TestForeignRecord: a record from a cloned root that names files install
// never touches is dropped with a warning.
func TestForeignRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.put(t, "/home/.bashrc", "export X=1\n")
	e.put(t, "/p/.wake/.state/codex-install.json", `{"version": 1, "installs": [{"project": "/p",
		"hooks": {"file": "/home/.bashrc", "made": {"Stop": "file"}},
		"trust": {"file": "/etc/passwd"}, "created": ["/home/.bashrc"]}]}`)
	e.uninstall(t)
	if got := e.read(t, "/home/.bashrc"); got != "export X=1\n" {
		t.Fatalf(".bashrc: %q", got)
	}
	if len(*e.warnings) != 1 || !strings.Contains((*e.warnings)[0], "names files install never touches (/home/.bashrc, /etc/passwd, /home/.bashrc)") {
		t.Fatalf("%q", *e.warnings)
	}
}

package opencode

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
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

// memProject makes a project /p with a memory root on a MemMapFs, HOME
// /home, and returns the options that install into it and the warnings
// they collect.
func memProject(t *testing.T) (afero.Fs, clients.Options, *[]string) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	if err := fsys.MkdirAll("/home", 0o755); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home"}, Locker: &memlock.Locker{},
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
	return fsys, clients.Options{Wake: o, Project: "/p", Cwd: "/p", BootFiles: wake.BootFiles{NoSkill: true}}, &warnings
}

func read(t *testing.T, fsys afero.Fs, name string) (string, bool) {
	t.Helper()
	data, err := afero.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data), true
}

func write(t *testing.T, fsys afero.Fs, name, data string) {
	t.Helper()
	if err := fsys.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(fsys, name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRoundTrip: install writes the plugin and the entry, a second install
// changes nothing, and uninstall gives every config back byte for byte and
// leaves no file or directory install made.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fsys, o, warnings := memProject(t)
			if c.name != "no file" {
				write(t, fsys, "/p/opencode.json", c.src)
			}
			r, err := clients.Install(ctx, Client{}, o)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Changed() || !strings.HasPrefix(r.Summary, "OpenCode now reads this memory") {
				t.Fatalf("install: %q %q", r.Lines(), r.Summary)
			}
			if got, _ := read(t, fsys, "/p/.opencode/plugins/wake.js"); got != string(Plugin) {
				t.Fatal("the plugin was not written as embedded")
			}
			cfg, _ := read(t, fsys, "/p/opencode.json")
			if !hasEntry([]byte(cfg), ".wake/boot.md") {
				t.Fatalf("opencode.json:\n%s", cfg)
			}
			if r, err = clients.Install(ctx, Client{}, o); err != nil || r.Changed() {
				t.Fatalf("second install: %v %q", err, r.Lines())
			}
			if r, err = clients.Uninstall(ctx, Client{}, o); err != nil || !r.Changed() {
				t.Fatalf("uninstall: %v %+v", err, r)
			}
			got, exists := read(t, fsys, "/p/opencode.json")
			if exists != (c.name != "no file") || got != c.src {
				t.Fatalf("opencode.json after uninstall (exists %v):\n%q\nwant\n%q", exists, got, c.src)
			}
			for _, p := range []string{"/p/.opencode", "/p/.wake/.state/opencode-install.json"} {
				if _, err := fsys.Stat(p); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s left: %v", p, err)
				}
			}
			if len(*warnings) > 0 {
				t.Errorf("warnings: %q", *warnings)
			}
		})
	}
}

func TestReport(t *testing.T) {
	t.Parallel()
	fsys, o, _ := memProject(t)
	write(t, fsys, "/p/opencode.jsonc", "{ // mine\n}\n")
	r, err := clients.Install(context.Background(), Client{}, o)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		".opencode/plugins/wake.js: created; wrote the plugin (it runs 'wake load --hook opencode' at start and 'wake handoff --auto' at the end)",
		`opencode.jsonc: added ".wake/boot.md" to the instructions`,
		".wake/boot.md: written (the whole boot context; each hand-off writes it again)",
	}
	if !slices.Equal(r.Lines(), want) {
		t.Fatalf("report:\n%s", strings.Join(r.Lines(), "\n"))
	}
	if _, ok := read(t, fsys, "/p/opencode.json"); ok {
		t.Fatal("install created opencode.json beside opencode.jsonc")
	}
	r, err = clients.Uninstall(context.Background(), Client{}, o)
	want = []string{
		".opencode/plugins/wake.js: deleted the plugin, which is as install wrote it",
		`opencode.jsonc: removed ".wake/boot.md" from the instructions`,
		".opencode/plugins/: removed the directory, which install created and which was left empty",
		".opencode/: removed the directory, which install created and which was left empty",
	}
	if err != nil || !slices.Equal(r.Lines(), want) {
		t.Fatalf("uninstall (%v):\n%s", err, strings.Join(r.Lines(), "\n"))
	}
	if got, _ := read(t, fsys, "/p/opencode.jsonc"); got != "{ // mine\n}\n" {
		t.Fatalf("opencode.jsonc: %q", got)
	}
}

// TestPluginEdited: uninstall leaves a plugin the user changed, and says
// so; the entry still goes.
func TestPluginEdited(t *testing.T) {
	t.Parallel()
	fsys, o, warnings := memProject(t)
	ctx := context.Background()
	if _, err := clients.Install(ctx, Client{}, o); err != nil {
		t.Fatal(err)
	}
	write(t, fsys, "/p/.opencode/plugins/wake.js", string(Plugin)+"// mine\n")
	r, err := clients.Uninstall(ctx, Client{}, o)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := read(t, fsys, "/p/.opencode/plugins/wake.js"); got != string(Plugin)+"// mine\n" {
		t.Fatal("the edited plugin was not left")
	}
	if _, ok := read(t, fsys, "/p/opencode.json"); ok {
		t.Fatalf("opencode.json left: %q", r.Lines())
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], ".opencode/plugins/wake.js was changed since") {
		t.Fatalf("warnings: %q", *warnings)
	}
}

// TestForeignPlugin: install refuses to overwrite a wake.js it did not
// write, before changing anything, and replaces one an earlier install
// wrote.
func TestForeignPlugin(t *testing.T) {
	t.Parallel()
	fsys, o, _ := memProject(t)
	ctx := context.Background()
	write(t, fsys, "/p/.opencode/plugins/wake.js", "export const Mine = async () => ({})\n")
	_, err := clients.Install(ctx, Client{}, o)
	var h interface{ Hint() string }
	if err == nil || !strings.Contains(err.Error(), "/p/.opencode/plugins/wake.js: the file is there and is not the plugin wake wrote") || !errors.As(err, &h) {
		t.Fatalf("got %v", err)
	}
	if _, ok := read(t, fsys, "/p/opencode.json"); ok {
		t.Fatal("opencode.json written by a refused install")
	}
	// An earlier wake wrote a plugin that differs from this one.
	if err := fsys.RemoveAll("/p/.opencode"); err != nil {
		t.Fatal(err)
	}
	if _, err := clients.Install(ctx, Client{}, o); err != nil {
		t.Fatal(err)
	}
	old := "// an earlier wake's plugin\n"
	manifest, _ := read(t, fsys, "/p/.wake/.state/opencode-install.json")
	write(t, fsys, "/p/.wake/.state/opencode-install.json", strings.Replace(manifest, pluginHash(Plugin), pluginHash([]byte(old)), 1))
	write(t, fsys, "/p/.opencode/plugins/wake.js", old)
	r, err := clients.Install(ctx, Client{}, o)
	if err != nil || !slices.Contains(r.Lines(), ".opencode/plugins/wake.js: replaced the plugin an earlier wake wrote") {
		t.Fatalf("upgrade: %v %q", err, r.Lines())
	}
	if r, err = clients.Uninstall(ctx, Client{}, o); err != nil || fileExists(fsys, "/p/.opencode") {
		t.Fatalf("uninstall after upgrade: %v %q", err, r.Lines())
	}
}

func fileExists(fsys afero.Fs, name string) bool {
	_, err := fsys.Stat(name)
	return err == nil
}

// TestNoRecord: without a record uninstall removes the plugin when it is
// this wake's, byte for byte, and names the entry it leaves.
func TestNoRecord(t *testing.T) {
	t.Parallel()
	fsys, o, _ := memProject(t)
	write(t, fsys, "/p/.opencode/plugins/wake.js", string(Plugin))
	write(t, fsys, "/p/opencode.json", `{"instructions": [".wake/boot.md"]}`)
	r, err := clients.Uninstall(context.Background(), Client{}, o)
	if err != nil {
		t.Fatal(err)
	}
	if fileExists(fsys, "/p/.opencode/plugins/wake.js") || !fileExists(fsys, "/p/.opencode/plugins") ||
		!slices.Equal(r.Lines(), []string{".opencode/plugins/wake.js: deleted the plugin, which is this wake's byte for byte"}) {
		t.Fatalf("plugin: %q", r.Lines())
	}
	if got, _ := read(t, fsys, "/p/opencode.json"); got != `{"instructions": [".wake/boot.md"]}` {
		t.Fatalf("opencode.json changed: %s", got)
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], `opencode.json lists ".wake/boot.md". Remove it by hand`) {
		t.Fatalf("notes: %q", r.Notes)
	}
}

// TestOpencodeDirLeft: OpenCode's own files in a .opencode/ that install
// created stay, and uninstall says so.
func TestOpencodeDirLeft(t *testing.T) {
	t.Parallel()
	fsys, o, _ := memProject(t)
	ctx := context.Background()
	if _, err := clients.Install(ctx, Client{}, o); err != nil {
		t.Fatal(err)
	}
	write(t, fsys, "/p/.opencode/.gitignore", "node_modules\npackage.json\n")
	write(t, fsys, "/p/.opencode/package.json", "{}")
	r, err := clients.Uninstall(ctx, Client{}, o)
	if err != nil || fileExists(fsys, "/p/.opencode/plugins") || !fileExists(fsys, "/p/.opencode/package.json") {
		t.Fatalf("%v %q", err, r.Lines())
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], ".opencode/ stays: install created it, and OpenCode has since put its own files there (.gitignore, package.json)") {
		t.Fatalf("notes: %q", r.Notes)
	}
}

// TestMalformedConfig: a config OpenCode cannot read either stops install
// with its name and line, before anything is written.
func TestMalformedConfig(t *testing.T) {
	t.Parallel()
	fsys, o, _ := memProject(t)
	write(t, fsys, "/p/opencode.json", "{\n  \"model\": \"a/b\"\n  \"theme\": \"dark\"\n}\n")
	_, err := clients.Install(context.Background(), Client{}, o)
	if err == nil || !strings.HasPrefix(err.Error(), "/p/opencode.json: 3:3: ") {
		t.Fatalf("got %v", err)
	}
	if fileExists(fsys, "/p/.opencode") || fileExists(fsys, "/p/.wake/.state/opencode-install.json") {
		t.Fatal("a refused install wrote files")
	}
}

// TestForgedRecord: a record naming files install never writes (the
// memory root can come with a cloned repository) is not followed.
func TestForgedRecord(t *testing.T) {
	t.Parallel()
	fsys, o, warnings := memProject(t)
	write(t, fsys, "/etc/opencode.json", `{"instructions": [".wake/boot.md"]}`)
	write(t, fsys, "/p/.wake/.state/opencode-install.json", `{"version": 1, "installs": [{"project": "/p",
		"instruction": {"file": "/etc/opencode.json", "entry": ".wake/boot.md", "made": "file", "inside": ""},
		"plugin": {"file": "/etc/passwd", "sha256": "x"}, "created": ["/etc/opencode.json", "/etc"]}]}`)
	if _, err := clients.Uninstall(context.Background(), Client{}, o); err != nil {
		t.Fatal(err)
	}
	if got, _ := read(t, fsys, "/etc/opencode.json"); got != `{"instructions": [".wake/boot.md"]}` {
		t.Fatalf("/etc/opencode.json: %q", got)
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "names files install never touches (/etc/passwd, /etc/opencode.json, /etc/opencode.json, /etc)") {
		t.Fatalf("warnings: %q", *warnings)
	}
}

// TestRootOutside: a memory root outside the project is named by its
// path, and read from there.
func TestRootOutside(t *testing.T) {
	t.Parallel()
	fsys, o, _ := memProject(t)
	if err := fsys.MkdirAll("/q", 0o755); err != nil {
		t.Fatal(err)
	}
	o.Project, o.Cwd, o.Root = "/q", "/q", "/p/.wake"
	if _, err := clients.Install(context.Background(), Client{}, o); err != nil {
		t.Fatal(err)
	}
	if got, _ := read(t, fsys, "/q/opencode.json"); !hasEntry([]byte(got), "/p/.wake/boot.md") {
		t.Fatalf("opencode.json:\n%s", got)
	}
}

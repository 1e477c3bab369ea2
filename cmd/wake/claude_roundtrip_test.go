package main

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

	"github.com/wakeproto/wake/clients/claude"
	"github.com/wakeproto/wake/internal/claudecases"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// memProject makes a project /p with a memory root on a MemMapFs, HOME
// /home, and returns a maker of apps running in it.
func memProject(t *testing.T) (afero.Fs, func() (*app, *bytes.Buffer)) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	for _, d := range []string{"/p", "/home"} {
		if err := fsys.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mk := func() (*app, *bytes.Buffer) {
		var out bytes.Buffer
		return &app{fs: fsys, env: map[string]string{"HOME": "/home"}, in: strings.NewReader(""), out: &out, errOut: &out,
			now: func() time.Time { return time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC) },
			cwd: "/p", locker: &memlock.Locker{}, newEncoder: sharedEncoder}, &out
	}
	if a, out := mk(); a.run([]string{"init", "--agent", "Ava"}) != 0 {
		t.Fatalf("init: %s", out)
	}
	return fsys, mk
}

// putSettings writes the project's settings.json, or with "no file",
// makes sure there is none (nor a .claude/).
func putSettings(t *testing.T, fsys afero.Fs, name, src string) {
	t.Helper()
	if name == "no file" {
		if err := fsys.RemoveAll("/p/.claude"); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := fsys.MkdirAll("/p/.claude", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(fsys, "/p/.claude/settings.json", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// assertSettings checks that settings.json is src again, or for "no file",
// that neither it nor the .claude/ install made is left.
func assertSettings(t *testing.T, fsys afero.Fs, name, src, after string) {
	t.Helper()
	got, err := afero.ReadFile(fsys, "/p/.claude/settings.json")
	if name == "no file" {
		if _, derr := fsys.Stat("/p/.claude"); !errors.Is(err, fs.ErrNotExist) || !errors.Is(derr, fs.ErrNotExist) {
			t.Fatalf("uninstall left %q (%v), .claude/: %v\nafter install:\n%s", got, err, derr, after)
		}
		return
	}
	if err != nil || string(got) != src {
		t.Fatalf("uninstall did not give back the original (%v):\n got %q\nwant %q\nafter install:\n%s", err, got, src, after)
	}
}

// TestUninstallRestoresSettings: for every settings file of the corpus,
// wake install claude writes CRLF into a CRLF file, and wake uninstall
// claude gives the file back byte for byte (and takes away a file and
// directory install created).
func TestUninstallRestoresSettings(t *testing.T) {
	t.Parallel()
	fsys, mk := memProject(t)
	for _, c := range claudecases.Settings {
		tc := struct{ name, src string }{c.Name, c.Src}
		t.Run(tc.name, func(t *testing.T) {
			putSettings(t, fsys, tc.name, tc.src)
			a, out := mk()
			if code := a.run([]string{"install", "claude"}); code != 0 {
				t.Fatalf("install: exit %d\n%s", code, out)
			}
			after, _ := afero.ReadFile(fsys, "/p/.claude/settings.json")
			if strings.Contains(tc.src, "\r\n") && bytes.Count(after, []byte("\n")) != bytes.Count(after, []byte("\r\n")) {
				t.Fatalf("install mixed LF into a CRLF file:\n%q", after)
			}
			if a, out := mk(); a.run([]string{"uninstall", "claude"}) != 0 {
				t.Fatalf("uninstall: %s", out)
			}
			assertSettings(t, fsys, tc.name, tc.src, string(after))
		})
	}
}

// installThenUninstall installs into the project and uninstalls again
// through what wake install claude and wake uninstall claude do inside
// the lock, without the boot files and the ledger, and returns the
// settings file in between.
func installThenUninstall(t *testing.T, a *app) string {
	t.Helper()
	root := "/p/.wake"
	w, err := claude.NewWiring(a.fs, "/p", root, a.env["HOME"], tiers.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	edits, ed, err := w.PlanInstall(w.BootImport)
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	if err := w.ApplyRecorded(edits, w.BootImport, ed); err != nil {
		t.Fatalf("install: %v", err)
	}
	after, _ := afero.ReadFile(a.fs, w.Settings)
	if _, err := w.Uninstall(true); err != nil {
		t.Fatalf("uninstall: %v\nafter install:\n%s", err, after)
	}
	return string(after)
}

// TestUninstallRestoresRandomSettings is the property behind the corpus:
// for random settings objects, with random whitespace and LF or CRLF,
// install then uninstall gives back the original bytes.
func TestUninstallRestoresRandomSettings(t *testing.T) {
	t.Parallel()
	fsys, mk := memProject(t)
	r := rand.New(rand.NewPCG(14, 9))
	for i := range 300 {
		src := randomSettings(r)
		name := "random"
		if src == "" && r.IntN(2) == 0 {
			name = "no file"
		}
		putSettings(t, fsys, name, src)
		a, _ := mk()
		after := installThenUninstall(t, a)
		if t.Failed() {
			t.Fatalf("case %d: %q", i, src)
		}
		assertSettings(t, fsys, name, src, after)
	}
}

// randomSettings writes a random settings object as a person might:
// settings, hooks (an empty hooks or SessionStart among them, now and
// then wake's own hook), numbers as written, any whitespace between
// tokens, LF or CRLF; or, now and then, a blank file.
func randomSettings(r *rand.Rand) string {
	g := &jsonGen{r: r, eol: []string{"\n", "\r\n"}[r.IntN(2)]}
	if r.IntN(10) == 0 {
		return []string{"", g.eol, "  " + g.eol + "\t" + g.eol, " "}[r.IntN(4)]
	}
	keys := []string{"model", "env", "hooks", "permissions", "x-\u00e9", `a\"b`, "hooks"}
	g.object(r.IntN(5), func() string { return keys[r.IntN(len(keys))] }, g.topValue)
	return g.b.String() + []string{"", g.eol}[r.IntN(2)]
}

// jsonGen builds one random JSON text.
type jsonGen struct {
	r   *rand.Rand
	eol string
	b   strings.Builder
}

// ws writes random whitespace, line breaks in the file's style.
func (g *jsonGen) ws() {
	g.b.WriteString([]string{"", "", " ", "  ", "\t", g.eol, g.eol + "  ", g.eol + "\t\t", " " + g.eol + "    "}[g.r.IntN(9)])
}

func (g *jsonGen) object(n int, key func() string, value func(key string)) {
	g.b.WriteString("{")
	for i := range n {
		if i > 0 {
			g.b.WriteString(",")
		}
		g.ws()
		k := key()
		g.b.WriteString(`"` + k + `"`)
		g.ws()
		g.b.WriteString(":")
		g.ws()
		value(k)
	}
	g.ws()
	g.b.WriteString("}")
}

func (g *jsonGen) array(n int, elem func()) {
	g.b.WriteString("[")
	for i := range n {
		if i > 0 {
			g.b.WriteString(",")
		}
		g.ws()
		elem()
	}
	g.ws()
	g.b.WriteString("]")
}

// topValue writes the value of a top-level setting: hooks get events.
func (g *jsonGen) topValue(key string) {
	if key != "hooks" {
		g.value(2)
		return
	}
	events := []string{"SessionStart", "Stop", "PreToolUse", "SessionStart"}
	g.object(g.r.IntN(3), func() string { return events[g.r.IntN(len(events))] }, func(string) {
		g.array(g.r.IntN(3), g.group)
	})
}

// group writes a hook group: wake's own now and then.
func (g *jsonGen) group() {
	if g.r.IntN(8) == 0 {
		g.b.WriteString(`{"matcher": "` + claude.HookMatcher + `", "hooks": [{"type": "command", "command": "` + claude.HookCommand + `"}]}`)
		return
	}
	matchers := []string{"startup", "compact", "", "Bash|Edit"}
	g.b.WriteString(`{"matcher": "` + matchers[g.r.IntN(len(matchers))] + `", "hooks": [{"type": "command", "command": "echo hi"}]}`)
}

func (g *jsonGen) value(depth int) {
	scalars := []string{"1e400", "-0", "1E+2", "0.0000001", "-12.5e-3", "42", "true", "null", `"opus"`, `"\u00e9\t\"q\""`, `"\/"`}
	switch n := g.r.IntN(4); {
	case depth == 0 || n < 2:
		g.b.WriteString(scalars[g.r.IntN(len(scalars))])
	case n == 2:
		g.array(g.r.IntN(3), func() { g.value(depth - 1) })
	default:
		g.object(g.r.IntN(3), func() string { return "k" }, func(string) { g.value(depth - 1) })
	}
}

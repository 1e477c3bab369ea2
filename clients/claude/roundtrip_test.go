package claude

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/internal/claudecases"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/tiers"
)

// sharedEncoder is built once for every test that opens a root: building
// one costs more than most tests.
var sharedEncoder = sync.OnceValues(func() (*budget.Encoder, error) { return budget.NewEncoder(tiers.EncodingCL100K) })

// memProject makes a project /p with a memory root on a MemMapFs, HOME
// /home, and returns the options that install into it and the warnings
// they collect.
func memProject(t *testing.T) (afero.Fs, clients.Options, *[]string) {
	t.Helper()
	return memProjectAt(t, "/p")
}

// memProjectAt is memProject with the project at dir.
func memProjectAt(t *testing.T, dir string) (afero.Fs, clients.Options, *[]string) {
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
	if _, err := wake.Init(context.Background(), filepath.Join(dir, tiers.DefaultDirName), skeleton.Params{Agent: "Ava"}, o); err != nil {
		t.Fatal(err)
	}
	return fsys, clients.Options{Wake: o, Project: dir, Cwd: dir}, &warnings
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

// installThenUninstall installs Claude Code into the project and
// uninstalls it again, and returns the settings file in between.
func installThenUninstall(t *testing.T, fsys afero.Fs, o clients.Options) string {
	t.Helper()
	ctx := context.Background()
	if _, err := clients.Install(ctx, Client{}, o); err != nil {
		t.Fatalf("install: %v", err)
	}
	after, _ := afero.ReadFile(fsys, "/p/.claude/settings.json")
	if _, err := clients.Uninstall(ctx, Client{}, o); err != nil {
		t.Fatalf("uninstall: %v\nafter install:\n%s", err, after)
	}
	return string(after)
}

// TestUninstallRestoresRandomSettings is the property behind the corpus
// of internal/claudecases (run through the command line in cmd/wake): for random settings objects, with random
// whitespace and LF or CRLF, install then uninstall gives back the
// original bytes, and CLAUDE.md is gone again.
func TestUninstallRestoresRandomSettings(t *testing.T) {
	t.Parallel()
	fsys, o, warnings := memProject(t)
	r := rand.New(rand.NewPCG(14, 9))
	for i := range 300 {
		src := randomSettings(r)
		name := "random"
		if src == "" && r.IntN(2) == 0 {
			name = "no file"
		}
		putSettings(t, fsys, name, src)
		// Each run logs a line, and a long ledger costs every boot
		// context more to count: start each case from an empty one.
		if err := fsys.Remove("/p/.wake/" + tiers.LedgerPath); err != nil {
			t.Fatal(err)
		}
		after := installThenUninstall(t, fsys, o)
		if t.Failed() {
			t.Fatalf("case %d: %q", i, src)
		}
		claudecases.AssertRestored(t, fsys, name, src, after)
		if _, err := fsys.Stat("/p/CLAUDE.md"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("case %d: CLAUDE.md left: %v", i, err)
		}
	}
	if len(*warnings) > 0 {
		t.Fatalf("warnings: %q", *warnings)
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
		g.b.WriteString(`{"matcher": "` + HookMatcher + `", "hooks": [{"type": "command", "command": "` + HookCommand + `"}]}`)
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

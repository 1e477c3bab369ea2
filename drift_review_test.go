package wake

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/gitwork"
)

// The review of decisions (nostalgia) reads the modules a go.mod requires.
func TestGoModPaths(t *testing.T) {
	mod := "module example.com/app // the app\n\ngo 1.23\n\nrequire github.com/a/b v1.0.0\n\nrequire (\n\tgithub.com/c/d v1.2.0 // indirect\n\t\"golang.org/x/e\" v0.1.0\n)\n\nreplace github.com/a/b => ../b\n"
	want := []string{"example.com/app", "github.com/a/b", "github.com/c/d", "golang.org/x/e"}
	if got := goModPaths(mod); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The review reads the names every kind of manifest lists: the project's
// own, its dependencies' (dev, optional and renamed ones too).
func TestManifestNames(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"go.mod", "module example.com/app\n\nrequire github.com/spf13/cobra/v2 v2.0.0\n", "app cobra example.com/app github.com/spf13/cobra/v2"},
		{"package.json", `{"name": "web", "dependencies": {"left-pad": "^1"}, "devDependencies": {"@types/node": "20"}, "peerDependencies": {"react": "*"}}`, "@types/node left-pad react web"},
		{"requirements-dev.txt", "# tools\nrequests>=2.31 ; python_version > '3.8'\n-r base.txt\n-e .\nuvicorn[standard]==0.30  # server\nDjango\n", "Django requests uvicorn"},
		{"pyproject.toml", "[project]\nname = \"app\"\ndependencies = [\"httpx>=0.27\", \"attrs\"]\n[project.optional-dependencies]\ndev = [\"pytest\"]\n[dependency-groups]\nlint = [\"ruff\", {include-group = \"dev\"}]\n[tool.poetry.dependencies]\npython = \"^3.12\"\nrich = \"*\"\n[tool.poetry.group.docs.dependencies]\nmkdocs = \"*\"\n", "app attrs httpx mkdocs pytest python rich ruff"},
		{"Cargo.toml", "[package]\nname = \"tally\"\n[dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\nyaml = { package = \"serde_yaml\", version = \"0.9\" }\n[dev-dependencies]\ninsta = \"1\"\n[target.'cfg(unix)'.dependencies]\nnix = \"0.29\"\n[workspace.dependencies]\ntokio = \"1\"\n", "insta nix serde serde_yaml tally tokio yaml"},
	} {
		got, err := manifestNames(c.name, []byte(c.text))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got = slices.DeleteFunc(got, func(s string) bool { return s == "" })
		slices.Sort(got)
		if strings.Join(slices.Compact(got), " ") != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	if _, err := manifestNames("Cargo.toml", []byte("[dependencies\nserde = 1")); err == nil {
		t.Error("a Cargo.toml that is not TOML was read")
	}
}

// writeProject writes files under dir on fsys.
func writeProject(t *testing.T, fsys afero.Fs, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := fsys.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := afero.WriteFile(fsys, filepath.Join(dir, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// reviewProject is a project whose memory names options and dependencies
// everywhere: only the project's own files (and wake.toml) count.
var reviewProject = map[string]string{
	"main.go":                           "flag.Bool(\"dry-run\", false, \"\")\nos.Getenv(\"DEPLOY_TARGET\")\n",
	"config/app.toml":                   "[server]\nread_timeout = 5\n",
	"web/package.json":                  `{"name": "web", "dependencies": {"left-pad": "^1"}}`,
	"Cargo.toml":                        "[package]\nname = \"tally\"\n[dependencies]\nserde = \"1\"\n",
	"node_modules/x/index.js":           "--legacy-mode",
	"node_modules/x/package.json":       `{"name": "x", "dependencies": {"lodash": "4"}}`,
	".wake/warm/decisions.md":           "`--legacy-mode` LEGACY_PATH the `lodash` npm package",
	".wake/wake.toml":                   "[checks]\nreview_after = \"4320h\"\n",
	".github/workflows/ci.yml":          "run: make --keep-going\n",
	"docs/assets/logo.png":              "\x00PNG --binary-flag",
	".wake/cold/sessions/2026-11-22.md": "--old-flag",
}

// The review's lookups outside git walk the project: options in any file
// but the memory's (wake.toml apart), binary files and installed
// dependencies; the manifests found on the way.
func TestProjectFilesWalk(t *testing.T) {
	fsys := afero.NewMemMapFs()
	writeProject(t, fsys, "/p", reviewProject)
	p := newProjectFiles(fsys, gitwork.Git{}, "/p", "/p/.wake")
	checkProjectFiles(t, p)
}

// In a git work tree git lists the files: tracked and untracked, not
// ignored ones.
func TestProjectFilesGit(t *testing.T) {
	if !gitwork.Found() {
		t.Skip("no git")
	}
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, ".config"), "GIT_CONFIG_NOSYSTEM": "1"}
	g := gitwork.Git{Env: env}
	if _, err := g.Run(context.Background(), dir, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	files := maps.Clone(reviewProject)
	files[".gitignore"] = "node_modules/\nbuild/\n"
	files["build/out.txt"] = "--ignored-flag"
	writeProject(t, afero.NewOsFs(), dir, files)
	if _, err := g.Run(context.Background(), dir, "add", "main.go", "Cargo.toml"); err != nil {
		t.Fatal(err)
	}
	p := newProjectFiles(afero.NewOsFs(), g, dir, filepath.Join(dir, ".wake"))
	if !p.inGit() {
		t.Fatal("not taken for a git work tree")
	}
	checkProjectFiles(t, p)
	if found, _ := p.Mentioned([]string{"--ignored-flag"}); found["--ignored-flag"] {
		t.Error("an ignored file was searched")
	}
}

func checkProjectFiles(t *testing.T, p *projectFiles) {
	t.Helper()
	spellings := []string{"dry-run", "deploy_target", "read_timeout", "keep-going", "review_after",
		"legacy-mode", "legacy_path", "binary-flag", "old-flag"}
	found, known := p.Mentioned(spellings)
	if !known {
		t.Fatal("the search did not cover the project")
	}
	var got []string
	for _, s := range spellings {
		if found[s] {
			got = append(got, s)
		}
	}
	if want := "dry-run deploy_target read_timeout keep-going review_after"; strings.Join(got, " ") != want {
		t.Errorf("found %q, want %s", got, want)
	}
	names, read := p.Dependencies()
	if want := "Cargo.toml web/package.json"; strings.Join(read, " ") != want {
		t.Errorf("manifests read %q, want %s", read, want)
	}
	for dep, want := range map[string]bool{"serde": true, "left-pad": true, "tally": true, "web": true, "lodash": false} {
		if names[checks.DependencyKey(dep)] != want {
			t.Errorf("%s listed: %v, want %v", dep, !want, want)
		}
	}
}

// A manifest wake cannot parse might list the dependency: none is then
// said to be gone.
func TestProjectFilesBadManifest(t *testing.T) {
	fsys := afero.NewMemMapFs()
	writeProject(t, fsys, "/p", map[string]string{"Cargo.toml": "[package]\nname = \"tally\"\n", "web/package.json": "{not json"})
	p := newProjectFiles(fsys, gitwork.Git{}, "/p", "/p/.wake")
	if names, read := p.Dependencies(); read != nil || names != nil {
		t.Errorf("read %q (%v) with a manifest that is not JSON", read, names)
	}
}

package wake

import (
	"slices"
	"testing"

	"github.com/spf13/afero"
)

// The review of decisions (nostalgia) reads the modules a go.mod requires.
func TestGoModPaths(t *testing.T) {
	mod := "module example.com/app // the app\n\ngo 1.23\n\nrequire github.com/a/b v1.0.0\n\nrequire (\n\tgithub.com/c/d v1.2.0 // indirect\n\t\"golang.org/x/e\" v0.1.0\n)\n\nreplace github.com/a/b => ../b\n"
	want := []string{"example.com/app", "github.com/a/b", "github.com/c/d", "golang.org/x/e"}
	if got := goModPaths(mod); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The review of decisions reads the packages a package.json names: its
// own name and every dependencies section, the bundle ones as lists too.
func TestNPMPackages(t *testing.T) {
	fsys := afero.NewMemMapFs()
	has := npmPackages(fsys, "/p")
	if _, known := has("@a/b"); known {
		t.Error("no package.json, yet known")
	}
	afero.WriteFile(fsys, "/p/package.json", []byte(`{"name":"@me/app","dependencies":{"@a/b":"^1"},"devDependencies":{"@c/d":"2"},"peerDependencies":{"@e/f":"*"},"bundleDependencies":["@g/h"]}`), 0o644)
	has = npmPackages(fsys, "/p")
	for name, want := range map[string]bool{"@me/app": true, "@a/b": true, "@c/d": true, "@e/f": true, "@g/h": true, "@x/y": false} {
		if got, known := has(name); !known || got != want {
			t.Errorf("%s: %v %v, want %v", name, got, known, want)
		}
	}
	afero.WriteFile(fsys, "/p/package.json", []byte(`{"name": `), 0o644)
	if _, known := npmPackages(fsys, "/p")("@a/b"); known {
		t.Error("a package.json that is not JSON is known")
	}
}

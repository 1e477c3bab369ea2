package wake

import (
	"slices"
	"testing"
)

// The review of decisions (nostalgia) reads the modules a go.mod requires.
func TestGoModPaths(t *testing.T) {
	mod := "module example.com/app // the app\n\ngo 1.23\n\nrequire github.com/a/b v1.0.0\n\nrequire (\n\tgithub.com/c/d v1.2.0 // indirect\n\t\"golang.org/x/e\" v0.1.0\n)\n\nreplace github.com/a/b => ../b\n"
	want := []string{"example.com/app", "github.com/a/b", "github.com/c/d", "golang.org/x/e"}
	if got := goModPaths(mod); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

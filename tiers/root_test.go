package tiers

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// TestFindRootNeedsAMemoryRoot proves a directory named by --root or
// $WAKE_ROOT must hold at least one of a root's entries: any one will do,
// and an empty or unrelated directory is refused with a hint to init it.
func TestFindRootNeedsAMemoryRoot(t *testing.T) {
	t.Parallel()
	for _, marker := range []string{"main.md", "wake.toml", "ledger.jsonl", "recent/", "warm/", "cold/", ".state/"} {
		fs := afero.NewMemMapFs()
		if strings.HasSuffix(marker, "/") {
			fs.MkdirAll("/m/"+marker, 0o755)
		} else {
			afero.WriteFile(fs, "/m/"+marker, nil, 0o644)
		}
		if got, err := FindRoot(fs, "/m", "", "/"); err != nil || got != "/m" {
			t.Errorf("root with only %s: %q, %v", marker, got, err)
		}
	}
	fs := afero.NewMemMapFs()
	fs.MkdirAll("/home/u/src", 0o755)
	afero.WriteFile(fs, "/home/u/src/main.go", []byte("package main\n"), 0o644)
	for _, tc := range []struct{ flag, env, src string }{{"src", "", "--root"}, {"", "/home/u/src", "$WAKE_ROOT"}} {
		_, err := FindRoot(fs, tc.flag, tc.env, "/home/u")
		var nr *NotRootError
		if !errors.As(err, &nr) || nr.Source != tc.src || errors.Is(err, ErrNoRoot) {
			t.Fatalf("%s: %v", tc.src, err)
		}
		dir := tc.flag + tc.env
		if !strings.Contains(err.Error(), dir+" is not a memory root") || nr.Hint() != "run 'wake init "+dir+"' to make it one, or name the directory that holds main.md" {
			t.Errorf("%s: %v / %s", tc.src, err, nr.Hint())
		}
	}
	if _, err := fs.Stat("/home/u/src/.state"); err == nil {
		t.Error("FindRoot created .state/")
	}
}

// TestFindRootRefusesWakeTOML proves a root whose wake.toml leads out of it,
// or is not a regular file, is refused with an error naming wake.toml; a
// link that stays inside the root is fine.
func TestFindRootRefusesWakeTOML(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	os.MkdirAll(filepath.Join(root, "warm"), 0o755)
	os.WriteFile(filepath.Join(dir, "outside.toml"), []byte("agent = \"Mallory\"\n"), 0o644)
	os.WriteFile(filepath.Join(root, "real.toml"), []byte("agent = \"Ava\"\n"), 0o644)
	fs := afero.NewOsFs()
	toml := filepath.Join(root, "wake.toml")
	for _, tc := range []struct{ target, err string }{
		{"../outside.toml", "wake.toml: not read: symlink wake.toml leads outside the memory root (to " + filepath.Join(dir, "outside.toml") + ")"},
		{"real.toml", ""},
		{"warm", "wake.toml: not read: is a directory"},
	} {
		os.Remove(toml)
		if err := os.Symlink(tc.target, toml); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
		_, err := FindRoot(fs, root, "", dir)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("wake.toml -> %s: %v, want %q", tc.target, err, tc.err)
		}
	}
}

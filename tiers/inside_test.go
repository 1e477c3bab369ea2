package tiers

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// linkTree builds dir/root and dir/outside on the real file system and
// makes each link (relative to dir) point at its target.
func linkTree(t *testing.T, files map[string]string, links map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"root/warm", "root/cold", "outside/d"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	return dir
}

// TestInside proves every component and every link is resolved: a link
// that passes through a linked directory out of the root is caught, and an
// absolute link staying inside a root named through a symlink is not.
func TestInside(t *testing.T) {
	t.Parallel()
	dir := linkTree(t,
		map[string]string{"outside/x.md": "secret", "outside/d/y.md": "secret", "root/main.md": "in"},
		map[string]string{
			"root/link":                   "../outside",
			"root/warm/open_questions.md": "../link/x.md",
			"root/cold/y.md":              "../link/d/y.md",
			"root/warm/dotdot.md":         "../warm/../../outside/x.md",
			"root/warm/abs_inside.md":     "ROOT/main.md",
			"root/warm/through_alias.md":  "ALIAS/main.md",
			"root/warm/dangling_out.md":   "../../outside/new.md",
			"root/warm/dangling_in.md":    "new.md",
			"root/warm/loop.md":           "loop.md",
			"rootalias":                   "root",
			"root/warm/inner":             "../cold",
			"root/warm/via_inner.md":      "inner/../main.md",
		})
	// The absolute links name the real root and the root's alias.
	real := filepath.Join(dir, "root")
	alias := filepath.Join(dir, "rootalias")
	for link, target := range map[string]string{"warm/abs_inside.md": real + "/main.md", "warm/through_alias.md": alias + "/main.md"} {
		os.Remove(filepath.Join(real, link))
		if err := os.Symlink(target, filepath.Join(real, link)); err != nil {
			t.Fatal(err)
		}
	}
	fs := afero.NewOsFs()
	for _, root := range []string{real, alias} {
		for _, tc := range []struct {
			rel, reason string
			notExist    bool
		}{
			{rel: "main.md"},
			{rel: "warm/abs_inside.md"},
			{rel: "warm/through_alias.md"},
			{rel: "warm/dangling_in.md"},
			{rel: "warm/not_yet.md"},
			{rel: "warm/via_inner.md"},
			{rel: "link/x.md", reason: "symlink link leads outside the memory root"},
			{rel: "warm/open_questions.md", reason: "symlink warm/open_questions.md leads outside the memory root"},
			{rel: "cold/y.md", reason: "symlink cold/y.md leads outside the memory root"},
			{rel: "warm/dotdot.md", reason: "leads outside the memory root"},
			{rel: "warm/dangling_out.md", reason: "leads outside the memory root"},
			{rel: "../outside/x.md", reason: "path ../outside/x.md leads outside the memory root"},
			{rel: "nodir/x.md", notExist: true},
			{rel: "warm/loop.md/x", reason: "-"},
		} {
			reason, err := Inside(fs, root, tc.rel)
			switch {
			case tc.notExist:
				if !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s under %s: want a not-exist error, got %q, %v", tc.rel, root, reason, err)
				}
			case tc.reason == "-":
				if err == nil || !strings.Contains(err.Error(), "too many levels") {
					t.Errorf("%s under %s: want a loop error, got %q, %v", tc.rel, root, reason, err)
				}
			case err != nil || !strings.Contains(reason, tc.reason) || (tc.reason == "") != (reason == ""):
				t.Errorf("%s under %s: got %q, %v; want %q", tc.rel, root, reason, err, tc.reason)
			}
		}
	}
}

// TestReadDocThroughLinkedDir is the reviewer's reproduction: a tier file
// linked through a symlinked directory out of the root is not read.
func TestReadDocThroughLinkedDir(t *testing.T) {
	t.Parallel()
	dir := linkTree(t, map[string]string{"outside/x.md": "hunter2\n"},
		map[string]string{"root/link": "../outside", "root/warm/open_questions.md": "../link/x.md", "root/cold/y.md": "../link/x.md"})
	root := filepath.Join(dir, "root")
	fs := afero.NewOsFs()
	d, err := ReadDoc(fs, root, "warm/open_questions.md")
	if err != nil || d.Content != nil || !strings.Contains(d.Skipped, "leads outside the memory root") {
		t.Fatalf("read through a linked directory: %+v, %v", d, err)
	}
	if _, ok, err := ReadHead(fs, root, "cold/y.md"); ok || err != nil {
		t.Fatalf("cold head read through a linked directory: %v %v", ok, err)
	}
	files, warns, err := ScanCold(fs, root)
	if err != nil || len(files) != 0 || len(warns) != 1 || !strings.Contains(warns[0], "cold/y.md: skipped: symlink cold/y.md leads outside") {
		t.Fatalf("scan: %v %v %v", files, warns, err)
	}
}

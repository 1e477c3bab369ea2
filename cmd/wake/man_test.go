package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestMan: 'wake man --dir DIR' writes a page for every command help
// lists, subcommands included, each a man(7) page with its help text.
func TestMan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out, errOut := runApp(t, dir, "man", "--dir", "pages")
	if code != 0 || !strings.HasPrefix(out, "wrote ") {
		t.Fatalf("wake man: exit %d\n%s%s", code, out, errOut)
	}
	want := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		want[manName(c)+".1"] = true
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() {
				walk(s)
			}
		}
	}
	walk((&app{}).rootCmd())
	for _, name := range []string{"wake-help.1", "wake-completion.1", "wake-completion-bash.1"} {
		want[name] = true
	}
	entries, err := os.ReadDir(filepath.Join(dir, "pages"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, e := range entries {
		got[e.Name()] = true
		data, err := os.ReadFile(filepath.Join(dir, "pages", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		page := string(data)
		if !strings.HasPrefix(page, ".TH \"") || !strings.Contains(page, ".SH NAME\n"+strings.TrimSuffix(e.Name(), ".1")+` \- `) {
			t.Errorf("%s:\n%s", e.Name(), page)
		}
	}
	for name := range want {
		if !got[name] {
			t.Errorf("no page %s", name)
		}
	}
	load, _ := os.ReadFile(filepath.Join(dir, "pages", "wake-load.1"))
	if !strings.Contains(string(load), roffEscape(help("load"))) {
		t.Errorf("wake-load.1 does not hold load's help:\n%s", load)
	}
	if code, _, errOut := runApp(t, dir, "man"); code != exitUsage || !strings.Contains(errOut, "--dir is required") {
		t.Errorf("wake man without --dir: exit %d\n%s", code, errOut)
	}
}

func TestRoffEscape(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`a\b`:          `a\eb`,
		".SH x\n'y\nz": "\\&.SH x\n\\&'y\nz",
		"  .ok":        "  .ok",
	} {
		if got := roffEscape(in); got != want {
			t.Errorf("roffEscape(%q) = %q, want %q", in, got, want)
		}
	}
}

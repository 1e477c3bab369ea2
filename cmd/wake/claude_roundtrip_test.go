package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

	"github.com/wakeproto/wake/internal/claudecases"

	"github.com/spf13/afero"
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
			claudecases.AssertRestored(t, fsys, tc.name, tc.src, string(after))
		})
	}
}

package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/memlock"
)

// TestMergeDriverPathsFromWorkDir: git names the driver's files relative
// to where it runs it, and wake reads and writes them against its working
// directory, never the process's (the scenarios run wake in the test
// process, each in its own directory).
func TestMergeDriverPathsFromWorkDir(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	files := map[string]string{
		"/repo/base.txt":   `{"at":"2026-11-28T09:00:00Z","op":"init","paths":[],"change_summary":"init"}` + "\n",
		"/repo/ours.txt":   `{"at":"2026-11-28T09:00:00Z","op":"init","paths":[],"change_summary":"init"}` + "\n" + `{"at":"2026-11-28T09:10:00Z","op":"remember","paths":[],"change_summary":"ours"}` + "\n",
		"/repo/theirs.txt": `{"at":"2026-11-28T09:00:00Z","op":"init","paths":[],"change_summary":"init"}` + "\n" + `{"at":"2026-11-28T09:20:00Z","op":"remember","paths":[],"change_summary":"theirs"}` + "\n",
	}
	for name, data := range files {
		if err := afero.WriteFile(fsys, name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	a := &app{fs: fsys, env: map[string]string{"HOME": "/home"}, in: strings.NewReader(""), out: &out, errOut: &out,
		now: func() time.Time { return time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC) },
		cwd: "/repo", locker: &memlock.Locker{}, newEncoder: sharedEncoder}
	if code := a.run([]string{"merge-driver", "base.txt", "ours.txt", "theirs.txt", ".wake/ledger.jsonl"}); code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	got, err := afero.ReadFile(fsys, "/repo/ours.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `"change_summary":"ours"`) || !strings.Contains(string(got), `"change_summary":"theirs"`) {
		t.Errorf("ours.txt after the merge:\n%s", got)
	}
}

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/store"
)

// newTestApp returns an app on the real file system rooted in a temp
// directory, with captured streams, a fixed clock and the shared encoder.
func newTestApp(t *testing.T, dir string) (*app, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errOut bytes.Buffer
	return &app{
		fs: afero.NewOsFs(), env: map[string]string{"HOME": filepath.Join(dir, "home")},
		in: strings.NewReader(""), out: &out, errOut: &errOut,
		now: func() time.Time { return time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC) },
		cwd: dir, locker: store.FileLocker{Timeout: 5 * time.Second}, newEncoder: sharedEncoder, writer: "wtest",
	}, &out, &errOut
}

// memoryWithSessions makes a memory root in a temp directory, then three
// hand-offs, so that every output (skill.md's history, the digest, the cold
// listing of cold/sessions) has something in it. It returns the directory
// holding .wake/.
func memoryWithSessions(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"init", "--agent", "Ava"}); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	for _, s := range []string{"first", "second", "third"} {
		a, _, errOut := newTestApp(t, dir)
		if code := a.run([]string{"handoff", "--summary", s + " session", "--next", "more", "--happened", "did " + s}); code != 0 {
			t.Fatalf("handoff: exit %d: %s", code, errOut)
		}
	}
	return dir
}

// TestWarmLoadDoesNotBuildEncoder proves the session-start promise: when no
// file changed since the last load, the tokenizer is never initialised.
func TestWarmLoadDoesNotBuildEncoder(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	load := func(args ...string) (string, bool) {
		a, out, errOut := newTestApp(t, dir)
		// An encoder of its own, recorded, to tell whether it was built.
		var encoders []*budget.Encoder
		a.newEncoder = func(name string) (*budget.Encoder, error) {
			e, err := budget.NewEncoder(name)
			encoders = append(encoders, e)
			return e, err
		}
		if code := a.run(append([]string{"load"}, args...)); code != 0 {
			t.Fatalf("load: exit %d: %s", code, errOut)
		}
		if len(encoders) != 1 {
			t.Fatalf("%d encoders made", len(encoders))
		}
		return out.String(), encoders[0].Built()
	}
	os.RemoveAll(filepath.Join(dir, ".wake", ".state", "tokens.json"))
	first, built := load()
	if !built {
		t.Fatal("a load with no count cache did not build the encoder")
	}
	second, built := load()
	if built {
		t.Fatal("a load of unchanged files built the encoder")
	}
	if first != second {
		t.Fatal("warm and cold loads printed different contexts")
	}
	if _, built := load("--hook", "claude"); built {
		t.Fatal("the Claude Code hook on unchanged files built the encoder")
	}
	// Changing a file needs the encoder again.
	os.WriteFile(filepath.Join(dir, ".wake", "warm", "open_questions.md"), []byte("- Why?\n"), 0o644)
	if _, built := load(); !built {
		t.Fatal("a changed file was not counted")
	}
}

// TestNoNetwork runs the built binary in a network namespace with no
// interfaces: it must still count tokens exactly.
func TestNoNetwork(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("skipping: unshare(1) is not installed")
	}
	if err := exec.Command(unshare, "-rn", "true").Run(); err != nil {
		t.Skipf("skipping: cannot create a network namespace here: %v", err)
	}
	dir := t.TempDir()
	bin := wakeBinary(t)
	root := filepath.Join(dir, "mem")
	for _, args := range [][]string{{"init", root}, {"load", "--root", root, "--format", "json"}} {
		cmd := exec.Command(unshare, append([]string{"-rn", bin}, args...)...)
		cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin"}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("wake %v without network: %v\n%s", args, err, out)
		}
		if args[0] == "load" && !bytes.Contains(out, []byte(`"path": "main.md"`)) {
			t.Fatalf("unexpected output:\n%s", out)
		}
	}
	// The exact count of the skeleton main.md, as tiktoken makes it.
	a, out, _ := newTestApp(t, dir)
	a.run([]string{"status", "--root", root, "--format", "json"})
	cmd := exec.Command(unshare, "-rn", bin, "status", "--root", root, "--format", "json")
	cmd.Env = []string{"HOME=" + dir}
	os.Remove(filepath.Join(root, ".state", "tokens.json"))
	got, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != out.String() {
		t.Fatalf("counts without network differ:\n%s\nwant\n%s", got, out)
	}
}

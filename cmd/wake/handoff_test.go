package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// TestConcurrentHandoffs starts 20 hand-offs at once as separate processes
// on one real root: each waits for the lock, none is lost, and the ledger
// holds 20 whole hand-off lines.
func TestConcurrentHandoffs(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := wakeBinary(t)
	dir := t.TempDir()
	root := filepath.Join(dir, ".wake")
	env := []string{"HOME=" + filepath.Join(dir, "home"), "PATH=" + os.Getenv("PATH"), "GIT_CEILING_DIRECTORIES=" + dir}
	initCmd := exec.Command(bin, "init", root)
	initCmd.Env = env
	if out, err := initCmd.CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	const n = 20
	cmds := make([]*exec.Cmd, n)
	outs := make([]*bytes.Buffer, n)
	for i := range cmds {
		outs[i] = &bytes.Buffer{}
		cmds[i] = exec.Command(bin, "--root", root, "handoff", "--summary", fmt.Sprintf("hand-off %02d", i), "--next", "next", "--decision", fmt.Sprintf("D%02d because concurrency", i))
		cmds[i].Env, cmds[i].Stdout, cmds[i].Stderr = env, outs[i], outs[i]
	}
	for i, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("hand-off %d: %v\n%s", i, err, outs[i])
		}
	}
	// Every session is a record in cold/sessions/, once; recent/ holds
	// copies of the two newest.
	fs := afero.NewOsFs()
	var got []string
	records := map[string]bool{}
	cold, _ := afero.ReadDir(fs, filepath.Join(root, tiers.SessionsDir))
	for _, fi := range cold {
		data, err := os.ReadFile(filepath.Join(root, tiers.SessionsDir, fi.Name()))
		if err != nil {
			t.Fatal(err)
		}
		records[string(data)] = true
		s, _ := tiers.ParseSession(data)
		got = append(got, s.Summary)
	}
	for _, f := range []string{tiers.LatestPath, tiers.PreviousPath} {
		if data, err := os.ReadFile(filepath.Join(root, f)); err != nil || !records[string(data)] {
			t.Errorf("%s is no copy of a record (%v)", f, err)
		}
	}
	sort.Strings(got)
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf("hand-off %02d", i))
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("summaries present:\n%v\nwant\n%v", got, want)
	}
	checkLedgerLines(t, root, n)
	log, _ := os.ReadFile(filepath.Join(root, tiers.DecisionsPath))
	for i := range n {
		if c := strings.Count(string(log), fmt.Sprintf("DECISION: D%02d BECAUSE", i)); c != 1 {
			t.Errorf("decision %d logged %d times", i, c)
		}
	}
}

// checkLedgerLines requires every ledger line to be whole JSON and n of
// them to be hand-offs, each with a distinct summary.
func checkLedgerLines(t *testing.T, root string, n int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, tiers.LedgerPath))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var e store.Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("ledger line %d is torn: %q", i+1, line)
		}
		if e.Op == "handoff" {
			if seen[e.Summary] {
				t.Fatalf("hand-off %q logged twice", e.Summary)
			}
			seen[e.Summary] = true
		}
	}
	if len(seen) != n {
		t.Fatalf("%d hand-off lines, want %d", len(seen), n)
	}
}

// crashFs fails every rename after the first few, as a process dying in
// the middle of a hand-off would leave it.
type crashFs struct {
	afero.Fs
	renames, allow int32
}

func (f *crashFs) Rename(o, n string) error {
	if atomic.AddInt32(&f.renames, 1) > f.allow {
		return fmt.Errorf("rename %s: simulated crash", o)
	}
	return f.Fs.Rename(o, n)
}

// TestAnyCommandFinishesAnInterruptedHandoff leaves a hand-off interrupted
// after its journal and first rotation, then runs each command once: it
// must finish the hand-off first and say so on stderr.
func TestAnyCommandFinishesAnInterruptedHandoff(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"load"}, {"status"}, {"handoff", "--summary", "after", "--next", "n"}} {
		t.Run(args[0], func(t *testing.T) {
			dir := t.TempDir()
			a, _, errOut := newTestApp(t, dir)
			if code := a.run([]string{"init"}); code != 0 {
				t.Fatalf("init: %s", errOut)
			}
			root := filepath.Join(dir, ".wake")
			os.WriteFile(filepath.Join(root, tiers.LatestPath), []byte("---\nsummary: before\n---\n"), 0o644)
			s := &store.Store{FS: &crashFs{Fs: afero.NewOsFs(), allow: 3}, Root: root, Now: a.now, Locker: &memlock.Locker{}}
			in := handoff.Input{Session: tiers.Session{Summary: "interrupted", NextPriority: "resume"}}
			if _, err := handoff.Handoff(context.Background(), s, in); err == nil || !strings.Contains(err.Error(), "next wake command finishes it") {
				t.Fatalf("the crash was not reported as an interruption: %v", err)
			}
			b, out, errOut := newTestApp(t, dir)
			b.now = func() time.Time { return a.now().Add(time.Minute) }
			if code := b.run(args); code != 0 {
				t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
			}
			if !strings.Contains(errOut.String(), `wake: recovered: finished hand-off `) || !strings.Contains(errOut.String(), `("interrupted")`) {
				t.Fatalf("stderr does not say it recovered:\n%s", errOut)
			}
			prev, _ := os.ReadFile(filepath.Join(root, tiers.PreviousPath))
			if args[0] != "handoff" && !strings.Contains(string(prev), "summary: before") {
				t.Fatalf("previous.md: %q", prev)
			}
			if ok, _ := store.Pending(afero.NewOsFs(), root); ok {
				t.Fatal("still pending")
			}
		})
	}
}

// TestHandoffFlagNewlines covers the one-line flags, which a script cannot
// easily give a newline.
func TestHandoffFlagNewlines(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--summary", "a\nb", "--next", "n"}, "--summary must be one line"},
		{[]string{"--summary", "s", "--next", "a\r\nb"}, "--next must be one line"},
		{[]string{"--summary", "s", "--next", "n", "--risk", "a\nb"}, "--risk must be one line"},
		{[]string{"--summary", "s", "--next", "n", "--mood", "a\nb"}, "--mood must be one line"},
		{[]string{"--summary", "s", "--next", "n", "--thread", "a\nb"}, `--thread "a\nb" must be one line`},
	} {
		dir := t.TempDir()
		a, _, errOut := newTestApp(t, dir)
		a.run([]string{"init"})
		errOut.Reset()
		if code := a.run(append([]string{"handoff"}, tt.args...)); code != exitUsage || !strings.Contains(errOut.String(), tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestHandoffWaitsForTheLock holds the root's lock, as another hand-off
// would, and checks that a hand-off gives up after its timeout with exit 1
// and writes nothing.
func TestHandoffWaitsForTheLock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"init"}); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	root := filepath.Join(dir, ".wake")
	unlock, err := store.FileLocker{}.Lock(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	b, _, errOut := newTestApp(t, dir)
	b.locker = store.FileLocker{Timeout: 200 * time.Millisecond}
	code := b.run([]string{"handoff", "--summary", "s", "--next", "n"})
	if code != exitError || !strings.Contains(errOut.String(), "timed out waiting for the memory root's lock") ||
		!strings.Contains(errOut.String(), "wake: hint: another wake command holds the memory root's lock") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(root, tiers.LatestPath)); err == nil {
		t.Fatal("a hand-off that did not get the lock wrote recent/latest.md")
	}
}

// TestHandoffWarnsOverTheRecentShare sets budget.recent to 200, so a
// summary's share is 100 tokens, and checks the warning against an exact
// count of the file written. A summary of more than 100 bytes but fewer
// tokens gets no warning.
func TestHandoffWarnsOverTheRecentShare(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"init"}); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	root := filepath.Join(dir, ".wake")
	os.WriteFile(filepath.Join(root, tiers.ConfigPath), []byte("[budget]\nrecent = 200\n"), 0o644)
	enc, err := sharedEncoder(tiers.EncodingCL100K)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		successor string
		warn      bool
	}{
		{"short", false},
		{strings.Repeat("The loader reads TOML now. ", 30), true},
	} {
		b, _, errOut := newTestApp(t, dir)
		if code := b.run([]string{"handoff", "--summary", "s", "--next", "n", "--changed", "x", "--successor", tt.successor}); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		data, _ := os.ReadFile(filepath.Join(root, tiers.LatestPath))
		n := enc.Count(string(data))
		if tt.warn != (n > 100) || len(data) <= 100 {
			t.Fatalf("bad case: %d bytes, %d tokens", len(data), n)
		}
		want := fmt.Sprintf("wake: warning: recent/latest.md is %d tokens, over its share of the recent budget (100 = budget.recent / 2); 'wake load' will show it compressed", n)
		if got := strings.Contains(errOut.String(), want); got != tt.warn {
			t.Fatalf("warning %v, want %v; stderr:\n%s", got, tt.warn, errOut)
		}
	}
}

// TestUnrecoverableHandoffWarnsButLoads interrupts a hand-off just before
// it installs the new summary, then puts a hand-written recent/latest.md in
// the way. wake never overwrites it: load warns and still prints the
// context, and a new hand-off refuses to go on.
func TestUnrecoverableHandoffWarnsButLoads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"init"}); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	root := filepath.Join(dir, ".wake")
	latest := filepath.Join(root, tiers.LatestPath)
	os.WriteFile(latest, []byte("---\nsummary: before\n---\n"), 0o644)
	s := &store.Store{FS: &crashFs{Fs: afero.NewOsFs(), allow: 3}, Root: root, Now: a.now, Locker: &memlock.Locker{}}
	in := handoff.Input{Session: tiers.Session{Summary: "interrupted", NextPriority: "resume"}}
	if _, err := handoff.Handoff(context.Background(), s, in); err == nil {
		t.Fatal("no interruption")
	}
	mine := []byte("written by hand meanwhile\n")
	os.WriteFile(latest, mine, 0o644)

	b, out, errOut := newTestApp(t, dir)
	if code := b.run([]string{"load"}); code != 0 || !strings.Contains(out.String(), "# Boot context") {
		t.Fatalf("load: exit %d\n%s", code, errOut)
	}
	if !strings.Contains(errOut.String(), "wake: warning: recovering the interrupted hand-off") ||
		!strings.Contains(errOut.String(), "recent/latest.md changed while the hand-off was interrupted") {
		t.Fatalf("load's stderr:\n%s", errOut)
	}
	c, _, errOut := newTestApp(t, dir)
	if code := c.run([]string{"handoff", "--summary", "s", "--next", "n"}); code != exitError {
		t.Fatalf("handoff went on: exit %d\n%s", code, errOut)
	}
	if got, _ := os.ReadFile(latest); string(got) != string(mine) {
		t.Fatalf("recent/latest.md was overwritten: %q", got)
	}
	staged, _ := filepath.Glob(filepath.Join(root, tiers.RecentDir, ".handoff-*.md"))
	if len(staged) != 1 {
		t.Fatalf("the staged summary is gone: %v", staged)
	}
	if data, _ := os.ReadFile(staged[0]); !strings.Contains(string(data), "summary: interrupted") {
		t.Fatalf("staged: %q", data)
	}
}

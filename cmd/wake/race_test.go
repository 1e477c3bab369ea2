package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// pauseFs runs a hook once, the first time a file whose path contains
// openPart is opened, or right after a rename from a path ending with
// renameFrom succeeds.
type pauseFs struct {
	afero.Fs
	openPart, renameFrom string
	hook                 func()
	once                 sync.Once
}

func (p *pauseFs) fire() { p.once.Do(p.hook) }

func (p *pauseFs) Open(name string) (afero.File, error) {
	if p.openPart != "" && strings.Contains(name, p.openPart) {
		p.fire()
	}
	return p.Fs.Open(name)
}

func (p *pauseFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if p.openPart != "" && strings.Contains(name, p.openPart) {
		p.fire()
	}
	return p.Fs.OpenFile(name, flag, perm)
}

func (p *pauseFs) Rename(from, to string) error {
	err := p.Fs.Rename(from, to)
	if err == nil && p.renameFrom != "" && strings.HasSuffix(from, p.renameFrom) {
		p.fire()
	}
	return err
}

// wait waits for ch to close, or gives up after d: a test that sees a
// race happen must not hang when the fix makes the other side wait.
func wait(ch <-chan struct{}, d time.Duration) {
	select {
	case <-ch:
	case <-time.After(d):
	}
}

// raceRoot makes a root with one hand-off, a boot.md to refresh and warm
// caches.
func raceRoot(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"init", "--agent", "Ava"}); code != 0 {
		t.Fatalf("init: exit %d\n%s", code, errOut)
	}
	main := filepath.Join(dir, ".wake", tiers.MainPath)
	data, _ := os.ReadFile(main)
	os.WriteFile(main, []byte(strings.Replace(string(data), "## Purpose\n", "## Purpose\nKeep the books of a small shop.\n", 1)), 0o644)
	for _, args := range [][]string{{"handoff", "--summary", "old session", "--next", "old next"}, {"load"}} {
		a, _, errOut := newTestApp(t, dir)
		if code := a.run(args); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
	}
	os.WriteFile(filepath.Join(dir, ".wake", tiers.BootPath), nil, 0o644)
	return dir
}

// A load reads the root as it was before a hand-off or after it, never
// between its renames. The load is held just after it starts reading; a
// hand-off then runs to the middle of its rotation (latest.md moved to
// previous.md, the new one not yet installed) and holds there until the
// load is done. (issue 9: 3 in 450 loads woke "without recent context".)
func TestLoadNeverSeesAHandoffHalfDone(t *testing.T) {
	dir := raceRoot(t)
	loadReading, handoffMid, loadDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	l, out, errOut := newTestApp(t, dir)
	l.fs = &pauseFs{Fs: afero.NewOsFs(), openPart: "/.wake/main.md", hook: func() {
		close(loadReading)
		wait(handoffMid, 500*time.Millisecond)
	}}
	h, _, herr := newTestApp(t, dir)
	h.fs = &pauseFs{Fs: afero.NewOsFs(), renameFrom: "/recent/latest.md", hook: func() {
		close(handoffMid)
		wait(loadDone, 500*time.Millisecond)
	}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-loadReading
		if code := h.run([]string{"handoff", "--summary", "new session", "--next", "new next"}); code != 0 {
			t.Errorf("handoff: exit %d\n%s", code, herr)
		}
	}()
	code := l.run([]string{"load", "--no-skill"})
	close(loadDone)
	wg.Wait()
	if code != 0 {
		t.Fatalf("load: exit %d\n%s", code, errOut)
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	if first != "Resumed. Last session: old session. Current focus: old next." && first != "Resumed. Last session: new session. Current focus: new next." {
		t.Fatalf("the load saw the hand-off half done: %q\n%s", first, errOut)
	}
}

// A load never writes boot files from a state a hand-off has replaced
// since it read it: the load is held as it is about to write boot.md,
// having read the root, while a whole hand-off (which rewrites boot.md
// itself) runs if it can; boot.md must end up from the new state. (issue 9: 2 in 150 loads left the next
// session a stale boot.md.)
func TestLoadNeverWritesStaleBootFiles(t *testing.T) {
	dir := raceRoot(t)
	loadReading, handoffDone := make(chan struct{}), make(chan struct{})
	l, _, errOut := newTestApp(t, dir)
	l.fs = &pauseFs{Fs: afero.NewOsFs(), openPart: "/.wake/.boot.md.tmp-", hook: func() {
		close(loadReading)
		wait(handoffDone, 500*time.Millisecond)
	}}
	h, _, herr := newTestApp(t, dir)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(handoffDone)
		<-loadReading
		if code := h.run([]string{"handoff", "--summary", "new session", "--next", "new next"}); code != 0 {
			t.Errorf("handoff: exit %d\n%s", code, herr)
		}
	}()
	code := l.run([]string{"load", "--no-skill"})
	wg.Wait()
	if code != 0 {
		t.Fatalf("load: exit %d\n%s", code, errOut)
	}
	boot, _ := os.ReadFile(filepath.Join(dir, ".wake", tiers.BootPath))
	if !strings.Contains(string(boot), "Last session: new session.") {
		t.Fatalf("boot.md is stale:\n%.400s", boot)
	}
}

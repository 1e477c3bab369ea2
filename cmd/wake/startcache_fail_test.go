package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// fullDisk is the real file system, but for the files created under dir
// while full is set: ENOSPC, as on a file system with no room left.
type fullDisk struct {
	afero.OsFs
	dir  string
	full *bool
}

func (f fullDisk) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if *f.full && flag&os.O_CREATE != 0 && strings.HasPrefix(name, f.dir+string(filepath.Separator)) {
		return nil, &os.PathError{Op: "open", Path: name, Err: syscall.ENOSPC}
	}
	return f.OsFs.OpenFile(name, flag, perm)
}

func (f fullDisk) Create(name string) (afero.File, error) {
	return f.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// startRunner runs a start of view ("load", or a client's hook) in dir
// through fsys, and returns its stdout and stderr.
func startRunner(t *testing.T, dir, view string, fsys afero.Fs) func() (string, string) {
	return func() (string, string) {
		t.Helper()
		a, out, errOut := newTestApp(t, dir)
		a.fs = fsys
		args := []string{"load"}
		if view != "load" {
			args = append(args, "--hook", view)
			a.in = strings.NewReader(hookJSON(dir))
		}
		if code := a.run(args); code != 0 {
			t.Fatalf("%s: exit %d: %s", view, code, errOut)
		}
		return out.String(), errOut.String()
	}
}

// editAndStart adds a task to warm/active_tasks.md, so that the next
// start builds, runs three starts and returns what the last said on
// stderr.
func editAndStart(t *testing.T, dir string, run func() (string, string)) string {
	t.Helper()
	tasks := filepath.Join(dir, ".wake", "warm", "active_tasks.md")
	data, err := os.ReadFile(tasks)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tasks, append(data, "- [ ] Knead the dough\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	var said string
	for range 3 {
		_, said = run()
	}
	return said
}

// sameAsFresh runs a start, then the same start with the start cache
// removed, and fails when the two differ.
func sameAsFresh(t *testing.T, dir, what string, run func() (string, string)) {
	t.Helper()
	got, gotErr := run()
	os.Remove(filepath.Join(dir, ".wake", ".state", "start-cache"))
	fresh, freshErr := run()
	if got != fresh || gotErr != freshErr {
		t.Errorf("%s:\n%s\n%s\nfresh:\n%s\n%s", what, got, gotErr, fresh, freshErr)
	}
}

// TestStartCacheKeepsNoFailedWrite: a start that could not write a file
// (skill.md at skill.path, its disk full) is not kept. Why a write fails
// is no part of the key, so a kept start would go on saying it failed,
// and leave the file as it was, after the disk has room again.
func TestStartCacheKeepsNoFailedWrite(t *testing.T) {
	t.Parallel()
	for _, view := range []string{"load", "claude", "codex", "opencode"} {
		t.Run(view, func(t *testing.T) {
			t.Parallel()
			dir := memoryWithSessions(t)
			full := false
			run := startRunner(t, dir, view, fullDisk{dir: filepath.Join(dir, "home", ".claude"), full: &full})
			for range 3 {
				run()
			}
			full = true
			said := editAndStart(t, dir, run)
			if !strings.Contains(said, "no space left on device") {
				t.Fatalf("the start with the disk full said:\n%s", said)
			}
			full = false
			sameAsFresh(t, dir, view+" once the disk has room again", run)
			skill, err := os.ReadFile(filepath.Join(dir, "home", ".claude", "agentchat.skill.md"))
			if err != nil || !strings.Contains(string(skill), "Knead the dough") {
				t.Errorf("skill.md at skill.path was not brought up to date (%v)", err)
			}
		})
	}
}

// TestStartCacheKeepsNoFailedCacheSave: likewise for a state file wake
// could not save (tokens.json a directory), which the key leaves out.
func TestStartCacheKeepsNoFailedCacheSave(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	run := startRunner(t, dir, "load", afero.NewOsFs())
	for range 3 {
		run()
	}
	tokens := filepath.Join(dir, ".wake", ".state", "tokens.json")
	if err := os.Remove(tokens); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(tokens, 0o755); err != nil {
		t.Fatal(err)
	}
	said := editAndStart(t, dir, run)
	if !strings.Contains(said, "saving the token cache") {
		t.Fatalf("the start said:\n%s", said)
	}
	if err := os.Remove(tokens); err != nil {
		t.Fatal(err)
	}
	sameAsFresh(t, dir, "load once tokens.json can be written again", run)
}

// swapOnOpen renames repl over target just after the start opens target:
// an editor's atomic save landing as the hook reads CLAUDE.md.
type swapOnOpen struct {
	afero.OsFs
	target, repl string
	armed        *bool
}

func (s swapOnOpen) Open(name string) (afero.File, error) {
	f, err := s.OsFs.Open(name)
	if *s.armed && name == s.target {
		*s.armed = false
		if err := os.Rename(s.repl, s.target); err != nil {
			panic(err)
		}
	}
	return f, err
}

// TestStartCacheFileSwappedAsRead: a Claude Code hook that read CLAUDE.md
// as an editor renamed a new one over it (dropping the boot.md import)
// is not kept: the next start reads the new file.
func TestStartCacheFileSwappedAsRead(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	claudeMD := filepath.Join(dir, "CLAUDE.md")
	if err := os.WriteFile(claudeMD, []byte("# Project\n\n@.wake/boot.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	armed := false
	run := startRunner(t, dir, "claude", swapOnOpen{target: claudeMD, repl: claudeMD + ".new", armed: &armed})
	for range 3 {
		run()
	}
	if err := os.WriteFile(claudeMD, []byte("# Project!\n\n@.wake/boot.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(claudeMD+".new", []byte("# Project, no wake import\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	armed = true
	run()
	if armed {
		t.Fatal("the hook did not open CLAUDE.md")
	}
	sameAsFresh(t, dir, "the hook after CLAUDE.md was swapped as it read it", run)
}

// TestColdEditWithItsTimeSetBack: a cold document rewritten with its size
// kept and its modification time set back (touch -d) is read again: the
// cold index knows it by its change time too, so the listing shows the
// new summary, as a start with no caches at all does.
func TestColdEditWithItsTimeSetBack(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	doc := filepath.Join(dir, ".wake", "cold", "notes.md")
	if err := os.WriteFile(doc, []byte("---\nsummary: Alpha notes about the oven\n---\n# Notes\n\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(doc, old, old); err != nil {
		t.Fatal(err)
	}
	run := startRunner(t, dir, "load", afero.NewOsFs())
	for range 3 {
		run()
	}
	if err := os.WriteFile(doc, []byte("---\nsummary: Omega notes about the oven\n---\n# Notes\n\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(doc, old, old); err != nil {
		t.Fatal(err)
	}
	if out, _ := run(); !strings.Contains(out, "Omega notes") || strings.Contains(out, "Alpha notes") {
		t.Errorf("the load after the edit lists the old summary:\n%s", out)
	}
}

// TestHandEditWithItsTimeSetBack: a tier file and a cold document edited
// by hand with their sizes kept and their modification times set back
// (touch -d) are still found edited: the record of what wake last saw
// holds each file's change time, which no one sets back. A record an
// older wake wrote, with no change time, learns it at the next start.
func TestHandEditWithItsTimeSetBack(t *testing.T) {
	t.Parallel()
	for _, upgraded := range []bool{false, true} {
		t.Run(map[bool]string{false: "fresh", true: "upgraded"}[upgraded], func(t *testing.T) {
			t.Parallel()
			handEditWithItsTimeSetBack(t, upgraded)
		})
	}
}

func handEditWithItsTimeSetBack(t *testing.T, upgraded bool) {
	dir := memoryWithSessions(t)
	state := filepath.Join(dir, ".wake", ".state")
	old := time.Now().Add(-time.Hour)
	tasks := filepath.Join(dir, ".wake", "warm", "active_tasks.md")
	doc := filepath.Join(dir, ".wake", "cold", "notes.md")
	if err := os.WriteFile(doc, []byte("# Notes\n\nAlpha notes about the oven\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{tasks, doc} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	run := startRunner(t, dir, "load", afero.NewOsFs())
	for range 3 {
		run()
	}
	if upgraded {
		// The records as an older wake wrote them: no change time. The
		// new wake's first start builds (its program is not the one the
		// start cache holds) and learns the change times.
		for name, flags := range map[string]int{"seen.tsv": 6, "seen-cold.tsv": 6, "cold-index.tsv": 4} {
			p := filepath.Join(state, name)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for line := range strings.Lines(string(data)) {
				if f := strings.Split(line, "\t"); len(f) > flags {
					f[flags], _, _ = strings.Cut(f[flags], "@")
					if !strings.HasSuffix(f[flags], "\n") && flags == len(f)-1 {
						f[flags] += "\n"
					}
					line = strings.Join(f, "\t")
				}
				b.WriteString(line)
			}
			if b.String() == string(data) {
				t.Fatalf("%s has no change times to take out:\n%s", name, data)
			}
			if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		os.Remove(filepath.Join(state, "start-cache"))
		run()
	}
	edits := func(rel string) int {
		t.Helper()
		ledger, err := os.ReadFile(filepath.Join(dir, ".wake", "ledger.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for line := range strings.Lines(string(ledger)) {
			if strings.Contains(line, `"op":"edit"`) && strings.Contains(line, rel) {
				n++
			}
		}
		return n
	}
	before := map[string]int{"warm/active_tasks.md": edits("warm/active_tasks.md"), "cold/notes.md": edits("cold/notes.md")}
	data, err := os.ReadFile(tasks)
	if err != nil || !strings.Contains(string(data), "- [") {
		t.Fatalf("active_tasks.md: %q %v", data, err)
	}
	sameSize := strings.Replace(string(data), "- [", "* [", 1)
	for p, text := range map[string]string{tasks: sameSize, doc: "# Notes\n\nOmega notes about the oven\n"} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	run()
	for rel, n := range before {
		if edits(rel) != n+1 {
			t.Errorf("%s: %d edits in the ledger after the edit, want %d", rel, edits(rel), n+1)
		}
	}
}

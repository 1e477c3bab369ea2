package wake_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/skill"
	"github.com/wakeproto/wake/tiers"
)

const sharedSkill = "/home/ava/.claude/agentchat.skill.md"

// twoRoots lays out the memory roots /a/.wake and /b/.wake, each handed
// off once with a marker of its own, and returns the options opening them
// and the notices they collect.
func twoRoots(t *testing.T) (afero.Fs, wake.Options, *[]wake.Notice) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	var notices []wake.Notice
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home/ava"}, Locker: &memlock.Locker{},
		Now:    func() time.Time { return time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC) },
		Notify: func(n wake.Notice) { notices = append(notices, n) }}
	for _, p := range []string{"a", "b"} {
		root := "/" + p + "/.wake"
		if _, err := wake.Init(context.Background(), root, skeleton.Params{Agent: "agent-" + p}, o); err != nil {
			t.Fatal(err)
		}
		m := open(t, root, o)
		sum, next := "memory-of-"+p, "next-of-"+p
		in, err := (&handoff.Fields{Summary: &sum, Next: &next}).Over(handoff.Input{})
		if err != nil {
			t.Fatal(err)
		}
		// The hand-off writes no skill.md yet: which root loads first is
		// the test's to choose.
		if _, err := m.Handoff(context.Background(), in, wake.BootFiles{NoSkill: true}); err != nil {
			t.Fatal(err)
		}
	}
	return fsys, o, &notices
}

func open(t *testing.T, root string, o wake.Options) *wake.Memory {
	t.Helper()
	m, err := wake.Open(root, o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func start(t *testing.T, root string, o wake.Options, w wake.BootFiles) boot.HookTarget {
	t.Helper()
	st, err := open(t, root, o).Start(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	return st.Target
}

func read(t *testing.T, fsys afero.Fs, name string) string {
	t.Helper()
	data, err := afero.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// said counts the notices saying the shared skill.md is another root's.
func said(notices []wake.Notice) int {
	n := 0
	for _, x := range notices {
		if strings.Contains(x.Msg, "is the skill.md of another memory root") {
			n++
		}
	}
	return n
}

// TestNoCrossTalk: loading project B never changes the shared skill.md
// that names project A; B's own copy, which B's CLAUDE.md imports in
// skill mode, holds B's memory alone; B says once that it left A's file,
// and takes it over only when A is gone or B is told to.
func TestNoCrossTalk(t *testing.T) {
	t.Parallel()
	fsys, o, notices := twoRoots(t)
	ta := start(t, "/a/.wake", o, wake.BootFiles{})
	if ta.Shared.Whose != boot.WhoseThis || !ta.Shared.Changed || ta.SkillPath != "/a/.wake/skill.md" {
		t.Fatalf("A's start: %+v", ta)
	}
	aShared := read(t, fsys, sharedSkill)
	if skill.MarkerRoot([]byte(aShared)) != "/a/.wake" || !strings.Contains(aShared, "memory-of-a") {
		t.Fatalf("the shared file after A's start:\n%s", aShared)
	}

	for i := range 3 {
		tb := start(t, "/b/.wake", o, wake.BootFiles{})
		if got := read(t, fsys, sharedSkill); got != aShared {
			t.Fatalf("B's start %d changed the shared file that names A:\n%s", i, got)
		}
		if tb.Shared.Whose != boot.WhoseOther || tb.Shared.Owner != "/a/.wake" || tb.Shared.Changed || len(tb.Problems) != 0 {
			t.Fatalf("B's start %d: %+v", i, tb)
		}
	}
	own := read(t, fsys, "/b/.wake/skill.md")
	if !strings.Contains(own, "memory-of-b") || strings.Contains(own, "memory-of-a") || skill.MarkerRoot([]byte(own)) != "." { // its own directory, portable
		t.Fatalf("B's own skill.md:\n%s", own)
	}
	if n := said(*notices); n != 1 {
		t.Fatalf("B said %d times that it left A's file, want once: %+v", n, *notices)
	}
	if !strings.Contains((*notices)[len(*notices)-1].Hint, "wake skill --write --force-skill") {
		t.Errorf("the notice does not say how to take the file over: %+v", (*notices)[len(*notices)-1])
	}

	// B's hand-off leaves it too; A's start keeps it A's, up to date.
	sum, next := "more-of-b", "n"
	in, _ := (&handoff.Fields{Summary: &sum, Next: &next}).Over(handoff.Input{})
	if res, err := open(t, "/b/.wake", o).Handoff(context.Background(), in, wake.BootFiles{}); err != nil || res.Boot.Shared.Whose != boot.WhoseOther {
		t.Fatalf("B's hand-off: %+v %v", res.Boot, err)
	}
	if read(t, fsys, sharedSkill) != aShared || !strings.Contains(read(t, fsys, "/b/.wake/skill.md"), "more-of-b") {
		t.Fatal("B's hand-off changed the shared file, or not its own")
	}
	if ta := start(t, "/a/.wake", o, wake.BootFiles{}); ta.Shared.Whose != boot.WhoseThis || ta.Shared.Changed {
		t.Fatalf("A's second start: %+v", ta.Shared)
	}

	// The listing says whose each file is.
	files, err := open(t, "/b/.wake", o).SkillFiles()
	if err != nil || len(files) != 2 || files[0].Whose != boot.WhoseThis || files[0].Shared ||
		files[1].Path != sharedSkill || files[1].Whose != boot.WhoseOther || files[1].Owner != "/a/.wake" {
		t.Fatalf("B's skill files: %+v %v", files, err)
	}

	// Forced, B takes it over; A then leaves it, and says so once.
	if tb := start(t, "/b/.wake", o, wake.BootFiles{ForceSkill: true}); tb.Shared.Whose != boot.WhoseThis || !tb.Shared.Changed {
		t.Fatalf("B forced: %+v", tb.Shared)
	}
	bShared := read(t, fsys, sharedSkill)
	if skill.MarkerRoot([]byte(bShared)) != "/b/.wake" || strings.Contains(bShared, "memory-of-a") {
		t.Fatalf("the shared file after B took it over:\n%s", bShared)
	}
	for range 2 {
		if ta := start(t, "/a/.wake", o, wake.BootFiles{}); ta.Shared.Whose != boot.WhoseOther || read(t, fsys, sharedSkill) != bShared {
			t.Fatalf("A replaced B's file: %+v", ta.Shared)
		}
	}
	if n := said(*notices); n != 2 {
		t.Fatalf("%d notices, want one from B and one from A", n)
	}

	// B is gone: A takes its file over without being told to.
	if err := fsys.RemoveAll("/b"); err != nil {
		t.Fatal(err)
	}
	if ta := start(t, "/a/.wake", o, wake.BootFiles{}); ta.Shared.Whose != boot.WhoseThis || !ta.Shared.Changed {
		t.Fatalf("A after B is gone: %+v", ta.Shared)
	}
	if skill.MarkerRoot([]byte(read(t, fsys, sharedSkill))) != "/a/.wake" {
		t.Fatal("A did not take over the file of a root that is gone")
	}
}

// TestWriteSkills: `wake skill --write` writes the root's files as a start
// does, and with force takes the shared one over.
func TestWriteSkills(t *testing.T) {
	t.Parallel()
	fsys, o, _ := twoRoots(t)
	start(t, "/a/.wake", o, wake.BootFiles{})
	aShared := read(t, fsys, sharedSkill)
	files, problems, err := open(t, "/b/.wake", o).WriteSkills(context.Background(), false)
	if err != nil || len(problems) != 0 || len(files) != 2 || !files[0].Changed || files[1].Changed || files[1].Whose != boot.WhoseOther {
		t.Fatalf("%+v %v %v", files, problems, err)
	}
	if read(t, fsys, sharedSkill) != aShared {
		t.Fatal("--write without force replaced A's file")
	}
	files, _, err = open(t, "/b/.wake", o).WriteSkills(context.Background(), true)
	if err != nil || files[0].Changed || !files[1].Changed || files[1].Whose != boot.WhoseThis {
		t.Fatalf("forced: %+v %v", files, err)
	}
}

// TestSkillModeNeedsNoSharedFile: with boot = "skill" and skill.path = ""
// the root's own copy is still written, since the project imports it; with
// boot = "full" and skill.path = "" nothing is.
func TestSkillModeNeedsNoSharedFile(t *testing.T) {
	t.Parallel()
	fsys, o, _ := twoRoots(t)
	afero.WriteFile(fsys, "/a/.wake/wake.toml", []byte("[skill]\npath = \"\"\n[claude]\nboot = \"skill\"\n"), 0o644)
	ta := start(t, "/a/.wake", o, wake.BootFiles{})
	if ta.SkillPath != "/a/.wake/skill.md" || !ta.SkillImported || ta.Shared.Path != "" || ta.BootPath != "" {
		t.Fatalf("%+v", ta)
	}
	if ok, _ := afero.Exists(fsys, sharedSkill); ok {
		t.Fatal("skill.path = \"\" wrote the shared file")
	}
	afero.WriteFile(fsys, "/b/.wake/wake.toml", []byte("[skill]\npath = \"\"\n"), 0o644)
	if tb := start(t, "/b/.wake", o, wake.BootFiles{}); tb.SkillPath != "" {
		t.Fatalf("%+v", tb)
	}
	if ok, _ := afero.Exists(fsys, "/b/.wake/skill.md"); ok {
		t.Fatal("skill.md written with skill.path = \"\" in full mode")
	}
}

// TestSharedSkillSameRootByLink: the shared file names the root by the
// path it was opened with; the same root opened through a symlink is
// still its owner.
func TestSharedSkillSameRootByLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	o := wake.Options{Env: map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config")}}
	root := filepath.Join(dir, "a", tiers.DefaultDirName)
	if _, err := wake.Init(context.Background(), root, skeleton.Params{Agent: "Ava"}, o); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "link")); err != nil {
		t.Skip(err)
	}
	start(t, root, o, wake.BootFiles{})
	linked := filepath.Join(dir, "link", tiers.DefaultDirName)
	tl := start(t, linked, o, wake.BootFiles{})
	if tl.Shared.Whose != boot.WhoseThis {
		t.Fatalf("the root through a symlink: %+v", tl.Shared)
	}
}

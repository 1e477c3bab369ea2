package wake_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/capsule"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
)

// capsuleProject is a git work tree with a committed src/app.go and a
// memory root in .wake; it returns the project, the open memory and git.
func capsuleProject(t *testing.T) (string, *wake.Memory, func(args ...string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	home := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=feature/capsules"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "app.go"), []byte("package app\n"), 0o644)
	git("add", "-A")
	git("commit", "-qm", "first")
	now := time.Date(2026, 11, 22, 22, 30, 0, 0, time.UTC)
	o := wake.Options{Env: map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}, Now: func() time.Time { return now }}
	root := filepath.Join(dir, ".wake")
	if _, err := wake.Init(context.Background(), root, skeleton.Params{Agent: "Ava"}, o); err != nil {
		t.Fatal(err)
	}
	m, err := wake.Open(root, o)
	if err != nil {
		t.Fatal(err)
	}
	return dir, m, git
}

func ledgerOps(t *testing.T, root string) []string {
	t.Helper()
	es, _, err := store.ReadLedger(afero.NewOsFs(), root)
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, e := range es {
		ops = append(ops, e.Op)
	}
	return ops
}

// TestCapsuleRoundTrip: prompt --stub, fill, verify ok (the hashes
// recorded, the body untouched), verify again (unchanged), edit and remove
// named files, verify reports the drift of each.
func TestCapsuleRoundTrip(t *testing.T) {
	dir, m, git := capsuleProject(t)
	ctx := context.Background()
	os.WriteFile(filepath.Join(dir, "NOTES.md"), []byte("notes\n"), 0o644)
	p, err := m.CapsulePrompt(ctx, wake.CapsulePromptOptions{Session: "s-1", Stub: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "cold/capsules/feature/capsules/20261122T223000Z.md"
	if !p.Stubbed || p.Path != want || p.Shown != ".wake/"+want || p.Front.Branch != "feature/capsules" || p.Git.Changed != 2 || !strings.Contains(p.Git.LastCommit, "first") {
		t.Fatalf("prompt: %+v", p)
	}
	for _, s := range []string{"File:    .wake/" + want + " (it is there", "- .wake/main.md:", "- .wake/warm/inbox.md: the remember-later inbox (no open reminders)",
		"2 changed file(s)", "Then run: wake capsule verify .wake/" + want} {
		if !strings.Contains(p.Text, s) {
			t.Errorf("the prompt lacks %q:\n%s", s, p.Text)
		}
	}
	name := filepath.Join(m.Root(), filepath.FromSlash(want))
	// A second stub at the same path is refused; at the default path it
	// takes the second of the second.
	if _, err := m.CapsulePrompt(ctx, wake.CapsulePromptOptions{File: name, Stub: true}); !isPathError(err, "exists") {
		t.Fatalf("second stub at the same path: %v", err)
	}
	if p2, err := m.CapsulePrompt(ctx, wake.CapsulePromptOptions{Stub: true}); err != nil || !strings.HasSuffix(p2.Path, "Z-2.md") {
		t.Fatalf("second default stub: %+v %v", p2, err)
	}

	v, err := m.VerifyCapsule(ctx, name)
	if err != nil || v.OK() || v.Recorded {
		t.Fatalf("the stub verified: %+v %v", v, err)
	}
	head := git("rev-parse", "HEAD") // the full hash: a short one may be all digits
	filled := strings.Replace(string(capsule.Stub(p.Front)), `primary_objective: ""`, `primary_objective: "Ship verify"`, 1)
	for _, title := range capsule.Outline {
		body := "- Nothing pending."
		switch title {
		case capsule.KnowledgeBase:
			body = "- `src/app.go`, the [notes](NOTES.md) and `main.md` (the root's)."
		case capsule.TranscriptHighlights:
			body = "- " + head + ": the first commit."
		}
		filled = strings.Replace(filled, "# "+title+"\n", "# "+title+"\n"+body+"\n", 1)
	}
	os.WriteFile(name, []byte(filled), 0o644)
	v, err = m.VerifyCapsule(ctx, name)
	if err != nil || !v.OK() || !v.Recorded || len(v.Files) != 3 || len(v.Commits) != 1 {
		t.Fatalf("verify of the filled capsule: %+v %v", v, err)
	}
	after, _ := os.ReadFile(name)
	i := strings.Index(filled, "\n---\n") + 5
	j := bytes.Index(after[4:], []byte("\n---\n")) + 4 + 5
	if string(after[j:]) != filled[i:] || !strings.Contains(string(after[:j]), "  src/app.go: ") {
		t.Fatalf("the record changed the body or is missing:\n%s", after)
	}
	if ops := ledgerOps(t, m.Root()); !strings.Contains(strings.Join(ops, " "), "capsule-stub capsule-stub capsule-verify") {
		t.Fatalf("ledger ops %v", ops)
	}

	v, err = m.VerifyCapsule(ctx, name)
	if err != nil || !v.OK() || v.Recorded {
		t.Fatalf("second verify: %+v %v", v, err)
	}
	os.WriteFile(filepath.Join(dir, "src", "app.go"), []byte("package app // edited\n"), 0o644)
	os.Remove(filepath.Join(dir, "NOTES.md"))
	v, err = m.VerifyCapsule(ctx, name)
	if err != nil || v.OK() {
		t.Fatalf("verify after the edit: %+v %v", v, err)
	}
	states := map[string]string{}
	for _, f := range v.Files {
		states[f.Path] = f.State
	}
	if states["src/app.go"] != wake.FileChanged || states["NOTES.md"] != wake.FileMissing || states["main.md"] != wake.FileUnchanged {
		t.Fatalf("drift: %+v", v.Files)
	}
	drift := 0
	for _, f := range v.Findings {
		if f.Kind == capsule.FindDrift {
			drift++
		}
	}
	if drift != 2 || len(v.Findings) != 2 {
		t.Fatalf("findings: %+v", v.Findings)
	}
}

func isPathError(err error, reason string) bool {
	var pe *wake.CapsulePathError
	return errors.As(err, &pe) && strings.Contains(pe.Reason, reason)
}

// TestCapsulePathsRefused: a capsule path outside the root, outside cold/,
// not .md, or through a symlink is refused, for the prompt and verify
// alike, and nothing is written.
func TestCapsulePathsRefused(t *testing.T) {
	dir, m, _ := capsuleProject(t)
	ctx := context.Background()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(m.Root(), "cold", "link")); err != nil {
		t.Skip("no symlinks here")
	}
	cases := map[string]string{
		filepath.Join(dir, "capsule.md"):                            "outside the memory root",
		filepath.Join(m.Root(), "cold", "..", "..", "x.md"):         "outside the memory root",
		filepath.Join(m.Root(), "main.md"):                          "not under cold/",
		filepath.Join(m.Root(), "cold", "capsules", "x.txt"):        "not a .md file",
		filepath.Join(m.Root(), "cold", "link", "capsules", "x.md"): "symlink",
	}
	for file, reason := range cases {
		if _, err := m.CapsulePrompt(ctx, wake.CapsulePromptOptions{File: file, Stub: true}); !isPathError(err, reason) {
			t.Errorf("prompt --file %s: %v, want %q", file, err, reason)
		}
		if _, err := m.VerifyCapsule(ctx, file); !isPathError(err, reason) {
			t.Errorf("verify %s: %v, want %q", file, err, reason)
		}
	}
	if names, _ := os.ReadDir(outside); len(names) != 0 {
		t.Fatalf("written through the symlink: %v", names)
	}
}

// TestVerifyCapsuleArtifacts: a path that does not exist, one outside the
// project, and a commit git does not have are each a finding at its line;
// a malformed file is an error naming its line.
func TestVerifyCapsuleArtifacts(t *testing.T) {
	_, m, _ := capsuleProject(t)
	ctx := context.Background()
	p, err := m.CapsulePrompt(ctx, wake.CapsulePromptOptions{Stub: true})
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(m.Root(), filepath.FromSlash(p.Path))
	filled := strings.Replace(string(capsule.Stub(p.Front)), `primary_objective: ""`, `primary_objective: "x"`, 1)
	for _, title := range capsule.Outline {
		filled = strings.Replace(filled, "# "+title+"\n", "# "+title+"\n- 2026-11-22T22:00Z nothing\n", 1)
	}
	kb := "# " + capsule.KnowledgeBase + "\n"
	filled = strings.Replace(filled, kb, kb+"- `src/gone.go`\n- `../../etc/passwd.txt`\n- commit `abc1234def`\n", 1)
	os.WriteFile(name, []byte(filled), 0o644)
	v, err := m.VerifyCapsule(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Count(filled[:strings.Index(filled, kb)], "\n") + 2
	want := map[string]int{"path:src/gone.go": line, "path:../../etc/passwd.txt": line + 1, "commit:abc1234def": line + 2}
	for _, f := range v.Findings {
		key := f.Kind + ":" + f.Subject
		if want[key] != f.Line {
			t.Errorf("unexpected finding %+v", f)
		}
		delete(want, key)
	}
	if len(want) > 0 || v.Recorded {
		t.Fatalf("missing findings %v (recorded %v)", want, v.Recorded)
	}
	os.WriteFile(name, []byte("---\nbranch: [\n---\n"), 0o644)
	var me *wake.CapsuleMalformedError
	if _, err := m.VerifyCapsule(ctx, name); !errors.As(err, &me) || me.Line != 2 {
		t.Fatalf("malformed: %v", err)
	}
}

// TestCapsulePromptScrubbed: a secret in what the prompt quotes (the last
// commit's subject) leaves wake redacted.
func TestCapsulePromptScrubbed(t *testing.T) {
	dir, m, git := capsuleProject(t)
	token := "ghp_x9Kq2Lm7Rt4Vb8Nz1Pw6Hs3Jd5Fg0Yc2Ue7Ia"
	os.WriteFile(filepath.Join(dir, "src", "app.go"), []byte("package app // 2\n"), 0o644)
	git("commit", "-qam", "rotate "+token)
	p, err := m.CapsulePrompt(context.Background(), wake.CapsulePromptOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Text, token) || !strings.Contains(p.Text, "rotate [redacted:") || strings.Contains(p.Git.LastCommit, token) {
		t.Fatalf("the prompt is not scrubbed:\n%s", p.Text)
	}
}

// TestVerifyBuiltCapsule: a capsule wake capsule builds passes verify,
// which records the decision log it cites.
func TestVerifyBuiltCapsule(t *testing.T) {
	dir, m, git := capsuleProject(t)
	ctx := context.Background()
	if _, err := m.Decide(ctx, store.NewDecision{What: "Use YAML front matter", Why: "it is what the format reads"}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "src", "app.go"), []byte("package app // 2\n"), 0o644)
	git("commit", "-qam", "second")
	w, err := m.Capsule(ctx, wake.CapsuleOptions{Objective: "Check the built capsule"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.VerifyCapsule(ctx, filepath.Join(m.Root(), filepath.FromSlash(w.Path)))
	if err != nil || !v.OK() {
		t.Fatalf("verify of a built capsule: %+v %v\n%s", v, err, w.Data)
	}
	if !v.Recorded || len(v.Files) == 0 || v.Files[0].Path != "warm/decisions.md" {
		t.Fatalf("files: %+v\n%s", v.Files, w.Data)
	}
}

// TestVerifyCapsuleTooLarge: verify does not read a file far larger than
// any capsule.
func TestVerifyCapsuleTooLarge(t *testing.T) {
	_, m, _ := capsuleProject(t)
	name := filepath.Join(m.Root(), "cold", "capsules", "big.md")
	os.MkdirAll(filepath.Dir(name), 0o755)
	os.WriteFile(name, bytes.Repeat([]byte("x"), 1<<20+1), 0o644)
	if _, err := m.VerifyCapsule(context.Background(), name); !isPathError(err, "too large") {
		t.Fatalf("verify of a huge file: %v", err)
	}
}

// TestVerifyCapsuleSymlinkOutside: a path inside the project by its text
// that reaches outside it through a symlink is outside, a finding; verify
// neither hashes nor records the file it leads to.
func TestVerifyCapsuleSymlinkOutside(t *testing.T) {
	dir, m, _ := capsuleProject(t)
	ctx := context.Background()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("not the project's\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "src", "elsewhere")); err != nil {
		t.Skip("no symlinks here")
	}
	p, err := m.CapsulePrompt(ctx, wake.CapsulePromptOptions{Stub: true})
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(m.Root(), filepath.FromSlash(p.Path))
	filled := strings.Replace(string(capsule.Stub(p.Front)), `primary_objective: ""`, `primary_objective: "x"`, 1)
	for _, title := range capsule.Outline {
		filled = strings.Replace(filled, "# "+title+"\n", "# "+title+"\n- 2026-11-22T22:00Z nothing\n", 1)
	}
	kb := "# " + capsule.KnowledgeBase + "\n"
	filled = strings.Replace(filled, kb, kb+"- `src/elsewhere/secret.txt`\n- `src/app.go`\n", 1)
	os.WriteFile(name, []byte(filled), 0o644)
	v, err := m.VerifyCapsule(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range v.Findings {
		if f.Kind == capsule.FindPath && f.Subject == "src/elsewhere/secret.txt" && strings.Contains(f.Message, "outside") {
			found = true
		}
	}
	for _, f := range v.Files {
		if f.Path == "src/elsewhere/secret.txt" {
			t.Errorf("the file outside was hashed: %+v", f)
		}
	}
	if !found || v.Recorded {
		t.Fatalf("want a path finding for the symlink out, nothing recorded: %+v", v)
	}
	data, _ := os.ReadFile(name)
	if strings.Contains(string(data), "secret.txt:") {
		t.Fatalf("the hash of the file outside was recorded:\n%s", data)
	}
}

// TestCapsuleConsumeFailsLeavesNothing: when the capsule's reminders
// cannot be marked consumed (here the inbox is a symlink inside the root,
// which the reading for the capsule follows and the writer refuses), the
// command fails and leaves no capsule behind: no file without a ledger
// line, none more at each retry.
func TestCapsuleConsumeFailsLeavesNothing(t *testing.T) {
	_, m, _ := capsuleProject(t)
	ctx := context.Background()
	root := m.Root()
	os.MkdirAll(filepath.Join(root, "cold", "notes"), 0o755)
	os.WriteFile(filepath.Join(root, "cold", "notes", "inbox.md"), []byte("# Remember later\n\n## 1 · 2026-11-22T22:00:00Z\n- reminder: an open one\n"), 0o644)
	if err := os.Symlink("../cold/notes/inbox.md", filepath.Join(root, "warm", "inbox.md")); err != nil {
		t.Skip("no symlinks here")
	}
	before := ledgerOps(t, root)
	for i := 0; i < 2; i++ {
		if _, err := m.Capsule(ctx, wake.CapsuleOptions{Objective: "x", Consume: true}); err == nil {
			t.Fatal("the capsule was written though its reminder could not be consumed")
		}
	}
	var left []string
	filepath.WalkDir(filepath.Join(root, "cold", "capsules"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("capsules left behind without a ledger line: %v", left)
	}
	if after := ledgerOps(t, root); len(after) != len(before) {
		t.Errorf("ledger %v, was %v", after, before)
	}
}

// TestCapsuleLedgerFailsLeavesNothing: when the ledger line cannot be
// written, the capsule goes again and its reminders stay open: a failed
// `wake capsule` changes nothing the ledger does not tell.
func TestCapsuleLedgerFailsLeavesNothing(t *testing.T) {
	_, m, _ := capsuleProject(t)
	ctx := context.Background()
	root := m.Root()
	if _, err := m.Remember(ctx, store.NewReminder{Text: "an open one"}); err != nil {
		t.Fatal(err)
	}
	inbox, _ := os.ReadFile(filepath.Join(root, "warm", "inbox.md"))
	ledger := filepath.Join(root, "ledger.jsonl")
	os.Rename(ledger, ledger+".keep")
	os.Mkdir(ledger, 0o755) // AppendLedger fails: a directory
	if _, err := m.Capsule(ctx, wake.CapsuleOptions{Objective: "x", Consume: true}); err == nil {
		t.Fatal("the capsule succeeded without its ledger line")
	}
	os.Remove(ledger)
	os.Rename(ledger+".keep", ledger)
	if now, _ := os.ReadFile(filepath.Join(root, "warm", "inbox.md")); string(now) != string(inbox) {
		t.Errorf("the inbox changed without a ledger line:\n%s", now)
	}
	filepath.WalkDir(filepath.Join(root, "cold", "capsules"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("capsule left without a ledger line: %s", p)
		}
		return nil
	})
}

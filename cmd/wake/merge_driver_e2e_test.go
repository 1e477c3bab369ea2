package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// gitTeam is a bare remote and its clones, each a project with a
// committed .wake/, run with the built wake and real git, with no user or
// system git configuration and a home of its own.
type gitTeam struct {
	t    *testing.T
	dir  string
	env  []string
	wake string
}

func newGitTeam(t *testing.T) *gitTeam {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_GLOBAL=" + filepath.Join(home, "gitconfig"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=Ava", "GIT_AUTHOR_EMAIL=ava@example.com",
		"GIT_COMMITTER_NAME=Ava", "GIT_COMMITTER_EMAIL=ava@example.com", "GIT_TERMINAL_PROMPT=0"}
	return &gitTeam{t: t, dir: dir, env: env, wake: wakeBinary(t)}
}

// run runs name in the clone (or directory) dir and fails the test when
// it fails; it returns stdout and stderr.
func (g *gitTeam) run(dir, name string, args ...string) (string, string) {
	g.t.Helper()
	out, errOut, err := g.try(dir, name, args...)
	if err != nil {
		g.t.Fatalf("%s %s in %s: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(name), strings.Join(args, " "), filepath.Base(dir), err, out, errOut)
	}
	return out, errOut
}

func (g *gitTeam) try(dir, name string, args ...string) (string, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if name == "wake" {
		name = g.wake
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = filepath.Join(g.dir, dir), g.env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	return out.String(), errOut.String(), err
}

// commit commits everything in the clone.
func (g *gitTeam) commit(dir, msg string) {
	g.t.Helper()
	g.run(dir, "git", "add", "-A")
	g.run(dir, "git", "commit", "-q", "-m", msg)
}

func (g *gitTeam) read(dir, rel string) string {
	g.t.Helper()
	data, err := os.ReadFile(filepath.Join(g.dir, dir, ".wake", filepath.FromSlash(rel)))
	if err != nil {
		g.t.Fatal(err)
	}
	return string(data)
}

// nextSecond waits for the clock's next second: two clones' hand-offs
// within one second would name one session file twice.
func nextSecond() {
	now := time.Now()
	time.Sleep(now.Truncate(time.Second).Add(time.Second + 10*time.Millisecond).Sub(now))
}

// TestMergeDriverTwoClones: two clones of a project with a committed
// .wake/ each decide, reverse the same decision differently, remember,
// close a reminder and hand off, a commit after each; git merges them
// through the driver 'wake init' configured: no conflict, no marker, every
// decision and ledger line of both sides, the double reversal contested;
// then the same by git pull --rebase.
// A clone without the driver is told so once.
func TestMergeDriverTwoClones(t *testing.T) {
	t.Parallel()
	g := newGitTeam(t)
	g.run("", "git", "init", "-q", "--bare", "-b", "main", "remote.git")
	g.run("", "git", "clone", "-q", "remote.git", "a")
	out, _ := g.run("a", "wake", "init")
	if !strings.Contains(out, "Git merge driver configured") {
		t.Fatalf("wake init set up no driver:\n%s", out)
	}
	if !strings.Contains(g.read("a", ".gitattributes"), "/warm/decisions.md merge=wake") {
		t.Fatal(".gitattributes")
	}
	out, _ = g.run("a", "wake", "decide", "Use Go", "--because", "fast")
	id := decisionID(t, out)
	g.run("a", "wake", "remember", "check the build")
	g.run("a", "wake", "handoff", "--summary", "first", "--next", "build")
	g.commit("a", "memory")
	g.run("a", "git", "push", "-q", "origin", "HEAD:main")

	// A fresh clone: the driver is missing, and a command says so once.
	g.run("", "git", "clone", "-q", "remote.git", "b")
	_, errOut := g.run("b", "wake", "decisions")
	if !strings.Contains(errOut, "no wake merge driver configured") {
		t.Errorf("no notice in a clone without the driver:\n%s", errOut)
	}
	if _, errOut = g.run("b", "wake", "decisions"); strings.Contains(errOut, "merge driver") {
		t.Errorf("the notice again:\n%s", errOut)
	}
	out, _ = g.run("b", "wake", "init")
	if !strings.Contains(out, "Nothing was missing") || !strings.Contains(out, "Git merge driver configured") {
		t.Errorf("wake init in a clone:\n%s", out)
	}
	if st, _ := g.run("b", "git", "status", "--porcelain"); st != "" {
		t.Errorf("wake init in a clone changed files:\n%s", st)
	}
	if out, _ = g.run("b", "wake", "init"); !strings.Contains(out, "already configured") {
		t.Errorf("wake init again:\n%s", out)
	}

	g.run("a", "wake", "reverse", id, "--by", "Use Rust", "--because", "safer")
	g.commit("a", "a: reverse")
	g.run("a", "wake", "remember", "a reminder")
	g.run("a", "wake", "remember", "done", "1", "--because", "built")
	g.commit("a", "a: remember")
	g.run("a", "wake", "handoff", "--summary", "a side", "--next", "a next")
	g.commit("a", "a: handoff")
	g.run("a", "git", "push", "-q", "origin", "HEAD:main")

	g.run("b", "wake", "reverse", id, "--by", "Use Zig", "--because", "smaller")
	g.commit("b", "b: reverse")
	g.run("b", "wake", "remember", "b reminder")
	g.commit("b", "b: remember")
	g.run("b", "wake", "decide", "Use SQLite", "--because", "one file")
	g.commit("b", "b: decide")
	nextSecond()
	g.run("b", "wake", "handoff", "--summary", "b side", "--next", "b next")
	g.commit("b", "b: handoff")

	ledgers := g.read("a", "ledger.jsonl") + g.read("b", "ledger.jsonl")
	decisionsA, decisionsB := tiers.ParseDecisions([]byte(g.read("a", tiers.DecisionsPath))), tiers.ParseDecisions([]byte(g.read("b", tiers.DecisionsPath)))
	g.run("b", "git", "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
	g.checkMerged("b", ledgers, id, decisionsA, decisionsB)
	if !strings.Contains(g.read("b", tiers.LatestPath), "summary: b side") {
		t.Errorf("recent/latest.md is not the newer session")
	}
	g.checkSettled("b", "a side", "b side")

	// The same two branches rebased instead, by git pull --rebase: no
	// stop at any of the four commits replayed.
	g.run("b", "git", "reset", "-q", "--hard", "HEAD^1")
	g.run("b", "git", "pull", "-q", "--rebase", "origin", "main")
	g.checkMerged("b", ledgers, id, decisionsA, decisionsB)
	// A rebase replays b's commits onto a's: what arrived is still a's.
	g.checkSettled("b", "a side", "b side")
	if n, _ := g.run("b", "git", "rev-list", "--count", "origin/main..HEAD"); strings.TrimSpace(n) != "4" {
		t.Errorf("%s commits replayed, want 4", strings.TrimSpace(n))
	}
}

// checkSettled checks the first wake command after a merge: it settles
// it (one merge ledger line, nothing taken for an edit by hand), the boot
// context names the session that arrived, and wake check finds nothing
// deleted or edited by hand.
func (g *gitTeam) checkSettled(dir, arrived, own string) {
	t := g.t
	t.Helper()
	out, errOut := g.run(dir, "wake", "load")
	if !strings.Contains(errOut, "settled the merge of") {
		t.Errorf("the first start after the merge did not settle it:\n%s", errOut)
	}
	_, list, _ := strings.Cut(out, "Arrived with a merge of another branch")
	list, _, _ = strings.Cut(list, "\n\n")
	list += "\n"
	if !strings.Contains(list, ": "+arrived+"\n") || strings.Contains(list, ": "+own+"\n") {
		t.Errorf("the boot context does not name the session that arrived (%q), or names its own (%q):\n%s", arrived, own, out)
	}
	ledger := g.read(dir, "ledger.jsonl")
	if strings.Count(ledger, `"op":"merge"`) != 1 || strings.Contains(ledger, `"op":"edit"`) {
		t.Errorf("want one merge line and no edit line:\n%s", ledger)
	}
	check, _, _ := g.try(dir, "wake", "check")
	if strings.Contains(check, "by hand") {
		t.Errorf("wake check after the merge:\n%s", check)
	}
}

// checkMerged checks the clone's memory after a merge.
func (g *gitTeam) checkMerged(dir, ledgers, id string, logs ...tiers.DecisionLog) {
	t := g.t
	t.Helper()
	for _, rel := range []string{"ledger.jsonl", tiers.DecisionsPath, tiers.InboxPath, tiers.LatestPath, tiers.PreviousPath, tiers.MainPath} {
		if text := g.read(dir, rel); strings.Contains(text, "<<<<<<<") || strings.Contains(text, ">>>>>>>") {
			t.Errorf("%s: conflict markers:\n%s", rel, text)
		}
	}
	ledger := g.read(dir, "ledger.jsonl")
	for _, l := range strings.Split(strings.TrimSpace(ledgers), "\n") {
		if !strings.Contains(ledger, l) {
			t.Errorf("ledger line lost: %s", l)
		}
	}
	merged := tiers.ParseDecisions([]byte(g.read(dir, tiers.DecisionsPath)))
	for _, l := range logs {
		for _, e := range l.Entries {
			if len(merged.ByID(e.ID)) == 0 {
				t.Errorf("decision %s lost", e.ID)
			}
		}
	}
	if es := merged.ByID(id); len(es) != 1 || es[0].Status != tiers.StatusContested || len(es[0].Values(tiers.KeyReversedBy)) != 2 {
		t.Errorf("the decision reversed twice is not contested with both reversals:\n%s", g.read(dir, tiers.DecisionsPath))
	}
	inbox, err := tiers.ParseInbox([]byte(g.read(dir, tiers.InboxPath)))
	if err != nil || len(inbox.Reminders) != 3 || len(inbox.Open()) != 2 {
		t.Errorf("inbox (%v):\n%s", err, g.read(dir, tiers.InboxPath))
	}
	if main := g.read(dir, tiers.MainPath); strings.Count(main, "## HANDOFF") != 1 || !strings.Contains(main, "session_summary: b side") {
		t.Errorf("main.md's HANDOFF block:\n%s", main)
	}
}

// decisionID reads the id 'wake decide' printed.
func decisionID(t *testing.T, out string) string {
	t.Helper()
	_, rest, ok := strings.Cut(out, "(id ")
	id, _, ok2 := strings.Cut(rest, ")")
	if !ok || !ok2 {
		t.Fatalf("no id in %q", out)
	}
	return id
}

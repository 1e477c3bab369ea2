package wake_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// TestSessionThroughTheAPI drives a whole session through the library
// alone, as a second front end (an MCP server) would: init, open, start,
// decide, pull, hand-off, and the next session's start and check, on an
// in-memory file system, with no command line anywhere.
func TestSessionThroughTheAPI(t *testing.T) {
	fsys := afero.NewMemMapFs()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	var notices []wake.Notice
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home/ava"}, Now: func() time.Time { return now },
		Locker: &memlock.Locker{}, Notify: func(n wake.Notice) {
			if n.Kind != "note" { // the first-time notes of writes outside the root
				notices = append(notices, n)
			}
		}}
	ctx := context.Background()
	if _, err := wake.Init(ctx, "/p/.wake", skeleton.Params{Agent: "Ava", Project: "bakery"}, o); err != nil {
		t.Fatal(err)
	}
	main, _ := afero.ReadFile(fsys, "/p/.wake/main.md")
	afero.WriteFile(fsys, "/p/.wake/main.md", []byte(strings.Replace(string(main), "## Purpose\n", "## Purpose\nKeep the books of a bakery.\n", 1)), 0o644)
	afero.WriteFile(fsys, "/p/.wake/cold/notes/vat.md", []byte("---\nsummary: VAT rates\n---\n# VAT\n\nBread is taxed at 7%.\n"), 0o644)

	afero.WriteFile(fsys, "/p/sub/x", nil, 0o644)
	root, err := wake.Find(fsys, "", "", "/p/sub")
	if err != nil || root != "/p/.wake" {
		t.Fatalf("Find: %q %v", root, err)
	}
	m, err := wake.Open(root, o)
	if err != nil {
		t.Fatal(err)
	}
	st, err := m.Start(ctx, wake.BootFiles{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(st.Text, "First session. No prior context. Starting fresh.") || st.Target.SkillPath != "/p/.wake/skill.md" || st.Target.Shared.Path != "/home/ava/.claude/agentchat.skill.md" {
		t.Fatalf("first start:\n%.300s\n%+v", st.Text, st.Target)
	}
	if _, err := m.Decide(ctx, store.NewDecision{What: "Round VAT per line", Why: "the tax office does", Topic: "vat"}); err != nil {
		t.Fatal(err)
	}
	p, err := m.Pull(ctx, "notes/vat.md")
	if err != nil || !p.Whole || !strings.Contains(p.Text, "taxed at 7%") {
		t.Fatalf("pull: %+v %v", p, err)
	}
	now = now.Add(2 * time.Hour)
	// The hand-off part by part, as a tool's arguments would give it.
	summary, focus := "Set up VAT rounding", "Import the bank CSV"
	f := handoff.Fields{Summary: &summary, Next: &focus}
	if _, err := f.Check(""); err != nil {
		t.Fatal(err)
	}
	in, err := f.Over(handoff.Input{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Handoff(ctx, in, wake.BootFiles{})
	if err != nil || res.Boot.SkillPath == "" {
		t.Fatalf("hand-off: %+v %v", res, err)
	}

	next, err := wake.Open(root, o)
	if err != nil {
		t.Fatal(err)
	}
	st, err = next.Start(ctx, wake.BootFiles{NoSkill: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Resumed. Last session: Set up VAT rounding. Current focus: Import the bank CSV."; !strings.HasPrefix(st.Text, want) {
		t.Fatalf("next start opens with\n%.200s\nwant %q", st.Text, want)
	}
	if !strings.Contains(st.Text, "Round VAT per line") || !strings.Contains(st.Text, "VAT rates") {
		t.Fatalf("the next start lacks the decision or the cold listing:\n%s", st.Text)
	}
	r, err := next.Check(ctx)
	if err != nil || r.Failed() || r.Halted() {
		t.Fatalf("check: %+v %v", r, err)
	}
	// The records, read with no open Memory.
	d, err := wake.ReadDecisions(root, o)
	if err != nil || d.Held != "" || len(d.Log.Entries) != 1 || d.Log.Entries[0].What != "Round VAT per line" {
		t.Fatalf("decisions: %+v %v", d, err)
	}
	l, err := wake.ReadLedger(root, o, wake.LogFilter{Op: "decide"})
	if err != nil || len(l.Entries) != 1 || !strings.Contains(l.Entries[0].ChangeSummary, "Round VAT per line") {
		t.Fatalf("ledger: %+v %v", l, err)
	}
	trusted, _, err := wake.TrustedRoots(o)
	if err != nil || len(trusted) != 1 || trusted[0].Root != root || trusted[0].State != "trusted" {
		t.Fatalf("trusted roots (init trusts the root it lays out): %+v %v", trusted, err)
	}
	skill, _ := afero.ReadFile(fsys, "/home/ava/.claude/agentchat.skill.md")
	if !strings.Contains(string(skill), "# Memory — Ava\n") || !strings.Contains(string(skill), "Set up VAT rounding") {
		t.Fatalf("skill.md after the hand-off:\n%s", skill)
	}
	for _, n := range notices {
		if n.Kind != "warning" || !strings.Contains(n.Msg, "git") {
			t.Errorf("unexpected notice: %+v", n)
		}
	}
}

// TestErrorsCarryHints: the library's errors say what the user can do,
// so that every front end can show it.
func TestErrorsCarryHints(t *testing.T) {
	fsys := afero.NewMemMapFs()
	o := wake.Options{FS: fsys, Locker: &memlock.Locker{}}
	hint := func(err error) string {
		var h interface{ Hint() string }
		if errors.As(err, &h) {
			return h.Hint()
		}
		return ""
	}
	fsys.MkdirAll("/p", 0o755)
	if _, err := wake.Find(fsys, "", "", "/p"); !errors.Is(err, tiers.ErrNoRoot) || !strings.Contains(hint(err), "wake init") {
		t.Errorf("no root: %v, hint %q", err, hint(err))
	}
	if _, err := wake.Init(context.Background(), "/p/.wake", skeleton.Params{}, o); err != nil {
		t.Fatal(err)
	}
	afero.WriteFile(fsys, "/p/.wake/wake.toml", []byte("[budget]\nmemory_max = -1\n"), 0o644)
	if _, err := wake.Open("/p/.wake", o); !strings.Contains(hint(err), "wake.toml default") {
		t.Errorf("bad wake.toml: %v, hint %q", err, hint(err))
	}
	if _, _, err := wake.TrustedRoots(o); !errors.Is(err, wake.ErrNoUserDir) || !strings.Contains(hint(err), "set HOME") {
		t.Errorf("no HOME: %v, hint %q", err, hint(err))
	}
}

package checks

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

const root = "/mem"

// demoRoot copies testdata/demo, a healthy memory root, into memory.
func demoRoot(t *testing.T) afero.Fs {
	t.Helper()
	mem := afero.NewMemMapFs()
	src := filepath.Join("..", "testdata", "demo")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		return afero.WriteFile(mem, filepath.Join(root, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return mem
}

// clock is two days after the demo's HANDOFF was written.
var clock = func() time.Time { return time.Date(2026, 11, 23, 17, 40, 0, 0, time.UTC) }

func run(t *testing.T, fsys afero.Fs) Report {
	t.Helper()
	m, err := ReadMemory(fsys, root)
	if err != nil {
		t.Fatal(err)
	}
	return Run(m, Options{StaleAfter: 168 * time.Hour, Now: clock})
}

func edit(t *testing.T, fsys afero.Fs, rel string, fn func(string) string) {
	t.Helper()
	data, _ := afero.ReadFile(fsys, filepath.Join(root, rel))
	if err := afero.WriteFile(fsys, filepath.Join(root, rel), []byte(fn(string(data))), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestHealthyMemory(t *testing.T) {
	t.Parallel()
	r := run(t, demoRoot(t))
	want := "Resumed. Last session: Finished the Sparkasse CSV importer and its golden tests; the VAT report still rounds per line instead of per invoice. " +
		"Current focus: Fix VAT rounding to round per invoice, then regenerate the October report for the accountant."
	if r.Announcement != want {
		t.Errorf("announcement:\n got  %q\n want %q", r.Announcement, want)
	}
	if r.Failed() || r.Halted() || r.FirstWake || len(r.Findings) != 4 {
		t.Fatalf("healthy memory: %+v", r.Findings)
	}
	for i, c := range []string{Identity, Continuity, Tasks, Consistency} {
		if f := r.Findings[i]; f.Check != c || !f.Pass || f.Severity != OK {
			t.Errorf("finding %d: %+v, want %s passing", i, f, c)
		}
	}
	if !strings.HasPrefix(r.Findings[0].Message, "purpose: tallybook is a small double-entry bookkeeping service") {
		t.Errorf("identity message %q", r.Findings[0].Message)
	}
	if r.Findings[3].Message != "5 decisions, 4 active: no contradictions, none contested" {
		t.Errorf("decisions message %q", r.Findings[3].Message)
	}
}

// Without next_priority the focus is the first open task.
func TestFocusFallsBackToFirstOpenTask(t *testing.T) {
	t.Parallel()
	fsys := demoRoot(t)
	edit(t, fsys, tiers.MainPath, func(s string) string {
		return strings.Replace(s, "next_priority: Fix VAT rounding to round per invoice, then regenerate the October report for the accountant.", "next_priority:", 1)
	})
	r := run(t, fsys)
	if !strings.HasSuffix(r.Announcement, "Current focus: Round VAT per invoice, not per line (`report/vat.go`); regenerate golden files.") {
		t.Errorf("announcement %q", r.Announcement)
	}
}

func TestFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		change       func(afero.Fs)
		check, sev   string
		details      []string
		announcement string
	}{
		{"no main.md", func(f afero.Fs) { f.Remove(root + "/main.md") }, Identity, Halt,
			[]string{"main.md does not exist"},
			MsgIdentity + "\n" + MsgContinuity},
		{"empty Purpose", func(f afero.Fs) {
			edit(t, f, "main.md", func(s string) string {
				return strings.Replace(s, "tallybook is a small double-entry bookkeeping service for a three-person\nbakery: it imports bank CSV exports, matches them to invoices, and produces\nthe monthly VAT report the accountant files.\n", "<!-- One or two sentences. -->\nTODO\n", 1)
			})
		}, Identity, Halt, []string{"the Purpose section of main.md does not state the purpose (it is empty or holds only the template's comment); nor does the paragraph under its title or its front-matter summary state it"}, MsgIdentity},
		{"no Purpose heading", func(f afero.Fs) {
			edit(t, f, "main.md", func(s string) string { return strings.Replace(s, "## Purpose", "## Why", 1) })
		}, Identity, Halt, []string{`main.md has no "## Purpose" section; nor does the paragraph under its title or its front-matter summary state it`}, MsgIdentity},
		{"no recent/latest.md", func(f afero.Fs) { f.Remove(root + "/recent/latest.md") }, Continuity, Fail,
			[]string{"recent/latest.md does not exist"}, MsgContinuity},
		{"latest.md holds only headings", func(f afero.Fs) {
			afero.WriteFile(f, root+"/recent/latest.md", []byte("---\nsummary: x\n---\n# Session\n\n## What happened\n<!-- bullets -->\n"), 0o644)
		}, Continuity, Fail, []string{"recent/latest.md has no session in it"}, MsgContinuity},
		{"no session_summary", func(f afero.Fs) {
			edit(t, f, "main.md", func(s string) string {
				return strings.Replace(s, "session_summary: Finished", "session_summary:\nnote: Finished", 1)
			})
		}, Continuity, Fail, []string{"the HANDOFF block in main.md has no session_summary"}, MsgContinuity},
		{"no open task and no next_priority", func(f afero.Fs) {
			edit(t, f, "main.md", func(s string) string { return strings.Replace(s, "next_priority: Fix", "next: Fix", 1) })
			edit(t, f, tiers.TasksPath, func(s string) string { return strings.ReplaceAll(s, "- [ ]", "- [x]") })
		}, Tasks, Fail, []string{`warm/active_tasks.md has no open task ("- [ ] …", or an item under an Active or In progress heading) and the HANDOFF block has no next_priority`}, MsgTasks},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := demoRoot(t)
			tc.change(fsys)
			r := run(t, fsys)
			var got *Finding
			for i := range r.Findings {
				if r.Findings[i].Check == tc.check {
					got = &r.Findings[i]
					break
				}
			}
			if got == nil || got.Pass || got.Severity != tc.sev || !reflect.DeepEqual(got.Details, tc.details) {
				t.Fatalf("%s finding: %+v\nwant severity %s details %q", tc.check, got, tc.sev, tc.details)
			}
			if r.Announcement != tc.announcement {
				t.Errorf("announcement:\n got  %q\n want %q", r.Announcement, tc.announcement)
			}
			if r.Halted() != (tc.sev == Halt) || !r.Failed() || r.Passed(tc.check) {
				t.Errorf("Halted %v Failed %v Passed %v", r.Halted(), r.Failed(), r.Passed(tc.check))
			}
		})
	}
}

func TestStaleness(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		now     time.Time
		updated string
		want    string
	}{
		{"fresh", time.Date(2026, 11, 28, 17, 40, 0, 0, time.UTC), "2026-11-21T17:40:00Z", ""},
		{"just over a week", time.Date(2026, 11, 28, 17, 41, 0, 0, time.UTC), "2026-11-21T17:40:00Z",
			"the HANDOFF block is stale: updated 2026-11-21T17:40:00Z, 7 days ago (checks.stale_after is 168h0m0s); recent/ may be out of date"},
		{"unreadable time", clock(), "last tuesday",
			`the HANDOFF updated time "last tuesday" is not an RFC 3339 time (such as 2026-11-22T03:24:20Z); how old it is cannot be told`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := demoRoot(t)
			edit(t, fsys, "main.md", func(s string) string {
				return strings.Replace(s, "updated: 2026-11-21T17:40:00Z", "updated: "+tc.updated, 1)
			})
			m, _ := ReadMemory(fsys, root)
			r := Run(m, Options{StaleAfter: 168 * time.Hour, Now: func() time.Time { return tc.now }})
			var warn []string
			for _, f := range r.Findings {
				if f.Severity == Warning && f.Check == Continuity && f.Pass {
					warn = append(warn, f.Message)
				}
			}
			if got := strings.Join(warn, "|"); got != tc.want {
				t.Errorf("warning:\n got  %q\n want %q", got, tc.want)
			}
			if r.Failed() || !strings.HasPrefix(r.Announcement, "Resumed.") {
				t.Errorf("a stale HANDOFF is a warning, not a failure: %q", r.Announcement)
			}
		})
	}
}

// A root fresh from wake init: first wake, with every failure still listed.
func TestFirstWake(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	s := &store.Store{FS: fsys, Root: root, Now: clock, Locker: &memlock.Locker{}}
	if _, err := store.Init(context.Background(), s, skeleton.Params{Project: "billing"}); err != nil {
		t.Fatal(err)
	}
	r := run(t, fsys)
	want := strings.Join([]string{MsgFirstWake, MsgIdentity, MsgTasks}, "\n")
	if !r.FirstWake || r.Announcement != want {
		t.Fatalf("first wake %v, announcement:\n%s", r.FirstWake, r.Announcement)
	}
	if !r.Passed(Consistency) || len(r.Findings) != 4 {
		t.Errorf("the skeleton decision log must pass cleanly: %+v", r.Findings)
	}
	edit(t, fsys, "main.md", func(s string) string {
		return strings.Replace(s, "wake's\nidentity check halts every session until this is written. -->\n", "wake's\nidentity check halts every session until this is written. -->\nBilling keeps invoices straight.\n", 1)
	})
	r = run(t, fsys)
	if !r.Passed(Identity) || r.Halted() || r.Announcement != strings.Join([]string{MsgFirstWake, MsgTasks}, "\n") {
		t.Errorf("with a purpose written: %q", r.Announcement)
	}
	// Filled in as wake init says, a first task included, every check
	// passes and the announcement is the first-wake line alone.
	edit(t, fsys, tiers.TasksPath, func(x string) string { return x + "\n- [ ] Port the CLI flags\n" })
	r = run(t, fsys)
	if r.Failed() || !r.FirstWake || r.Announcement != MsgFirstWake {
		t.Errorf("filled in as wake init says: first wake %v, announcement %q, findings %+v", r.FirstWake, r.Announcement, r.Findings)
	}
}

// A root with decisions but no hand-off yet has context: it is not a
// first wake, and continuity fails.
func TestNotFirstWakeWithDecisions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		setup func(*testing.T, *store.Store)
	}{
		{"a decision", func(t *testing.T, s *store.Store) {
			if _, err := s.Decide(context.Background(), store.NewDecision{What: "Use TOML", Why: "YAML broke"}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fsys := afero.NewMemMapFs()
			s := &store.Store{FS: fsys, Root: root, Now: clock, Locker: &memlock.Locker{}}
			if _, err := store.Init(context.Background(), s, skeleton.Params{Project: "billing"}); err != nil {
				t.Fatal(err)
			}
			tt.setup(t, s)
			r := run(t, fsys)
			if r.FirstWake || strings.Contains(r.Announcement, MsgFirstWake) {
				t.Fatalf("first wake %v, announcement:\n%s", r.FirstWake, r.Announcement)
			}
			if r.Passed(Continuity) || !strings.Contains(r.Announcement, MsgContinuity) {
				t.Errorf("continuity must still fail: %q", r.Announcement)
			}
		})
	}
}

func TestOpenTasks(t *testing.T) {
	t.Parallel()
	doc := tiers.Doc{Path: tiers.TasksPath, Content: []byte(`---
summary: tasks
---
# Tasks
<!-- - [ ] not a task, a comment -->
- [x] done already
* [ ] starred open item
  - [ ] nested open item

## Active
- plain item under Active
  - a note under it, not a task
1. numbered item under Active
- [x] checked under Active

## In progress
+ [ ]   spaced out

## Later
- plain item elsewhere is not a task
` + "```\n- [ ] in code\n```\n")}
	got := OpenTasks(doc)
	want := []string{"starred open item", "nested open item", "plain item under Active", "numbered item under Active", "spaced out"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("OpenTasks:\n got  %q\n want %q", got, want)
	}
}

// While a write of the log is in progress the snapshot may be behind the
// log: the check does not compare them, so wake's own change is never
// reported as a hand edit.
func TestNoHandEditWhileAWriteIsPending(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	s := &store.Store{FS: fsys, Root: root, Now: clock, Locker: &memlock.Locker{}}
	if _, err := store.Init(context.Background(), s, skeleton.Params{Project: "billing"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(context.Background(), store.NewDecision{What: "Use TOML", Why: "YAML broke"}); err != nil {
		t.Fatal(err)
	}
	// The log as a write in progress may leave it for a reader: entry 1's
	// status changed, the snapshot not yet replaced. (With no annotation
	// that gives the status: a status changed alone is an edit by hand,
	// one that came with its annotation may be another clone's, brought by
	// git.)
	edit(t, fsys, tiers.DecisionsPath, func(x string) string {
		i := strings.LastIndex(x, "\nSTATUS: active\n")
		return x[:i] + "\nSTATUS: contested\n" + x[i+len("\nSTATUS: active\n"):]
	})
	if r := run(t, fsys); !reportsHandEdit(r) {
		t.Fatalf("without a pending record the edit must be reported: %+v", r.Findings)
	}
	afero.WriteFile(fsys, root+"/"+tiers.StateDir+"/"+store.DecisionsPending, []byte("{}"), 0o644)
	if r := run(t, fsys); reportsHandEdit(r) {
		t.Fatalf("a pending write is reported as a hand edit: %+v", r.Findings)
	}
}

func reportsHandEdit(r Report) bool {
	for _, f := range r.Findings {
		for _, d := range f.Details {
			if strings.Contains(d, "by hand") {
				return true
			}
		}
	}
	return false
}

// TestIdentityPurposeElsewhere: a purpose stated in the paragraph under
// main.md's title, or in its own front-matter summary, passes identity;
// the template's summary does not, nor does a title alone.
func TestIdentityPurposeElsewhere(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, main string
		pass       bool
		purpose    string
	}{
		{"under the title", "# tallybook\n\ntallybook keeps the books of a bakery. It files VAT.\n\n## Goals\n- one\n", true, "purpose: tallybook keeps the books of a bakery."},
		{"under the title, before an empty Purpose", "# tallybook\nKeeps the books of a bakery.\n\n## Purpose\n<!-- template -->\n", true, "purpose: Keeps the books of a bakery."},
		{"front-matter summary", "---\nsummary: Bookkeeping for a three-person bakery\n---\n# tallybook\n\n## Goals\n", true, "purpose: Bookkeeping for a three-person bakery"},
		{"the template's summary", "---\nsummary: Identity, purpose and standing directives of tallybook\n---\n# tallybook\n\n## Purpose\n<!-- x -->\n", false, ""},
		{"a title alone", "# tallybook\n<!-- what is it? -->\n## Identity\nAgent: Ava, the engineer.\n", false, ""},
		{"no title, a paragraph", "Some notes about the bakery books.\n", false, ""},
		{"empty", "", false, ""},
	} {
		fs := afero.NewMemMapFs()
		afero.WriteFile(fs, "/r/main.md", []byte(c.main), 0o644)
		m, err := ReadMemory(fs, "/r")
		if err != nil {
			t.Fatal(err)
		}
		f := CheckIdentity(m)
		if len(f) != 1 || f[0].Pass != c.pass || c.pass && f[0].Message != c.purpose || !c.pass && f[0].Severity != Halt {
			t.Errorf("%s: %+v", c.name, f)
		}
	}
}

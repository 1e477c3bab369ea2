package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// The checks of TestThreeClonesTenSessions on a clone after each step.

// checkTeam checks that clone c holds everything the team wrote, with no
// conflict marker, and that wake check fails on the double reversal
// alone.
func (ct *clonesTeam) checkTeam(c string) {
	g, t, w := ct.gitTeam, ct.t, ct.want
	t.Helper()
	if st, _ := g.run(c, "git", "status", "--porcelain"); strings.Contains(st, "U") {
		t.Errorf("%s: unmerged paths:\n%s", c, st)
	}
	ct.noMarkers(c)
	log := tiers.ParseDecisions([]byte(g.read(c, tiers.DecisionsPath)))
	heads := map[string][]tiers.Decision{}
	for _, e := range log.Entries {
		heads[firstLineOf(e.Raw)] = append(heads[firstLineOf(e.Raw)], e)
	}
	for head, id := range w.decisions {
		es := heads[head]
		if len(es) != 1 {
			t.Errorf("%s: decision %s (%s): %d entries, want 1", c, id, head, len(es))
			continue
		}
		// The two entries written by hand with one ID on a and b: one
		// keeps it, the other has a new one.
		if es[0].ID != id && id != twinID {
			t.Errorf("%s: decision %q has the ID %s, want %s", c, head, es[0].ID, id)
		}
		have := annotationLines(es[0])
		for _, a := range w.annotations[head] {
			if !slices.Contains(have, a) {
				t.Errorf("%s: decision %s lost the annotation %q", c, id, a)
			}
		}
	}
	if len(log.Entries) != len(w.decisions) {
		t.Errorf("%s: %d decisions, want %d", c, len(log.Entries), len(w.decisions))
	}
	if d := log.DuplicateIDs(); len(d) > 0 || len(log.ByID(twinID)) != 1 {
		t.Errorf("%s: IDs held twice, or %s not once:\n%s", c, twinID, g.read(c, tiers.DecisionsPath))
	}
	if es := log.ByID(ct.base); len(es) == 1 {
		if es[0].Status != tiers.StatusContested || len(es[0].Values(tiers.KeyReversedBy)) != 2 ||
			!strings.Contains(es[0].Value(tiers.KeyObjection), "reversed differently on two branches") {
			t.Errorf("%s: the decision reversed on a and b is not contested with both reversals and the objection:\n%s", c, es[0].Raw)
		}
	}
	for _, e := range log.Entries {
		if e.ID != ct.base && e.Status == tiers.StatusContested {
			t.Errorf("%s: decision %s contested:\n%s", c, e.ID, e.Raw)
		}
	}
	for rel, data := range w.records {
		if got, ok := g.files(c, tiers.SessionsDir)[rel]; !ok || got != data {
			t.Errorf("%s: session record %s lost or changed", c, rel)
		}
	}
	ct.checkHandoffs(c)
	for rel, data := range w.notes {
		if got, ok := g.files(c, "cold/notes")[rel]; !ok || got != data {
			t.Errorf("%s: cold note %s lost or changed", c, rel)
		}
	}
	ledger := strings.Split(g.read(c, "ledger.jsonl"), "\n")
	for _, l := range w.ledger {
		if !slices.Contains(ledger, l) {
			t.Errorf("%s: ledger line lost: %s", c, l)
		}
	}
	ct.checkInbox(c)
	tasks := g.read(c, tiers.TasksPath)
	for _, l := range w.tasks {
		if strings.Count(tasks, l+"\n") != 1 {
			t.Errorf("%s: task line %q lost or doubled:\n%s", c, l, tasks)
		}
	}
	ct.checkCheck(c)
}

// checkHandoffs checks that every hand-off's fields are in a session
// record.
func (ct *clonesTeam) checkHandoffs(c string) {
	have := map[[3]string]bool{}
	for _, data := range ct.files(c, tiers.SessionsDir) {
		s, _ := tiers.ParseSession([]byte(data))
		have[[3]string{s.Summary, s.NextPriority, s.OpenRisk}] = true
	}
	for _, h := range ct.want.handoffs {
		if !have[h] {
			ct.t.Errorf("%s: hand-off %q: no session record with its fields", c, h)
		}
	}
}

func (ct *clonesTeam) checkInbox(c string) {
	g, t, w := ct.gitTeam, ct.t, ct.want
	inbox, err := tiers.ParseInbox([]byte(g.read(c, tiers.InboxPath)))
	if err != nil {
		t.Errorf("%s: inbox: %v", c, err)
		return
	}
	byID := map[string]tiers.Reminder{}
	nums := map[int]bool{}
	for _, r := range inbox.Reminders {
		if _, dup := byID[r.ID]; dup {
			t.Errorf("%s: reminder %s twice", c, r.ID)
		}
		if nums[r.N] {
			t.Errorf("%s: reminder number %d twice", c, r.N)
		}
		byID[r.ID], nums[r.N] = r, true
	}
	for id, text := range w.reminders {
		r, ok := byID[id]
		switch {
		case !ok:
			t.Errorf("%s: reminder %s (%q) lost", c, id, text)
		case r.Text != text:
			t.Errorf("%s: reminder %s is %q, want %q", c, id, r.Text, text)
		case r.Open() == w.closed[id]:
			t.Errorf("%s: reminder %s open %v, want %v", c, id, r.Open(), !w.closed[id])
		}
	}
	if len(inbox.Reminders) != len(w.reminders) {
		t.Errorf("%s: %d reminders, want %d", c, len(inbox.Reminders), len(w.reminders))
	}
}

// checkCheck runs wake check: only decision consistency fails, on the
// decision reversed on both branches alone, contested with its objection.
func (ct *clonesTeam) checkCheck(c string) {
	t := ct.t
	out, errOut, err := ct.try(c, "wake", "check")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("%s: wake check: %v, want exit status 3\n%s%s", c, err, out, errOut)
		return
	}
	var details []string
	in := false
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "- "):
			in = strings.HasPrefix(l, "- decision_consistency: FAIL")
			if strings.Contains(l, "FAIL") && !in {
				t.Errorf("%s: wake check: %s\n%s", c, l, out)
			}
		case in && strings.HasPrefix(l, "  - "):
			details = append(details, l)
		}
	}
	// The disagreement, twice: the decision contested with the merge's
	// objection, and its two replacements, both in force, contradicting.
	contested, contradict := 0, 0
	for _, d := range details {
		switch {
		case strings.Contains(d, ct.base) && strings.Contains(d, "is contested and awaits the user") &&
			strings.Contains(d, "reversed differently on two branches"):
			contested++
		case strings.Contains(d, "contradict: \"Use Rust for the server\" against \"Use Zig for the server\""),
			strings.Contains(d, "contradict: \"Use Zig for the server\" against \"Use Rust for the server\""):
			contradict++
		}
	}
	if len(details) != 2 || contested != 1 || contradict != 1 {
		t.Errorf("%s: wake check does not name the contested decision and its two replacements alone:\n%s", c, out)
	}
}

// noMarkers fails on a conflict marker line in any file of the clone's
// .wake/.
func (ct *clonesTeam) noMarkers(c string) {
	root := filepath.Join(ct.dir, c, ".wake")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "<<<<<<<") || strings.HasPrefix(l, ">>>>>>>") || strings.TrimRight(l, "\r") == "=======" {
				rel, _ := filepath.Rel(root, p)
				ct.t.Errorf("%s: %s:%d: conflict marker %q", c, rel, i+1, l)
			}
		}
		return nil
	})
	if err != nil {
		ct.t.Fatal(err)
	}
}

// checkUsable runs every command that writes the memory on clone c after
// the integration: none is refused.
func (ct *clonesTeam) checkUsable(c string) {
	out, _ := ct.run(c, "wake", "decide", "Use one binary after the merge", "--because", "the three clones agree")
	id := decisionID(ct.t, out)
	ct.run(c, "wake", "contest", id, "--objection", "two binaries are simpler", "--proposal", "split the binary")
	ct.run(c, "wake", "uphold", id, "--because", "one binary ships easier")
	log := tiers.ParseDecisions([]byte(ct.read(c, tiers.DecisionsPath)))
	for _, e := range log.Entries {
		if strings.Contains(e.What, "session 9 keeps") && e.Active() {
			ct.run(c, "wake", "reverse", e.ID, "--by", "Drop "+e.ID+"'s module", "--because", "merged away")
			break
		}
	}
	out, _ = ct.run(c, "wake", "remember", "after the merge")
	ct.run(c, "wake", "remember", "done", fmt.Sprint(reminderNumber(ct.t, out)), "--because", "done at once")
	ct.run(c, "wake", "handoff", "--summary", "after the merge", "--next", "settle the server language")
	ct.run(c, "wake", "load")
	// The double reversal is still the only failure.
	ct.checkCheck(c)
}

// checkReidentified checks that a merge ledger line names the entry of
// the two with one ID that the merge gave a new one, old ID and new.
func (ct *clonesTeam) checkReidentified(c string) {
	var renamed string
	for _, e := range tiers.ParseDecisions([]byte(ct.read(c, tiers.DecisionsPath))).Entries {
		if (e.What == "Keep the changelog in docs" || e.What == "Sign release tags with the CI key") && e.ID != twinID {
			renamed = e.ID
		}
	}
	for _, l := range strings.Split(ct.read(c, "ledger.jsonl"), "\n") {
		var e struct {
			Op            string   `json:"op"`
			ChangeSummary string   `json:"change_summary"`
			DecisionIDs   []string `json:"decision_ids"`
		}
		if json.Unmarshal([]byte(l), &e) == nil && e.Op == "merge" && strings.Contains(e.ChangeSummary, twinID+" (") &&
			strings.Contains(e.ChangeSummary, "is now "+renamed) && slices.Contains(e.DecisionIDs, renamed) {
			return
		}
	}
	ct.t.Errorf("%s: no merge ledger line names %s, now %s:\n%s", c, twinID, renamed, ct.read(c, "ledger.jsonl"))
}

// checkMergeLine checks the last merge line of clone c: it names both
// sides, the other branch by the writers of the lines it brought (another
// clone's), c by its own.
func (ct *clonesTeam) checkMergeLine(c string) {
	writer := func(c string) string { return strings.TrimSpace(ct.read(c, tiers.StateDir+"/writer")) }
	var last string
	for _, l := range strings.Split(ct.read(c, "ledger.jsonl"), "\n") {
		if strings.Contains(l, `"op":"merge"`) {
			last = l
		}
	}
	_, others, _ := strings.Cut(last, "written by ")
	others, _, _ = strings.Cut(others, ", into "+writer(c)+"'s")
	named := 0
	for _, o := range []string{"a", "b", "c"} {
		if o != c && strings.Contains(others, writer(o)) {
			named++
		}
	}
	if named == 0 || strings.Contains(others, writer(c)) || !strings.Contains(last, ", into "+writer(c)+"'s") {
		ct.t.Errorf("%s: the merge line does not name both sides: %s", c, last)
	}
}

// checkViews checks that recent/latest.md and main.md's HANDOFF block are
// views of the newest session record of all three clones.
func (ct *clonesTeam) checkViews(c string) {
	var newest tiers.Session
	var newestName, newestData string
	for name, data := range ct.files(c, tiers.SessionsDir) {
		s, _ := tiers.ParseSession([]byte(data))
		if s.At.After(newest.At) || s.At.Equal(newest.At) && name > newestName {
			newest, newestName, newestData = s, name, data
		}
	}
	if got := ct.read(c, tiers.LatestPath); got != newestData {
		ct.t.Errorf("%s: recent/latest.md is not the newest record, %s:\n%s", c, newestName, got)
	}
	h := tiers.ParseMain([]byte(ct.read(c, tiers.MainPath))).Handoff
	if h.Get(tiers.KeySessionSummary) != newest.Summary || h.Get(tiers.KeyNextPriority) != newest.NextPriority || h.Get(tiers.KeyOpenRisk) != newest.OpenRisk {
		ct.t.Errorf("%s: main.md's HANDOFF block is not the newest record's (%s): %v", c, newestName, h.Fields)
	}
}

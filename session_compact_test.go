package wake_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// compactMemory is a root whose decision log is over its share of a
// small warm budget, with two reversed decisions, and the warnings it
// gave. toml is added to its wake.toml's [budget] table.
func compactMemory(t *testing.T, toml string) (*wake.Memory, afero.Fs, *[]string) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	var warnings []string
	o := wake.Options{FS: fsys, Env: map[string]string{}, Now: func() time.Time { return now }, Locker: &memlock.Locker{},
		Notify: func(n wake.Notice) { warnings = append(warnings, n.Msg) }}
	ctx := context.Background()
	if _, err := wake.Init(ctx, "/p/.wake", skeleton.Params{Agent: "Ava", Project: "bakery"}, o); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(fsys, "/p/.wake/wake.toml", []byte("[budget]\nwarm = 200\n"+toml), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := wake.Open("/p/.wake", o)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 6; i++ {
		d := store.NewDecision{What: fmt.Sprintf("Keep ledger part %d in its own file", i), Why: "one file a part is easy to review and to copy"}
		if _, err := m.Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []int{1, 2} {
		if _, err := m.Reverse(ctx, store.DecisionRef{Number: n}, store.NewDecision{What: fmt.Sprintf("Merge part %d into the main ledger", n), Why: "too many files"}); err != nil {
			t.Fatal(err)
		}
	}
	return m, fsys, &warnings
}

func compactHandoff(t *testing.T, m *wake.Memory) wake.HandoffResult {
	t.Helper()
	in := handoff.Input{Session: tiers.Session{Summary: "Split the ledger", NextPriority: "Import the bank CSV"}}
	res, err := m.Handoff(context.Background(), in, wake.BootFiles{NoSkill: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestHandoffCompacts: a hand-off moves the reversed decisions out of a
// log over its share and says so in its result, which JSON carries.
func TestHandoffCompacts(t *testing.T) {
	t.Parallel()
	m, fsys, _ := compactMemory(t, "")
	res := compactHandoff(t, m)
	c := res.Compacted
	if c.Problem != "" || len(c.Files) != 1 || c.Files[0].Path != tiers.DecisionsPath || c.Files[0].Entries != 2 || c.Files[0].Archive != store.DecisionsArchive {
		t.Fatalf("compacted %+v", c)
	}
	archive := readMem(t, fsys, "/p/.wake/"+store.DecisionsArchive)
	for _, id := range c.Files[0].IDs {
		if !strings.Contains(archive, "ID: "+id+"\n") || strings.Contains(readMem(t, fsys, "/p/.wake/"+tiers.DecisionsPath), id) {
			t.Errorf("%s is not moved to the archive", id)
		}
	}
	data, err := json.Marshal(c)
	if err != nil || !strings.Contains(string(data), `"over":["warm/decisions.md"]`) || !strings.Contains(string(data), `"files":[{"path":"warm/decisions.md","archive":"cold/archive/decisions.md","entries":2,`) {
		t.Fatalf("JSON %s %v", data, err)
	}
	if got := res.Compacted.Files[0].What(); got != "2 reversed decisions" {
		t.Fatalf("what %q", got)
	}
}

// TestHandoffCompactOff: with handoff.auto_compact = false nothing moves.
func TestHandoffCompactOff(t *testing.T) {
	t.Parallel()
	m, fsys, _ := compactMemory(t, "[handoff]\nauto_compact = false\n")
	if res := compactHandoff(t, m); !res.Compacted.Empty() || len(res.Compacted.Over) != 0 {
		t.Fatalf("compacted %+v", res.Compacted)
	}
	if ok, _ := afero.Exists(fsys, "/p/.wake/"+store.DecisionsArchive); ok {
		t.Fatal("the archive was written")
	}
}

// TestHandoffCompactFailureIsAWarning: a compaction that fails leaves the
// hand-off written and says why, as a warning.
func TestHandoffCompactFailureIsAWarning(t *testing.T) {
	t.Parallel()
	m, fsys, warnings := compactMemory(t, "")
	// The archive cannot be read: a directory stands in its place.
	if err := fsys.MkdirAll("/p/.wake/"+store.DecisionsArchive, 0o755); err != nil {
		t.Fatal(err)
	}
	res := compactHandoff(t, m)
	if !res.Compacted.Empty() || !strings.Contains(res.Compacted.Problem, "compacting warm/decisions.md, over its share, failed: ") {
		t.Fatalf("compacted %+v", res.Compacted)
	}
	if !strings.Contains(readMem(t, fsys, "/p/.wake/recent/latest.md"), "Split the ledger") {
		t.Fatal("the hand-off is not written")
	}
	if !strings.Contains(strings.Join(*warnings, "\n"), res.Compacted.Problem) {
		t.Fatalf("warnings %q", *warnings)
	}
}

// TestHandoffCompactsTasksOverTheirShare: done tasks leave a task list
// over its share; the questions, under theirs, keep their resolved one.
func TestHandoffCompactsTasksOverTheirShare(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	o := wake.Options{FS: fsys, Env: map[string]string{}, Now: func() time.Time { return now }, Locker: &memlock.Locker{}}
	ctx := context.Background()
	if _, err := wake.Init(ctx, "/p/.wake", skeleton.Params{Agent: "Ava", Project: "bakery"}, o); err != nil {
		t.Fatal(err)
	}
	var tasks strings.Builder
	tasks.WriteString("# Active tasks\n\n- [ ] Import the bank CSV\n")
	for i := range 40 {
		fmt.Fprintf(&tasks, "- [x] Port report number %d to the new ledger format\n", i)
	}
	const questions = "# Open questions\n\n- [ ] Which banks first?\n- [x] Is CSV enough? Yes.\n"
	for name, text := range map[string]string{"wake.toml": "[budget]\nwarm = 600\n", tiers.TasksPath: tasks.String(), tiers.QuestionsPath: questions} {
		if err := afero.WriteFile(fsys, "/p/.wake/"+name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := wake.Open("/p/.wake", o)
	if err != nil {
		t.Fatal(err)
	}
	c := compactHandoff(t, m).Compacted
	if len(c.Files) != 1 || c.Files[0].Path != tiers.TasksPath || c.Files[0].What() != "40 done tasks" || slices.Contains(c.Over, tiers.QuestionsPath) {
		t.Fatalf("compacted %+v", c)
	}
	if got := readMem(t, fsys, "/p/.wake/"+tiers.TasksPath); got != "# Active tasks\n\n- [ ] Import the bank CSV\n" {
		t.Fatalf("tasks:\n%s", got)
	}
	if got := readMem(t, fsys, "/p/.wake/"+tiers.QuestionsPath); got != questions {
		t.Fatalf("the questions, under their share, were compacted:\n%s", got)
	}
}

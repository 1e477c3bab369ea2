package checks

import (
	"reflect"
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

func TestNamedPaths(t *testing.T) {
	t.Parallel()
	text := "- Wrote the importer (`import/sparkasse.go`) and report/vat.go, see ./docs/VAT.md.\n" +
		"- Tests in import/testdata/*.csv and `journal/*.go`; config in `tallybook.toml`.\n" +
		"- Read https://example.com/a/b.html and git@github.com:x/y.git; ~/notes/x.md; /etc/hosts.conf\n" +
		"- CI/CD and input/output, and/or e.g. Node.js, v1.2 and 3.5/4.0; ../outside/x.go\n" +
		"- `go test ./...` and `main.go` and (cmd/wake/main.go), \"web/app.tsx\".\n" +
		"- a/b.go c/d.go\n"
	got := NamedPaths(text)
	want := []string{"import/sparkasse.go", "report/vat.go", "docs/VAT.md", "tallybook.toml", "main.go", "cmd/wake/main.go", "web/app.tsx", "a/b.go", "c/d.go"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("NamedPaths:\n got  %q\n want %q", got, want)
	}
}

func doc(path, content string) tiers.Doc {
	d := tiers.Doc{Path: path, Content: []byte(content)}
	d.Meta, _, d.MetaErr = tiers.ParseFrontMatter(d.Content)
	return d
}

// TestDrift: each kind of drift is a warning of its kind about the file it
// concerns, never a failure, and nothing is reported without cause.
func TestDrift(t *testing.T) {
	t.Parallel()
	exists := func(rel string) bool { return rel == "src/ok.go" || rel == "warm/decisions.md" }
	m := Memory{
		Main:   doc(tiers.MainPath, "# P\n\n## HANDOFF\nupdated: 2026-11-20T10:00:00Z\nsession_summary: Did things\nnext_priority: TBD\nopen_risk: ...\nemotional_register:\n"),
		Tasks:  doc(tiers.TasksPath, "- [ ] fix `src/ok.go` and src/gone.go\n<!-- src/commented.go -->\n"),
		Latest: doc(tiers.LatestPath, "---\nsummary: TODO\n---\n# S\n- edited warm/decisions.md\n"),
	}
	fs := CheckDrift(m, DriftOptions{Exists: exists, OverBudget: map[string]int{tiers.DecisionsPath: 4, tiers.TasksPath: 3}, Sessions: 3})
	kinds := map[string][]Finding{}
	for _, f := range fs {
		if f.Check != Drift || !f.Pass || f.Severity != Warning {
			t.Errorf("not a drift warning: %+v", f)
		}
		kinds[f.Kind] = append(kinds[f.Kind], f)
	}
	if mp := kinds[KindMissingPath]; len(mp) != 1 || mp[0].Path != tiers.TasksPath || !reflect.DeepEqual(mp[0].Details, []string{"src/gone.go"}) {
		t.Errorf("missing paths: %+v", mp)
	}
	if ph := kinds[KindPlaceholder]; len(ph) != 2 || !reflect.DeepEqual(ph[0].Details, []string{"next_priority: TBD", "open_risk: ..."}) || ph[1].Path != tiers.LatestPath {
		t.Errorf("placeholders: %+v", ph)
	}
	if ob := kinds[KindOverBudget]; len(ob) != 1 || ob[0].Path != tiers.DecisionsPath || !strings.Contains(ob[0].Message, "4 sessions running") {
		t.Errorf("over budget: %+v", ob)
	}
	// A first wake's empty HANDOFF, no lookup, no streaks: nothing.
	m.Main = doc(tiers.MainPath, "# P\n\n## HANDOFF\nupdated:\nsession_summary:\nnext_priority:\n")
	m.Latest = doc(tiers.LatestPath, "---\nsummary: Built the loader\n---\n")
	if fs := CheckDrift(m, DriftOptions{}); len(fs) != 0 {
		t.Errorf("drift without cause: %+v", fs)
	}
	// Drift never fails the run.
	if r := Run(Memory{Main: m.Main, Tasks: m.Tasks}, Options{Drift: DriftOptions{Exists: exists}}); r.Halted() != (CheckIdentity(Memory{Main: m.Main})[0].Severity == Halt) {
		t.Errorf("drift changed the outcome: %+v", r)
	}
}

// A path an open task says is still to be made is not drift; the same
// path in a task done, or named without such a word, is.
func TestDriftPlannedPaths(t *testing.T) {
	t.Parallel()
	none := func(string) bool { return false }
	for _, tt := range []struct {
		tasks string
		want  []string
	}{
		{"- [ ] Create src/vat.go for the rounding\n", nil},
		{"- [ ] write `docs/vat.md`\n", nil},
		{"- [ ] Add report/monthly.go\n", nil},
		{"- [ ] report/monthly.go (new)\n", nil},
		{"- [ ] the exporter, in src/export.go, to be created\n", nil},
		{"## In progress\n- scaffold cmd/vat/main.go\n", nil},
		{"- [ ] Fix src/vat.go\n", []string{"src/vat.go"}},
		{"- [x] Create src/vat.go\n", []string{"src/vat.go"}},
		{"- [ ] Added src/vat.go; rewrite src/old.go\n", []string{"src/vat.go", "src/old.go"}},
		{"We will create src/vat.go.\n", []string{"src/vat.go"}},
	} {
		f, ok := missingPaths(doc(tiers.TasksPath, tt.tasks), none)
		if ok != (tt.want != nil) || ok && !reflect.DeepEqual(f.Details, tt.want) {
			t.Errorf("%q: missing %v (%v), want %v", tt.tasks, f.Details, ok, tt.want)
		}
	}
}

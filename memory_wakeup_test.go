package wake_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/internal/wakeupschema"
	"github.com/wakeproto/wake/wakeup"
)

// packetDocs are documents with memory_type front matter added to the
// demo root: one for each section, and the policy's three hard cases.
var packetDocs = map[string]string{
	"cold/notes/terse.md":        "---\nsummary: Prefer terse replies; explain architectural changes before coding\nmemory_type: preference\n---\n# Terse replies\n\nKeep answers short.\n",
	"cold/notes/rounding.md":     "---\nsummary: VAT is rounded per invoice, half up, never per line\nmemory_type: constraint\nsource_of_truth: true\nproject_id: tallybook\n---\n# VAT rounding rule\n\nRound VAT per invoice in report/vat.go.\n",
	"cold/adr/sqlite.md":         "---\nsummary: Journal entries live in one SQLite file\nmemory_type: decision\n---\n# SQLite for the journal\n\nOne file to back up. Revisit if the bakery opens a second shop.\n",
	"cold/incidents/october.md":  "---\nsummary: October VAT report used per-line rounding\nmemory_type: incident\n---\n# October report\n\n## Consequence\nThe accountant received totals off by a few cents.\n\n## Prevention\nRegenerate golden files after any rounding change.\n",
	"cold/notes/golden.md":       "---\nsummary: How golden files are regenerated\nmemory_type: pattern\n---\n# Golden files\n\nRun go test -update.\n",
	"cold/notes/phase.md":        "---\nsummary: \"Importers phase: two banks, one importer each\"\nmemory_type: project\n---\n# Current phase\n\nImporters for Sparkasse and Volksbank.\n",
	"cold/notes/keys.md":         "---\nsummary: SECRET-CANARY deploy keys\nmemory_type: constraint\nsensitivity: secret\n---\n# Keys SECRET-CANARY\n",
	"cold/notes/payroll.md":      "---\nsummary: Payroll rules for the bakery staff\nmemory_type: project\nsensitivity: confidential\n---\n# HEADING-CANARY Payroll\n\nBODY-CANARY salaries\n",
	"cold/notes/deploy.md":       "---\nsummary: Deploy with the CI token ghp_0123456789abcdefghijABCDEFGHIJ0123456789\nmemory_type: workflow\n---\n# Deploying\n\nToken: ghp_0123456789abcdefghijABCDEFGHIJ0123456789\n",
	"cold/notes/session-note.md": "---\nsummary: SESSION-CANARY\nmemory_type: session\n---\n# A session\n",
}

func packetRoot(t testing.TB, extraToml string) (afero.Fs, wake.Options) {
	t.Helper()
	fsys := demo.FS(t)
	for rel, text := range packetDocs {
		name := "/demo/" + rel
		if err := afero.WriteFile(fsys, name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := fsys.Chtimes(name, demo.Time, demo.Time); err != nil {
			t.Fatal(err)
		}
	}
	if extraToml != "" {
		data, _ := afero.ReadFile(fsys, "/demo/wake.toml")
		if err := afero.WriteFile(fsys, "/demo/wake.toml", append(data, extraToml...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	now := demo.Time.Add(24 * time.Hour)
	enc := demo.Encoder(t)
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home"}, Now: func() time.Time { return now }, Locker: &memlock.Locker{},
		Encoder: func(string) (*budget.Encoder, error) { return enc, nil }}
	return fsys, o
}

func buildPacket(t testing.TB, o wake.Options, q wakeup.Query) (wakeup.Packet, []byte) {
	t.Helper()
	m, err := wake.Open("/demo", o)
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Wakeup(q)
	if err != nil {
		t.Fatal(err)
	}
	data := wakeup.JSON(p)
	wakeupschema.Validate(t, data)
	return p, data
}

var vatQuery = wakeup.Query{Task: "fix VAT rounding per invoice", Cwd: "/demo", Files: []string{"report/vat.go"}, Target: wakeup.TargetClaude}

func TestWakeupSections(t *testing.T) {
	_, o := packetRoot(t, "")
	p, data := buildPacket(t, o, vatQuery)
	if p.Version != "wakeup.v1" || p.Target != "claude" || p.Profile != "project" || p.GeneratedAt != "2026-11-23T03:24:20Z" {
		t.Errorf("header: %s %s %s %s", p.Version, p.Target, p.Profile, p.GeneratedAt)
	}
	if p.Identity.ProjectID != "tallybook" || p.Identity.Name != "tallybook" || p.Identity.Agent != "Ava" || !strings.HasPrefix(p.Identity.Purpose, "tallybook is a small") {
		t.Errorf("identity: %+v", p.Identity)
	}
	if len(p.Priorities) == 0 || !strings.HasPrefix(p.Priorities[0].Title, "Fix VAT rounding") || p.Priorities[0].Source != "main.md" {
		t.Errorf("priorities: %+v", p.Priorities)
	}
	if len(p.ActiveContext.Blocked) != 1 || !strings.Contains(p.ActiveContext.Blocked[0], "Volksbank") {
		t.Errorf("blocked: %q", p.ActiveContext.Blocked)
	}
	// The constraint note about the task outranks the directives.
	if len(p.Constraints) != 5 || p.Constraints[0].Source != "cold/notes/rounding.md" {
		t.Errorf("constraints: %+v", p.Constraints)
	}
	hasSource := func(source string, sources ...string) bool { return slices.Contains(sources, source) }
	var decs []string
	for _, d := range p.Decisions {
		decs = append(decs, d.Source)
		if d.Source == "cold/adr/sqlite.md" && d.ReversalCondition != "Revisit if the bakery opens a second shop" {
			t.Errorf("reversal condition: %q", d.ReversalCondition)
		}
	}
	if !hasSource("cold/adr/sqlite.md", decs...) || len(p.Decisions) != 5 {
		t.Errorf("decisions: %+v", p.Decisions)
	}
	if len(p.Incidents) != 1 || p.Incidents[0].Consequence != "The accountant received totals off by a few cents." ||
		p.Incidents[0].Prevention != "Regenerate golden files after any rounding change." {
		t.Errorf("incidents: %+v", p.Incidents)
	}
	var ws []string
	for _, it := range p.WorkingStyle.Items {
		ws = append(ws, it.Source)
	}
	if !slices.Equal(ws, []string{"cold/notes/deploy.md", "cold/notes/terse.md"}) && !slices.Equal(ws, []string{"cold/notes/terse.md", "cold/notes/deploy.md"}) {
		t.Errorf("working_style: %q", ws)
	}
	var ac []string
	for _, it := range p.ActiveContext.Items {
		ac = append(ac, it.Source)
	}
	// The confidential payroll note is not strongly relevant to VAT
	// rounding (TestWakeupPolicy).
	if !hasSource("cold/notes/phase.md", ac...) || hasSource("cold/notes/payroll.md", ac...) {
		t.Errorf("active_context: %q", ac)
	}
	var notes []string
	for _, n := range p.RecommendedNotes {
		notes = append(notes, n.Path)
		if n.WhyRelevant == "" {
			t.Errorf("note %s has no reason", n.Path)
		}
	}
	if !hasSource("cold/notes/golden.md", notes...) || !hasSource("cold/notes/vat-rules.md", notes...) {
		t.Errorf("recommended_notes: %q", notes)
	}
	if len(p.Provenance.SelectionBasis) == 0 || len(p.Provenance.DerivedFrom) == 0 {
		t.Errorf("provenance: %+v", p.Provenance)
	}
	for _, want := range []string{"project_id matched tallybook", "source_of_truth boosted", "memory_type constraint boosted", "mentions vat.go"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("no %q in the selection basis", want)
		}
	}
}

func TestWakeupPolicy(t *testing.T) {
	_, o := packetRoot(t, "")
	p, data := buildPacket(t, o, vatQuery)
	for _, canary := range []string{"SECRET-CANARY", "BODY-CANARY", "HEADING-CANARY", "SESSION-CANARY", "ghp_0123456789"} {
		if bytes.Contains(data, []byte(canary)) {
			t.Errorf("packet shows %s", canary)
		}
	}
	// The confidential payroll note has nothing to do with VAT rounding:
	// it is held back (counted with the secret one), not promoted.
	if bytes.Contains(data, []byte("Payroll rules for the bakery staff")) {
		t.Error("the confidential note is in a packet it is not strongly relevant to")
	}
	pol := p.Policy
	if pol.MaxSensitivityIncluded != "internal" || pol.SuppressedNoteCount != 2 || pol.PolicyMode != "conservative" {
		t.Errorf("policy: %+v", pol)
	}
	// The token scrubbed from the deploy note's summary.
	if pol.RedactionsApplied != 1 || !bytes.Contains(data, []byte("[redacted:github-token]")) {
		t.Errorf("redactions_applied %d", pol.RedactionsApplied)
	}

	// Asked about payroll, the same note is strongly relevant: it is in,
	// as its summary only.
	p, data = buildPacket(t, o, wakeup.Query{Task: "payroll rules", Cwd: "/demo", Target: wakeup.TargetClaude})
	if !bytes.Contains(data, []byte("Payroll rules for the bakery staff")) {
		t.Error("the strongly relevant confidential note's summary is missing")
	}
	for _, canary := range []string{"BODY-CANARY", "HEADING-CANARY"} {
		if bytes.Contains(data, []byte(canary)) {
			t.Errorf("packet shows %s", canary)
		}
	}
	pol = p.Policy
	if pol.MaxSensitivityIncluded != "confidential" || pol.SuppressedNoteCount != 1 || pol.RedactionsApplied != 2 {
		t.Errorf("policy: %+v", pol)
	}
}

// wake's own session summaries and capsules are session material, which
// the seed leaves out of a project packet: they must not crowd the notes
// the project wrote out of recommended_notes.
func TestWakeupLeavesOutSessionMaterial(t *testing.T) {
	fsys, o := packetRoot(t, "")
	capsule := "---\nbranch: main\nsource_session: s1\ncreated_at: 2026-11-22T10:00:00Z\nprimary_objective: \"bank importer scope\"\ntoken_budget: 2000\nversion: \"1\"\n---\n# Mission Snapshot\nbank importer scope for the bakery\n"
	if err := afero.WriteFile(fsys, "/demo/cold/capsules/main/20261122T100000Z.md", []byte(capsule), 0o644); err != nil {
		t.Fatal(err)
	}
	// The demo's archived session summary says "scope" and "bakery" too.
	p, _ := buildPacket(t, o, wakeup.Query{Task: "bakery bookkeeping scope bank importer", Cwd: "/demo", Target: wakeup.TargetClaude})
	for _, n := range p.RecommendedNotes {
		if strings.HasPrefix(n.Path, "cold/sessions/") || strings.HasPrefix(n.Path, "cold/capsules/") || n.MemoryType == wakeup.TypeSession {
			t.Errorf("recommended_notes hold wake's own session material: %+v", n)
		}
	}
}

// A confidential note unrelated to the query is not promoted, however its
// memory type is boosted: the seed includes one "only if strongly
// relevant".
func TestWakeupConfidentialUnrelated(t *testing.T) {
	fsys, o := packetRoot(t, "")
	note := "---\nsummary: Salary bands of the staff\nmemory_type: constraint\nsensitivity: confidential\nsource_of_truth: true\nproject_id: tallybook\n---\n# Bands\n"
	if err := afero.WriteFile(fsys, "/demo/cold/notes/bands.md", []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _ := buildPacket(t, o, wakeup.Query{Task: "import bank statements", Cwd: "/demo", Target: wakeup.TargetClaude})
	for _, c := range p.Constraints {
		if c.Source == "cold/notes/bands.md" {
			t.Errorf("constraints hold the unrelated confidential note: %+v", p.Constraints)
		}
	}
	for _, n := range p.RecommendedNotes {
		if n.Path == "cold/notes/bands.md" {
			t.Errorf("recommended_notes hold the unrelated confidential note")
		}
	}
}

func TestWakeupDeterministic(t *testing.T) {
	_, o := packetRoot(t, "")
	_, cold := buildPacket(t, o, vatQuery) // builds the cold index
	_, warm := buildPacket(t, o, vatQuery) // reads it
	if !bytes.Equal(cold, warm) {
		t.Errorf("packets differ:\n%s\n----\n%s", cold, warm)
	}
	_, o2 := packetRoot(t, "")
	if _, again := buildPacket(t, o2, vatQuery); !bytes.Equal(cold, again) {
		t.Error("a fresh root gives another packet")
	}
}

func TestWakeupTargetsSameItems(t *testing.T) {
	_, o := packetRoot(t, "")
	var want []string
	for _, target := range wakeup.Targets {
		q := vatQuery
		q.Target = target
		p, _ := buildPacket(t, o, q)
		items := wakeup.Items(p)
		if want == nil {
			want = items
		} else if !slices.Equal(items, want) {
			t.Errorf("%s: items differ:\n%q\n%q", target, items, want)
		}
		md := wakeup.Markdown(p)
		for _, it := range p.Constraints {
			if !strings.Contains(md, it.Title) {
				t.Errorf("%s markdown lacks constraint %q", target, it.Title)
			}
		}
		for _, it := range p.RecommendedNotes {
			if !strings.Contains(md, it.Path) {
				t.Errorf("%s markdown lacks note %q", target, it.Path)
			}
		}
		for _, it := range p.Decisions {
			if !strings.Contains(md, it.Title) {
				t.Errorf("%s markdown lacks decision %q", target, it.Title)
			}
		}
	}
	if len(want) < 15 {
		t.Errorf("only %d items", len(want))
	}
}

func TestWakeupPromptBudget(t *testing.T) {
	enc := demo.Encoder(t)
	for _, limit := range []int{1500, 400, 120} {
		_, o := packetRoot(t, "[wakeup]\nprompt_budget = "+itoa(limit)+"\n")
		m, err := wake.Open("/demo", o)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.Wakeup(vatQuery)
		if err != nil {
			t.Fatal(err)
		}
		wakeupschema.Validate(t, wakeup.JSON(p))
		text, cut := m.WakeupPrompt(p)
		if n := enc.Count(text); n > limit || n == 0 {
			t.Errorf("budget %d: prompt of %d tokens", limit, n)
		}
		if limit < 1500 && cut == 0 {
			t.Errorf("budget %d: nothing cut", limit)
		}
		if !strings.Contains(text, "tallybook") {
			t.Errorf("budget %d: the head is gone:\n%s", limit, text)
		}
	}
}

func TestWakeupLimits(t *testing.T) {
	_, o := packetRoot(t, "[wakeup]\nconstraints = 1\ndecisions = 2\nrecommended_notes = 0\nincidents = 0\n")
	p, _ := buildPacket(t, o, vatQuery)
	if len(p.Constraints) != 1 || len(p.Decisions) != 2 || len(p.RecommendedNotes) != 0 || len(p.Incidents) != 0 {
		t.Errorf("limits not kept: %d %d %d %d", len(p.Constraints), len(p.Decisions), len(p.RecommendedNotes), len(p.Incidents))
	}
}

func itoa(n int) string {
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// developerDocs are a developer root under the test's HOME.
var developerDocs = map[string]string{
	"00-Identity/me.md":         "---\nsummary: Backend engineer, Go and SQL\n---\n# Ava\n\nBackend engineer; prefers small reviewed pull requests.\n",
	"20-Areas/review.md":        "---\nsummary: \"Review style: blocking comments only for correctness\"\nmemory_type: workflow\n---\n# Review style\n",
	"30-Workflows/commits.md":   "---\nsummary: One logical change per commit, message says why\nmemory_type: preference\n---\n# Commits\n",
	"30-Workflows/rounding.md":  "---\nsummary: Always test money code with odd cents\nmemory_type: constraint\n---\n# Money tests\n\nRounding bugs hide in even amounts.\n",
	"30-Workflows/secrets.md":   "---\nsummary: DEV-SECRET-CANARY\nmemory_type: preference\nsensitivity: secret\n---\n# Secret\n",
	"30-Workflows/.hidden.md":   "---\nsummary: HIDDEN-CANARY\nmemory_type: preference\n---\n# Hidden\n",
	"40-Incidents/migration.md": "---\nsummary: A migration ran twice on production\nmemory_type: incident\n---\n# Migration\n\n## Prevention\nMake migrations idempotent.\n",
}

func TestWakeupDeveloper(t *testing.T) {
	fsys, o := packetRoot(t, "")
	for rel, text := range developerDocs {
		if err := afero.WriteFile(fsys, "/home/.config/wake/developer/"+rel, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q := vatQuery
	q.Profile = wakeup.ProfileDeveloper
	m, err := wake.Open("/demo", o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Wakeup(q); err == nil || !strings.Contains(err.Error(), "/home/.config/wake/config.toml names, and it names none") {
		t.Fatalf("no developer roots: %v", err)
	}
	conf := "[wakeup]\ndeveloper = [\"~/.config/wake/developer\", \"~/missing\"]\n"
	if err := afero.WriteFile(fsys, "/home/.config/wake/config.toml", []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	var notices []string
	o.Notify = func(n wake.Notice) { notices = append(notices, n.Msg) }
	p, data := buildPacket(t, o, q)
	if p.Profile != "developer" || p.Identity.Source != "~/.config/wake/developer/00-Identity/me.md" || p.Identity.Summary != "Backend engineer, Go and SQL" ||
		p.Identity.ProjectID != "tallybook" {
		t.Errorf("identity: %+v", p.Identity)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "developer root ~/missing") {
		t.Errorf("notices: %q", notices)
	}
	sources := strings.Join(wakeup.Items(p), "\n")
	for _, want := range []string{
		"working_style: ~/.config/wake/developer/20-Areas/review.md",
		"working_style: ~/.config/wake/developer/30-Workflows/commits.md",
		"working_style: cold/notes/terse.md",  // the project's preference
		"constraints: cold/notes/rounding.md", // the project's constraint
		"constraints: main.md",                // and its standing directives
		"constraints: ~/.config/wake/developer/30-Workflows/rounding.md",
		"incidents: ~/.config/wake/developer/40-Incidents/migration.md",
	} {
		if !strings.Contains(sources, want) {
			t.Errorf("no %q in\n%s", want, sources)
		}
	}
	// The project's own context stays out of a developer packet.
	for _, not := range []string{"priorities:", "decisions:", "cold/incidents/october.md", "active_context:"} {
		if strings.Contains(sources, not) {
			t.Errorf("%q in\n%s", not, sources)
		}
	}
	for _, canary := range []string{"DEV-SECRET-CANARY", "HIDDEN-CANARY", "SECRET-CANARY"} {
		if bytes.Contains(data, []byte(canary)) {
			t.Errorf("packet shows %s", canary)
		}
	}
	if p.Policy.SuppressedNoteCount != 2 { // the project's secret note and the developer's
		t.Errorf("suppressed %d", p.Policy.SuppressedNoteCount)
	}
}

// TestWakeupAnywhereInRoot: a document with a memory_type outside the
// tier files and cold/ (a preference kept in warm/) is routed like any
// other, and a secret one there is counted, never shown.
func TestWakeupAnywhereInRoot(t *testing.T) {
	fsys, o := packetRoot(t, "")
	afero.WriteFile(fsys, "/demo/warm/pref.md", []byte("---\nsummary: Answer in German when the user writes German\nmemory_type: preference\n---\n# Language\n\nMirror the user's language.\n"), 0o644)
	afero.WriteFile(fsys, "/demo/warm/keys.md", []byte("---\nsummary: Bank API keys\nmemory_type: constraint\nsensitivity: secret\n---\n# Keys\n\nKEY-CANARY\n"), 0o644)
	_, base := buildPacket(t, func() wake.Options { _, o := packetRoot(t, ""); return o }(), vatQuery)
	p, data := buildPacket(t, o, vatQuery)
	if !bytes.Contains(data, []byte("Answer in German")) || !bytes.Contains(data, []byte("warm/pref.md")) {
		t.Errorf("the preference in warm/ is not in the packet:\n%s", data)
	}
	if bytes.Contains(data, []byte("KEY-CANARY")) || bytes.Contains(data, []byte("Bank API keys")) {
		t.Errorf("the secret document in warm/ leaked:\n%s", data)
	}
	var before wakeup.Packet
	if err := json.Unmarshal(base, &before); err != nil {
		t.Fatal(err)
	}
	if p.Policy.SuppressedNoteCount != before.Policy.SuppressedNoteCount+1 {
		t.Errorf("suppressed %d, want %d", p.Policy.SuppressedNoteCount, before.Policy.SuppressedNoteCount+1)
	}
}

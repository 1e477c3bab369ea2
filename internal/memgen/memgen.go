// Package memgen generates realistic memory roots of a chosen size for
// benchmarks and the performance scripts. It lives in internal/ because it
// is test support, not part of wake's behaviour.
package memgen

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/afero"
)

// Options size a generated root.
type Options struct {
	// TierScale multiplies the tier files' content; 1 gives full tiers of
	// about 36,000 tokens (cl100k_base), each tier near its budget: main.md
	// ~1,600, recent ~11,000, warm ~23,000.
	TierScale int
	// ColdFiles is how many documents go under cold/, spread over
	// year/month directories with front-matter summaries.
	ColdFiles int
	// TypedEvery gives every n-th cold document memory_type front matter
	// (the wake-up packet's seven types in turn); 0 gives none.
	TypedEvery int
	// Decisions, when above 0, is how many entries warm/decisions.md
	// holds instead of 270 a TierScale (a log of 200,000 tokens is about
	// 4,000 of them).
	Decisions int
	// VariedDecisions makes the entries varied, realistic and all active:
	// texts from templates over shared subjects and choices, so that many
	// share words, a topic on every third one (no two alike), and no pair
	// that the consistency check reports as contradicting. Without it
	// every entry is the same sentence with other numbers and a TOPIC.
	VariedDecisions bool
	// Inbox, when above 0, is how many entries warm/inbox.md holds, every
	// tenth closed (600,000 of them make an inbox of about 32 MB).
	Inbox int
}

// Generate writes the root. It is deterministic: the same options give the
// same bytes.
func Generate(fs afero.Fs, root string, o Options) error {
	files := map[string]string{
		"main.md":                mainMD(o.TierScale),
		"recent/latest.md":       session(0, 180*o.TierScale),
		"recent/previous.md":     session(1, 180*o.TierScale),
		"warm/active_tasks.md":   tasks(245 * o.TierScale),
		"warm/decisions.md":      decisionLog(o),
		"warm/open_questions.md": questions(130 * o.TierScale),
	}
	if o.Inbox > 0 {
		files["warm/inbox.md"] = inbox(o.Inbox)
	}
	for rel, data := range files {
		if err := write(fs, root, rel, data); err != nil {
			return err
		}
	}
	for i := range o.ColdFiles {
		rel := fmt.Sprintf("cold/%d/%02d/note-%06d.md", 2020+i%6, 1+i%12, i)
		note := coldNote(i)
		if o.TypedEvery > 0 && i%o.TypedEvery == 0 {
			note = typedNote(i, memoryTypes[(i/o.TypedEvery)%len(memoryTypes)])
		}
		if err := write(fs, root, rel, note); err != nil {
			return err
		}
	}
	return fs.MkdirAll(filepath.Join(root, "cold", "sessions"), 0o755)
}

func write(fs afero.Fs, root, rel, data string) error {
	name := filepath.Join(root, filepath.FromSlash(rel))
	if err := fs.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	if err := afero.WriteFile(fs, name, []byte(data), 0o644); err != nil {
		return err
	}
	// A fixed, old modification time: generated roots are identical run to
	// run, and wake's cold index does not trust files modified in the last
	// seconds, which would make every "warm" run cold.
	return fs.Chtimes(name, genTime, genTime)
}

// genTime is the modification time of every generated file.
var genTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func mainMD(scale int) string {
	var b strings.Builder
	b.WriteString("---\nsummary: Identity and purpose of the generated project\n---\n# generated\n\n## Identity\nAgent: Ava, implementing engineer.\n\n")
	b.WriteString("## Purpose\nThe generated project exists to measure wake on a memory of realistic size.\n\n## Standing Directives\n")
	for i := range 95 * scale {
		fmt.Fprintf(&b, "- Directive %d: run the checks for component %d before each commit.\n", i, i)
	}
	b.WriteString("\n## HANDOFF\nupdated: 2026-11-21T17:40:00Z\nsession_summary: Generated session.\nnext_priority: Keep measuring.\nopen_risk: none\nemotional_register: calm\n")
	return b.String()
}

func session(n, items int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nsummary: Generated session %d\nsession: 2026-11-%02dT10:00:00Z\n---\n# Session 2026-11-%02d\n\n## What happened\n", n, 21-n, 21-n)
	for i := range items {
		fmt.Fprintf(&b, "- Reworked module %d of the importer so that batch %d commits atomically and reports its row counts, then reran the suite.\n", i, i*7)
	}
	b.WriteString("\n## Decisions made\n- Keep batches small.\n\n## Open threads\n- Measure again.\n\n## For my successor\nThe numbers are generated.\n")
	return b.String()
}

func tasks(n int) string {
	var b strings.Builder
	b.WriteString("---\nsummary: Generated tasks\n---\n# Active tasks\n\n## In progress\n")
	for i := range n {
		fmt.Fprintf(&b, "- [ ] Task %d: migrate table %d to the new schema and backfill its history from the archive.\n", i, i)
	}
	return b.String()
}

func decisionLog(o Options) string {
	n := 270 * o.TierScale
	if o.Decisions > 0 {
		n = o.Decisions
	}
	if o.VariedDecisions {
		return variedDecisions(n)
	}
	return decisions(n)
}

func decisions(n int) string {
	var b strings.Builder
	b.WriteString("---\nsummary: Generated decisions\n---\n# Decisions\n")
	for i := range n {
		fmt.Fprintf(&b, "\n[2026-%02d-%02d] DECISION: Adopt practice %d for subsystem %d BECAUSE: experiment %d cut the build time by %d percent and nobody objected in review\nSTATUS: active\nTOPIC: practice-%d\n",
			1+i%12, 1+i%28, i, i%17, i, 3+i%40, i)
	}
	return b.String()
}

func questions(n int) string {
	var b strings.Builder
	b.WriteString("---\nsummary: Generated questions\n---\n# Open questions\n\n")
	for i := range n {
		fmt.Fprintf(&b, "- Question %d: should component %d keep its own cache, or share the one in the core package with the others?\n", i, i)
	}
	return b.String()
}

func coldNote(i int) string {
	return fmt.Sprintf("---\nsummary: Archived note %d about component %d\n---\n# Note %d\n\nComponent %d was reworked in batch %d; the details are kept here for reference.\n", i, i%97, i, i%97, i)
}

var memoryTypes = []string{"preference", "workflow", "project", "constraint", "decision", "incident", "pattern"}

func typedNote(i int, memType string) string {
	return fmt.Sprintf("---\nsummary: A %s about component %d\nmemory_type: %s\nproject_id: bench\n---\n# %s %d\n\n"+
		"Component %d has a %s recorded in batch %d: keep it in mind when touching component %d.\n\n## Consequence\nBatch %d was redone.\n\n## Prevention\nCheck component %d first.\n",
		memType, i%97, memType, memType, i, i%97, memType, i, i%97, i, i%97)
}

// The parts of the varied decisions. Each template names a choice for a
// subject; the subject varies fastest and each template's choice changes
// only with the subject, so that no two entries make two choices for the
// same subject (which the consistency check would rightly report).
var (
	decisionTemplates = []string{
		"Use %[2]s for the %[1]s",
		"Store the %[1]s state in %[2]s",
		"Keep the %[1]s behind %[2]s",
		"Settings of the %[1]s are read through %[2]s",
		"Test the %[1]s against %[2]s before each release",
		"Log every failure of the %[1]s with %[2]s",
		"Build the %[1]s with %[2]s in continuous integration",
		"Document the %[1]s next to %[2]s",
	}
	decisionSubjects = []string{
		"importer", "exporter", "billing service", "ledger", "scheduler", "search index", "web frontend",
		"command line", "sync daemon", "report builder", "auth gateway", "notification queue", "cache layer",
		"migration tool", "audit trail", "payment adapter", "config loader", "metrics pipeline", "backup job",
		"plugin host", "rate limiter", "session store", "feature flags", "admin console", "mobile client",
		"email sender", "pdf renderer", "geocoder", "tokenizer", "file watcher", "job runner",
	}
	decisionChoices = []string{
		"SQLite", "Postgres", "Redis", "YAML files", "TOML files", "JSON lines", "protocol buffers", "gRPC",
		"plain HTTP", "a worker pool", "an interface", "afero", "cobra", "slog", "zap", "golden files",
		"property tests", "fuzz targets", "a feature flag", "a circuit breaker", "an outbox table", "S3",
		"the standard library", "a read replica", "optimistic locking", "a bounded channel", "GitHub Actions",
	}
	decisionReasons = []string{
		"it keeps the failure modes few and visible", "the team already runs it in production",
		"the benchmarks showed it was fast enough with room to spare", "it needs no service of its own",
		"review found the alternative harder to test", "it matches what the other services do",
		"the incident last spring came from doing it by hand", "it keeps the binary self-contained",
	}
)

// variedDecisions is n varied active entries (see Options.VariedDecisions).
func variedDecisions(n int) string {
	var b strings.Builder
	b.WriteString("---\nsummary: Generated decisions\n---\n# Decisions\n")
	ns, nt := len(decisionSubjects), len(decisionTemplates)
	for i := range n {
		s, round := i%ns, i/ns
		subject := decisionSubjects[s]
		// A subject comes back with each template in turn, then with
		// each template again in another area: never the same template
		// for the same subject twice.
		if k := round / nt; k > 0 {
			subject = decisionAreas[k%len(decisionAreas)] + " " + subject
		}
		choice := decisionChoices[(s*5+round*3)%len(decisionChoices)]
		fmt.Fprintf(&b, "\n[2026-%02d-%02d] DECISION: %s BECAUSE: %s\nSTATUS: active\n",
			1+i%12, 1+i%28, fmt.Sprintf(decisionTemplates[round%nt], subject, choice), decisionReasons[i%len(decisionReasons)])
		if i%3 == 0 {
			fmt.Fprintf(&b, "TOPIC: %s-%d\n", strings.ReplaceAll(decisionSubjects[s], " ", "-"), i)
		}
	}
	return b.String()
}

// decisionAreas qualify subjects once every template has been used with
// every subject.
var decisionAreas = []string{"core", "internal", "public", "legacy", "regional", "experimental", "partner", "offline",
	"batch", "realtime", "staging", "archival", "mobile", "desktop", "embedded", "hosted"}

// inbox is a remember-later inbox of n entries, every tenth closed.
func inbox(n int) string {
	var b strings.Builder
	b.Grow(n * 56)
	b.WriteString("# Remember later\n\nReminders to pick up later.\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "## %d · 2026-11-%02dT10:00:00Z\n- reminder: look at item %d\n", i, 1+i%28, i)
		if i%10 == 0 {
			b.WriteString("- done: checked at 2026-11-28T10:00:00Z\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

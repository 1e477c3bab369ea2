package wakeup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// JSON renders the packet as the authoritative JSON object, indented, with
// a final newline. The same packet gives the same bytes.
func JSON(p Packet) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(p) // a Packet has nothing json cannot encode
	return b.Bytes()
}

// Markdown renders the packet as a readable hand-off summary shaped for
// its target: every item of the packet, and its provenance and policy.
func Markdown(p Packet) string {
	return render(p, false).text()
}

// Prompt renders the packet as a compact briefing for the target within
// limit tokens, counted exactly by counter: items are cut from the least
// important section first (recommended notes, incidents, active context,
// working style, decisions, priorities, constraints), the last of a
// section first. It returns the text and how many items it cut.
func Prompt(p Packet, limit int, counter budget.Counter) (string, int) {
	total := render(p, true).cuttable()
	cut := func(k int) string {
		r := render(p, true)
		for range k {
			r.cutOne()
		}
		return r.text()
	}
	exact := func(k int) (string, bool) {
		text := cut(k)
		return text, counter.Count(text) <= limit
	}
	// Estimate first by the sum of the lines' counts (each line counted
	// once, and cached across runs), then settle on the fewest cuts that
	// fit by counting whole texts: a cut only removes lines, so the count
	// never grows with cuts.
	lines := map[string]int{}
	estimate := func(text string) int {
		n := 0
		for l := range strings.Lines(text) {
			c, ok := lines[l]
			if !ok {
				c = counter.Count(l)
				lines[l] = c
			}
			n += c
		}
		return n
	}
	k := 0
	for k < total && estimate(cut(k)) > limit {
		k++
	}
	text, ok := exact(k)
	if ok {
		for k > 0 {
			t, ok := exact(k - 1)
			if !ok {
				break
			}
			text, k = t, k-1
		}
		return text, k
	}
	for k < total {
		k++
		if text, ok := exact(k); ok {
			return text, k
		}
	}
	return frame(render(p, true), total, limit, counter), total
}

// frame is the text with every item cut when not even that fits: whole
// lines from the end, then nothing.
func frame(r *rendering, cuts, limit int, counter budget.Counter) string {
	for range cuts {
		r.cutOne()
	}
	lines := strings.SplitAfter(r.text(), "\n")
	for n := len(lines) - 1; n > 0; n-- {
		text := strings.Join(lines[:n], "")
		if counter.Count(text) <= limit {
			return text
		}
	}
	return ""
}

// Items lists the packet's items, one key a line ("section: source:
// title"), in section order: what every render of the packet carries,
// whatever its target.
func Items(p Packet) []string {
	var out []string
	add := func(section, source, title string) { out = append(out, section+": "+source+": "+title) }
	for _, it := range p.WorkingStyle.Items {
		add("working_style", it.Source, it.Title)
	}
	for _, it := range p.ActiveContext.Items {
		add("active_context", it.Source, it.Title)
	}
	for _, b := range p.ActiveContext.Blocked {
		add("blocked", tiers.TasksPath, b)
	}
	for _, it := range p.Priorities {
		add("priorities", it.Source, it.Title)
	}
	for _, it := range p.Constraints {
		add("constraints", it.Source, it.Title)
	}
	for _, it := range p.Decisions {
		add("decisions", it.Source, it.Title)
	}
	for _, it := range p.Incidents {
		add("incidents", it.Source, it.Summary)
	}
	for _, it := range p.RecommendedNotes {
		add("recommended_notes", it.Path, it.Title)
	}
	return out
}

// A rendering is a head and sections of item lines; the prompt fitter
// cuts items from it.
type rendering struct {
	head     []string
	sections []*section
	tail     []string
	cutOrder []string // section keys, least important first
}

type section struct {
	key     string
	heading string
	intro   []string
	items   []string
}

func (r *rendering) text() string {
	var b strings.Builder
	for _, l := range r.head {
		b.WriteString(l + "\n")
	}
	for _, s := range r.sections {
		if len(s.items) == 0 && len(s.intro) == 0 {
			continue
		}
		b.WriteString("\n" + s.heading + "\n")
		for _, l := range s.intro {
			b.WriteString(l + "\n")
		}
		for _, l := range s.items {
			b.WriteString(l + "\n")
		}
	}
	if len(r.tail) > 0 {
		b.WriteString("\n")
		for _, l := range r.tail {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// cuttable is how many items the fitter may cut.
func (r *rendering) cuttable() int {
	n := 0
	for _, s := range r.sections {
		if slices.Contains(r.cutOrder, s.key) {
			n += len(s.items)
		}
	}
	return n
}

func (r *rendering) cutOne() bool {
	for _, key := range r.cutOrder {
		for _, s := range r.sections {
			if s.key == key && len(s.items) > 0 {
				s.items = s.items[:len(s.items)-1]
				return true
			}
		}
	}
	return false
}

// render shapes the packet for its target. compact leaves out the
// provenance and policy sections (the prompt keeps one policy line).
func render(p Packet, compact bool) *rendering {
	r := &rendering{cutOrder: []string{"recommended_notes", "incidents", "active_context", "working_style", "decisions", "blocked", "priorities", "constraints"}}
	id := p.Identity
	name := id.Name
	if name == "" {
		name = id.ProjectID
	}
	switch p.Target {
	case TargetClaude:
		r.head = claudeHead(p, name)
	case TargetCodex:
		r.head = []string{"# Wake-up: " + name + " (" + id.ProjectID + ")"}
		if len(p.Query.Files) > 0 || len(p.Query.Modules) > 0 {
			r.head = append(r.head, "Files in scope: "+strings.Join(append(append([]string{}, p.Query.Files...), p.Query.Modules...), ", "))
		}
		if p.Query.Task != "" {
			r.head = append(r.head, "Task: "+p.Query.Task)
		}
		if p.ActiveContext.SessionSummary != "" {
			r.head = append(r.head, "Last session: "+p.ActiveContext.SessionSummary)
		}
		if p.ActiveContext.OpenRisk != "" {
			r.head = append(r.head, "Open risk: "+p.ActiveContext.OpenRisk)
		}
	case TargetOpenCode:
		r.head = []string{"# wakeup.v1 " + id.ProjectID,
			"project_id: " + id.ProjectID, "name: " + name, "root: " + id.Root,
			"task: " + p.Query.Task, "files: " + strings.Join(p.Query.Files, ", "),
			"updated: " + p.ActiveContext.Updated, "session_summary: " + p.ActiveContext.SessionSummary,
			"open_risk: " + p.ActiveContext.OpenRisk}
	default:
		r.head = []string{"# Wake-up packet: " + name}
		for _, kv := range [][2]string{{"Project", id.ProjectID}, {"Root", id.Root}, {"Summary", id.Summary}, {"Purpose", id.Purpose},
			{"Agent", id.Agent}, {"Task", p.Query.Task}, {"Last session", p.ActiveContext.SessionSummary},
			{"Updated", p.ActiveContext.Updated}, {"Open risk", p.ActiveContext.OpenRisk}} {
			if kv[1] != "" {
				r.head = append(r.head, kv[0]+": "+kv[1])
			}
		}
	}
	src := func(s string) string {
		switch p.Target {
		case TargetClaude:
			return " (source: " + s + ")"
		case TargetOpenCode:
			return " | source: " + s
		}
		return " — " + s
	}
	sec := func(key, heading string) *section {
		s := &section{key: key, heading: heading}
		r.sections = append(r.sections, s)
		return s
	}
	// The sections, in the target's order.
	order := []string{"priorities", "blocked", "constraints", "working_style", "decisions", "active_context", "incidents", "recommended_notes"}
	switch p.Target {
	case TargetClaude:
		order = []string{"constraints", "working_style", "priorities", "blocked", "decisions", "active_context", "incidents", "recommended_notes"}
	case TargetOpenCode, TargetGeneric, "":
		order = []string{"working_style", "active_context", "blocked", "priorities", "constraints", "decisions", "incidents", "recommended_notes"}
	}
	h := headings(p.Target)
	for _, key := range order {
		s := sec(key, h[key])
		switch key {
		case "priorities":
			for i, it := range p.Priorities {
				if p.Target == TargetCodex {
					s.items = append(s.items, "- [ ] "+it.Title+src(it.Source))
				} else {
					s.items = append(s.items, fmt.Sprintf("%d. %s%s", i+1, it.Title, src(it.Source)))
				}
			}
		case "blocked":
			for _, b := range p.ActiveContext.Blocked {
				s.items = append(s.items, "- "+b+src(tiers.TasksPath))
			}
		case "constraints":
			for _, it := range p.Constraints {
				s.items = append(s.items, "- "+joinTS(it.Title, it.Summary)+src(it.Source)+level(it.Sensitivity))
			}
		case "working_style":
			for _, it := range p.WorkingStyle.Items {
				s.items = append(s.items, "- "+joinTS(it.Title, it.Summary)+src(it.Source)+level(it.Sensitivity))
			}
		case "active_context":
			for _, it := range p.ActiveContext.Items {
				s.items = append(s.items, "- "+joinTS(it.Title, it.Summary)+src(it.Source)+level(it.Sensitivity))
			}
		case "decisions":
			for _, d := range p.Decisions {
				line := "- " + d.Title
				if d.Rationale != "" {
					line += " — because " + d.Rationale
				}
				if d.ReversalCondition != "" {
					line += "; reverse if: " + d.ReversalCondition
				}
				s.items = append(s.items, line+src(d.Source))
			}
		case "incidents":
			for _, in := range p.Incidents {
				line := "- " + in.Summary
				if in.Consequence != "" {
					line += "; consequence: " + in.Consequence
				}
				if in.Prevention != "" {
					line += "; prevention: " + in.Prevention
				}
				s.items = append(s.items, line+src(in.Source))
			}
		case "recommended_notes":
			for _, n := range p.RecommendedNotes {
				switch p.Target {
				case TargetCodex:
					s.items = append(s.items, fmt.Sprintf("- read next: `%s` (%s) — %s", n.Path, n.Title, n.WhyRelevant))
				case TargetOpenCode:
					s.items = append(s.items, fmt.Sprintf("- %s | title: %s | memory_type: %s | score: %.3f", n.Path, n.Title, n.MemoryType, n.Score))
				default:
					s.items = append(s.items, fmt.Sprintf("- %s: %s (score %.3f; %s)", n.Path, n.Title, n.Score, n.WhyRelevant))
				}
			}
		}
	}
	pol := p.Policy
	policyLine := fmt.Sprintf("Policy: %s; most sensitive shown: %s; %d redaction(s); %d note(s) held back.",
		pol.PolicyMode, pol.MaxSensitivityIncluded, pol.RedactionsApplied, pol.SuppressedNoteCount)
	if compact {
		r.tail = []string{policyLine, fmt.Sprintf("Packet %s, generated %s for %s.", p.Version, p.GeneratedAt, p.Target)}
		return r
	}
	prov := sec("provenance", "## Provenance")
	for _, d := range p.Provenance.DerivedFrom {
		line := "- " + d.Path
		if d.MemoryType != "" {
			line += " (memory_type " + d.MemoryType + ")"
		}
		if d.SourceOfTruth {
			line += " [source of truth]"
		}
		prov.items = append(prov.items, line)
	}
	basis := sec("selection_basis", "## Why these items")
	for _, s := range p.Provenance.SelectionBasis {
		basis.items = append(basis.items, "- "+s)
	}
	r.tail = []string{policyLine, fmt.Sprintf("Packet %s, generated %s for %s, profile %s.", p.Version, p.GeneratedAt, p.Target, p.Profile)}
	return r
}

func claudeHead(p Packet, name string) []string {
	id := p.Identity
	var b strings.Builder
	fmt.Fprintf(&b, "You are resuming work on %s", name)
	if id.ProjectID != "" && id.ProjectID != name {
		fmt.Fprintf(&b, " (project %s)", id.ProjectID)
	}
	b.WriteString(".")
	if id.Purpose != "" {
		b.WriteString(" Purpose: " + strings.TrimSuffix(id.Purpose, ".") + ".")
	} else if id.Summary != "" {
		b.WriteString(" " + strings.TrimSuffix(id.Summary, ".") + ".")
	}
	if s := p.ActiveContext.SessionSummary; s != "" {
		b.WriteString(" Last session: " + strings.TrimSuffix(s, ".") + ".")
	}
	if s := p.ActiveContext.OpenRisk; s != "" {
		b.WriteString(" Open risk: " + strings.TrimSuffix(s, ".") + ".")
	}
	if p.Query.Task != "" {
		b.WriteString(" Your task: " + strings.TrimSuffix(p.Query.Task, ".") + ".")
	}
	return []string{"# Wake-up: " + name, "", b.String(), "Every item below names its source file; follow the constraints and working style as given."}
}

func headings(target string) map[string]string {
	switch target {
	case TargetClaude:
		return map[string]string{"constraints": "## Constraints you must respect", "working_style": "## How to work here",
			"priorities": "## What matters now", "blocked": "## Blocked", "decisions": "## Decisions in force",
			"active_context": "## Current context", "incidents": "## Past incidents to keep in mind", "recommended_notes": "## Notes worth reading next"}
	case TargetCodex:
		return map[string]string{"priorities": "## Next actions", "blocked": "## Blocked", "constraints": "## Rules",
			"working_style": "## Working style", "decisions": "## Decisions", "active_context": "## Context",
			"incidents": "## Pitfalls", "recommended_notes": "## Read next"}
	}
	return map[string]string{"working_style": "## working_style", "active_context": "## active_context", "blocked": "## blocked",
		"priorities": "## priorities", "constraints": "## constraints", "decisions": "## decisions", "incidents": "## incidents",
		"recommended_notes": "## recommended_notes"}
}

func joinTS(title, summary string) string {
	if summary == "" || summary == title {
		return title
	}
	return title + ": " + summary
}

func level(l string) string {
	if l == "confidential" {
		return " [confidential: summary only]"
	}
	return ""
}

package wakeup

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// GatherOptions are what [Gather] reads from.
type GatherOptions struct {
	FS   afero.Fs
	Root string
	// Context holds the tier files as the sensitivity policy admitted them
	// (boot.Read).
	Context *boot.Context
	// Cold is what a scan of cold/ through the cold index knows of each
	// cold document (cold.Index.Documents): no cold document is opened
	// but those with a memory_type the packet may show whole.
	Cold []cold.Document
	// Agent is wake.toml's agent, the identity's name for the agent.
	Agent string
	// Warn hears of a document that could not be read when the packet
	// came to read it whole; nil drops the warnings.
	Warn func(string)
}

// Gather collects the project profile's candidates: main.md (identity,
// standing directives, the HANDOFF), the active tasks, the decision log's
// active entries, and every document with memory_type front matter, tier
// files and cold documents alike, each as the policy lets it appear:
// secret never (counted), confidential as its summary only, the rest
// scrubbed of secret-looking strings. It returns warnings for documents
// it could not read; they do not stop the packet.
func Gather(o GatherOptions) (Sources, []string) {
	var src Sources
	var warns []string
	for _, f := range o.Context.Files() {
		if f.Held == policy.Secret {
			src.Suppressed++
		}
	}
	if a := o.Context.Admitted(tiers.MainPath); a.Whole || a.Summary != "" {
		src.MainLevel, _ = policy.OfDoc(a.Doc)
		src.Identity = identity(o.Root, a)
		src.IdentityLevel, src.IdentityBasis = src.MainLevel, "the project's identity"
		src.Identity.Agent = tiers.ShortLine(o.Agent)
	}
	if a := o.Context.Admitted(tiers.TasksPath); a.Whole {
		src.TasksLevel, _ = policy.OfDoc(a.Doc)
		src.Tasks, src.Blocked = tasks(string(a.Doc.Content))
	}
	if a := o.Context.Admitted(tiers.DecisionsPath); a.Whole {
		src.DecisionsLevel, _ = policy.OfDoc(a.Doc)
		src.Decisions = logDecisions(a.Doc.Content)
	}
	if a := o.Context.Admitted(tiers.MainPath); a.Whole {
		m := tiers.ParseMain(a.Doc.Content)
		if d, ok := m.Section(tiers.SectionDirectives); ok {
			src.Directives = bullets(d)
		}
		src.Handoff = map[string]string{}
		for k, v := range m.Handoff.Fields {
			src.Handoff[k] = tiers.ShortLine(v)
		}
	}
	// Tier files other than main.md that declare a memory_type.
	for _, f := range o.Context.Files() {
		if f.Path == tiers.MainPath {
			continue
		}
		a := o.Context.Admitted(f.Path)
		if a.Doc.Meta.MemoryType == "" || !a.Whole && a.Summary == "" {
			continue
		}
		src.Docs = append(src.Docs, docOf(a, f.Path))
	}
	src.Docs = append(src.Docs, otherDocs(o, &src, &warns)...)
	// Cold documents, in path order, from the index.
	src.Docs = slices.Grow(src.Docs, len(o.Cold))
	for i := range o.Cold {
		p, e := o.Cold[i].Path, &o.Cold[i].Entry
		if e.Binary {
			continue
		}
		var metaErr error
		if e.MetaErr != "" {
			metaErr = errors.New(e.MetaErr)
		}
		level := policy.Level(e.Sens, metaErr)
		if level == policy.Secret {
			src.Suppressed++
			continue
		}
		heading := e.Heading
		if level == policy.Confidential {
			// The heading is the body's: a confidential document shows
			// its summary only, named by its file.
			heading = ""
		}
		d := Doc{Path: p, Title: titleOf(p, heading), Summary: e.Summary, MemoryType: memoryType(p, e.MemoryType, e.Session),
			ProjectID: e.ProjectID, SourceOfTruth: e.SourceOfTruth, Sensitivity: level, ModTime: time.Unix(0, e.MTime).UTC()}
		// Bodies are read only of what the packet may show whole, and
		// only when it ranks near the top (see Build).
		d.Unread = d.MemoryType != "" && d.MemoryType != TypeSession && level != policy.Confidential
		src.Docs = append(src.Docs, d)
	}
	src.ReadBody = func(p string) (string, string, error) {
		doc, err := tiers.ReadDoc(o.FS, o.Root, p)
		switch {
		case err != nil:
		case doc.Missing:
			err = fmt.Errorf("%s: gone since it was listed", p)
		case doc.Skipped != "":
			err = fmt.Errorf("%s: skipped: %s", p, doc.Skipped)
		}
		if err != nil {
			if o.Warn != nil {
				o.Warn(err.Error())
			}
			return "", "", err
		}
		level, _ := policy.OfDoc(doc)
		if policy.Withheld(level) {
			return level, "", nil
		}
		body := bodyOf(doc.Content)
		text, _ := policy.Scrub(string(body))
		return level, text, nil
	}
	return src, warns
}

// memoryType is a cold document's memory type: its front matter's, else
// session for wake's own session material, which the packet leaves out
// by default (the seed's rule). Session summaries say so in their
// front matter (memory_type: session, and a session key even in those
// written before wake wrote the type); capsules and archived summaries
// are known by where wake writes them.
func memoryType(p, declared, session string) string {
	if declared != "" {
		return strings.ToLower(declared)
	}
	for _, dir := range []string{tiers.SessionsDir + "/", "cold/capsules/"} {
		if strings.HasPrefix(p, dir) {
			return TypeSession
		}
	}
	if session != "" {
		return TypeSession
	}
	return ""
}

// identity is main.md's identity: its project_id (front matter, else its
// first heading as a slug, else the project directory's name), name
// (first heading), summary, and the
// Identity and Purpose sections' first paragraphs. A confidential main.md
// gives only its summary.
func identity(root string, a boot.Admitted) Identity {
	id := Identity{Root: root, Source: tiers.MainPath}
	id.ProjectID = a.Doc.Meta.ProjectID
	body := bodyOf(a.Doc.Content)
	if id.ProjectID == "" && a.Whole {
		id.ProjectID = slug(tiers.FirstHeading(string(body)))
	}
	if id.ProjectID == "" {
		dir := root
		if path.Base(strings.ReplaceAll(root, "\\", "/")) == ".wake" {
			dir = path.Dir(strings.ReplaceAll(root, "\\", "/"))
		}
		id.ProjectID = strings.ToLower(path.Base(strings.ReplaceAll(dir, "\\", "/")))
	}
	if !a.Whole {
		id.Summary = tiers.ShortLine(a.Summary)
		return id
	}
	id.Name = tiers.ShortLine(tiers.FirstHeading(string(body)))
	id.Summary = tiers.ShortLine(a.Doc.Meta.Summary)
	m := tiers.ParseMain(a.Doc.Content)
	if s, ok := m.Section(tiers.SectionIdentity); ok {
		id.Role = firstParagraph(s)
	}
	if s, ok := m.Section(tiers.SectionPurpose); ok {
		id.Purpose = firstParagraph(s)
	}
	return id
}

// docOf is a tier file with a memory_type as a candidate.
func docOf(a boot.Admitted, p string) Doc {
	level, _ := policy.OfDoc(a.Doc)
	d := Doc{Path: p, MemoryType: strings.ToLower(a.Doc.Meta.MemoryType), ProjectID: a.Doc.Meta.ProjectID,
		SourceOfTruth: a.Doc.Meta.SourceOfTruth != nil && *a.Doc.Meta.SourceOfTruth, Sensitivity: level, ModTime: a.Doc.ModTime.UTC()}
	if !a.Whole {
		d.Title, d.Summary = path.Base(p), tiers.ShortLine(a.Summary)
		return d
	}
	body := bodyOf(a.Doc.Content)
	d.Title = titleOf(p, tiers.FirstHeading(string(body)))
	d.Summary = tiers.ShortLine(a.Doc.Meta.Summary)
	d.Body = string(body)
	return d
}

func titleOf(p, heading string) string {
	if h := tiers.ShortLine(heading); h != "" {
		return h
	}
	return strings.TrimSuffix(path.Base(p), path.Ext(p))
}

// tasks reads warm/active_tasks.md: the open items of every section but
// Done, those of a section whose title says blocked apart. The skeleton
// asks for blockers "under the task, indented": an indented "blocked by:
// …" item is the task's blocker, which puts the task with the blocked
// ones (with its blocker) and not among the priorities; any other
// indented item is a note of its task, joined to it.
func tasks(text string) (open, blocked []string) {
	for _, s := range tiers.Sections(text, 2) {
		title := strings.ToLower(s.Title)
		if strings.Contains(title, "done") {
			continue
		}
		for _, t := range taskItems(s.Body(text)) {
			if strings.HasPrefix(t.text, "[x]") || strings.HasPrefix(t.text, "[X]") {
				continue
			}
			b := strings.TrimSpace(strings.TrimPrefix(t.text, "[ ]"))
			switch {
			case len(t.blockers) > 0:
				blocked = append(blocked, tiers.ShortLine(b+" — blocked by: "+strings.Join(t.blockers, "; ")))
			case strings.Contains(title, "block"):
				blocked = append(blocked, tiers.ShortLine(b))
			default:
				open = append(open, tiers.ShortLine(b))
			}
		}
	}
	return open, blocked
}

// task is a top-level item of a task list and the blockers noted under it.
type task struct {
	text     string
	blockers []string
}

// taskItems reads a section's list: items at the list's outer indent are
// tasks; an indented item under one is its note, a blocker when it says
// "blocked by"; a continuation line is joined to what it continues.
func taskItems(body string) []task {
	var out []task
	outer := -1
	blockerLast := false
	for l := range strings.Lines(tiers.StripComments(body)) {
		t := strings.TrimSpace(l)
		indent := len(l) - len(strings.TrimLeft(l, " \t"))
		item := strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ")
		switch {
		case t == "":
		case item && (outer < 0 || indent <= outer || len(out) == 0):
			outer = indent
			out = append(out, task{text: strings.TrimSpace(t[2:])})
			blockerLast = false
		case item:
			note := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t[2:]), "[ ]"))
			cur := &out[len(out)-1]
			if rest, ok := cutBlockedBy(note); ok {
				cur.blockers = append(cur.blockers, rest)
				blockerLast = true
			} else {
				cur.text += " (" + note + ")"
				blockerLast = false
			}
		case len(out) > 0 && indent > 0:
			cur := &out[len(out)-1]
			if blockerLast {
				cur.blockers[len(cur.blockers)-1] += " " + t
			} else {
				cur.text += " " + t
			}
		}
	}
	return out
}

// cutBlockedBy returns what a note says the task is blocked by, when it
// is a blocker ("blocked by: x", "Blocked by x", "blocker: x").
func cutBlockedBy(note string) (string, bool) {
	low := strings.ToLower(note)
	for _, p := range []string{"blocked by", "blocker", "blocked on", "waiting on", "waiting for"} {
		if strings.HasPrefix(low, p) {
			rest := strings.TrimSpace(note[len(p):])
			return strings.TrimSpace(strings.TrimPrefix(rest, ":")), true
		}
	}
	return "", false
}

// logDecisions are the decision log's entries in force (active and
// contested), with the reversal condition an objection or the entry's
// text gives.
func logDecisions(data []byte) []LogDecision {
	var out []LogDecision
	for _, d := range tiers.SharedDecisions(data).Entries {
		// A contested decision stays in force until it is upheld or
		// reversed; its objection is the condition it may fall on.
		if !d.Active() && d.Status != tiers.StatusContested {
			continue
		}
		reversal := reversalIn(d.What + ". " + d.Why)
		// An upheld entry keeps its OBJECTION line as history: the
		// objection was weighed and lost, so it is no longer the
		// condition the decision may fall on.
		if obj := d.Value(tiers.KeyObjection); obj != "" && d.Status == tiers.StatusContested {
			reversal = tiers.ShortLine("contested: " + tiers.OneLine(obj))
		}
		ref := tiers.DecisionsPath + "#" + d.Ref()
		out = append(out, LogDecision{Title: tiers.ShortLine(d.Title()), Rationale: tiers.ShortLine(d.Why), Reversal: reversal, Ref: ref})
	}
	return out
}

// slug is a heading as a project_id: lower case, runs of anything but
// letters and digits as one "-".
func slug(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), "-")
}

// bodyOf is a document without its front matter (already parsed by
// tiers.ReadDoc).
func bodyOf(data []byte) []byte {
	if _, body, ok := tiers.SplitFrontMatter(data); ok {
		return body
	}
	return data
}

// maxOtherDocs bounds the documents read outside the tier files and cold/.
const maxOtherDocs = 2000

// otherDocs are the documents with a memory_type elsewhere in the root:
// not a tier file, not under cold/ (the index lists those), not wake's own
// (boot.md, skill.md, the state directory), not hidden. Each is taken as
// the policy lets it appear, as a cold document is; a secret one is
// counted.
func otherDocs(o GatherOptions, src *Sources, warns *[]string) []Doc {
	skip := map[string]bool{tiers.BootPath: true, tiers.RootSkillPath: true}
	for _, f := range o.Context.Files() {
		skip[f.Path] = true
	}
	var out []Doc
	seen := 0
	afero.Walk(o.FS, o.Root, func(name string, fi fs.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		rel, rerr := filepath.Rel(o.Root, name)
		if rerr != nil || rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if fi.IsDir() {
			if strings.HasPrefix(fi.Name(), ".") || rel == "cold" {
				return filepath.SkipDir
			}
			return nil
		}
		if !fi.Mode().IsRegular() || path.Ext(rel) != ".md" || skip[rel] || strings.HasPrefix(fi.Name(), ".") {
			return nil
		}
		if seen++; seen > maxOtherDocs {
			return filepath.SkipAll
		}
		doc, err := tiers.ReadDoc(o.FS, o.Root, rel)
		if err != nil || doc.Missing || doc.Skipped != "" || !doc.Readable() {
			if err != nil {
				*warns = append(*warns, fmt.Sprintf("%s: %v", rel, err))
			}
			return nil
		}
		level, metaErr := policy.OfDoc(doc)
		if level == policy.Secret {
			if doc.Meta.MemoryType != "" || metaErr != nil {
				src.Suppressed++
			}
			return nil
		}
		if doc.Meta.MemoryType == "" {
			return nil
		}
		d := Doc{Path: rel, MemoryType: strings.ToLower(doc.Meta.MemoryType), ProjectID: doc.Meta.ProjectID,
			SourceOfTruth: doc.Meta.SourceOfTruth != nil && *doc.Meta.SourceOfTruth, Sensitivity: level,
			ModTime: doc.ModTime.UTC(), Summary: tiers.ShortLine(doc.Meta.Summary)}
		if level == policy.Confidential {
			d.Title = titleOf(rel, "")
		} else {
			d.Title = titleOf(rel, tiers.FirstHeading(string(bodyOf(doc.Content))))
			d.Unread = d.MemoryType != TypeSession
		}
		// As the cold index scrubs what it learns: so that no query term
		// is matched against a secret, and the reasons never quote one.
		d.Title, _ = policy.Scrub(d.Title)
		d.Summary, _ = policy.Scrub(d.Summary)
		out = append(out, d)
		return nil
	})
	return out
}

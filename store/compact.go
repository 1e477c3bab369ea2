package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// OpCompact is the ledger op of a compaction.
const OpCompact = "compact"

// The archives under cold/ that compaction moves finished records into.
// One a warm file, named after it, so that what left a file is found in
// one place, in the order it was written.
const (
	ArchiveDir          = tiers.ColdDir + "/archive"
	DecisionsArchive    = ArchiveDir + "/decisions.md"
	TasksArchive        = ArchiveDir + "/tasks.md"
	QuestionsArchive    = ArchiveDir + "/questions.md"
	decisionsArchiveSum = "reversed decisions moved out of warm/decisions.md by wake compact, every byte and ID kept, oldest first"
	tasksArchiveSum     = "done tasks moved out of warm/active_tasks.md by wake compact, every byte kept, oldest first"
	questionsArchiveSum = "resolved questions moved out of warm/open_questions.md by wake compact, every byte kept, oldest first"
)

// Headings whose list items are finished, compared in lower case.
var (
	doneTaskHeads     = []string{"done", "completed"}
	resolvedQuestions = []string{"resolved", "answered"}
)

// Compaction says what [Store.Compact] moved, or would move.
type Compaction struct {
	Files []CompactedFile `json:"files,omitempty"`
}

// CompactedFile is what one warm file gave its archive.
type CompactedFile struct {
	Path    string   `json:"path"`          // the warm file
	Archive string   `json:"archive"`       // where its entries went
	Entries int      `json:"entries"`       // how many entries left the warm file
	IDs     []string `json:"ids,omitempty"` // the decision IDs moved, for the decision log
}

// entryKinds name what each warm file gives its archive, in the singular.
var entryKinds = map[string]string{
	tiers.DecisionsPath: "reversed decision",
	tiers.TasksPath:     "done task",
	tiers.QuestionsPath: "resolved question",
	tiers.InboxPath:     "closed reminder",
}

// What says in words what left the warm file: "12 reversed decisions".
func (f CompactedFile) What() string {
	kind, ok := entryKinds[f.Path]
	if !ok {
		kind = "entry"
	}
	if f.Entries != 1 {
		kind += "s"
		if !ok {
			kind = "entries"
		}
	}
	return fmt.Sprintf("%d %s", f.Entries, kind)
}

// Empty reports whether nothing was, or would be, moved.
func (c Compaction) Empty() bool { return len(c.Files) == 0 }

// Total is the number of entries moved.
func (c Compaction) Total() int {
	n := 0
	for _, f := range c.Files {
		n += f.Entries
	}
	return n
}

// compactPlan is one warm file's compaction as it will be written.
type compactPlan struct {
	file     CompactedFile
	warm     string // the warm file's new text
	archive  string // the archive's new text
	changeAr bool   // the archive changes (not when it holds the entries already)
}

// Compact moves reversed decisions, done tasks, resolved questions and
// closed reminders out of warm/ into their archives under cold/ (see [ArchiveDir]), every byte
// and every ID kept, with one "compact" ledger line. The archives are
// written first, then the warm files, then the decision log with its
// snapshot and the ledger line: a crash in between leaves entries in both
// places, never in neither, and the next compaction finishes the move
// without archiving them twice. With dryRun nothing is written. A decision
// log with entries edited or deleted by hand is refused, as every
// annotation is: the user settles it first.
func (s *Store) Compact(ctx context.Context, dryRun bool) (Compaction, error) {
	return s.CompactFiles(ctx, dryRun, nil)
}

// CompactFiles is [Store.Compact] for the warm files named in only (their
// paths under the root, such as [tiers.DecisionsPath]); nil names them all.
// What a hand-off compacts of its own accord is a file over its share,
// not every file with something finished in it.
func (s *Store) CompactFiles(ctx context.Context, dryRun bool, only []string) (Compaction, error) {
	want := func(warm string) bool { return only == nil || slices.Contains(only, warm) }
	var out Compaction
	err := s.decisionsLocked(ctx, func() error {
		f, given, err := s.readDecisionsForEdit()
		if err != nil {
			return err
		}
		var dp *compactPlan
		if want(tiers.DecisionsPath) {
			if dp, err = s.planDecisions(&f); err != nil {
				return err
			}
		}
		plans, err := s.planOthers(want)
		if err != nil {
			return err
		}
		if dp != nil {
			plans = append(plans, *dp)
		}
		// The decision log is listed first, as what matters most, though
		// it is written last.
		for i := len(plans) - 1; i >= 0; i-- {
			out.Files = append(out.Files, plans[i].file)
		}
		if dryRun || len(plans) == 0 {
			return nil
		}
		return s.writeCompaction(plans, dp != nil, f, given, out)
	})
	return out, err
}

// planOthers plans the moves out of the warm files wanted but the
// decision log: the task and question lists, then the inbox.
func (s *Store) planOthers(want func(warm string) bool) ([]compactPlan, error) {
	var plans []compactPlan
	for _, l := range []struct {
		warm, archive, summary string
		heads                  []string
	}{
		{tiers.TasksPath, TasksArchive, tasksArchiveSum, doneTaskHeads},
		{tiers.QuestionsPath, QuestionsArchive, questionsArchiveSum, resolvedQuestions},
	} {
		if !want(l.warm) {
			continue
		}
		p, err := s.planList(l.warm, l.archive, l.summary, l.heads)
		if err != nil {
			return nil, err
		}
		if p != nil {
			plans = append(plans, *p)
		}
	}
	if !want(tiers.InboxPath) {
		return plans, nil
	}
	p, err := s.planInbox()
	if p != nil {
		plans = append(plans, *p)
	}
	return plans, err
}

// writeCompaction writes the archives, then the warm task and question
// files, then the decision log with the ledger line (or the line alone).
func (s *Store) writeCompaction(plans []compactPlan, decisions bool, f decisionFile, given *Entry, c Compaction) error {
	var paths []string
	for _, p := range plans {
		paths = append(paths, p.file.Archive, p.file.Path)
	}
	if err := s.CheckWritable(paths...); err != nil {
		return err
	}
	if err := CheckLedgerWritable(s.FS, s.Root); err != nil {
		return err
	}
	for _, p := range plans {
		if p.changeAr {
			if err := s.Write(p.file.Archive, []byte(p.archive)); err != nil {
				return err
			}
		}
	}
	for _, p := range plans {
		if p.file.Path != tiers.DecisionsPath {
			if err := s.Write(p.file.Path, []byte(p.warm)); err != nil {
				return err
			}
		}
	}
	e := Entry{At: s.Now().UTC().Truncate(time.Second), Op: OpCompact, Paths: paths, ChangeSummary: c.summary()}
	if !decisions {
		return s.appendLedger(e)
	}
	warm := plans[len(plans)-1].warm
	return s.writeDecisions([]byte(warm), []byte(warm), given, &e)
}

// summary is the ledger line's change summary.
func (c Compaction) summary() string {
	var parts []string
	for _, f := range c.Files {
		p := fmt.Sprintf("%d from %s to %s", f.Entries, f.Path, f.Archive)
		if len(f.IDs) > 0 {
			p += " (" + strings.Join(f.IDs, ", ") + ")"
		}
		parts = append(parts, p)
	}
	return "compacted: moved " + strings.Join(parts, "; ")
}

// planDecisions plans moving the reversed entries of f's log to the
// decisions archive; nil when there are none. An entry the archive holds
// already, byte for byte under the same ID, is a move a crash cut short:
// it leaves the log without being archived twice.
func (s *Store) planDecisions(f *decisionFile) (*compactPlan, error) {
	// The archive, which only grows, is read only for a move: a hand-off
	// looks for one each time the log is over its share.
	if !slices.ContainsFunc(f.log.Entries, func(e tiers.Decision) bool { return e.Status == tiers.StatusReversed }) {
		return nil, nil
	}
	old, err := s.readArchive(DecisionsArchive, decisionsArchiveSum, f.text)
	if err != nil {
		return nil, err
	}
	have := tiers.ParseDecisions([]byte(old))
	eol := eolOf(f.text)
	p := compactPlan{file: CompactedFile{Path: tiers.DecisionsPath, Archive: DecisionsArchive}, archive: old}
	m := mover{text: f.text, eol: eol}
	for _, e := range f.log.Entries {
		if e.Status != tiers.StatusReversed {
			continue
		}
		m.take(e.Bytes.Start, e.Bytes.End)
		p.file.Entries++
		p.file.IDs = append(p.file.IDs, e.ID)
		if !archived(have, e) {
			m.archive(e.Raw)
		}
	}
	if p.file.Entries == 0 {
		return nil, nil
	}
	m.finish(&p)
	return &p, nil
}

// mover cuts entries out of a warm file's text, each with the blank lines
// after it, and gathers those its archive does not hold yet: built up
// once, so that moving many entries out of a long file costs the file's
// length, not that times the entries.
type mover struct {
	text, eol string
	kept      strings.Builder
	from      int
	added     []string
}

// take cuts text[start:end] out of the warm text.
func (m *mover) take(start, end int) {
	m.kept.WriteString(m.text[m.from:start])
	m.from = skipBlankLines(m.text, end)
}

// archive adds an entry taken to what the archive gains.
func (m *mover) archive(raw string) {
	if !strings.HasSuffix(raw, "\n") {
		raw += m.eol
	}
	m.added = append(m.added, raw)
}

// finish puts the warm file's new text and the archive's into p.
func (m *mover) finish(p *compactPlan) {
	p.warm = m.kept.String() + m.text[m.from:]
	if len(m.added) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString(p.archive)
	tail := p.archive[max(0, len(p.archive)-3):]
	for _, raw := range m.added {
		// The separator appendEntry would put after what precedes.
		b.WriteString(appendEntry(tail, "", m.eol)[len(tail):])
		b.WriteString(raw)
		tail = raw[max(0, len(raw)-3):]
	}
	p.archive, p.changeAr = b.String(), true
}

// archived reports whether the archive log holds entry e byte for byte.
func archived(have tiers.DecisionLog, e tiers.Decision) bool {
	for _, a := range have.ByID(e.ID) {
		if strings.TrimRight(a.Raw, "\r\n") == strings.TrimRight(e.Raw, "\r\n") {
			return true
		}
	}
	return false
}

// skipBlankLines returns the offset past the blank lines from off.
func skipBlankLines(text string, off int) int {
	for off < len(text) {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			if strings.TrimSpace(text[off:]) == "" {
				return len(text)
			}
			return off
		}
		if strings.TrimSpace(text[off:off+i]) != "" {
			return off
		}
		off += i + 1
	}
	return off
}

// planList plans moving the finished items of the list at warm to its
// archive; nil when there are none. When the archive ends with exactly
// the items to move, a compaction a crash cut short wrote them there
// already: they leave the list without being archived twice.
func (s *Store) planList(warm, archive, summary string, heads []string) (*compactPlan, error) {
	cur, err := tiers.ReadOwn(s.FS, s.Root, warm)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", warm, err)
	}
	kept, moved := finishedItems(string(cur), heads)
	if len(moved) == 0 {
		return nil, nil
	}
	old, err := s.readArchive(archive, summary, string(cur))
	if err != nil {
		return nil, err
	}
	block := strings.Join(moved, "")
	p := compactPlan{file: CompactedFile{Path: warm, Archive: archive, Entries: len(moved)}, warm: kept, archive: old}
	if !strings.HasSuffix(old, block) {
		if !strings.HasSuffix(old, "\n") {
			p.archive += "\n"
		}
		p.archive += block
		p.changeAr = true
	}
	return &p, nil
}

// readArchive reads an archive, or gives a new one's front matter: its
// summary, and the sensitivity of warm, the file its entries come from,
// when that holds them back, so that the archive does not show them.
func (s *Store) readArchive(rel, summary, warm string) (string, error) {
	data, err := tiers.ReadOwn(s.FS, s.Root, rel)
	switch {
	case errors.Is(err, os.ErrNotExist):
		fm := "---\nsummary: " + summary + "\n"
		meta, _, ferr := tiers.ParseFrontMatter([]byte(warm))
		switch {
		case ferr != nil:
			fm += "sensitivity: " + tiers.Secret + "\n" // keys unknown: the strictest
		case meta.Level() == tiers.Confidential, meta.Level() == tiers.Secret:
			fm += "sensitivity: " + meta.Level() + "\n"
		}
		return fm + "---\n", nil
	case err != nil:
		return "", fmt.Errorf("reading %s: %w", rel, err)
	}
	return string(data), nil
}

// ReadDecisionsArchive reads the decisions archive, the reversed entries
// compaction moved out of warm/decisions.md; empty when there is none.
func ReadDecisionsArchive(fsys afero.Fs, root string) (tiers.DecisionLog, error) {
	data, err := tiers.ReadOwn(fsys, root, DecisionsArchive)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return tiers.DecisionLog{}, nil
	case err != nil:
		return tiers.DecisionLog{}, fmt.Errorf("reading %s: %w", DecisionsArchive, err)
	}
	return tiers.ParseDecisions(data), nil
}

// ArchivedError refuses to annotate a decision that compaction moved to
// the decisions archive: only reversed decisions are archived, and a
// reversed decision is not reversed, contested or upheld again.
type ArchivedError struct {
	Entry tiers.Decision // the entry as the archive holds it
}

func (e *ArchivedError) Error() string {
	return fmt.Sprintf("decision %s (%s) is already %s, archived in %s by wake compact; nothing was changed",
		e.Entry.ID, e.Entry.Title(), statusName(e.Entry), DecisionsArchive)
}

// Hint says how to go on.
func (e *ArchivedError) Hint() string {
	return "annotate its replacement instead ('wake decisions --all' lists every decision, archived ones included)"
}

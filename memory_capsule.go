package wake

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/capsule"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
	"github.com/wakeproto/wake/transcript"
)

// CapsuleOptions say how [Memory.Capsule] builds a capsule. Every field
// may be left zero.
type CapsuleOptions struct {
	// Objective is the capsule's primary_objective; "" takes the HANDOFF's
	// next_priority (else its session_summary).
	Objective string
	// Transcript is a client transcript to take at most
	// capsule.MaxHighlights highlights from; TranscriptFormat its format
	// ("" sniffs it: claude, codex or wake).
	Transcript       string
	TranscriptFormat string
	// TranscriptMayFail makes a transcript that cannot be read cost the
	// capsule its highlights, with a warning, rather than the capsule: for
	// a hook handed the path of a transcript the client may not have
	// written yet.
	TranscriptMayFail bool
	// Session is the capsule's source_session; "" takes the last
	// hand-off's (its client session, else its time).
	Session string
	// DryRun builds the capsule without writing anything.
	DryRun bool
	// Consume marks the inbox's reminders the capsule shows consumed, so
	// that they are no longer open. Only a capsule handed to a subagent
	// does so unasked; one built by hand is a snapshot and changes
	// nothing else (issue 27, point 3).
	Consume bool
}

// Branch is the git branch of the project the memory root lies in, as
// git names it: [capsule.Detached] for a detached HEAD, [capsule.NoBranch]
// when the root is not in a git work tree or git is missing.
func (m *Memory) Branch(ctx context.Context) string {
	out, err := m.git(ctx, m.root, "symbolic-ref", "--short", "-q", "HEAD")
	var ee interface{ ExitCode() int }
	switch {
	case err == nil:
		if b := strings.TrimSpace(string(out)); b != "" {
			return b
		}
		return capsule.NoBranch
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		// symbolic-ref -q fails quietly, with status 1, on a detached
		// HEAD; any other failure says something.
		return capsule.Detached
	}
	return capsule.NoBranch
}

// Capsule builds a context capsule from the memory and, unless a dry run,
// writes it to cold/capsules/<branch>/<stamp>.md under the root's lock,
// with o.Consume marking the inbox's reminders it shows consumed in the
// same mutation, with one ledger line (op capsule). It never replaces a file: a second
// capsule of the same second gets "-2", and so on.
func (m *Memory) Capsule(ctx context.Context, o CapsuleOptions) (capsule.Written, error) {
	hl, err := m.capsuleHighlights(o)
	if err != nil {
		return capsule.Written{}, err
	}
	return m.capsuleWith(ctx, o, hl)
}

// capsuleHighlights are the highlights of o's transcript, if any; none,
// with a warning, when it cannot be read and o allows it.
func (m *Memory) capsuleHighlights(o CapsuleOptions) ([]capsule.Highlight, error) {
	if o.Transcript == "" {
		return nil, nil
	}
	hl, err := m.highlights(o.Transcript, o.TranscriptFormat)
	if err != nil {
		if !o.TranscriptMayFail {
			return nil, err
		}
		msg, _ := policy.Scrub(tiers.OneLine(err.Error()))
		m.warn("the capsule has no transcript highlights: " + msg)
	}
	return hl, nil
}

// capsuleWith builds and writes the capsule of [Memory.Capsule] with the
// highlights hl, read beforehand.
func (m *Memory) capsuleWith(ctx context.Context, o CapsuleOptions, hl []capsule.Highlight) (capsule.Written, error) {
	branch := m.Branch(ctx)
	now := m.o.Now().UTC().Truncate(time.Second)
	var w capsule.Written
	build := func() error {
		src, fm, err := m.capsuleSources(ctx, o, branch, now)
		if err != nil {
			return err
		}
		src.Highlights = hl
		id, rel := m.freeCapsulePath(branch, now)
		b := capsule.Build(src, capsule.Options{Front: fm, Path: rel, Ceiling: m.cfg.Capsule.PromptCeiling, Counter: m.counter()})
		w = capsule.Written{ID: id, Path: rel, Capsule: b.Capsule, Data: b.Data, Tokens: b.Tokens, Budget: fm.TokenBudget,
			Cuts: b.Cuts, Consumed: b.Consumed, Warnings: b.Warnings, DryRun: o.DryRun}
		if !o.Consume {
			w.Consumed = nil
		}
		return nil
	}
	if o.DryRun {
		if err := build(); err != nil {
			return capsule.Written{}, err
		}
		m.SaveCache()
		w.Consumed = nil
		return w, nil
	}
	s := m.Store()
	err := func() error {
		unlock, err := s.Locker.Lock(ctx, s.Root)
		if err != nil {
			return err
		}
		defer unlock()
		if err := s.SettleLocked(); err != nil {
			return err
		}
		if err := build(); err != nil {
			return err
		}
		paths := []string{w.Path}
		sum := fmt.Sprintf("capsule %s: %s tokens of %s", w.ID, budget.Thousands(w.Tokens), budget.Thousands(w.Budget))
		if n := len(w.Consumed); n > 0 {
			paths = append(paths, tiers.InboxPath)
			sum += fmt.Sprintf(", %d reminder(s) consumed", n)
		}
		// The capsule, its reminders consumed and its ledger line are one
		// change: a failure before the line is on disk undoes the rest.
		return s.WriteCapsuleLocked(w.Path, w.Data, w.Consumed, w.ID, now,
			store.Entry{At: now, Op: "capsule", Paths: paths, ChangeSummary: sum})
	}()
	m.SaveCache()
	if err != nil {
		return capsule.Written{}, err
	}
	return w, nil
}

// freeCapsulePath is the id and path of a new capsule of branch created
// at now: the first of the second's stamps ("", "-2", ...) that neither a
// capsule nor an archived one has.
func (m *Memory) freeCapsulePath(branch string, now time.Time) (string, string) {
	dir := capsule.BranchDir(branch)
	for n := 1; ; n++ {
		id := capsule.ID(dir, capsule.Stamp(now, n))
		if !m.exists(capsule.PathOf(id)) && !m.exists(capsule.ArchivePathOf(id)) {
			return id, capsule.PathOf(id)
		}
	}
}

func (m *Memory) exists(rel string) bool {
	_, err := lstatIfPossible(m.o.FS, filepath.Join(m.root, filepath.FromSlash(rel)))
	return !errors.Is(err, fs.ErrNotExist)
}

func lstatIfPossible(fsys afero.Fs, name string) (fs.FileInfo, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		fi, _, err := l.LstatIfPossible(name)
		return fi, err
	}
	return fsys.Stat(name)
}

// capsuleSources reads what a capsule is built from, as the sensitivity
// policy admits it, and its front matter.
func (m *Memory) capsuleSources(ctx context.Context, o CapsuleOptions, branch string, now time.Time) (capsule.Sources, capsule.FrontMatter, error) {
	var src capsule.Sources
	c, err := boot.Read(m.bootOptions())
	if err != nil {
		return src, capsule.FrontMatter{}, err
	}
	held := func(p string, a boot.Admitted) {
		if !a.Whole && a.Summary != "" {
			src.Held = append(src.Held, fmt.Sprintf("%s is confidential; its summary: %s", p, a.Summary))
		}
	}
	if a := c.Admitted(tiers.MainPath); a.Whole {
		h := tiers.ParseMain(a.Doc.Content).Handoff
		src.Handoff = capsule.Handoff{Updated: h.Get(tiers.KeyUpdated), Summary: h.Get(tiers.KeySessionSummary),
			Next: h.Get(tiers.KeyNextPriority), Risk: h.Get(tiers.KeyOpenRisk), Register: h.Get(tiers.KeyEmotionalRegister)}
	} else {
		held(tiers.MainPath, a)
	}
	var latestAt time.Time
	if a := c.Admitted(tiers.LatestPath); a.Whole {
		sess, _ := tiers.ParseSession(a.Doc.Content)
		latestAt = sess.At
		src.Successor, src.Threads, src.Changed = sess.Successor, sess.Threads.Items, sess.Changed.Items
	} else {
		held(tiers.LatestPath, a)
	}
	if a := c.Admitted(tiers.DecisionsPath); a.Whole {
		for _, d := range tiers.ParseDecisions(a.Doc.Content).Entries {
			if !d.Active() && d.Status != tiers.StatusContested {
				continue
			}
			src.Decisions = append(src.Decisions, capsule.Decision{Date: d.Date, What: d.What, Why: d.Why,
				Contested: d.Status == tiers.StatusContested, Objection: d.Value(tiers.KeyObjection), Ref: tiers.DecisionsPath + "#" + d.Ref()})
		}
	} else {
		held(tiers.DecisionsPath, a)
	}
	if a := c.Admitted(tiers.TasksPath); a.Whole {
		src.Tasks = openTasks(string(a.Doc.Content))
	} else {
		held(tiers.TasksPath, a)
	}
	if a := c.Admitted(tiers.QuestionsPath); a.Whole {
		for _, t := range openTasks(string(a.Doc.Content)) {
			src.Questions = append(src.Questions, t.Text)
		}
	} else {
		held(tiers.QuestionsPath, a)
	}
	// The inbox as wake shows it: scrubbed, or held back by its level
	// (then nothing of it is handed on, and nothing is consumed).
	// An inbox wake cannot read (not text, a link) costs the capsule its
	// reminders, not the capsule: a subagent still gets the rest.
	in, err := ReadInbox(m.o.FS, m.root)
	if err != nil {
		msg, _ := policy.Scrub(tiers.OneLine(err.Error()))
		m.warn(fmt.Sprintf("the capsule hands on no reminders: %s", msg))
		src.Held = append(src.Held, fmt.Sprintf("%s could not be read, so its reminders are not here: %s", tiers.InboxPath, msg))
	}
	if in.Held == tiers.Confidential && in.Summary != "" {
		src.Held = append(src.Held, fmt.Sprintf("%s is confidential; its summary: %s", tiers.InboxPath, in.Summary))
	}
	if in.Bytes > 0 {
		src.Held = append(src.Held, fmt.Sprintf("%s is over the read limit (%d bytes): only the reminders of its first %d KiB are here", tiers.InboxPath, in.Bytes, tiers.HeadBytes>>10))
	}
	for _, r := range in.Reminders {
		if r.Open() {
			src.Reminders = append(src.Reminders, capsule.Reminder{N: r.N, At: r.At, Text: r.Text, Topic: r.Topic, Next: r.Next,
				Hypothesis: r.Hypothesis, Missing: r.Missing, Tags: r.Tags})
		}
	}
	since, _ := time.Parse(time.RFC3339, src.Handoff.Updated)
	if !since.IsZero() {
		src.Commits = m.gitCommits(ctx, since)
	}
	src.Files = m.gitChanges(ctx, since, nil).Items
	fm := capsule.FrontMatter{Branch: branch, SourceSession: o.Session, CreatedAt: now, TokenBudget: m.cfg.Capsule.MaxTokens, Version: capsule.Version, MemoryType: capsule.MemoryType}
	if fm.SourceSession == "" {
		fm.SourceSession = m.lastSession(latestAt)
	}
	fm.PrimaryObjective = tiers.OneLine(o.Objective)
	for _, s := range []string{src.Handoff.Next, src.Handoff.Summary, "Continue the work the memory describes"} {
		if fm.PrimaryObjective == "" {
			fm.PrimaryObjective = tiers.OneLine(s)
		}
	}
	return src, fm, nil
}

// lastSession is the last hand-off's session: the client's id an
// automatic hand-off recorded, else the time of the last summary. The
// last is the newest by time, wherever a merge put its line.
func (m *Memory) lastSession(latestAt time.Time) string {
	entries, _, err := store.ReadLedger(m.o.FS, m.root)
	if err == nil {
		var last *store.Entry
		for i, e := range entries {
			if e.Op == "handoff" && (last == nil || !e.At.Before(last.At)) {
				last = &entries[i]
			}
		}
		if last != nil && last.Session != "" {
			return last.Session
		}
	}
	if latestAt.IsZero() {
		return ""
	}
	return latestAt.UTC().Format(tiers.SessionTimeLayout)
}

// openTasks reads the open items of a list document (the active tasks,
// the open questions): the bullets of every H2 section but one whose title
// says done, each with its continuation lines, less those checked [x];
// those of a section whose title says blocked are marked so.
func openTasks(text string) []capsule.Task {
	var out []capsule.Task
	read := func(group, body string) {
		blocked := strings.Contains(strings.ToLower(group), "block")
		var cur *capsule.Task
		for _, l := range strings.Split(tiers.StripComments(body), "\n") {
			t := strings.TrimSpace(l)
			isBullet := strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ")
			switch {
			case isBullet && len(l)-len(strings.TrimLeft(l, " \t")) < 2:
				b := strings.TrimSpace(t[2:])
				if strings.HasPrefix(b, "[x]") || strings.HasPrefix(b, "[X]") {
					cur = nil
					continue
				}
				b = strings.TrimSpace(strings.TrimPrefix(b, "[ ]"))
				out = append(out, capsule.Task{Text: b, Group: group, Blocked: blocked})
				cur = &out[len(out)-1]
			case t == "" || strings.HasPrefix(t, "#"):
				cur = nil
			case cur != nil:
				cur.Text += " " + t
			}
		}
	}
	_, body, ok := tiers.SplitFrontMatter([]byte(text))
	if !ok {
		body = []byte(text)
	}
	secs := tiers.Sections(string(body), 2)
	if len(secs) == 0 {
		read("", string(body))
		return out
	}
	for _, s := range secs {
		if strings.Contains(strings.ToLower(s.Title), "done") {
			continue
		}
		read(s.Title, s.Body(string(body)))
	}
	return out
}

// gitCommitsMax caps the commits a capsule lists.
const gitCommitsMax = 10

// gitCommits lists the commits since since, newest first, as "hash
// subject"; none when git fails or is missing.
func (m *Memory) gitCommits(ctx context.Context, since time.Time) []string {
	out, err := m.git(ctx, m.root, "log", "--since="+since.UTC().Format(time.RFC3339), fmt.Sprintf("-%d", gitCommitsMax), "--format=%h %s")
	if err != nil {
		return nil
	}
	var commits []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			commits = append(commits, tiers.Printable(strings.ToValidUTF8(l, "\uFFFD")))
		}
	}
	return commits
}

// highlights reads a client transcript's prompts and last message, with
// their times: what the transcript package keeps, scrubbed.
func (m *Memory) highlights(p, format string) ([]capsule.Highlight, error) {
	f, err := transcript.ParseFormat(format)
	if err != nil {
		return nil, err
	}
	s, err := m.readTranscript(p, true, func(r io.Reader) (*transcript.Summary, error) {
		return transcript.Read(r, f, transcript.DefaultLimits(), transcript.Scope{})
	})
	if err != nil {
		return nil, err
	}
	var hl []capsule.Highlight
	for i, t := range s.Prompts {
		var at time.Time
		if i < len(s.PromptTimes) {
			at = s.PromptTimes[i]
		}
		hl = append(hl, capsule.Highlight{At: at, Who: "user", Text: t})
	}
	if s.LastMessage != "" {
		hl = append(hl, capsule.Highlight{At: s.LastMessageAt, Who: "agent", Text: s.LastMessage})
	}
	return hl, nil
}

// NewestCapsule finds the newest capsule of branch ("" the current one)
// in cold/capsules/<branch>/, read and scrubbed. A capsule that does not
// parse, or that declares itself confidential or secret, is passed over
// with a warning. ok is false when the branch has none.
func (m *Memory) NewestCapsule(ctx context.Context, branch string) (capsule.Found, bool, error) {
	if branch == "" {
		branch = m.Branch(ctx)
	}
	dir := capsule.Dir + "/" + capsule.BranchDir(branch)
	names, err := afero.ReadDir(m.o.FS, filepath.Join(m.root, filepath.FromSlash(dir)))
	if errors.Is(err, fs.ErrNotExist) {
		return capsule.Found{}, false, nil
	}
	if err != nil {
		return capsule.Found{}, false, fmt.Errorf("listing %s: %w", dir, err)
	}
	var ids []string
	for _, fi := range names {
		if id, ok := capsule.IDOfPath(dir + "/" + fi.Name()); ok && fi.Mode().IsRegular() {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, compareIDs)
	for i := len(ids) - 1; i >= 0; i-- {
		f, err := m.readCapsule(ids[i], capsule.PathOf(ids[i]))
		if err != nil {
			m.warn(err.Error() + "; passed over")
			continue
		}
		return f, true, nil
	}
	return capsule.Found{}, false, nil
}

// compareIDs orders capsule ids of one branch by time, then by their
// second's count.
func compareIDs(a, b string) int {
	sa, sb := path.Base(a), path.Base(b)
	ta, _ := capsule.ParseStamp(sa)
	tb, _ := capsule.ParseStamp(sb)
	if c := ta.Compare(tb); c != 0 {
		return c
	}
	return stampCount(sa) - stampCount(sb)
}

// stampCount is n of a stamp "...Z-n"; 1 without a suffix.
func stampCount(stem string) int {
	_, n, ok := strings.Cut(stem, "-")
	if !ok {
		return 1
	}
	var k int
	if _, err := fmt.Sscanf(n, "%d", &k); err != nil {
		return 1
	}
	return k
}

// readCapsule reads the capsule at rel, scrubbed, refusing one the policy
// holds back.
func (m *Memory) readCapsule(id, rel string) (capsule.Found, error) {
	d, err := tiers.ReadDoc(m.o.FS, m.root, rel)
	switch {
	case err != nil:
		return capsule.Found{}, err
	case d.Missing:
		return capsule.Found{}, fmt.Errorf("%s: gone", rel)
	case d.Skipped != "":
		return capsule.Found{}, fmt.Errorf("%s: skipped: %s", rel, d.Skipped)
	}
	if lvl, _ := policy.OfDoc(d); policy.Withheld(lvl) {
		return capsule.Found{}, fmt.Errorf("%s is %s", rel, lvl)
	}
	text, _ := policy.Scrub(string(d.Content))
	c, err := capsule.Parse([]byte(text))
	if err != nil {
		return capsule.Found{}, fmt.Errorf("%s: %w", rel, err)
	}
	return capsule.Found{ID: id, Path: rel, Created: c.Front.CreatedAt, Archived: strings.HasPrefix(rel, capsule.ArchiveDir+"/"),
		Capsule: c, Body: text}, nil
}

// Capsules lists the stored capsules, oldest first: of one branch when
// branch is not "" (as git names it; its directory is compared), the
// archived ones too when archived is set.
func (m *Memory) Capsules(ctx context.Context, branch string, archived bool) ([]capsule.Listed, error) {
	var out []capsule.Listed
	want := ""
	if branch != "" {
		want = capsule.BranchDir(branch)
	}
	base := filepath.Join(m.root, filepath.FromSlash(capsule.Dir))
	err := afero.Walk(m.o.FS, base, func(p string, fi fs.FileInfo, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !fi.Mode().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(m.root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		id, ok := capsule.IDOfPath(rel)
		if !ok {
			return nil
		}
		isArchived := strings.HasPrefix(rel, capsule.ArchiveDir+"/")
		dir := path.Dir(id)
		if isArchived && !archived || want != "" && dir != want {
			return nil
		}
		created, _ := capsule.ParseStamp(path.Base(id))
		l := capsule.Listed{ID: id, Path: rel, Branch: dir, Created: created, Archived: isArchived, Bytes: fi.Size()}
		if h, ok, err := tiers.ReadHead(m.o.FS, m.root, rel); err == nil && ok && !h.Binary {
			var metaErr error
			if h.MetaErr != "" {
				metaErr = errors.New(h.MetaErr)
			}
			if lvl := policy.Level(h.Meta.Sensitivity, metaErr); lvl != policy.Secret {
				l.Objective, _ = policy.Scrub(tiers.ShortLine(h.Meta.Objective))
			}
		}
		out = append(out, l)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", capsule.Dir, err)
	}
	slices.SortStableFunc(out, func(a, b capsule.Listed) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	pinned := m.pinsInForce()
	for i := range out {
		out[i].PinnedTo = pinned[out[i].ID]
	}
	return out, nil
}

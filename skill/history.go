package skill

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// history lists one line per older session, newest first: recent/previous.md
// then cold/sessions/, from what the cold index knows of each session (its
// summary, sensitivity and session time), so that a warm start opens none
// of them. A session without a summary is opened, for its first "What
// happened" bullet, only while its line could still fit the skill's budget;
// the lines past the budget count as left out, and go into the cut record
// with their counts, or with none for a session without a summary, whose
// line is never read.
//
// The records of the sessions recent/ shows (recent/latest.md and
// recent/previous.md are copies of them) are not listed again.
func (b *skillBuilder) history(previous, latest boot.Admitted, x *cold.Index) (Section, error) {
	sec := Section{Title: SkillHistory, Source: tiers.PreviousPath + " and " + tiers.SessionsDir + "/"}
	used := 0
	add := func(line string) {
		sec.Items = append(sec.Items, Item{Text: line, Excluded: excluded(line)})
		used += b.o.Counter.Count(line + "\n")
	}
	if line, ok := historyLine(previous); ok {
		add(line)
	}
	inRecent := recentSessions(previous, latest)
	for _, se := range sessionEntries(x) {
		if inRecent[se.at] > 0 {
			inRecent[se.at]--
			continue
		}
		text, ok := b.admitSession(se)
		switch {
		case !ok:
			continue
		case used > b.s.Budget:
			sec.Dropped++
			b.s.Cuts = append(b.s.Cuts, b.unread(se, text))
			continue
		case text == "":
			d, err := tiers.ReadDoc(b.o.FS, b.o.Root, se.rel)
			if err != nil {
				return sec, err
			}
			if ss, _ := tiers.ParseSession(d.Content); len(ss.Happened.Items) > 0 {
				text = tiers.OneLine(ss.Happened.Items[0])
			}
		}
		add("- " + se.date() + ": " + orNone(text))
	}
	return sec, nil
}

// recentSessions counts, by session time, the sessions recent/ holds:
// their records in cold/sessions/ History does not list again. Sessions
// of one second are listed newest name first, so the records skipped are
// the newest of that second, the ones recent/ holds.
func recentSessions(docs ...boot.Admitted) map[time.Time]int {
	out := map[time.Time]int{}
	for _, a := range docs {
		if ss, _ := tiers.ParseSession(a.Doc.Content); !ss.At.IsZero() {
			out[ss.At.UTC().Truncate(time.Second)]++
		}
	}
	return out
}

// unread records a session History left out before fitting, past the
// budget: its line, counted, when its summary gives it; else its path,
// not counted, since finding its line would mean reading it.
func (b *skillBuilder) unread(se sessionEntry, summary string) budget.Cut {
	c := budget.Cut{What: "- " + se.date() + ": " + summary, Where: budget.Where(skillFile, SkillHistory)}
	if summary == "" {
		c.What = "- " + se.date() + ": " + se.rel + " (no summary; not read)"
		return c
	}
	c.Tokens = b.o.Counter.Count(c.What + "\n")
	c.What = tiers.ShortLine(c.What)
	return c
}

// admitSession applies the sensitivity policy to a cold session, counting
// what it holds back: ok is false for a session not shown at all; text is
// its summary (a confidential session's only line).
func (b *skillBuilder) admitSession(se sessionEntry) (text string, ok bool) {
	var metaErr error
	if se.e.MetaErr != "" {
		metaErr = errors.New(se.e.MetaErr)
	}
	lvl, err := policy.Level(se.e.Sens, metaErr), metaErr
	switch {
	case err != nil:
		b.s.Held.Secret++
		b.s.Warnings = append(b.s.Warnings, fmt.Sprintf("%s: left out of skill.md: %v, so its sensitivity is unknown", se.rel, err))
		return "", false
	case lvl == tiers.Secret:
		b.s.Held.Secret++
		return "", false
	case lvl == tiers.Confidential:
		b.s.Held.Confidential++
		// Never opened: its summary is all of it that may appear.
		return orNone(tiers.OneLine(se.e.Summary)), true
	}
	return tiers.OneLine(se.e.Summary), true
}

// historyLine is "- <date>: <summary>": the front-matter summary, else the
// first "What happened" bullet; a confidential session only by its summary.
func historyLine(a boot.Admitted) (string, bool) {
	if !a.Whole && a.Summary == "" {
		return "", false
	}
	ss, _ := tiers.ParseSession(a.Doc.Content)
	text := tiers.OneLine(ss.Summary)
	if !a.Whole {
		text = a.Summary
	} else if text == "" && len(ss.Happened.Items) > 0 {
		text = tiers.OneLine(ss.Happened.Items[0])
	}
	return "- " + sessionDate(ss, a.Doc.Path) + ": " + orNone(text), true
}

// sessionEntry is a session summary in cold/sessions/ as the cold index
// knows it, and where it sorts.
type sessionEntry struct {
	rel string
	e   *cold.Entry
	at  time.Time // zero when neither the front matter nor the name has it
	n   int       // the name's "-N" suffix; 1 without one
}

// date is the session's day, or "undated".
func (se sessionEntry) date() string {
	if se.at.IsZero() {
		return "undated"
	}
	return se.at.UTC().Format("2006-01-02")
}

// sessionEntries lists the cold index's cold/sessions/*.md the last scan
// found, newest first: by session time (front matter `session`, else the
// time or date the name starts with), then by the number a hand-off adds
// to a name already taken ("-2", "-10"), then by name.
func sessionEntries(x *cold.Index) []sessionEntry {
	var out []sessionEntry
	for rel, e := range x.Scanned(tiers.SessionsDir) {
		name := path.Base(rel)
		if e.Binary || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") {
			continue
		}
		out = append(out, newSessionEntry(rel, e))
	}
	slices.SortFunc(out, func(a, b sessionEntry) int {
		if c := b.at.Compare(a.at); c != 0 {
			return c
		}
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return strings.Compare(b.rel, a.rel)
	})
	return out
}

// sessionName is the name a hand-off archives a session under: its time,
// the writer id of the clone that wrote it (absent from the names older
// wakes gave), and "-N" when that name was taken.
var sessionName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)(?:-[a-z][a-z0-9]{2,15})?(?:-(\d{1,9}))?\.md$`)
})

// newSessionEntry finds a session's time from its front matter, else its
// name.
func newSessionEntry(rel string, e *cold.Entry) sessionEntry {
	se := sessionEntry{rel: rel, e: e, n: 1}
	base := path.Base(rel)
	if m := sessionName().FindStringSubmatch(base); m != nil {
		se.at, _ = time.Parse("2006-01-02T15-04-05Z", m[1])
		if m[2] != "" {
			se.n, _ = strconv.Atoi(m[2])
		}
	} else if d := datePrefix().FindString(base); d != "" {
		se.at, _ = time.Parse("2006-01-02", d)
	}
	if t, err := time.Parse(time.RFC3339, strings.TrimSpace(e.Session)); err == nil {
		se.at = t.UTC().Truncate(time.Second)
	}
	return se
}

package boot

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// history lists one line per older session, newest first: recent/previous.md
// then cold/sessions/. Sessions are read newest first only while their
// lines could still fit the skill's budget; the rest count as left out.
func (b *skillBuilder) history(previous admitted) (SkillSection, error) {
	sec := SkillSection{Title: SkillHistory, Source: tiers.PreviousPath + " and " + tiers.SessionsDir + "/"}
	used := 0
	add := func(a admitted) {
		if line, ok := historyLine(a); ok {
			sec.Items = append(sec.Items, SkillItem{Text: line, Excluded: excluded(line)})
			used += b.o.Counter.Count(line + "\n")
		}
	}
	add(previous)
	names, err := sessionFiles(b.o.FS, b.o.Root)
	if err != nil {
		return sec, err
	}
	for i, rel := range names {
		if used > b.s.Budget {
			sec.Dropped += len(names) - i
			break
		}
		d, err := tiers.ReadDoc(b.o.FS, b.o.Root, rel)
		if err != nil {
			return sec, err
		}
		add(b.admit(d))
	}
	return sec, nil
}

// historyLine is "- <date>: <summary>": the front-matter summary, else the
// first "What happened" bullet; a confidential session only by its summary.
func historyLine(a admitted) (string, bool) {
	if !a.whole && a.summary == "" {
		return "", false
	}
	ss, _ := tiers.ParseSession(a.doc.Content)
	text := tiers.OneLine(ss.Summary)
	if !a.whole {
		text = a.summary
	} else if text == "" && len(ss.Happened.Items) > 0 {
		text = tiers.OneLine(ss.Happened.Items[0])
	}
	return "- " + sessionDate(ss, a.doc.Path) + ": " + orNone(text), true
}

// sessionFiles lists cold/sessions/*.md newest first: by session time
// (front matter `session`, else the time or date the name starts with),
// then by the number a hand-off adds to a name already taken ("-2",
// "-10"), then by name. Only the head of each file is read.
func sessionFiles(fsys afero.Fs, root string) ([]string, error) {
	infos, err := afero.ReadDir(fsys, filepath.Join(root, filepath.FromSlash(tiers.SessionsDir)))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("listing %s: %w", tiers.SessionsDir, err)
	}
	var files []sessionFile
	for _, fi := range infos {
		n := fi.Name()
		if fi.IsDir() || strings.HasPrefix(n, ".") || !strings.HasSuffix(n, ".md") {
			continue
		}
		files = append(files, readSessionFile(fsys, root, tiers.SessionsDir+"/"+n))
	}
	slices.SortFunc(files, func(a, b sessionFile) int {
		if c := b.at.Compare(a.at); c != 0 {
			return c
		}
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return strings.Compare(b.rel, a.rel)
	})
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.rel
	}
	return out, nil
}

// sessionFile is a session summary in cold/sessions/ and where it sorts.
type sessionFile struct {
	rel string
	at  time.Time // zero when neither the front matter nor the name has it
	n   int       // the name's "-N" suffix; 1 without one
}

// sessionName is the name a hand-off archives a session under: its time,
// and "-N" when that name was taken.
var sessionName = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)(?:-(\d{1,9}))?\.md$`)

// readSessionFile finds a session's time from its head, else its name. A
// file that cannot be read sorts by its name; reading it whole reports why.
func readSessionFile(fsys afero.Fs, root, rel string) sessionFile {
	f := sessionFile{rel: rel, n: 1}
	base := path.Base(rel)
	if m := sessionName.FindStringSubmatch(base); m != nil {
		f.at, _ = time.Parse("2006-01-02T15-04-05Z", m[1])
		if m[2] != "" {
			f.n, _ = strconv.Atoi(m[2])
		}
	} else if d := datePrefix.FindString(base); d != "" {
		f.at, _ = time.Parse("2006-01-02", d)
	}
	if h, ok, err := tiers.ReadHead(fsys, root, rel); err == nil && ok {
		if t, err := time.Parse(time.RFC3339, strings.TrimSpace(h.Meta.Session)); err == nil {
			f.at = t.UTC().Truncate(time.Second)
		}
	}
	return f
}

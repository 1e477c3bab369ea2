package store

import (
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// sessionBase is the name a session of time at, written by writer (see
// [WriterID]), has in cold/sessions/, before the "-N" that a name already
// taken gets: "2026-11-22T03-24-20Z-k3f9qa". The writer keeps the names
// two clones give sessions of the same second apart, so that both records
// are kept when their branches meet. Records older wakes wrote have the
// time alone ([sessionTime]).
func sessionBase(at time.Time, writer string) string { return sessionTime(at) + "-" + writer }

// sessionTime is the time part of a session record's name.
func sessionTime(at time.Time) string { return at.UTC().Format("2006-01-02T15-04-05Z") }

// sessionBaseOf is the name base of the summary data at rel, archived by
// this store's writer: its session time, else its modification time
// (byModTime).
func (s *Store) sessionBaseOf(rel string, data []byte) (base string, byModTime bool, err error) {
	writer, err := s.WriterID()
	if err != nil {
		return "", false, err
	}
	sess, _ := tiers.ParseSession(data)
	if !sess.At.IsZero() {
		return sessionBase(sess.At, writer), false, nil
	}
	fi, err := s.FS.Stat(s.Path(rel))
	if err != nil {
		return "", false, fmt.Errorf("reading %s: %w", rel, err)
	}
	return sessionBase(fi.ModTime(), writer), true, nil
}

// sessionNames are the names a session of base may have in
// cold/sessions/, in order: base.md, base-2.md, … base-1000.md.
func sessionNames(base string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for n := 1; n <= maxSessionNames; n++ {
			name := path.Join(tiers.SessionsDir, base+".md")
			if n > 1 {
				name = path.Join(tiers.SessionsDir, fmt.Sprintf("%s-%d.md", base, n))
			}
			if !yield(name) {
				return
			}
		}
	}
}

const maxSessionNames = 1000

// freeSessionName is the first name of base in cold/sessions/ that no file
// has and that is none of taken (names this hand-off already planned).
func (s *Store) freeSessionName(base string, taken ...string) (string, error) {
	for name := range sessionNames(base) {
		if slices.Contains(taken, name) {
			continue
		}
		if _, err := lstat(s.FS, s.Path(name)); errors.Is(err, os.ErrNotExist) {
			return name, nil
		} else if err != nil {
			return "", fmt.Errorf("checking %s: %w", name, err)
		}
	}
	return "", fmt.Errorf("%s: a thousand sessions are named %s; not naming another", tiers.SessionsDir, base)
}

// isView reports whether data, a summary of recent/, is a copy of a
// session record: a file of cold/sessions/ named by its session time (by
// any writer, or none, as older wakes named them) that holds the same
// bytes. Only such a copy may be replaced, since what it holds is kept
// elsewhere.
func (s *Store) isView(data []byte) (bool, error) {
	sess, _ := tiers.ParseSession(data)
	if sess.At.IsZero() {
		return false, nil
	}
	want := digest(data)
	writer, err := s.WriterID()
	if err != nil {
		return false, err
	}
	// This writer's names and the older unwritten ones first, which is
	// where a view's record is unless it came from another clone.
	for _, base := range []string{sessionBase(sess.At, writer), sessionTime(sess.At)} {
		if found, err := s.recordIn(sessionNames(base), want); err != nil || found {
			return found, err
		}
	}
	others, err := s.otherWriterNames(sessionTime(sess.At), writer)
	if err != nil {
		return false, err
	}
	return s.recordIn(slices.Values(others), want)
}

// recordIn reports whether one of names, up to the first missing, holds
// the bytes of digest want.
func (s *Store) recordIn(names func(yield func(string) bool), want string) (bool, error) {
	for name := range names {
		rec, err := s.readOptional(name)
		if err != nil {
			return false, err
		}
		if rec == nil {
			return false, nil
		}
		if digest(rec) == want {
			return true, nil
		}
	}
	return false, nil
}

// otherWriterNames are the names in cold/sessions/ of the sessions of time
// base written by a writer other than writer, in order.
func (s *Store) otherWriterNames(base, writer string) ([]string, error) {
	infos, err := afero.ReadDir(s.FS, s.Path(tiers.SessionsDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", tiers.SessionsDir, err)
	}
	var out []string
	for _, fi := range infos {
		name := fi.Name()
		rest, ok := strings.CutPrefix(name, base+"-")
		if !ok || !strings.HasSuffix(rest, ".md") || strings.HasPrefix(rest, writer+".") || strings.HasPrefix(rest, writer+"-") {
			continue
		}
		if w, _, _ := strings.Cut(strings.TrimSuffix(rest, ".md"), "-"); ValidWriter(w) {
			out = append(out, path.Join(tiers.SessionsDir, name))
		}
	}
	return out, nil
}

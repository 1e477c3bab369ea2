package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// MergedFile, in the state directory, is the note wake's merge driver
// leaves when it merged a file of the memory: the next wake command
// settles the merge ([Store.SettleMerge]) before anything else looks at
// the files.
const MergedFile = "merged.json"

// ArrivedFile keeps the sessions a settled merge brought from the other
// branch until a session start has shown them.
const ArrivedFile = "arrived.json"

// Merged is what the merge driver noted.
type Merged struct {
	Version int      `json:"version"`
	Paths   []string `json:"paths"` // the memory's files merged, relative to the root
	// Sums are the SHA-256 of what the driver wrote for each path, last:
	// a file that still holds it is the merge's, not an aborted one's.
	Sums    map[string]string `json:"sums,omitempty"`
	Arrived []Arrived         `json:"arrived,omitempty"` // the other branch's hand-offs
	// Reidentified are the decisions the driver gave a new ID: the two
	// branches each had an entry with one ID, two different decisions.
	Reidentified []Reidentified `json:"reidentified,omitempty"`
	// Writers are the writer ids of the ledger lines the other branch
	// brought: the merge line names that side by them.
	Writers []string `json:"writers,omitempty"`
}

// Arrived is a hand-off a merge brought from the other branch.
type Arrived struct {
	At      time.Time `json:"at"`
	Summary string    `json:"summary"`
	Record  string    `json:"record,omitempty"` // its session record, when its ledger line names one
}

// NoteMerged adds rel, a file of the memory root the merge driver merged
// into data, the hand-offs it brought and the decisions it re-identified,
// to the root's merge note, under the root's lock. Git runs the driver
// once a file, and a rebase once a commit: the note gathers them all for
// the next wake command.
func (s *Store) NoteMerged(ctx context.Context, rel string, data []byte, arrived []Arrived, reids ...Reidentified) error {
	return s.NoteMergedFrom(ctx, rel, data, arrived, nil, reids...)
}

// NoteMergedFrom is [Store.NoteMerged] with the writer ids of the ledger
// lines the other branch brought.
func (s *Store) NoteMergedFrom(ctx context.Context, rel string, data []byte, arrived []Arrived, writers []string, reids ...Reidentified) error {
	unlock, err := s.Locker.Lock(ctx, s.Root)
	if err != nil {
		return err
	}
	defer unlock()
	m := readMerged(s.FS, s.Root)
	if !slices.Contains(m.Paths, rel) {
		m.Paths = append(m.Paths, rel)
	}
	if m.Sums == nil {
		m.Sums = map[string]string{}
	}
	m.Sums[rel] = digest(data)
	m.Arrived = addArrived(m.Arrived, arrived)
	m.Reidentified = addReidentified(m.Reidentified, reids)
	m.Writers = addWriters(m.Writers, writers)
	return writeMerged(s.FS, s.Root, MergedFile, m)
}

func readMerged(fsys afero.Fs, root string) Merged {
	return readMergedFile(fsys, root, MergedFile)
}

func readMergedFile(fsys afero.Fs, root, name string) Merged {
	var m Merged
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+name)
	if err != nil || json.Unmarshal(data, &m) != nil || m.Version != 1 {
		return Merged{Version: 1}
	}
	return m
}

func writeMerged(fsys afero.Fs, root, name string, m Merged) error {
	m.Version = 1
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return WriteState(fsys, root, name, append(data, '\n'))
}

// settlingFile is a merge note claimed by a settling under the lock.
const settlingFile = "merged.settling.json"

// MergePending reports whether the merge driver left a note to settle, or
// a settling was interrupted.
func MergePending(fsys afero.Fs, root string) bool {
	for _, name := range []string{MergedFile, settlingFile} {
		if _, err := fsys.Stat(root + "/" + tiers.StateDir + "/" + name); err == nil {
			return true
		}
	}
	return false
}

// errAbandoned is a merge note no file of the root bears out: the merge
// was aborted (git merge --abort, a reset), and nothing is settled.
var errAbandoned = errors.New("the merge was abandoned")

// SettleMerge settles a merge the driver noted (DESIGN section 12), under
// the root's lock: recent/ and main.md's HANDOFF block are rebuilt from
// the newest session records, wherever they hold copies of records; the
// decision log, when it is still what the driver made of it, becomes the
// one wake last wrote, and one "merge" ledger line names the files merged
// and the records of the sessions that arrived, so that neither the checks
// nor the edit detection take the other branch's work for edits by hand.
// The sessions that arrived are kept for the session starts to name until
// the next hand-off. A note that no file bears out (a merge aborted after
// the driver ran) is dropped with nothing written. It returns nil when
// there was nothing to settle.
func (s *Store) SettleMerge(ctx context.Context) (*Merged, error) {
	if !MergePending(s.FS, s.Root) {
		return nil, nil
	}
	var m Merged
	err := s.MutateThen(ctx, func() (Entry, error) {
		// The note is claimed under the lock, so that a driver noting a
		// later commit of a rebase starts a note of its own.
		claimed := readMergedFile(s.FS, s.Root, settlingFile)
		if _, err := s.FS.Stat(s.Path(tiers.StateDir + "/" + MergedFile)); err == nil {
			next := readMerged(s.FS, s.Root)
			for _, p := range next.Paths {
				if !slices.Contains(claimed.Paths, p) {
					claimed.Paths = append(claimed.Paths, p)
				}
			}
			if claimed.Sums == nil {
				claimed.Sums = map[string]string{}
			}
			for p, sum := range next.Sums {
				claimed.Sums[p] = sum
			}
			claimed.Arrived = addArrived(claimed.Arrived, next.Arrived)
			claimed.Reidentified = addReidentified(claimed.Reidentified, next.Reidentified)
			claimed.Writers = addWriters(claimed.Writers, next.Writers)
			if err := writeMerged(s.FS, s.Root, settlingFile, claimed); err != nil {
				return Entry{}, err
			}
			if err := s.FS.Remove(s.Path(tiers.StateDir + "/" + MergedFile)); err != nil {
				return Entry{}, err
			}
		}
		m = claimed
		// Only the root's own files, outside its state: the note is
		// wake's, but wake reads nothing a note could aim elsewhere.
		m.Paths = slices.DeleteFunc(m.Paths, func(p string) bool {
			return !filepath.IsLocal(filepath.FromSlash(p)) || p == tiers.StateDir || strings.HasPrefix(p, tiers.StateDir+"/")
		})
		m.Arrived = slices.DeleteFunc(m.Arrived, func(a Arrived) bool {
			return a.Record != "" && (path.Dir(a.Record) != tiers.SessionsDir || !filepath.IsLocal(filepath.FromSlash(a.Record)))
		})
		// What the root bears out: the files that still hold what the
		// driver made of them, the arrived hand-offs the ledger holds.
		var matched []string
		for _, p := range m.Paths {
			if cur, err := s.readOptional(p); err == nil && cur != nil && digest(cur) == m.Sums[p] {
				matched = append(matched, p)
			}
		}
		entries, _, err := ReadLedger(s.FS, s.Root)
		if err != nil {
			return Entry{}, err
		}
		var arrived []Arrived
		for _, a := range m.Arrived {
			if slices.ContainsFunc(entries, func(e Entry) bool { return e.Op == "handoff" && e.At.Equal(a.At) && e.Summary == a.Summary }) {
				arrived = append(arrived, a)
			}
		}
		m.Arrived = arrived
		if len(matched) == 0 && len(arrived) == 0 {
			// Dropped under the lock: a newer note a driver writes after
			// it is claimed by the next settling, never removed here.
			if err := s.dropSettling(); err != nil {
				return Entry{}, err
			}
			return Entry{}, errAbandoned
		}
		// Only the files that still hold what the driver made of them are
		// the merge's: one changed since (a conflict resolved by hand, a
		// merge aborted) keeps its edits for the edit detection.
		m.Paths = matched
		paths := slices.Clone(matched)
		views, err := s.rebuildViews()
		if err != nil {
			return Entry{}, err
		}
		for _, v := range views {
			if !slices.Contains(paths, v) {
				paths = append(paths, v)
			}
		}
		// The records of the sessions that arrived came with the merge:
		// wake's own files, not additions by hand.
		for _, a := range arrived {
			if a.Record != "" && !slices.Contains(paths, a.Record) {
				paths = append(paths, a.Record)
			}
		}
		// The decision log as the driver merged it is wake's own; as
		// anything else (changed since), it is left to the checks.
		if slices.Contains(matched, tiers.DecisionsPath) {
			cur, err := s.readOptional(tiers.DecisionsPath)
			if err != nil {
				return Entry{}, err
			}
			if err := WriteState(s.FS, s.Root, DecisionsSnapshot, cur); err != nil {
				return Entry{}, err
			}
		}
		if len(arrived) > 0 {
			prev := readMergedFile(s.FS, s.Root, ArrivedFile)
			prev.Arrived = addArrived(prev.Arrived, arrived)
			if err := writeMerged(s.FS, s.Root, ArrivedFile, prev); err != nil {
				return Entry{}, err
			}
		}
		slices.Sort(paths)
		what := "merged another branch's memory"
		if own, err := s.WriterID(); err == nil {
			// Both sides by their writers: this clone's, which writes the
			// line, and those of the lines the other branch brought.
			if others := slices.DeleteFunc(slices.Clone(m.Writers), func(w string) bool { return w == own }); len(others) > 0 {
				what = fmt.Sprintf("merged another branch's memory, written by %s, into %s's", strings.Join(others, ", "), own)
			}
		}
		if n := len(arrived); n > 0 {
			what += fmt.Sprintf(": %d session(s) arrived", n)
		}
		var ids []string
		if slices.Contains(matched, tiers.DecisionsPath) || slices.Contains(matched, DecisionsArchive) {
			// The IDs a decision took in the merge, in the log or its
			// archive: the ledger records wake writing them, and says what
			// each was.
			var said []string
			for _, r := range m.Reidentified {
				ids = append(ids, r.Now)
				said = append(said, fmt.Sprintf("%s (%s) is now %s", r.Was, tiers.OneLine(r.What), r.Now))
			}
			if len(said) > 0 {
				what += "; both branches had decisions with one ID, re-identified: " + strings.Join(said, ", ")
			}
		}
		return Entry{Op: OpMerge, Paths: paths, ChangeSummary: what, DecisionIDs: ids}, nil
	}, func() error { return s.dropSettling() })
	if errors.Is(err, errAbandoned) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &m, nil
}

// dropSettling removes the claimed note, once settled or abandoned.
func (s *Store) dropSettling() error {
	if err := s.FS.Remove(s.Path(tiers.StateDir + "/" + settlingFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// OpMerge is the ledger op of a settled merge.
const OpMerge = "merge"

// ReadArrived returns the sessions settled merges brought since the last
// hand-off, oldest first: the session starts until then name them.
func ReadArrived(fsys afero.Fs, root string) []Arrived {
	m := readMergedFile(fsys, root, ArrivedFile)
	slices.SortFunc(m.Arrived, func(a, b Arrived) int { return a.At.Compare(b.At) })
	return m.Arrived
}

// forgetArrived removes the list of arrived sessions: a hand-off, which
// follows a session that was shown them.
func (s *Store) forgetArrived() {
	s.FS.Remove(s.Path(tiers.StateDir + "/" + ArrivedFile))
}

// rebuildViews makes recent/latest.md and recent/previous.md copies of the
// two newest session records, and main.md's HANDOFF block the newest's
// values, where they are views (copies of records, or absent): a summary
// that is no copy of a record stays as it is. It returns the paths it
// wrote.
func (s *Store) rebuildViews() ([]string, error) {
	names := dirNames(s.FS, s.Path(tiers.SessionsDir))
	var recs []string
	for _, n := range names {
		if strings.HasSuffix(n, ".md") && !strings.HasPrefix(n, ".") {
			recs = append(recs, path.Join(tiers.SessionsDir, n))
		}
	}
	type rec struct {
		rel  string
		at   time.Time
		data []byte
	}
	var sorted []rec
	for _, r := range recs {
		data, err := s.readOptional(r)
		if err != nil || data == nil {
			continue
		}
		sess, _ := tiers.ParseSession(data)
		if sess.At.IsZero() {
			continue
		}
		sorted = append(sorted, rec{r, sess.At, data})
	}
	slices.SortStableFunc(sorted, func(a, b rec) int {
		if c := b.at.Compare(a.at); c != 0 {
			return c
		}
		return strings.Compare(b.rel, a.rel)
	})
	var wrote []string
	for i, view := range []string{tiers.LatestPath, tiers.PreviousPath} {
		if i >= len(sorted) {
			break
		}
		cur, err := s.readOptional(view)
		if err != nil {
			return wrote, err
		}
		if bytes.Equal(cur, sorted[i].data) {
			// Already the record (a settling a crash interrupted after
			// writing it): named all the same, as wake's own write.
			wrote = append(wrote, view)
			continue
		}
		if cur != nil {
			if ok, err := s.isView(cur); err != nil || !ok {
				continue // no copy of a record: the user's, kept
			}
		}
		if s.refuseMarked(view) != nil {
			continue // a conflict left for a person: the checks HALT on it
		}
		if err := s.writeView(view, sorted[i].data); err != nil {
			return wrote, err
		}
		wrote = append(wrote, view)
	}
	if len(sorted) > 0 {
		sess, _ := tiers.ParseSession(sorted[0].data)
		b := Block{Updated: sess.At, SessionSummary: sess.Summary, NextPriority: sess.NextPriority,
			OpenRisk: sess.OpenRisk, EmotionalRegister: sess.EmotionalRegister}
		main, err := s.readOptional(tiers.MainPath)
		if err != nil {
			return wrote, err
		}
		if main != nil && !b.In(main) && tiers.ConflictMarkers(main) == nil {
			old := tiers.ParseMain(main).Handoff
			if t, err := time.Parse(time.RFC3339, strings.TrimSpace(old.Get(tiers.KeyUpdated))); err != nil || !t.After(sess.At) {
				out, _, err := ReplaceBlock(main, b)
				if err != nil {
					return wrote, err
				}
				if err := s.writeView(tiers.MainPath, out); err != nil {
					return wrote, err
				}
				wrote = append(wrote, tiers.MainPath)
			}
		}
	}
	return wrote, nil
}

// writeView writes rel as [Store.Write] does, but for the edit by hand
// it would record first: what a merge brought into the file is the other
// branch's work, which the merge ledger line accounts for.
func (s *Store) writeView(rel string, data []byte) error {
	if err := s.refuseMarked(rel); err != nil {
		return err
	}
	return WriteFileIn(s.FS, s.Root, rel, data, 0o644)
}

package store

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// A hand-off step: it reports whether it did anything, and does nothing
// when it finds itself done. Each is checked against the root as it is,
// given that the steps before it are done, so a crash between any two file
// operations is finished by running the steps again.
type step struct {
	done string // what it did, for the recovery report
	run  func(*journal) (bool, error)
}

func (s *Store) steps(j *journal) []step {
	return []step{
		{fmt.Sprintf("wrote the session record %s", j.Record), s.writeRecord},
		{fmt.Sprintf("copied %s to %s", tiers.LatestPath, j.LatestRecord), s.copyLatest},
		{fmt.Sprintf("archived %s to %s", tiers.PreviousPath, j.Archive), s.archivePrevious},
		{fmt.Sprintf("moved %s to %s", tiers.LatestPath, tiers.PreviousPath), s.demoteLatest},
		{fmt.Sprintf("installed the new %s", tiers.LatestPath), s.installLatest},
		{fmt.Sprintf("wrote the HANDOFF block in %s", tiers.MainPath), s.writeBlock},
		{fmt.Sprintf("appended %d decision(s) to %s", len(j.Decisions), tiers.DecisionsPath), s.appendDecisions},
	}
}

// rollForward runs every step of the hand-off not yet done, in order, and
// says which it ran.
func (s *Store) rollForward(j *journal) ([]string, error) {
	var did []string
	for _, st := range s.steps(j) {
		ok, err := st.run(j)
		if err != nil {
			return did, err
		}
		if ok {
			did = append(did, st.done)
		}
	}
	return did, nil
}

// archivePrevious moves recent/previous.md to its archive name, which was
// free when the hand-off was planned: the archive existing means done.
func (s *Store) archivePrevious(j *journal) (bool, error) {
	if j.Archive == "" || s.exists(j.Archive) {
		return false, nil
	}
	if !s.exists(tiers.PreviousPath) {
		return false, fmt.Errorf("%s is missing and is not in %s; look for it in cold/sessions", tiers.PreviousPath, j.Archive)
	}
	if _, err := MkdirAllIn(s.FS, s.Root, path.Dir(j.Archive)); err != nil {
		return false, err
	}
	return true, s.move(tiers.PreviousPath, j.Archive)
}

// writeRecord creates the session's record from the staged summary (or
// from recent/latest.md, once that is installed): the record existing
// with the summary's bytes means done. It never replaces a file.
func (s *Store) writeRecord(j *journal) (bool, error) {
	if j.Record == "" {
		return false, nil
	}
	return s.createCopy(j.Record, j.New, j.stagedPath(), tiers.LatestPath)
}

// copyLatest copies recent/latest.md, no view of a record, to its own
// record before the rotation moves it; done once the copy exists.
func (s *Store) copyLatest(j *journal) (bool, error) {
	if j.LatestRecord == "" {
		return false, nil
	}
	return s.createCopy(j.LatestRecord, j.Latest, tiers.LatestPath, tiers.PreviousPath)
}

// createCopy creates dst with the bytes of digest sum, read from the
// first of from that holds them. dst holding them means done. dst was
// free when the hand-off was planned and only the hand-off, under the
// lock, writes it: a dst holding the start of those bytes is what a crash
// left of a create written in place (on a file system without links), and
// is completed; anything else is refused.
func (s *Store) createCopy(dst, sum string, from ...string) (done bool, err error) {
	// Only this hand-off, under the lock, writes dst: a temporary file
	// beside it is one a crash, or a failed removal, left of its create.
	defer func() {
		if rerr := s.removeTempsOf(dst); err == nil {
			err = rerr
		}
	}()
	cur, err := s.readOptional(dst)
	if err != nil {
		return false, err
	}
	if cur != nil && digest(cur) == sum {
		return false, nil
	}
	var data []byte
	for _, src := range from {
		d, err := s.readOptional(src)
		if err != nil {
			return false, err
		}
		if d != nil && digest(d) == sum {
			data = d
			break
		}
	}
	switch {
	case data == nil:
		return false, fmt.Errorf("the summary for %s is in none of %s any more", dst, strings.Join(from, ", "))
	case cur != nil && !bytes.HasPrefix(data, cur):
		return false, fmt.Errorf("%s was written while the hand-off was interrupted; move it aside and the hand-off is finished", dst)
	case cur != nil:
		return true, s.Write(dst, data)
	}
	if err := s.CheckWritable(dst); err != nil {
		return false, err
	}
	return true, CreateExclusiveIn(s.FS, s.Root, dst, data, 0o644)
}

// demoteLatest moves recent/latest.md to recent/previous.md. Before
// version 3 the archive step emptied previous.md, so its existing meant
// done; since, previous.md may be a view that the move replaces, and done
// is recent/latest.md gone or already the new summary.
func (s *Store) demoteLatest(j *journal) (bool, error) {
	if j.Latest == "" {
		return false, nil
	}
	if j.Version < 3 {
		if s.exists(tiers.PreviousPath) {
			return false, nil
		}
		if !s.exists(tiers.LatestPath) {
			return false, fmt.Errorf("%s is missing and was not moved to %s", tiers.LatestPath, tiers.PreviousPath)
		}
		return true, s.move(tiers.LatestPath, tiers.PreviousPath)
	}
	cur, err := s.readOptional(tiers.LatestPath)
	if err != nil {
		return false, err
	}
	if cur == nil || digest(cur) == j.New {
		return false, nil
	}
	if digest(cur) != j.Latest {
		return false, fmt.Errorf("%s changed while the hand-off was interrupted; move it aside and the hand-off is finished", tiers.LatestPath)
	}
	prev, err := s.readOptional(tiers.PreviousPath)
	if err != nil {
		return false, err
	}
	if prev != nil && !(j.PreviousView && digest(prev) == j.Previous) && digest(prev) != j.Latest {
		return false, fmt.Errorf("%s changed while the hand-off was interrupted; move it aside and the hand-off is finished", tiers.PreviousPath)
	}
	return true, s.move(tiers.LatestPath, tiers.PreviousPath)
}

// installLatest moves the staged summary to recent/latest.md, which the
// previous step emptied. It never replaces a file it did not stage.
func (s *Store) installLatest(j *journal) (bool, error) {
	staged := j.stagedPath()
	cur, err := s.readOptional(tiers.LatestPath)
	switch {
	case err != nil:
		return false, err
	case cur != nil && digest(cur) == j.New:
		return false, nil
	case cur != nil:
		return false, fmt.Errorf("%s changed while the hand-off was interrupted; move it aside and the new summary, staged at %s, is installed", tiers.LatestPath, staged)
	}
	data, err := s.readOptional(staged)
	switch {
	case err != nil:
		return false, err
	case data == nil || digest(data) != j.New:
		return false, fmt.Errorf("the staged summary %s is missing or damaged", staged)
	}
	return true, s.move(staged, tiers.LatestPath)
}

// writeBlock sets main.md's HANDOFF block, computed afresh from main.md as
// it is, so the step holds whatever else changed in the file.
func (s *Store) writeBlock(j *journal) (bool, error) {
	main, err := s.readOptional(tiers.MainPath)
	if err != nil {
		return false, err
	}
	if j.Block.In(main) {
		return false, nil
	}
	out, _, err := ReplaceBlock(main, j.Block)
	if err != nil {
		return false, err
	}
	return true, s.Write(tiers.MainPath, out)
}

// appendDecisions appends the decisions, dated the day of the hand-off,
// unless the log has changed since the hand-off was planned and ends with
// them.
func (s *Store) appendDecisions(j *journal) (bool, error) {
	if len(j.Decisions) == 0 {
		return false, nil
	}
	cur, err := s.readOptional(tiers.DecisionsPath)
	if err != nil {
		return false, err
	}
	eol := eolOf(string(cur))
	entries := renderEntries(j.Decisions, j.At, eol)
	if digest(cur) != j.DecisionsBefore && strings.HasSuffix(string(cur), strings.Join(entries, eol)) {
		return false, nil
	}
	at := *s
	at.Now = func() time.Time { return j.At }
	return true, at.AppendDecisionsLocked(j.Decisions)
}

func (s *Store) exists(rel string) bool {
	_, err := s.FS.Stat(s.Path(rel))
	return err == nil
}

// move renames src to dst (both relative to the root) and syncs both
// directories so the rename survives a crash. An edit by hand src holds
// is recorded first (see [EditScan]).
func (s *Store) move(src, dst string) error {
	if err := s.CheckWritable(src, dst); err != nil {
		return err
	}
	s.noteHandEdit(src)
	if err := s.FS.Rename(s.Path(src), s.Path(dst)); err != nil {
		return fmt.Errorf("moving %s to %s: %w", src, dst, err)
	}
	if err := SyncDir(s.FS, filepath.Dir(s.Path(dst))); err != nil {
		return err
	}
	if path.Dir(src) == path.Dir(dst) {
		return nil
	}
	return SyncDir(s.FS, filepath.Dir(s.Path(src)))
}

// removeTempsOf removes the temporary files of rel's writes beside it.
func (s *Store) removeTempsOf(rel string) error {
	if CheckDir(s.FS, s.Root, path.Dir(rel)) != nil {
		return nil // a directory linked elsewhere holds no temporary file of wake's
	}
	dir, base := filepath.Split(s.Path(rel))
	stamp, stamped := "", false
	if path.Dir(rel) == tiers.SessionsDir {
		stamp, stamped = sessionsStamp(s.FS, sessionsDir(s.Root))
	}
	names := dirNames(s.FS, dir)
	for _, name := range names {
		if isTemp(name, base) {
			if err := s.FS.Remove(filepath.Join(dir, name)); err != nil {
				return fmt.Errorf("removing %s: %w", name, err)
			}
			stamped = false // the directory changed since its stamp
		}
	}
	if stamped {
		noteSessionsSwept(s.FS, s.Root, stamp, names)
	}
	return nil
}

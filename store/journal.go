package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// JournalDir is where hand-offs in progress keep their journals, inside the
// state directory: one directory a hand-off, holding the staged summary and
// journal.json.
const JournalDir = "handoff"

const (
	journalName = "journal.json"
	// stagedName is where journals of version 1 staged the summary, in the
	// hand-off's own directory; version 2 stages it beside its target.
	stagedName = "latest.md"
	// journalVersion 3 writes the session's record in cold/sessions/ and
	// treats recent/ as views of the records (DESIGN section 11).
	journalVersion = 3
)

// stagedRel is where a hand-off stages its summary: beside
// recent/latest.md, so that installing it is a rename within one
// directory, which works wherever .state/ is mounted.
func stagedRel(id string) string { return tiers.RecentDir + "/.handoff-" + id + ".md" }

// stagedPath is the journal's staged summary, relative to the root.
func (j *journal) stagedPath() string {
	if j.Version == 1 {
		return tiers.StateDir + "/" + JournalDir + "/" + j.ID + "/" + stagedName
	}
	return stagedRel(j.ID)
}

// journal is a hand-off's plan, written atomically once its summary is
// staged (the commit point) and removed once its ledger line is written.
// Every step it describes can be checked for having been done, so that
// recovery only ever rolls forward.
type journal struct {
	Version int       `json:"version"`
	ID      string    `json:"id"`
	At      time.Time `json:"at"`
	// Digests (SHA-256, hex) of the summaries being moved: recent/previous.md
	// and recent/latest.md as they were ("" when absent), and the new one.
	Previous         string `json:"previous_sha256,omitempty"`
	Latest           string `json:"latest_sha256,omitempty"`
	New              string `json:"new_sha256"`
	Archive          string `json:"archive,omitempty"` // where recent/previous.md goes
	ArchiveByModTime bool   `json:"archive_by_mod_time,omitempty"`
	// Record is the new session's record in cold/sessions/, written whole
	// once (version 3). LatestRecord is where a copy of recent/latest.md
	// goes when it is no view of a record yet (written by an older wake,
	// or edited by hand), so that what it holds is a record before it is
	// rotated. PreviousView says recent/previous.md is a copy of a record:
	// it is replaced, not archived.
	Record          string        `json:"record,omitempty"`
	LatestRecord    string        `json:"latest_record,omitempty"`
	PreviousView    bool          `json:"previous_view,omitempty"`
	Block           Block         `json:"block"`
	BlockAppended   bool          `json:"block_appended,omitempty"`
	Decisions       []NewDecision `json:"decisions,omitempty"`
	DecisionsBefore string        `json:"decisions_before_sha256,omitempty"` // the log as it was
	Entry           Entry         `json:"ledger"`
}

// Recovery says what became of one interrupted hand-off.
type Recovery struct {
	ID      string
	At      time.Time // zero when rolled back
	Summary string    // its session_summary; "" when rolled back
	// RolledBack is set when it had not committed: nothing outside the state
	// directory had changed, and its staged files were removed.
	RolledBack bool
	Steps      []string // the steps finished now, when rolled forward
	// Log is set for a write of the decision log rather than a hand-off:
	// At and Summary are then its command's ledger line (zero and "" for
	// the decisions of a hand-off).
	Log bool
	// Created is set for a file's creation with its ledger line (see
	// [Store.CreateLogged]): the file's path, relative to the root.
	Created string
}

// String describes the recovery in one line.
func (r Recovery) String() string {
	if r.Log {
		return r.logString()
	}
	if r.Created != "" || strings.HasSuffix(r.ID, ".json") {
		return r.createString()
	}
	if r.RolledBack {
		return fmt.Sprintf("rolled back hand-off %s, interrupted before it changed anything", r.ID)
	}
	done := "nothing was left to do but its clean-up"
	if len(r.Steps) > 0 {
		done = "finished: " + strings.Join(r.Steps, "; ")
	}
	return fmt.Sprintf("finished hand-off %s of %s (%q), interrupted earlier; %s", r.ID, r.At.Format(tiers.SessionTimeLayout), r.Summary, done)
}

func (r Recovery) logString() string {
	file, noun := tiers.DecisionsPath, "the log"
	if r.ID == InboxPending {
		file, noun = tiers.InboxPath, "the inbox"
	}
	what := "a write of " + file
	if r.Summary != "" {
		what += fmt.Sprintf(" (%q)", r.Summary)
	}
	if r.RolledBack {
		return fmt.Sprintf("rolled back %s, interrupted before it changed %s", what, noun)
	}
	return fmt.Sprintf("finished %s, interrupted after it changed %s: %s", what, noun, strings.Join(r.Steps, "; "))
}

func (s *Store) journalRoot() string { return s.Path(tiers.StateDir + "/" + JournalDir) }

func (s *Store) journalDir(id string) string { return filepath.Join(s.journalRoot(), id) }

// stage writes the summary and then the journal into the hand-off's own
// directory. On error it removes what it wrote, best effort.
func (s *Store) stage(j *journal, summary []byte) (err error) {
	dir, err := MkdirAllIn(s.FS, s.Root, tiers.StateDir+"/"+JournalDir+"/"+j.ID)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			s.removeStaged(j.ID)
			s.FS.RemoveAll(dir)
		}
	}()
	if err := SyncDir(s.FS, s.journalRoot()); err != nil {
		return err
	}
	if j.Archive != "" {
		if err := s.probeRename(j.ID, path.Dir(j.Archive)); err != nil {
			return err
		}
	}
	if err := s.Write(stagedRel(j.ID), summary); err != nil {
		return err
	}
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	return s.Write(tiers.StateDir+"/"+JournalDir+"/"+j.ID+"/"+journalName, append(data, '\n'))
}

// probeRename renames an empty file from recent/ to dst (relative to the
// root) and removes it: a rename that the file systems refuse (dst on
// another one: EXDEV) is found before the hand-off commits rather than
// halfway through its rotation. The probe's names carry the hand-off's id,
// so that rolling back an interrupted hand-off removes what a crash left.
func (s *Store) probeRename(id, dst string) error {
	dstDir, err := MkdirAllIn(s.FS, s.Root, dst)
	if err != nil {
		return err
	}
	from, to := s.Path(probeRel(tiers.RecentDir, id)), filepath.Join(dstDir, path.Base(probeRel(dst, id)))
	f, err := s.FS.OpenFile(from, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("checking that %s is writable: %w", tiers.RecentDir, err)
	}
	f.Close()
	if err := s.FS.Rename(from, to); err != nil {
		s.FS.Remove(from)
		return fmt.Errorf("%s cannot be moved to %s, so the hand-off did not start and nothing changed: %w", tiers.RecentDir, dst, err)
	}
	if err := s.FS.Remove(to); err != nil {
		return fmt.Errorf("removing %s: %w", to, err)
	}
	return nil
}

// probeRel names the probe file of hand-off id in dir.
func probeRel(dir, id string) string { return dir + "/.handoff-" + id + ".probe" }

// removeStaged removes what an uncommitted hand-off may have left outside
// its directory: the staged summary, its temporary files and the probes.
func (s *Store) removeStaged(id string) error {
	rels := []string{stagedRel(id), probeRel(tiers.RecentDir, id), probeRel(tiers.SessionsDir, id)}
	for _, rel := range rels {
		if err := CheckWritable(s.FS, s.Root, rel); err != nil {
			return err
		}
		if err := s.FS.Remove(s.Path(rel)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", rel, err)
		}
	}
	if err := CheckDir(s.FS, s.Root, tiers.RecentDir); err != nil {
		return err
	}
	dir := s.Path(tiers.RecentDir)
	base := path.Base(stagedRel(id))
	for _, name := range dirNames(s.FS, dir) {
		if isTemp(name, base) {
			if err := s.FS.Remove(filepath.Join(dir, name)); err != nil {
				return fmt.Errorf("removing %s: %w", name, err)
			}
		}
	}
	return nil
}

// check refuses a journal wake could not have written: recovery moves
// files where the journal says, and a journal can come with a cloned
// repository, so its archive must be a plain name in cold/sessions/.
func (j *journal) check() error {
	for _, rel := range []string{j.Archive, j.Record, j.LatestRecord} {
		if rel == "" {
			continue
		}
		dir, base := path.Split(rel)
		if dir != tiers.SessionsDir+"/" || base != path.Clean(base) || !strings.HasSuffix(base, ".md") || strings.HasPrefix(base, ".") || strings.ContainsAny(base, "\\\x00") {
			return fmt.Errorf("session file %q is not a file in %s", rel, tiers.SessionsDir)
		}
	}
	return j.Entry.Validate()
}

// committed reports whether the hand-off's journal is on disk.
func (s *Store) committed(id string) bool {
	_, err := s.FS.Stat(filepath.Join(s.journalDir(id), journalName))
	return err == nil
}

// finish removes a completed hand-off's directory. Failing to sync the
// removal is no error: a journal that a power loss brings back is found
// complete by the next recovery, which removes it again.
func (s *Store) finish(id string) error {
	// Removed whole, so it must be the journal's own directory, not a link
	// a cloned repository planted to aim the removal elsewhere.
	if err := CheckDir(s.FS, s.Root, tiers.StateDir+"/"+JournalDir+"/"+id); err != nil {
		return err
	}
	if err := s.FS.RemoveAll(s.journalDir(id)); err != nil {
		return fmt.Errorf("removing %s: %w", s.journalDir(id), err)
	}
	SyncDir(s.FS, s.journalRoot())
	return nil
}

// Pending reports whether root holds an interrupted hand-off, without
// taking the lock: a hand-off in progress in another process counts too.
func Pending(fsys afero.Fs, root string) (bool, error) {
	if err := CheckDir(fsys, root, tiers.StateDir+"/"+JournalDir); err != nil {
		return false, err
	}
	names, err := afero.ReadDir(fsys, filepath.Join(root, tiers.StateDir, JournalDir))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading %s/%s: %w", tiers.StateDir, JournalDir, err)
	}
	for _, fi := range names {
		if fi.IsDir() {
			return true, nil
		}
	}
	return false, nil
}

// Recover finishes, or rolls back when it had not committed, every
// interrupted hand-off and write of the decision log of the root, under
// the root's lock, and says what it did. It takes the lock only when there
// is something to recover, so it costs a few directory reads when there is
// not. A hand-off still running in another process is waited for and then
// found complete. It also removes the temporary files of atomic writes a
// crash left behind, once they are older than [StaleTempAge].
func Recover(ctx context.Context, s *Store) ([]Recovery, error) {
	removeStaleTemps(s.FS, s.Root, s.Now())
	ok, err := Pending(s.FS, s.Root)
	if err != nil {
		return nil, err
	}
	if !ok {
		if ok, err = decisionsPending(s.FS, s.Root); err != nil {
			return nil, err
		}
	}
	if !ok && !createsPending(s.FS, s.Root) && !inboxPending(s.FS, s.Root) {
		return nil, nil
	}
	unlock, err := s.Locker.Lock(ctx, s.Root)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return s.recoverLocked()
}

// recoverLocked settles an interrupted write of the decision log first: a
// hand-off appending decisions makes that write last, so whatever it left
// is settled before the hand-off's own steps are checked.
func (s *Store) recoverLocked() ([]Recovery, error) {
	var out []Recovery
	// The inbox first: its record is its own, and one the decision log's
	// failure left unsettled could be dropped by the next inbox rewrite.
	r, ok, err := s.settleInboxLocked()
	if ok {
		out = append(out, r)
	}
	if err != nil {
		return out, fmt.Errorf("recovering an interrupted write of %s: %w", tiers.InboxPath, err)
	}
	r, ok, err = s.settleDecisionsLocked()
	if ok {
		out = append(out, r)
	}
	if err != nil {
		return out, fmt.Errorf("recovering an interrupted write of %s: %w", tiers.DecisionsPath, err)
	}
	created, err := s.settleCreatesLocked()
	out = append(out, created...)
	if err != nil {
		return out, err
	}
	if err := CheckDir(s.FS, s.Root, tiers.StateDir+"/"+JournalDir); err != nil {
		return out, err
	}
	infos, err := afero.ReadDir(s.FS, s.journalRoot())
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return out, fmt.Errorf("reading %s/%s: %w", tiers.StateDir, JournalDir, err)
	}
	sort.Slice(infos, func(a, b int) bool { return infos[a].Name() < infos[b].Name() })
	for _, fi := range infos {
		if !fi.IsDir() {
			continue
		}
		r, err := s.recoverOne(fi.Name())
		if err != nil {
			return out, fmt.Errorf("recovering the interrupted hand-off %s: %w", fi.Name(), err)
		}
		out = append(out, r)
	}
	// Under the exclusive lock no other writer of the hand-off's files
	// runs, so their temporary files were left by a crash, whether or not
	// anything was pending: a root that never had a hand-off has no journal
	// directory, yet a crashed decision-log write may have left some.
	return out, s.removeTemps()
}

func (s *Store) recoverOne(id string) (Recovery, error) {
	r := Recovery{ID: id}
	data, err := tiers.ReadOwn(s.FS, s.Root, tiers.StateDir+"/"+JournalDir+"/"+id+"/"+journalName)
	if errors.Is(err, os.ErrNotExist) {
		r.RolledBack = true
		if err := s.removeStaged(id); err != nil {
			return r, err
		}
		return r, s.finish(id)
	}
	if err != nil {
		return r, err
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil || j.Version < 1 || j.Version > journalVersion || j.ID != id {
		return r, fmt.Errorf("%s/%s/%s/%s is not a hand-off journal wake can read; its staged summary is %s or %s",
			tiers.StateDir, JournalDir, id, journalName, stagedName+" beside it", stagedRel(id))
	}
	if err := j.check(); err != nil {
		return r, fmt.Errorf("%s/%s/%s/%s: %w; wake does not act on it", tiers.StateDir, JournalDir, id, journalName, err)
	}
	// The summary is said as its ledger line keeps it: nothing of a
	// held-back main.md.
	r.At, r.Summary = j.At, sealed(s.FS, s.Root, j.Entry).ChangeSummary
	if r.Steps, err = s.rollForward(&j); err != nil {
		return r, err
	}
	logged, err := s.ensureLedger(j.Entry)
	if err != nil {
		return r, err
	}
	if logged {
		r.Steps = append(r.Steps, "appended its ledger line")
	}
	return r, s.finish(id)
}

// ensureLedger appends an interrupted mutation's ledger line unless it is
// there.
func (s *Store) ensureLedger(want Entry) (bool, error) {
	entries, _, err := ReadLedger(s.FS, s.Root)
	if err != nil {
		return false, err
	}
	// The line went in sealed (see [sealed]): it is found as it was
	// written, or as an older wake wrote it, in clear.
	seal := sealed(s.FS, s.Root, want)
	for _, e := range entries {
		if e.Op == want.Op && e.At.Equal(want.At) && (e.ChangeSummary == want.ChangeSummary || e.ChangeSummary == seal.ChangeSummary) {
			return false, nil
		}
	}
	return true, s.appendLedger(want)
}

// removeTemps removes the temporary files an interrupted atomic write of a
// hand-off's files, the decision log's or the inbox's (and of the records
// kept beside them) leaves behind ([WriteFile] names them ".NAME.tmp-HEX").
func (s *Store) removeTemps() error {
	for _, rel := range []string{tiers.MainPath, tiers.LatestPath, tiers.PreviousPath, tiers.DecisionsPath, tiers.StateDir + "/" + DecisionsSnapshot, tiers.StateDir + "/" + DecisionsPending, tiers.StateDir + "/" + InboxPending, tiers.StateDir + "/" + WrittenIDsFile, tiers.StateDir + "/" + InboxArchiveLastFile, tiers.StateDir + "/" + ArchivedIDsFile, tiers.StateDir + "/" + OutsideWritesFile, tiers.StateDir + "/" + LedgerRunsFile, tiers.InboxPath} {
		if CheckDir(s.FS, s.Root, path.Dir(rel)) != nil {
			continue // a directory linked elsewhere holds no temporary file of wake's
		}
		dir, base := filepath.Split(s.Path(rel))
		infos, err := afero.ReadDir(s.FS, dir)
		if err != nil {
			continue
		}
		for _, fi := range infos {
			if isTemp(fi.Name(), base) {
				// A record kept as a cache (the ledger's runs, the outside
				// writes) is written without the lock: its writer may have
				// renamed or removed its temporary since the listing.
				if err := s.FS.Remove(filepath.Join(dir, fi.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
					return fmt.Errorf("removing %s: %w", fi.Name(), err)
				}
			}
		}
	}
	return nil
}

func isTemp(name, base string) bool {
	hexPart, ok := strings.CutPrefix(name, "."+base+".tmp-")
	if !ok || len(hexPart) != 12 {
		return false
	}
	return strings.Trim(hexPart, "0123456789abcdef") == ""
}

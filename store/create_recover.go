package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// settleCreate settles the creation whose record is recRel (under the
// state directory). The file was put in place when it holds the record's
// content, or is the very file the temporary name holds: its ledger line
// is then made sure of. Otherwise the creation never reached it and is
// rolled back. The temporary file and the record go either way.
func (s *Store) settleCreate(recRel string) (Recovery, error) {
	r := Recovery{ID: path.Base(recRel)}
	data, err := s.readOptional(tiers.StateDir + "/" + recRel)
	if err != nil || data == nil {
		return r, err
	}
	var rec pendingCreate
	if json.Unmarshal(data, &rec) != nil || rec.Version != createVersion || rec.Path == "" {
		// A torn record was never acted on: the file is written only
		// once the record is whole on disk.
		r.RolledBack = true
		return r, s.dropCreate("", recRel)
	}
	if err := rec.check(); err != nil {
		return r, fmt.Errorf("%w; wake does not act on it", err)
	}
	r.Created, r.At, r.Summary = rec.Path, rec.Entry.At, rec.Entry.ChangeSummary
	if err := CheckWritable(s.FS, s.Root, rec.Path); err != nil {
		return r, err
	}
	name := s.Path(rec.Path)
	tmp := filepath.Join(filepath.Dir(name), rec.Temp)
	if !s.placed(name, tmp, rec.SHA256) {
		if !s.placeAfterInbox(rec, name, tmp) {
			r.RolledBack = true
			return r, s.dropCreate(tmp, recRel)
		}
		r.Steps = append(r.Steps, "put it in place, its inbox written")
	}
	logged, err := s.ensureLedger(rec.Entry)
	if err != nil {
		return r, err
	}
	if logged {
		r.Steps = append(r.Steps, "appended its ledger line")
	}
	return r, s.dropCreate(tmp, recRel)
}

// placeAfterInbox finishes putting a creation's file in place when the
// creation had written its inbox (the record's Inbox digest is the
// inbox's) and the temporary file is whole: the inbox is not undone, and
// its consumed reminders keep their capsule. False when it should roll
// back, or could not place the file.
func (s *Store) placeAfterInbox(rec pendingCreate, name, tmp string) bool {
	if rec.Inbox == "" {
		return false
	}
	inbox, err := s.readOptional(tiers.InboxPath)
	if err != nil || inbox == nil || digest(inbox) != rec.Inbox {
		return false
	}
	fi, err := lstat(s.FS, tmp)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	data, err := afero.ReadFile(s.FS, tmp)
	if err != nil || digest(data) != rec.SHA256 {
		return false
	}
	return placeNew(s.FS, tmp, name, data, 0o644) == nil
}

// placed reports whether the creation put its file at name.
func (s *Store) placed(name, tmp, sum string) bool {
	fi, err := lstat(s.FS, name)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if ti, err := lstat(s.FS, tmp); err == nil && os.SameFile(fi, ti) {
		return true
	}
	cur, err := s.readOptional(strings.TrimPrefix(filepath.ToSlash(name), filepath.ToSlash(s.Root)+"/"))
	return err == nil && cur != nil && digest(cur) == sum
}

// check refuses a record wake could not have written: recovery removes
// the temporary file it names, and a record can come with a cloned
// repository.
func (rec *pendingCreate) check() error {
	if !filepath.IsLocal(filepath.FromSlash(rec.Path)) || path.Clean(rec.Path) != rec.Path || strings.HasPrefix(rec.Path, tiers.StateDir+"/") {
		return fmt.Errorf("path %q is not a file wake creates", rec.Path)
	}
	if !isTemp(rec.Temp, path.Base(rec.Path)) {
		return fmt.Errorf("temp %q is not a temporary name of %s", rec.Temp, rec.Path)
	}
	return rec.Entry.Validate()
}

// createString describes the recovery of a creation in one line.
func (r Recovery) createString() string {
	if r.Created == "" {
		return fmt.Sprintf("removed the torn record %s/%s/%s of a creation that never began", tiers.StateDir, CreatesDir, r.ID)
	}
	if r.RolledBack {
		return fmt.Sprintf("rolled back the creation of %s, interrupted before the file was in place", r.Created)
	}
	done := "its ledger line was there"
	if len(r.Steps) > 0 {
		done = strings.Join(r.Steps, "; ")
	}
	return fmt.Sprintf("finished the creation of %s (%q), interrupted after the file was in place: %s", r.Created, r.Summary, done)
}

package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// CreatesDir is where a creation in progress keeps its record, inside the
// state directory: one file a creation, named by its id. A file wake
// creates for good (a capsule's stub) and its ledger line are two writes;
// the record, written before either, lets the next wake command finish
// the pair or undo it, so a kill never leaves the file without its line.
const CreatesDir = "creates"

const createVersion = 1

// NewFile is a file [Store.CreateLogged] creates and the ledger line
// that records it.
type NewFile struct {
	Path  string // relative to the root, slash-separated
	Data  []byte
	Entry Entry
}

// pendingCreate is the record of one creation.
type pendingCreate struct {
	Version int    `json:"version"`
	Path    string `json:"path"`
	Temp    string `json:"temp"`   // the temporary file's name, beside Path
	SHA256  string `json:"sha256"` // of the file's content
	Entry   Entry  `json:"ledger"`
	// Inbox is the SHA-256 of the inbox's text once the creation (a
	// capsule consuming reminders) has written it, before the file is
	// put in place: an inbox holding it beside a whole temporary file is
	// a creation to finish. Empty when the creation writes no inbox.
	Inbox string `json:"inbox,omitempty"`
}

// creation is a creation begun: its record written, its file at the
// temporary name.
type creation struct {
	tmp    string // the temporary file's path
	recRel string // the record's path under the state directory
}

// abandon removes a creation's temporary file and record after err.
func (c creation) abandon(s *Store, err error) error {
	s.FS.Remove(c.tmp)
	s.FS.Remove(s.Path(tiers.StateDir + "/" + c.recRel))
	return err
}

// CreateLogged runs fn under the root's lock, then creates the file it
// returns, never over an existing one (an error wrapping os.ErrExist),
// and appends its ledger line, as one change: a crash at any point leaves
// either nothing, once the next wake command has rolled back, or the
// whole file with its line, once it has rolled forward.
func (s *Store) CreateLogged(ctx context.Context, fn func() (NewFile, error)) error {
	unlock, err := s.lockForWrite(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	nf, err := fn()
	if err != nil {
		return err
	}
	if nf.Entry.At.IsZero() {
		nf.Entry.At = s.Now()
	}
	// As the ledger stores it, so that recovery finds the line it wrote.
	nf.Entry.At = nf.Entry.At.UTC().Truncate(time.Second)
	if err := nf.Entry.Validate(); err != nil {
		return err
	}
	// Found after the file is in place, an unwritable ledger would leave
	// it without its line.
	if err := CheckLedgerWritable(s.FS, s.Root); err != nil {
		return err
	}
	return s.createLogged(nf)
}

func (s *Store) createLogged(nf NewFile) error {
	c, err := s.beginCreate(nf, "", false)
	if err != nil {
		return err
	}
	if err := placeNew(s.FS, c.tmp, s.Path(nf.Path), nf.Data, 0o644); err != nil {
		return c.abandon(s, err)
	}
	if err := s.appendLedger(nf.Entry); err != nil {
		return fmt.Errorf("%s was created but its ledger line was not written: %w; the next wake command writes it", nf.Path, err)
	}
	return s.dropCreate(c.tmp, c.recRel)
}

// beginCreate writes the record of the creation of nf, then nf's data to
// a temporary name beside its path, made and synced. With inbox set, the
// record holds the digest of inboxText, the inbox the creation writes
// next.
func (s *Store) beginCreate(nf NewFile, inboxText string, inbox bool) (creation, error) {
	if _, err := walkPath(s.FS, s.Root, path.Dir(nf.Path), mkdirAll); err != nil {
		return creation{}, err
	}
	name := s.Path(nf.Path)
	if _, err := lstat(s.FS, name); err == nil {
		return creation{}, &os.PathError{Op: "create", Path: name, Err: fs.ErrExist}
	}
	id := randSuffix()
	c := creation{tmp: filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".tmp-"+id), recRel: CreatesDir + "/" + id + ".json"}
	rec := pendingCreate{Version: createVersion, Path: nf.Path, Temp: filepath.Base(c.tmp), SHA256: digest(nf.Data), Entry: nf.Entry}
	if inbox {
		rec.Inbox = digest([]byte(inboxText))
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return creation{}, err
	}
	if err := WriteState(s.FS, s.Root, c.recRel, append(data, '\n')); err != nil {
		return creation{}, err
	}
	if _, err := writeTemp(s.FS, name, c.tmp, nf.Data, 0o644); err != nil {
		return creation{}, c.abandon(s, err)
	}
	return c, nil
}

// dropCreate removes a settled creation's temporary name and record.
func (s *Store) dropCreate(tmp, recRel string) error {
	if tmp != "" {
		if err := s.FS.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", tmp, err)
		}
	}
	if err := s.FS.Remove(s.Path(tiers.StateDir + "/" + recRel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing %s/%s: %w", tiers.StateDir, recRel, err)
	}
	SyncDir(s.FS, s.Path(tiers.StateDir+"/"+CreatesDir))
	return nil
}

// createsPending reports whether a creation left its record.
func createsPending(fsys afero.Fs, root string) bool {
	return len(createRecords(fsys, root)) > 0
}

// createRecords lists the names of the creation records, in order.
func createRecords(fsys afero.Fs, root string) []string {
	if CheckDir(fsys, root, tiers.StateDir+"/"+CreatesDir) != nil {
		return nil
	}
	var out []string
	for _, name := range dirNames(fsys, filepath.Join(root, tiers.StateDir, CreatesDir)) {
		if strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".") {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// settleCreatesLocked finishes or rolls back every interrupted creation.
func (s *Store) settleCreatesLocked() ([]Recovery, error) {
	var out []Recovery
	for _, name := range createRecords(s.FS, s.Root) {
		r, err := s.settleCreate(CreatesDir + "/" + name)
		if err != nil {
			return out, fmt.Errorf("recovering the interrupted creation %s/%s/%s: %w", tiers.StateDir, CreatesDir, name, err)
		}
		out = append(out, r)
	}
	return out, nil
}

package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/afero"
)

// FootprintName, in the user's wake directory, records the files wake
// wrote outside every memory root (the shared skill.md at skill.path, the
// trust store), so that they can be listed and taken back: `wake
// footprint` (issue 27, point 3).
const FootprintName = "footprint.json"

// footprintLock is the record's lock file, beside it.
const footprintLock = ".footprint.lock"

// Footprint is what [FootprintName] holds.
type Footprint struct {
	Version int              `json:"version"`
	Files   []FootprintEntry `json:"files"`
}

// FootprintEntry is one file wake wrote outside the memory roots: its
// path, what it is, the SHA-256 of what wake last wrote there, and when
// wake first and last wrote it.
type FootprintEntry struct {
	Path   string    `json:"path"`
	What   string    `json:"what"`
	SHA256 string    `json:"sha256"`
	First  time.Time `json:"first_written"`
	Last   time.Time `json:"last_written"`
}

// ReadFootprint reads the record in the user's wake directory dir. A
// missing file is an empty record; a damaged one is an error naming it.
func ReadFootprint(fsys afero.Fs, dir string) (Footprint, error) {
	fp := Footprint{Version: 1}
	name := filepath.Join(dir, FootprintName)
	data, err := afero.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return fp, nil
	}
	if err != nil {
		return fp, fmt.Errorf("reading %s: %w", name, err)
	}
	if err := json.Unmarshal(data, &fp); err != nil || fp.Version != 1 {
		if err == nil {
			err = fmt.Errorf("version %d, want 1", fp.Version)
		}
		return Footprint{Version: 1}, fmt.Errorf("%s: %v", name, err)
	}
	return fp, nil
}

// Hash is the hex SHA-256 of data, as the record keeps it.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// RecordFootprint records that wake wrote data to path (what says what it
// is), under the record's lock, writing the record only when it changes.
// first reports that wake had not written path before: the caller says
// so, once.
func RecordFootprint(ctx context.Context, fsys afero.Fs, locker Locker, dir, path, what string, data []byte, now time.Time) (first bool, err error) {
	if err := fsys.MkdirAll(dir, 0o700); err != nil {
		return false, err
	}
	unlock, err := locker.LockIn(ctx, dir, footprintLock)
	if err != nil {
		return false, err
	}
	defer unlock()
	fp, err := ReadFootprint(fsys, dir)
	if err != nil {
		return false, err
	}
	now = now.UTC().Truncate(time.Second)
	sum := Hash(data)
	i := slices.IndexFunc(fp.Files, func(f FootprintEntry) bool { return f.Path == path })
	switch {
	case i >= 0 && fp.Files[i].SHA256 == sum && fp.Files[i].What == what:
		return false, nil
	case i >= 0:
		fp.Files[i].SHA256, fp.Files[i].What, fp.Files[i].Last = sum, what, now
	default:
		fp.Files = append(fp.Files, FootprintEntry{Path: path, What: what, SHA256: sum, First: now, Last: now})
	}
	return i < 0, writeFootprint(fsys, dir, fp)
}

func writeFootprint(fsys afero.Fs, dir string, fp Footprint) error {
	if fp.Files == nil {
		fp.Files = []FootprintEntry{}
	}
	data, err := json.MarshalIndent(fp, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileMode(fsys, filepath.Join(dir, FootprintName), append(data, '\n'), 0o600)
}

// The states of a recorded file now.
const (
	FootprintUnchanged = "unchanged" // as wake last wrote it
	FootprintChanged   = "changed"   // changed since: someone else's now
	FootprintGone      = "gone"      // no longer there
)

// FootprintState is a recorded file as it is now.
type FootprintState struct {
	FootprintEntry
	State   string `json:"state"`
	Removed bool   `json:"removed"`
}

// FootprintStates reads the record in dir and says of each file whether it
// is as wake last wrote it; with remove, it deletes those that are, and
// forgets them and the ones gone, keeping in the record only the files
// changed since (someone else's now, which wake never deletes). A record
// left empty is removed.
func FootprintStates(ctx context.Context, fsys afero.Fs, locker Locker, dir string, remove bool) ([]FootprintState, error) {
	if _, err := fsys.Stat(filepath.Join(dir, FootprintName)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	unlock, err := locker.LockIn(ctx, dir, footprintLock)
	if err != nil {
		return nil, err
	}
	defer unlock()
	fp, err := ReadFootprint(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []FootprintState
	var kept []FootprintEntry
	for _, f := range fp.Files {
		st := FootprintState{FootprintEntry: f, State: FootprintUnchanged}
		data, err := afero.ReadFile(fsys, f.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			st.State = FootprintGone
		case err != nil:
			return out, fmt.Errorf("reading %s: %w", f.Path, err)
		case Hash(data) != f.SHA256:
			st.State = FootprintChanged
		}
		if remove && st.State == FootprintUnchanged {
			if err := fsys.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return out, fmt.Errorf("removing %s: %w", f.Path, err)
			}
			st.Removed = true
		}
		if st.State == FootprintChanged || !remove {
			kept = append(kept, f)
		}
		out = append(out, st)
	}
	if !remove {
		return out, nil
	}
	if len(kept) == 0 {
		if err := fsys.Remove(filepath.Join(dir, FootprintName)); err != nil && !os.IsNotExist(err) {
			return out, err
		}
		return out, nil
	}
	fp.Files = kept
	return out, writeFootprint(fsys, dir, fp)
}

package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wakeproto/wake/skeleton"
)

// InitResult lists what Init created, relative to the root. Directories end
// in "/".
type InitResult struct {
	Created []string
	Existed []string
}

// Init lays out a memory root with the skeleton, creating only what is
// missing: an existing file is never opened for writing, but for an empty
// skeleton file, which only an interrupted init leaves, written whole. A
// skeleton file an interrupted init created before its ledger line is
// counted as created, so its line records it. The root itself is created
// when needed.
func Init(ctx context.Context, s *Store, p skeleton.Params) (InitResult, error) {
	var res InitResult
	if err := s.FS.MkdirAll(s.Root, 0o755); err != nil {
		return res, fmt.Errorf("creating %s: %w", s.Root, err)
	}
	files, err := skeleton.Files(p)
	if err != nil {
		return res, err
	}
	err = s.Mutate(ctx, func() (Entry, error) {
		for _, d := range skeleton.Dirs() {
			name := s.Path(d)
			if fi, err := s.FS.Stat(name); err == nil {
				if !fi.IsDir() {
					return Entry{}, fmt.Errorf("%s exists and is not a directory", d)
				}
				res.Existed = append(res.Existed, d+"/")
				continue
			}
			if _, err := MkdirAllIn(s.FS, s.Root, d); err != nil {
				return Entry{}, err
			}
			res.Created = append(res.Created, d+"/")
		}
		logged := initLogged(s.FS, s.Root)
		for _, f := range files {
			created, err := s.initFile(f, logged)
			if err != nil {
				return Entry{}, err
			}
			if created {
				res.Created = append(res.Created, f.Path)
			} else {
				res.Existed = append(res.Existed, f.Path)
			}
		}
		if len(res.Created) == 0 {
			return Entry{}, errNothingCreated
		}
		return Entry{Op: opInit, Paths: res.Created, ChangeSummary: fmt.Sprintf(initSummaryPrefix+"%d of the memory root's files and directories", len(res.Created))}, nil
	})
	if errors.Is(err, errNothingCreated) {
		err = nil
	}
	return res, err
}

// errNothingCreated tells Mutate not to log an init that changed nothing.
var errNothingCreated = errors.New("nothing created")

// initFile creates one skeleton file, or settles the one there (see
// [Store.settleSkeletonFile]), and reports whether it counts as created.
func (s *Store) initFile(f skeleton.File, logged map[string]bool) (bool, error) {
	err := CreateExclusiveIn(s.FS, s.Root, f.Path, f.Data, 0o644)
	if errors.Is(err, os.ErrExist) {
		return s.settleSkeletonFile(f, logged)
	}
	if err != nil {
		return false, fmt.Errorf("creating %s: %w", f.Path, err)
	}
	return true, SyncDir(s.FS, filepath.Dir(s.Path(f.Path)))
}

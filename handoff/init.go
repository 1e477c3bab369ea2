package handoff

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
// missing: an existing file is never opened for writing. The root itself is
// created when needed.
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
		for _, f := range files {
			err := CreateExclusiveIn(s.FS, s.Root, f.Path, f.Data, 0o644)
			switch {
			case errors.Is(err, os.ErrExist):
				res.Existed = append(res.Existed, f.Path)
			case err != nil:
				return Entry{}, fmt.Errorf("creating %s: %w", f.Path, err)
			default:
				res.Created = append(res.Created, f.Path)
				if err := SyncDir(s.FS, filepath.Dir(s.Path(f.Path))); err != nil {
					return Entry{}, err
				}
			}
		}
		if len(res.Created) == 0 {
			return Entry{}, errNothingCreated
		}
		return Entry{Op: "init", Paths: res.Created, ChangeSummary: fmt.Sprintf("first wake: created %d of the memory root's files and directories", len(res.Created))}, nil
	})
	if errors.Is(err, errNothingCreated) {
		err = nil
	}
	return res, err
}

// errNothingCreated tells Mutate not to log an init that changed nothing.
var errNothingCreated = errors.New("nothing created")

package wake

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// recordOutside records in the user's footprint ([store.FootprintName])
// that wake wrote the file at path, outside the memory root, as it is
// now, and says so the first time: a file wake puts in the user's own
// directories is never written without a word, and `wake footprint
// --remove` can take it back (issue 27, point 3). Failing to record is
// a warning.
func (m *Memory) recordOutside(ctx context.Context, path, what string) {
	dir := tiers.UserDir(m.o.Env)
	if dir == "" {
		return
	}
	data, err := afero.ReadFile(m.o.FS, path)
	if err != nil {
		m.warn(fmt.Sprintf("%s was not recorded in %s: %v", path, filepath.Join(dir, store.FootprintName), err))
		return
	}
	first, err := store.RecordFootprint(ctx, m.o.FS, m.o.Locker, dir, path, what, data, m.o.Now())
	if err != nil {
		m.warn(fmt.Sprintf("%s was not recorded in %s: %v", path, filepath.Join(dir, store.FootprintName), err))
		return
	}
	if first {
		m.notify(Notice{Kind: "note", Msg: fmt.Sprintf("wrote %s (%s), outside the memory root, for the first time; wake keeps it current from now on", path, what),
			Hint: "'wake footprint' lists what wake wrote outside its memory roots, and 'wake footprint --remove' takes it back"})
	}
}

// Footprint lists the files wake wrote outside the memory roots, as the
// user's record has them, and whether each is as wake last wrote it; with
// remove, it deletes those that are (never a file changed since) and
// forgets them. dir is the record's directory.
func Footprint(ctx context.Context, o Options, remove bool) (dir string, files []store.FootprintState, err error) {
	m := bare("", o)
	dir = tiers.UserDir(m.o.Env)
	if dir == "" {
		return "", nil, ErrNoUserDir
	}
	files, err = store.FootprintStates(ctx, m.o.FS, m.o.Locker, dir, remove)
	return dir, files, err
}

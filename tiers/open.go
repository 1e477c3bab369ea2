package tiers

import (
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/afero"
)

// NotRegularError is a path given from outside wake (a transcript, a
// --file) that names something other than a regular file: a named pipe,
// whose open blocks until a writer comes, a device, which can be read
// without end, a directory or a socket.
type NotRegularError struct {
	Path string
	Why  string // as [NotRegular] says it: "is a directory", "not a regular file (named pipe)"
}

func (e *NotRegularError) Error() string { return fmt.Sprintf("%s: %s", e.Path, e.Why) }

// Hint says what to give instead.
func (e *NotRegularError) Hint() string { return "give the path of a regular file" }

// OpenInput opens name, a path wake was given rather than one of its own
// files, for reading: only a regular file, never waiting on it (see
// [OpenRegular]). Anything else is a [*NotRegularError] naming the path
// and what it is.
func OpenInput(fsys afero.Fs, name string) (afero.File, fs.FileInfo, error) {
	f, fi, why, err := OpenRegular(fsys, name)
	if err != nil {
		return nil, nil, err
	}
	if why != "" {
		return nil, nil, &NotRegularError{Path: name, Why: why}
	}
	return f, fi, nil
}

// openChecked opens name and checks what it opened: on the real file
// system without blocking, so that a named pipe put in place of a file
// (even after a stat said regular) is refused rather than waited on.
func openChecked(fsys afero.Fs, name string) (afero.File, fs.FileInfo, string, error) {
	if _, ok := fsys.(*afero.OsFs); ok {
		return openOS(name)
	}
	// Any other file system is checked before it is opened, then again
	// after: a wrapper may add to the open (a record of what was read),
	// and afero's MemMapFs takes any flag but O_RDONLY for a write and
	// stamps the file's time on close, so O_NONBLOCK is not passed on.
	fi, err := fsys.Stat(name)
	if err != nil {
		return nil, nil, "", err
	}
	if why := NotRegular(fi); why != "" {
		return nil, fi, why, nil
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, "", err
	}
	return checkOpened(f)
}

// openOS opens name on the operating system's file system with the
// flags that keep the open from waiting ([openFlags]), then checks what
// was opened and, for a regular file, reads it blocking again.
func openOS(name string) (afero.File, fs.FileInfo, string, error) {
	f, err := os.OpenFile(name, openFlags, 0)
	if err != nil {
		return nil, nil, "", err
	}
	file, fi, why, err := checkOpened(f)
	if file == nil {
		return nil, fi, why, err
	}
	if err := blocking(f); err != nil {
		f.Close()
		return nil, nil, "", err
	}
	return f, fi, "", nil
}

// checkOpened keeps f when the file it opened is regular, closing it
// otherwise with the reason.
func checkOpened(f afero.File) (afero.File, fs.FileInfo, string, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, "", err
	}
	if why := NotRegular(fi); why != "" {
		f.Close()
		return nil, fi, why, nil
	}
	return f, fi, "", nil
}

package store

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// WriterFile is the name of the writer id's file inside the state
// directory.
const WriterFile = "writer"

// writerAlphabet is lowercase RFC 4648 base32: no 0, 1, 8 or 9, so an id
// read aloud or copied by hand has no o/0 or l/1 to confuse.
const writerAlphabet = "abcdefghijklmnopqrstuvwxyz234567"

// writerLen is the length of a writer id wake makes: six characters, the
// first a letter, are 26×32⁵ ≈ 2²⁹·⁷ ids. A writer id only tells the
// clones and worktrees of one project apart (a few, a few hundred at
// most), where two sharing one is a chance in millions; everything keyed
// by it also holds a time, so it is kept short enough to read in a file
// name and a ledger line rather than long enough to be unique in the
// world.
const writerLen = 6

// writerWord is what a writer id may look like: a lowercase letter, then
// 2 to 15 lowercase letters and digits. It starts with a letter so that
// a session record "<time>Z-<writer>.md" never reads as an older record
// numbered "<time>Z-<N>.md".
var writerWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]{2,15}$`) })

// ValidWriter reports whether s can be a writer id.
func ValidWriter(s string) bool { return writerWord().MatchString(s) }

// NewWriterID returns a new random writer id.
func NewWriterID() string {
	var b [writerLen]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on the systems Go supports
	}
	id := make([]byte, writerLen)
	id[0] = writerAlphabet[int(b[0])%26]
	for i := 1; i < writerLen; i++ {
		id[i] = writerAlphabet[b[i]%32]
	}
	return string(id)
}

// WriterID returns the writer id of the clone or worktree holding root:
// the word in .state/writer, made on first need. The state directory is
// never committed, so each clone and each worktree with a root of its own
// gets an id of its own, and keeps it for as long as its .state/ lives.
//
// The file is created by linking a finished temporary into place, which
// fails rather than replace one: of two processes making it at once, one
// links its id and the other reads that one, so both end with the same.
func WriterID(fsys afero.Fs, root string) (string, error) {
	return writerID(fsys, root, "")
}

// WriterID is [WriterID] of the store's root, made [Store.Writer] when
// the root has none yet.
func (s *Store) WriterID() (string, error) { return writerID(s.FS, s.Root, s.Writer) }

// writerID is [WriterID], making the id want (a random one when empty)
// when the root has none yet.
func writerID(fsys afero.Fs, root, want string) (string, error) {
	if want != "" && !ValidWriter(want) {
		return "", fmt.Errorf("writer id %q: want a lowercase letter, then 2 to 15 lowercase letters and digits", want)
	}
	rel := tiers.StateDir + "/" + WriterFile
	for range 3 {
		id, err := readWriterID(fsys, root, rel)
		if !errors.Is(err, os.ErrNotExist) {
			return id, err
		}
		if _, err := MkdirAllIn(fsys, root, tiers.StateDir); err != nil {
			return "", err
		}
		ignoreState(fsys, root)
		id = want
		if id == "" {
			id = NewWriterID()
		}
		err = CreateExclusiveIn(fsys, root, rel, []byte(id+"\n"), 0o644)
		if err != nil && !errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("creating %s: %w", rel, err)
		}
		// Linked, or another process linked first: read what is there.
	}
	return "", fmt.Errorf("creating %s: it vanished as soon as it was made", rel)
}

// readWriterID reads the writer id at rel, an error wrapping
// os.ErrNotExist when there is none yet.
func readWriterID(fsys afero.Fs, root, rel string) (string, error) {
	data, err := tiers.ReadOwn(fsys, root, rel)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		return "", fmt.Errorf("reading %s: %w", rel, err)
	}
	id := strings.TrimSpace(string(data))
	if !ValidWriter(id) {
		return "", &WriterIDError{Path: rel, Got: id}
	}
	return id, nil
}

// WriterIDError refuses a writer id file that does not hold one.
type WriterIDError struct {
	Path string // relative to the root
	Got  string
}

func (e *WriterIDError) Error() string {
	return fmt.Sprintf("%s:1: %q is not a writer id (a lowercase letter, then 2 to 15 lowercase letters and digits)", e.Path, e.Got)
}

// Hint says how to mend it.
func (e *WriterIDError) Hint() string {
	return "delete the file: wake makes a new id at its next write (names written before keep the old one)"
}

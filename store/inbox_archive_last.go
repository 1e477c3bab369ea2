package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/tiers"
)

// InboxArchiveLastFile, in the state directory, keeps the highest number
// of the inbox's archive with the archive's identity as it was read
// (see [fsrecord.Take]), so that `wake remember`, which numbers past it,
// reads the archive again only once it has changed: compaction alone
// writes it.
const InboxArchiveLastFile = "inbox-archive-last.tsv"

const inboxArchiveLastHead = "wake-inbox-archive-last 1"

// archivedLast is the highest number of the inbox's archive ([tiers.Inbox]
// Last), read through [InboxArchiveLastFile] when the archive is as it
// was then; the caller holds the lock.
func (s *Store) archivedLast() (int, error) {
	name := s.Path(InboxArchive)
	if n, ok := readArchivedLast(s.FS, s.Root); ok {
		return n, nil
	}
	// The identity is taken before the read: a change in between makes
	// the record one the next look refuses, never a stale number.
	e, terr := fsrecord.Take(s.FS, name, false, time.Now())
	a, err := readInboxArchive(s)
	if err != nil {
		return 0, err
	}
	if terr == nil && !e.Link {
		saveArchivedLast(s.FS, s.Root, a.Last, []fsrecord.Entry{e})
	}
	return a.Last, nil
}

// readArchivedLast reads the record; false when there is none this wake
// can trust, or the archive has changed since.
func readArchivedLast(fsys afero.Fs, root string) (int, bool) {
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+InboxArchiveLastFile)
	if err != nil {
		return 0, false
	}
	sum, body, ok := bytes.Cut(data, []byte{'\n'})
	got := sha256.Sum256(body)
	if !ok || string(sum) != hex.EncodeToString(got[:]) {
		return 0, false
	}
	head, rest, ok := bytes.Cut(body, []byte{'\n'})
	last, found := bytes.CutPrefix(head, []byte(inboxArchiveLastHead+"\t"))
	if !ok || !found {
		return 0, false
	}
	n, err := strconv.Atoi(string(last))
	key, kerr := fsrecord.ParseKey(rest)
	if err != nil || n < 0 || kerr != nil || len(key) != 1 || key[0].Path != filepath.Join(root, filepath.FromSlash(InboxArchive)) || !fsrecord.Unchanged(fsys, key) {
		return 0, false
	}
	return n, true
}

// saveArchivedLast writes the record: a cache, unsynced; a failure only
// has the next number read the archive again.
func saveArchivedLast(fsys afero.Fs, root string, last int, key []fsrecord.Entry) {
	body := []byte(inboxArchiveLastHead + "\t" + strconv.Itoa(last) + "\n")
	body = fsrecord.AppendKey(body, key)
	sum := sha256.Sum256(body)
	_ = WriteStateUnsynced(fsys, root, InboxArchiveLastFile, append([]byte(hex.EncodeToString(sum[:])+"\n"), body...))
}

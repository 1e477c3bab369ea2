package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/tiers"
)

// ArchivedIDsFile, in the state directory, keeps the IDs of the decisions
// archive's entries with the archive's identity as it was read (see
// [fsrecord.Take]), so that a decision and wake check, which need only
// those IDs to tell an entry archived from one deleted by hand, parse the
// archive again only once it has changed: compaction alone writes it, and
// it holds most of the decisions of a long life.
const ArchivedIDsFile = "decisions-archive-ids.tsv"

const archivedIDsHead = "wake-decisions-archive-ids 1"

// ArchivedDecisionIDs returns the IDs of the decisions archive's entries
// (those of [ReadDecisionsArchive]), read through [ArchivedIDsFile] when
// the archive is as it was then, and writes that record when it was not.
// The record is a cache, written atomically and unsynced: a missing,
// damaged or stale one only has the archive parsed again.
func ArchivedDecisionIDs(fsys afero.Fs, root string) (tiers.IDSet, error) {
	name := filepath.Join(root, filepath.FromSlash(DecisionsArchive))
	if ids, ok := readArchivedIDs(fsys, root, name); ok {
		return ids, nil
	}
	// The identity is taken before the read: a change in between makes
	// the record one the next look refuses, never stale IDs.
	e, terr := fsrecord.Take(fsys, name, false, time.Now())
	ar, err := ReadDecisionsArchive(fsys, root)
	if err != nil {
		return nil, err
	}
	ids := ar.IDs()
	if terr == nil && !e.Link && e.Exists {
		saveArchivedIDs(fsys, root, ids, []fsrecord.Entry{e})
	}
	return ids, nil
}

// readArchivedIDs reads the record; false when there is none this wake
// can trust, or the archive has changed since.
func readArchivedIDs(fsys afero.Fs, root, name string) (tiers.IDSet, bool) {
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+ArchivedIDsFile)
	if err != nil {
		return nil, false
	}
	sum, body, ok := bytes.Cut(data, []byte{'\n'})
	got := sha256.Sum256(body)
	if !ok || string(sum) != hex.EncodeToString(got[:]) {
		return nil, false
	}
	head, body, ok := bytes.Cut(body, []byte{'\n'})
	if !ok || string(head) != archivedIDsHead {
		return nil, false
	}
	// The key, then a blank line, then an ID a line.
	keyText, idText, ok := bytes.Cut(body, []byte("\n\n"))
	if !ok {
		return nil, false
	}
	key, err := fsrecord.ParseKey(append(keyText, '\n'))
	if err != nil || len(key) != 1 || key[0].Path != name || !key[0].Exists || !fsrecord.Unchanged(fsys, key) {
		return nil, false
	}
	ids := tiers.IDSet{}
	for line := range bytes.Lines(idText) {
		id := strings.TrimSuffix(string(line), "\n")
		if id == "" {
			return nil, false
		}
		ids.Add(id)
	}
	return ids, true
}

// saveArchivedIDs writes the record; nothing when an ID holds a line
// break (an archive edited by hand).
func saveArchivedIDs(fsys afero.Fs, root string, ids tiers.IDSet, key []fsrecord.Entry) {
	body := []byte(archivedIDsHead + "\n")
	body = fsrecord.AppendKey(body, key)
	body = append(body, '\n')
	for _, id := range slices.Sorted(func(yield func(string) bool) {
		for id := range ids {
			if !yield(id) {
				return
			}
		}
	}) {
		if id == "" || strings.ContainsAny(id, "\r\n") {
			return
		}
		body = append(body, id+"\n"...)
	}
	sum := sha256.Sum256(body)
	_ = WriteStateUnsynced(fsys, root, ArchivedIDsFile, append([]byte(hex.EncodeToString(sum[:])+"\n"), body...))
}

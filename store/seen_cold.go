package store

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// The record of the cold documents as a base and the changes since.
//
// [SeenColdFile] holds a line a cold document, thousands in a long life,
// and a hand-off changes one or two of them (its own session record):
// rewriting the whole record for that was a few milliseconds of every
// hand-off at a thousand sessions, growing with the history. The changes
// since the record was last written whole go to [SeenColdChangesFile]
// instead, rewritten whole each time (small, atomic, synced as the
// record is), until they number an eighth of the record's lines, when
// the record is written whole again under a new generation. The changes
// name the generation of the record they follow: a record written whole
// since (by another wake, or after a crash between the two writes) makes
// older changes apply to nothing, and a reader takes the record alone.

// SeenColdChangesFile holds the changes to [SeenColdFile] since it was
// written whole: a record line a document changed, a path and "-" for a
// document forgotten.
const SeenColdChangesFile = "seen-cold-changes.tsv"

// The headers: the record's, with its generation (a record an older wake
// wrote, with [seenColdHeader] and no generation, is read and takes no
// changes); the changes', with the generation they follow.
const (
	seenColdHeaderGen     = "wake seen cold v2 "
	seenColdChangesHeader = "wake seen cold changes v1 "
)

// minColdChanges is how many changes are kept apart however small the
// record: below it, writing the record whole costs no more.
const minColdChanges = 16

// coldText returns the record lines of SeenColdFile's data and its
// generation ("" for a record without one); false when data is no record.
func coldText(data []byte) (text []byte, gen string, ok bool) {
	if text, ok := bytes.CutPrefix(data, []byte(seenColdHeader)); ok {
		return text, "", true
	}
	rest, ok := bytes.CutPrefix(data, []byte(seenColdHeaderGen))
	if !ok {
		return nil, "", false
	}
	g, text, ok := bytes.Cut(rest, []byte("\n"))
	if !ok || len(g) == 0 || strings.Trim(string(g), "0123456789abcdef") != "" {
		return nil, "", false
	}
	return text, string(g), true
}

// readColdChanges reads the changes file, to be read before the record:
// a writer writes a generation's record before any of its changes, so
// changes read first are either of the record then read (one state) or
// of an older one (left out: the newer record holds them). Read after,
// they could be of a newer generation than the record read, and the
// changes written before the read began would be lost to it.
func readColdChanges(fsys afero.Fs, root string) []byte {
	data, _ := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+SeenColdChangesFile)
	return data
}

// coldChangesOf returns the change lines of changes that follow the
// record of generation gen; nil when there are none, or none for it.
func coldChangesOf(changes []byte, gen string) []byte {
	if gen == "" {
		return nil
	}
	text, ok := bytes.CutPrefix(changes, []byte(seenColdChangesHeader+gen+"\n"))
	if !ok {
		return nil
	}
	return text
}

// applyColdChanges applies the change lines of text to s's records;
// false when a line is not one, which leaves s in part changed: the
// caller then takes the record as unreadable.
func (s *seen) applyColdChanges(text []byte) bool {
	for line := range strings.Lines(string(text)) {
		line = strings.TrimSuffix(line, "\n")
		p, r, ok := parseSeenLine(line)
		gone := false
		if !ok {
			esc, dash, cut := strings.Cut(line, "\t")
			if p = unescTab(esc); !cut || dash != "-" || p == "" {
				return false
			}
			gone = true
		}
		if !isColdDoc(p) {
			return false
		}
		if old, had := s.files[p]; had && old.Sig {
			if s.refs[old.Hash]--; s.refs[old.Hash] <= 0 {
				delete(s.refs, old.Hash)
			}
		}
		s.coldChanged[p] = true
		if gone {
			delete(s.files, p)
			continue
		}
		s.files[p] = r
		if r.Sig {
			s.refs[r.Hash]++
		}
	}
	return true
}

// saveCold writes the record of the cold documents: the changes since it
// was last written whole, while they are few, else the whole record
// under a new generation.
func (s *seen) saveCold(fsys afero.Fs, root string) error {
	if s.coldGen != "" && len(s.coldChanged) <= max(minColdChanges, s.coldBase/8) {
		b := []byte(seenColdChangesHeader + s.coldGen + "\n")
		for _, p := range slices.Sorted(maps.Keys(s.coldChanged)) {
			if r, ok := s.files[p]; ok {
				b = appendSeenLine(b, p, r)
			} else {
				b = append(append(b, escTab(p)...), "\t-\n"...)
			}
		}
		return WriteState(fsys, root, SeenColdChangesFile, b)
	}
	var g [8]byte
	rand.Read(g[:])
	gen := hex.EncodeToString(g[:])
	if err := WriteState(fsys, root, SeenColdFile, s.marshalCold(gen)); err != nil {
		return err
	}
	s.coldGen, s.coldBase, s.coldChanged = gen, s.coldRecords(), map[string]bool{}
	return nil
}

// coldRecords counts the records of cold documents.
func (s *seen) coldRecords() int {
	n := 0
	for p := range s.files {
		if isColdDoc(p) {
			n++
		}
	}
	return n
}

package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// MarkedError is a write refused because the file holds git conflict
// markers: a merge of the memory was left unresolved there, and a write
// would land inside the conflict (DESIGN section 12).
type MarkedError struct {
	Path  string // relative to the root
	Lines []int  // the marker lines, 1-based; nil when found only in the end of a long ledger
}

func (e *MarkedError) Error() string {
	if e.Lines == nil {
		return fmt.Sprintf("%s holds git conflict markers near its end: a merge was left unresolved there; wake writes nothing into it until the conflict is resolved", e.Path)
	}
	var ls []string
	for i, n := range e.Lines {
		if i == 10 {
			ls = append(ls, fmt.Sprintf("and %d more", len(e.Lines)-i))
			break
		}
		ls = append(ls, strconv.Itoa(n))
	}
	return fmt.Sprintf("%s holds git conflict markers (line %s): a merge was left unresolved there; wake writes nothing into it until the conflict is resolved", e.Path, strings.Join(ls, ", "))
}

// Hint says what to do.
func (e *MarkedError) Hint() string {
	return "resolve the conflict in " + e.Path + " (keep both sides' entries, remove the marker lines), then run the command again; 'wake init' sets up wake's merge driver for this clone"
}

// markerTail is how much of the end of the ledger a mutation looks at for
// conflict markers: the ledger is appended to at its end, so a merge that
// conflicted over it did so at its end.
const markerTail = 64 << 10

// refuseMarked returns a [*MarkedError] for the first of rels (relative to
// the root) that holds git conflict markers. Missing files have none; the
// state directory is wake's own and never merged.
func (s *Store) refuseMarked(rels ...string) error {
	for _, rel := range rels {
		if rel == tiers.StateDir || strings.HasPrefix(rel, tiers.StateDir+"/") || path.Ext(rel) == ".json" {
			continue
		}
		data, err := tiers.ReadOwn(s.FS, s.Root, rel)
		if err != nil {
			continue // a missing or unreadable file is the write's own business
		}
		if lines := tiers.ConflictMarkers(data); lines != nil {
			return &MarkedError{Path: rel, Lines: lines}
		}
	}
	return nil
}

// refuseMarkedLedger returns a [*MarkedError] when the ledger's end holds
// git conflict markers.
func (s *Store) refuseMarkedLedger() error {
	f, err := s.FS.Open(s.Path(tiers.LedgerPath))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return nil // the append says what is wrong with it
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	off := max(0, fi.Size()-markerTail)
	buf := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	if lines := tiers.ConflictMarkers(buf); lines != nil {
		if off > 0 {
			lines = nil // numbered from the part read, not the file
		}
		return &MarkedError{Path: tiers.LedgerPath, Lines: lines}
	}
	return nil
}

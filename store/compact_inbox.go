package store

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// InboxArchive is where wake compact moves closed reminders.
const (
	InboxArchive    = ArchiveDir + "/inbox.md"
	inboxArchiveSum = "closed reminders moved out of warm/inbox.md by wake compact, every byte and number kept, oldest first"
)

// readInboxArchive reads the inbox archive; empty when there is none.
func readInboxArchive(s *Store) (tiers.Inbox, error) {
	data, err := tiers.ReadOwn(s.FS, s.Root, InboxArchive)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return tiers.Inbox{EOL: "\n"}, nil
	case err != nil:
		return tiers.Inbox{}, fmt.Errorf("reading %s: %w", InboxArchive, err)
	}
	// Entries wake cannot read there are its own moved bytes; the numbers
	// it can read are what matters.
	b, _ := tiers.ParseInbox(data)
	return b, nil
}

// planInbox plans moving the closed reminders of the inbox to its
// archive; nil when there are none. An inbox with entries wake cannot
// read is left alone: where such an entry ends is not known. A reminder
// the archive holds already, byte for byte under its number, is a move a
// crash cut short: it leaves the inbox without being archived twice.
func (s *Store) planInbox() (*compactPlan, error) {
	f, err := s.readInboxLocked(true)
	if err != nil || !f.exists || f.problem != nil {
		return nil, err
	}
	if !slices.ContainsFunc(f.inbox.Reminders, func(r tiers.Reminder) bool { return !r.Open() }) {
		return nil, nil // the archive is read only for a move
	}
	old, err := s.readArchive(InboxArchive, inboxArchiveSum, f.text)
	if err != nil {
		return nil, err
	}
	eol := f.inbox.EOL
	p := compactPlan{file: CompactedFile{Path: tiers.InboxPath, Archive: InboxArchive}, archive: old}
	starts := tiers.LineStarts(f.text)
	m := mover{text: f.text, eol: eol}
	for _, r := range f.inbox.Reminders {
		if r.Open() || r.Line < 1 || r.Line > len(starts) {
			continue
		}
		start := starts[r.Line-1]
		raw := f.text[start:r.End]
		m.take(start, r.End)
		p.file.Entries++
		if a, ok := f.archived.Reminder(r.N); !ok || !archivedRaw(old, a, raw) {
			m.archive(raw)
		}
	}
	if p.file.Entries == 0 {
		return nil, nil
	}
	m.finish(&p)
	return &p, nil
}

// archivedRaw reports whether the archive text holds reminder a as raw.
func archivedRaw(archive string, a tiers.Reminder, raw string) bool {
	starts := tiers.LineStarts(archive)
	if a.Line < 1 || a.Line > len(starts) {
		return false
	}
	return strings.TrimRight(archive[starts[a.Line-1]:a.End], "\r\n") == strings.TrimRight(raw, "\r\n")
}

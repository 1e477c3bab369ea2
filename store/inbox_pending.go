package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// InboxPending is where a write of the inbox in progress keeps its
// record, inside the state directory. The inbox and its ledger line are
// two writes: a kill between them left a reminder in the inbox that no
// ledger line recorded (the crash campaign found it: 8 runs in 150 of
// `wake remember` killed). The record, written before the inbox, lets the
// next wake command append the line when the inbox holds the new text, or
// drop the record when the write never reached it.
const InboxPending = "inbox.pending.json"

const inboxPendingVersion = 1

// pendingInbox is the record of one inbox write.
type pendingInbox struct {
	Version int `json:"version"`
	// Inbox is the SHA-256 (hex) of the new inbox: the inbox holding
	// exactly these bytes means it was written.
	Inbox string `json:"inbox_sha256"`
	Entry Entry  `json:"ledger"`
}

func (s *Store) inboxPendingPath() string { return filepath.Join(s.Root, tiers.StateDir, InboxPending) }

// stageInbox writes the record of the inbox write of data with its
// ledger line e, before the inbox is written.
func (s *Store) stageInbox(data []byte, e Entry) error {
	if err := e.Validate(); err != nil {
		return err
	}
	// Found after the inbox is written, an unwritable ledger would leave
	// a change without its line.
	if err := CheckLedgerWritable(s.FS, s.Root); err != nil {
		return err
	}
	rec, err := json.Marshal(pendingInbox{Version: inboxPendingVersion, Inbox: digest(data), Entry: e})
	if err != nil {
		return err
	}
	return WriteState(s.FS, s.Root, InboxPending, append(rec, '\n'))
}

// dropInboxRecord removes the record of a settled inbox write.
func (s *Store) dropInboxRecord() error {
	if err := s.FS.Remove(s.inboxPendingPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing %s/%s: %w", tiers.StateDir, InboxPending, err)
	}
	SyncDir(s.FS, filepath.Dir(s.inboxPendingPath()))
	return nil
}

// inboxPending reports whether an inbox write left its record.
func inboxPending(fsys afero.Fs, root string) bool {
	_, err := fsys.Stat(filepath.Join(root, tiers.StateDir, InboxPending))
	return err == nil
}

// settleInboxLocked finishes an interrupted inbox write whose new inbox is
// in place (its ledger line appended unless it is there), or drops its
// record when the inbox is not the new one. ok is false when there was
// nothing to do.
func (s *Store) settleInboxLocked() (r Recovery, ok bool, err error) {
	data, err := s.readOptional(tiers.StateDir + "/" + InboxPending)
	if err != nil || data == nil {
		return Recovery{}, false, err
	}
	r = Recovery{ID: InboxPending, Log: true}
	var p pendingInbox
	if err := json.Unmarshal(data, &p); err != nil || p.Version != inboxPendingVersion || p.Inbox == "" {
		// A torn record was never acted on: the inbox is written only
		// once the record is complete on disk.
		r.RolledBack = true
		return r, true, s.dropInboxRecord()
	}
	r.At, r.Summary = p.Entry.At, sealed(s.FS, s.Root, p.Entry).ChangeSummary
	cur, err := s.readOptional(tiers.InboxPath)
	if err != nil {
		return r, true, err
	}
	if cur == nil || digest(cur) != p.Inbox {
		r.RolledBack = true
		return r, true, s.dropInboxRecord()
	}
	r.Steps = []string{"made sure of its ledger line"}
	if _, err := s.ensureLedger(p.Entry); err != nil {
		return r, true, err
	}
	return r, true, s.dropInboxRecord()
}

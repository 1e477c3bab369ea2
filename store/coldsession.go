package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// ColdSessionFile is the state file, inside the state directory, that
// records what the current session has pulled from cold/.
const ColdSessionFile = "cold-session.json"

// ColdSession is the cold-tier accounting of one agent session, which starts
// at `wake load` and ends at `wake handoff`. budget.cold caps Pulled, and
// memory_max caps LoadTokens+Pulled.
type ColdSession struct {
	Version    int        `json:"version"`
	Started    time.Time  `json:"started,omitzero"` // zero when no load started it
	LoadTokens int        `json:"load_tokens"`      // the last load's whole output
	Pulled     int        `json:"pulled"`           // tokens printed by `wake cold PATH`
	Pulls      []ColdPull `json:"pulls"`
}

// ColdPull is one `wake cold PATH` that printed something.
type ColdPull struct {
	At     time.Time `json:"at"`
	Path   string    `json:"path"`
	Tokens int       `json:"tokens"`
	Whole  bool      `json:"whole"` // false: a summary was printed instead
}

// ReadColdSession returns the current session's accounting. A missing or
// unreadable state file gives an empty session: the file is wake's own
// cache, and the next `wake load` rewrites it.
func ReadColdSession(fsys afero.Fs, root string) (ColdSession, error) {
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+ColdSessionFile)
	if errors.Is(err, os.ErrNotExist) {
		return ColdSession{Version: 1}, nil
	}
	if err != nil {
		return ColdSession{}, fmt.Errorf("reading %s/%s: %w", tiers.StateDir, ColdSessionFile, err)
	}
	var s ColdSession
	if json.Unmarshal(data, &s) != nil || s.Version != 1 || s.Pulled < 0 || s.LoadTokens < 0 {
		return ColdSession{Version: 1}, nil
	}
	return s, nil
}

func writeColdSession(fsys afero.Fs, root string, s ColdSession) error {
	s.Version = 1
	if s.Pulls == nil {
		s.Pulls = []ColdPull{}
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return WriteState(fsys, root, ColdSessionFile, append(data, '\n'))
}

// StartColdSession records a `wake load` in the session's cold accounting;
// the caller holds the root's lock, shared or exclusive. The first load after a hand-off opens the session:
// nothing pulled yet, and loadTokens (the whole boot context just printed)
// already spent against memory_max. A later load in the same session (a
// client resuming, clearing or compacting) only updates loadTokens: were it
// to reset what was pulled, the cold cap would not be a cap. Nothing is
// written when nothing changed, so a repeated start costs no fsync.
//
// Two session starts holding the shared lock at once may both open the
// session; either way nothing has been pulled in it yet, since a pull
// takes the exclusive lock.
func (s *Store) StartColdSession(loadTokens int) error {
	cs, err := ReadColdSession(s.FS, s.Root)
	if err != nil {
		return err
	}
	switch {
	case cs.Started.IsZero():
		cs = ColdSession{Started: s.Now().UTC().Truncate(time.Second), LoadTokens: loadTokens}
	case cs.LoadTokens == loadTokens:
		return nil
	default:
		cs.LoadTokens = loadTokens
	}
	return writeColdSession(s.FS, s.Root, cs)
}

// EndColdSession closes the session's cold accounting at `wake handoff`, so
// that the next session starts with the whole cold budget.
func EndColdSession(fsys afero.Fs, root string) error {
	return writeColdSession(fsys, root, ColdSession{})
}

// PullCold runs decide under the root's lock with the session's accounting
// as it stands, and records the pull decide returns. decide failing records
// nothing; a pull of zero tokens is not recorded. The lock makes the cold
// cap hold against concurrent pulls.
func (s *Store) PullCold(ctx context.Context, decide func(ColdSession) (ColdPull, error)) error {
	unlock, err := s.lockForWrite(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	cs, err := ReadColdSession(s.FS, s.Root)
	if err != nil {
		return err
	}
	p, err := decide(cs)
	if err != nil || p.Tokens == 0 {
		return err
	}
	if p.At.IsZero() {
		p.At = s.Now()
	}
	p.At = p.At.UTC().Truncate(time.Second)
	cs.Pulled += p.Tokens
	cs.Pulls = append(cs.Pulls, p)
	return writeColdSession(s.FS, s.Root, cs)
}

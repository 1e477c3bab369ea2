package wake

import (
	"context"
	"errors"
	"fmt"

	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/handoff"
)

// Pull prints one cold document within the session's caps (see
// [cold.PullCold]) and records it in the session's cold accounting, under
// the root's lock so that the cap holds against concurrent pulls. path is
// inside cold/, with or without the "cold/" (see [cold.ColdPath]); one
// outside is an error wrapping [ErrBadPath]. The document is counted
// first, unlocked.
func (m *Memory) Pull(ctx context.Context, path string) (cold.Pull, error) {
	rel, err := cold.ColdPath(path)
	if err != nil {
		return cold.Pull{}, fmt.Errorf("%w: %w", ErrBadPath, err)
	}
	o := m.coldOptions(nil)
	cold.PullCold(o, rel, handoff.ColdSession{})
	var p cold.Pull
	err = m.Store().PullCold(ctx, func(cs handoff.ColdSession) (handoff.ColdPull, error) {
		var err error
		p, err = cold.PullCold(o, rel, cs)
		return handoff.ColdPull{Path: p.Path, Tokens: p.Tokens, Whole: p.Whole}, err
	})
	m.SaveCache()
	return p, err
}

// ColdTOC is the whole table of contents of cold/, nothing folded, with
// the session's cold accounting as it stands.
func (m *Memory) ColdTOC() (*cold.TOC, handoff.ColdSession, error) {
	idx := cold.OpenIndex(m.o.FS, m.root, m.cfg.Encoding)
	toc, warns, err := cold.BuildTOC(m.coldOptions(idx), cold.NoFold)
	if err != nil {
		return nil, handoff.ColdSession{}, err
	}
	m.SaveCache()
	m.saveIndex(idx)
	m.warnAll(warns)
	cs, err := handoff.ReadColdSession(m.o.FS, m.root)
	return toc, cs, err
}

// ErrBadPath marks a path an operation refuses before reading anything:
// a usage mistake, not a failure.
var ErrBadPath = errors.New("bad path")

func (m *Memory) coldOptions(idx *cold.Index) cold.Options {
	return cold.Options{FS: m.o.FS, Root: m.root, Config: m.cfg, Counter: m.cache, Now: m.o.Now, Index: idx}
}

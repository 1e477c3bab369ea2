package wake

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

// stopAskedPath records the sessions the Stop hook asked for a hand-off,
// one "ID<tab>time" line each, the last stopAskedKeep of them, so that it
// asks a session once, not at the end of every turn.
const (
	stopAskedPath = tiers.StateDir + "/stop-asked"
	stopAskedKeep = 64
)

// StopAsked reports whether the Stop hook already asked session for its
// hand-off.
func (m *Memory) StopAsked(session string) bool {
	if session == "" {
		return false
	}
	for _, l := range m.stopAskedLines() {
		if id, _, _ := strings.Cut(l, "\t"); id == session {
			return true
		}
	}
	return false
}

// NoteStopAsked records that the Stop hook asked session for its
// hand-off, under the root's lock.
func (m *Memory) NoteStopAsked(ctx context.Context, session string) error {
	session = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, session)
	if session == "" {
		return nil
	}
	unlock, err := m.o.Locker.Lock(ctx, m.root)
	if err != nil {
		return err
	}
	defer unlock()
	lines := append(m.stopAskedLines(), session+"\t"+m.o.Now().UTC().Format(time.RFC3339))
	if n := len(lines); n > stopAskedKeep {
		lines = lines[n-stopAskedKeep:]
	}
	return handoff.WriteFileIn(m.o.FS, m.root, stopAskedPath, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

func (m *Memory) stopAskedLines() []string {
	data, err := tiers.ReadOwn(m.o.FS, m.root, stopAskedPath)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			m.warn("reading " + stopAskedPath + ": " + err.Error())
		}
		return nil
	}
	var out []string
	for l := range strings.SplitSeq(string(data), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

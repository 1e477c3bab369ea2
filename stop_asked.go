package wake

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// stopAskedPath records what the Stop hook asked for: one line for each
// session and the time its work to hand off began ([SessionMark.Since]),
// "ID<tab>SINCE<tab>time asked", the last stopAskedKeep of them. It asks
// once for the work since a session's start, and once again for its work
// after each hand-off, not at the end of every turn.
const (
	stopAskedPath = tiers.StateDir + "/stop-asked"
	stopAskedKeep = 64
)

// stopAskedKey is what a line of stopAskedPath opens with for session
// and since.
func stopAskedKey(session string, since time.Time) string {
	session = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, session)
	if session == "" {
		return ""
	}
	return session + "\t" + since.UTC().Format(time.RFC3339Nano)
}

// StopAsked reports whether the Stop hook already asked session for the
// hand-off of its work since since.
func (m *Memory) StopAsked(session string, since time.Time) bool {
	key := stopAskedKey(session, since)
	if key == "" {
		return false
	}
	for _, l := range m.stopAskedLines() {
		if strings.HasPrefix(l, key+"\t") {
			return true
		}
	}
	return false
}

// NoteStopAsked records that the Stop hook asked session for the
// hand-off of its work since since, under the root's lock.
func (m *Memory) NoteStopAsked(ctx context.Context, session string, since time.Time) error {
	key := stopAskedKey(session, since)
	if key == "" {
		return nil
	}
	unlock, err := m.o.Locker.Lock(ctx, m.root)
	if err != nil {
		return err
	}
	defer unlock()
	lines := append(m.stopAskedLines(), key+"\t"+m.o.Now().UTC().Format(time.RFC3339))
	if n := len(lines); n > stopAskedKeep {
		lines = lines[n-stopAskedKeep:]
	}
	return store.WriteFileIn(m.o.FS, m.root, stopAskedPath, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
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

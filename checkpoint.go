package wake

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
	"github.com/wakeproto/wake/transcript"
)

// CheckpointDir, in the state directory, holds the checkpoint of each
// session whose client compacted its conversation ([Memory.Checkpoint]).
const CheckpointDir = "checkpoints"

// Checkpoint writes, before a client compacts a session's conversation,
// what the session did so far as its transcript tells it, model-free:
// the user's first and last prompts, the files its tools edited, the
// commands it ran, the decisions it recorded and its last message. The
// context the client injects after the compaction carries it
// ([Memory.ReadCheckpoint]), so that the session keeps the thread of
// its work. It is the session's own, in the state directory: not a
// hand-off, and no other session reads it. It returns the text written.
func (m *Memory) Checkpoint(name string, f transcript.Format, sessionID string) (string, error) {
	s, err := m.readTranscript(name, true, func(r io.Reader) (*transcript.Summary, error) {
		return transcript.Read(r, f, transcript.DefaultLimits(), transcript.Scope{Project: m.projectDir})
	})
	if err != nil {
		return "", err
	}
	if sessionID == "" {
		sessionID = s.SessionID
	}
	if sessionID == "" {
		return "", errors.New("the transcript names no session, and none was given: no checkpoint")
	}
	in := handoff.Auto(handoff.Facts{Session: s, Transcript: name, Start: s.Start})
	var b strings.Builder
	fmt.Fprintf(&b, "## Checkpoint before the compaction\n\nWhat this session did before its conversation was compacted at %s, as wake read it from the transcript (not the agent's judgement):\n\n",
		m.o.Now().UTC().Format(time.RFC3339))
	for _, item := range in.Session.Happened.Items {
		b.WriteString("- " + item + "\n")
	}
	// What the last message left open, which the hand-off's record keeps
	// as its next priority and threads, the checkpoint says here.
	for _, u := range s.FollowUps {
		b.WriteString("- Left open by its last message: “" + u + "”\n")
	}
	text := b.String()
	if err := store.WriteState(m.o.FS, m.root, checkpointName(sessionID), []byte(text)); err != nil {
		return "", err
	}
	m.pruneCheckpoints()
	return text, nil
}

// checkpointAge is how long a checkpoint is kept: a session compacted
// longer ago has ended, and its checkpoint is read by no one.
const checkpointAge = 14 * 24 * time.Hour

// pruneCheckpoints removes the checkpoints older than checkpointAge:
// wake's own state files, never the user's.
func (m *Memory) pruneCheckpoints() {
	rel := tiers.StateDir + "/" + CheckpointDir
	if store.CheckDir(m.o.FS, m.root, rel) != nil {
		return // a directory linked elsewhere holds no checkpoint of wake's
	}
	dir := m.path(rel)
	infos, err := afero.ReadDir(m.o.FS, dir)
	if err != nil {
		return
	}
	for _, fi := range infos {
		if fi.Mode().IsRegular() && strings.HasSuffix(fi.Name(), ".md") && m.o.Now().Sub(fi.ModTime()) > checkpointAge {
			_ = m.o.FS.Remove(filepath.Join(dir, fi.Name()))
		}
	}
}

// ReadCheckpoint is the checkpoint [Memory.Checkpoint] wrote for the
// session; "" when there is none.
func (m *Memory) ReadCheckpoint(sessionID string) (string, error) {
	if sessionID == "" {
		return "", nil
	}
	data, err := tiers.ReadOwn(m.o.FS, m.root, tiers.StateDir+"/"+checkpointName(sessionID))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// plainID is a session id that can name a file as it is. Compiled on
// first use: its counted repetition makes it costly, and most commands
// never need it (every wake process pays its package's initialisation).
var plainID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`) })

// checkpointName is the state file of a session's checkpoint: named by
// its id, or by the id's SHA-256 when the id could not name a file.
func checkpointName(id string) string {
	if !plainID().MatchString(id) || strings.Contains(id, "..") {
		sum := sha256.Sum256([]byte(id))
		id = hex.EncodeToString(sum[:16])
	}
	return CheckpointDir + "/" + id + ".md"
}

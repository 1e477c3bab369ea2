package wake_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/store"
)

// countingLocker counts the locks held, of every kind.
type countingLocker struct {
	store.Locker
	held int
}

func (l *countingLocker) count(unlock func() error, err error) (func() error, error) {
	if err != nil {
		return nil, err
	}
	l.held++
	return func() error { l.held--; return unlock() }, nil
}

func (l *countingLocker) Lock(ctx context.Context, root string) (func() error, error) {
	return l.count(l.Locker.Lock(ctx, root))
}

func (l *countingLocker) RLock(ctx context.Context, root string) (func() error, error) {
	return l.count(l.Locker.RLock(ctx, root))
}

func (l *countingLocker) LockIn(ctx context.Context, dir, name string) (func() error, error) {
	return l.count(l.Locker.LockIn(ctx, dir, name))
}

// watchedFS calls seen at every look at one path.
type watchedFS struct {
	afero.Fs
	path string
	seen func()
}

func (f watchedFS) Stat(name string) (os.FileInfo, error) {
	if name == f.path {
		f.seen()
	}
	return f.Fs.Stat(name)
}

func (f watchedFS) Open(name string) (afero.File, error) {
	if name == f.path {
		f.seen()
	}
	return f.Fs.Open(name)
}

// TestSubagentStartReadsTranscriptUnlocked (issue 23, reproduction 5):
// the SubagentStart hook reads the session's transcript, which may be
// long or slow, with no lock held (the subagent lock made every other
// subagent starting wait), and still builds the capsule with its
// highlights.
func TestSubagentStartReadsTranscriptUnlocked(t *testing.T) {
	fsys := demo.FS(t)
	tr := "/home/ava/t.jsonl"
	write(t, fsys, tr, `{"type":"user","message":{"role":"user","content":"fix the parser"},"timestamp":"2026-11-22T10:00:00Z","sessionId":"s1"}`+"\n")
	locks := &countingLocker{Locker: &memlock.Locker{}}
	looks, heldThen := 0, 0
	watched := watchedFS{Fs: fsys, path: tr, seen: func() { looks++; heldThen += locks.held }}
	enc := demo.Encoder(t)
	now := capsuleClock
	m, err := wake.Open("/demo", wake.Options{FS: watched, Env: map[string]string{"HOME": "/home", "PATH": os.Getenv("PATH")},
		Now: func() time.Time { return now }, Locker: locks, Encoder: func(string) (*budget.Encoder, error) { return enc, nil }})
	if err != nil {
		t.Fatal(err)
	}
	inj, err := m.SubagentStart(context.Background(), wake.SubagentStartInput{Client: "claude", AgentID: "a1",
		AgentType: "general-purpose", Session: "s1", Transcript: tr})
	if err != nil || !inj.Built || !strings.Contains(string(inj.Capsule.Body), "fix the parser") {
		t.Fatalf("no capsule with the transcript's prompt: %v\n%s", err, inj.Capsule.Body)
	}
	if looks == 0 || heldThen != 0 || locks.held != 0 {
		t.Errorf("the transcript was looked at %d times with %d lock(s) held in all; %d held after", looks, heldThen, locks.held)
	}
}

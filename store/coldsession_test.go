package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

	"github.com/spf13/afero"
)

func TestColdSessionLifecycle(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	s := &Store{FS: fs, Root: "/r", Now: func() time.Time { return ledgerT0 }, Locker: &memlock.Locker{}, Writer: "wtest"}
	if cs, err := ReadColdSession(fs, "/r"); err != nil || cs.Pulled != 0 || !cs.Started.IsZero() {
		t.Fatalf("no session yet: %+v %v", cs, err)
	}
	if err := s.StartColdSession(1234); err != nil {
		t.Fatal(err)
	}
	pull := func(tokens int) error {
		return s.PullCold(context.Background(), func(cs ColdSession) (ColdPull, error) {
			return ColdPull{Path: "cold/a.md", Tokens: tokens, Whole: true}, nil
		})
	}
	for _, n := range []int{100, 0, 250} {
		if err := pull(n); err != nil {
			t.Fatal(err)
		}
	}
	refused := errors.New("refused")
	s.PullCold(context.Background(), func(ColdSession) (ColdPull, error) { return ColdPull{Tokens: 999}, refused })
	cs, _ := ReadColdSession(fs, "/r")
	if cs.Pulled != 350 || len(cs.Pulls) != 2 || cs.LoadTokens != 1234 || !cs.Started.Equal(ledgerT0) || !cs.Pulls[1].At.Equal(ledgerT0) {
		t.Fatalf("session: %+v", cs)
	}
	// Another load in the same session (a client resuming or compacting)
	// keeps what was pulled, so the cap stays a cap; it only updates the
	// load's size. An unchanged load writes nothing.
	s.Now = func() time.Time { return ledgerT0.Add(time.Hour) }
	s.StartColdSession(99)
	if cs, _ := ReadColdSession(fs, "/r"); cs.Pulled != 350 || cs.LoadTokens != 99 || !cs.Started.Equal(ledgerT0) {
		t.Fatalf("after a second load: %+v", cs)
	}
	fi, _ := fs.Stat("/r/.state/cold-session.json")
	s.Now = func() time.Time { return ledgerT0.Add(2 * time.Hour) }
	s.StartColdSession(99)
	if fi2, _ := fs.Stat("/r/.state/cold-session.json"); !fi2.ModTime().Equal(fi.ModTime()) {
		t.Fatal("an unchanged load rewrote the session file")
	}
	pull(10)
	if err := EndColdSession(fs, "/r"); err != nil {
		t.Fatal(err)
	}
	if cs, _ := ReadColdSession(fs, "/r"); cs.Pulled != 0 || cs.LoadTokens != 0 || !cs.Started.IsZero() {
		t.Fatalf("after the hand-off: %+v", cs)
	}
	// The first load after the hand-off opens a new session.
	s.StartColdSession(500)
	if cs, _ := ReadColdSession(fs, "/r"); cs.Pulled != 0 || cs.LoadTokens != 500 || !cs.Started.Equal(ledgerT0.Add(2*time.Hour)) {
		t.Fatalf("after the next load: %+v", cs)
	}
	// A corrupt state file is an empty session, not an error.
	afero.WriteFile(fs, "/r/.state/cold-session.json", []byte("{oops"), 0o644)
	if cs, err := ReadColdSession(fs, "/r"); err != nil || cs.Pulled != 0 {
		t.Fatalf("corrupt: %+v %v", cs, err)
	}
}

// TestPullColdIsSerialised proves concurrent pulls see each other's totals,
// so a cap checked inside decide holds.
func TestPullColdIsSerialised(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	s := &Store{FS: fs, Root: "/r", Now: time.Now, Locker: &memlock.Locker{}, Writer: "wtest"}
	const cap, each = 1000, 300
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.PullCold(context.Background(), func(cs ColdSession) (ColdPull, error) {
				if cs.Pulled+each > cap {
					return ColdPull{}, errors.New("over the cap")
				}
				return ColdPull{Path: "cold/a.md", Tokens: each}, nil
			})
		}()
	}
	wg.Wait()
	if cs, _ := ReadColdSession(fs, "/r"); cs.Pulled != 900 || len(cs.Pulls) != 3 {
		t.Fatalf("pulled %d in %d pulls, want 900 in 3", cs.Pulled, len(cs.Pulls))
	}
}

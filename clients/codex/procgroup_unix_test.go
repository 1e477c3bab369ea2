//go:build unix

package codex

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestAppServerHungWithChild: a codex whose own child holds the pipes and
// that never answers (the npm wrapper and its native server) is ended as
// a whole when the conversation's time is up: install must not hang
// holding the root's lock.
func TestAppServerHungWithChild(t *testing.T) {
	t.Parallel()
	fake := filepath.Join(t.TempDir(), "codex")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nsleep 300 &\nsleep 300\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	conn, err := ExecAppServer(ctx, fake, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		io.ReadAll(conn)
		conn.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the conversation with a hung app server did not end")
	}
}

package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake"
)

// TestProgressLine: the line shows only once the work has lasted a
// second, is redrawn at most every progressEvery, and is cleared when the
// work ends or before anything else is written to the terminal.
func TestProgressLine(t *testing.T) {
	var term bytes.Buffer
	t0 := time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC)
	now := t0
	p := &progressLine{w: &term, now: func() time.Time { return now }, start: t0}
	step := func(d time.Duration, done, total int) string {
		now = now.Add(d)
		term.Reset()
		p.report(wake.Progress{What: "reading cold documents", Done: done, Total: total})
		return term.String()
	}
	if got := step(0, 0, 20000); got != "" {
		t.Errorf("at once: %q", got)
	}
	if got := step(900*time.Millisecond, 9000, 20000); got != "" {
		t.Errorf("before a second: %q", got)
	}
	if got, want := step(200*time.Millisecond, 11000, 20000), "\rwake: reading cold documents: 11,000 of 20,000 (55%)\x1b[K"; got != want {
		t.Errorf("after a second: %q, want %q", got, want)
	}
	if got := step(50*time.Millisecond, 11500, 20000); got != "" {
		t.Errorf("redrawn within %s: %q", progressEvery, got)
	}
	if got := step(60*time.Millisecond, 12000, 20000); !strings.Contains(got, "12,000 of 20,000") {
		t.Errorf("not redrawn after %s: %q", progressEvery, got)
	}
	// A warning starts on a line of its own.
	term.Reset()
	io.WriteString(p, "wake: warning: x\n")
	if got, want := term.String(), "\r\x1b[Kwake: warning: x\n"; got != want {
		t.Errorf("a write: %q, want %q", got, want)
	}
	term.Reset()
	io.WriteString(p, "wake: warning: y\n")
	if got := term.String(); got != "wake: warning: y\n" {
		t.Errorf("a write with no line shown: %q", got)
	}
	step(0, 13000, 20000)
	if got, want := step(time.Second, 20000, 20000), "\r\x1b[K"; got != want {
		t.Errorf("at the end: %q, want %q", got, want)
	}
	// The next piece of work is timed from its own start: a fast one
	// after a long one shows nothing.
	if got := step(0, 0, 50); got != "" {
		t.Errorf("the next piece at once: %q", got)
	}
	if got := step(500*time.Millisecond, 25, 50); got != "" {
		t.Errorf("the next piece before a second: %q", got)
	}
	if got := step(100*time.Millisecond, 50, 50); got != "" {
		t.Errorf("the end of a piece never shown: %q", got)
	}
	p.Close()
	if term.Len() != 0 {
		t.Errorf("Close with nothing shown wrote %q", term.String())
	}
}

// TestNoProgressOffATerminal: stderr that is a buffer, a file or a pipe
// gets no progress line.
func TestNoProgressOffATerminal(t *testing.T) {
	if newProgressLine(&bytes.Buffer{}, time.Now) != nil {
		t.Error("a buffer is taken for a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if newProgressLine(f, time.Now) != nil {
		t.Error("a file is taken for a terminal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if newProgressLine(w, time.Now) != nil {
		t.Error("a pipe is taken for a terminal")
	}
}

package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
)

// progressAfter is how long work runs before its progress shows: fast
// work shows none. Tests lower it to see progress on a small root.
var progressAfter = time.Second

// progressEvery is the least time between two redraws of the line.
const progressEvery = 100 * time.Millisecond

// progressLine renders the library's progress reports on a terminal: one
// line, rewritten in place with \r, once the work has lasted progressAfter,
// and cleared when it ends or before anything else is written to the
// terminal (it is the app's stderr too, see write). It is made only when
// stderr is a terminal: a file or a pipe gets nothing extra.
type progressLine struct {
	w   io.Writer // the terminal
	now func() time.Time

	mu    sync.Mutex
	start time.Time // when the work began: the app's start, then each new piece's
	last  time.Time // the last redraw
	shown bool      // a line is on the terminal
}

// newProgressLine renders progress on stderr when it is a terminal; nil
// otherwise.
func newProgressLine(stderr io.Writer, now func() time.Time) *progressLine {
	f, ok := stderr.(*os.File)
	if !ok || !isTerminal(f) {
		return nil
	}
	return &progressLine{w: f, now: now, start: now()}
}

// report is the library's [wake.Options.Progress].
func (p *progressLine) report(r wake.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if p.start.IsZero() {
		p.start = now // a new piece of work, after one that ended
	}
	if r.Done >= r.Total {
		p.clear()
		p.start = time.Time{}
		return
	}
	if now.Sub(p.start) < progressAfter || p.shown && now.Sub(p.last) < progressEvery {
		return
	}
	fmt.Fprintf(p.w, "\rwake: %s: %s of %s (%d%%)\x1b[K", r.What, budget.Thousands(r.Done), budget.Thousands(r.Total), r.Done*100/r.Total)
	p.shown, p.last = true, now
}

// clear takes the line off the terminal, if one is on it; p.mu is held.
func (p *progressLine) clear() {
	if p.shown {
		io.WriteString(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// Close clears the line at the end of the command.
func (p *progressLine) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
}

// Write is the app's stderr: a warning or an error clears the progress
// line first, so that it starts on a line of its own.
func (p *progressLine) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	return p.w.Write(b)
}

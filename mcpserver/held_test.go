package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/mcpserver"
)

// tokenLocker lets one exclusive lock of the root through a token sent
// on tokens; waiting hears each call that reaches it.
type tokenLocker struct {
	memlock.Locker
	waiting chan struct{}
	tokens  chan struct{}
}

func (g *tokenLocker) Lock(ctx context.Context, root string) (func() error, error) {
	g.waiting <- struct{}{}
	select {
	case <-g.tokens:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return g.Locker.Lock(ctx, root)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// bigDecide is a wake_decide call of about size bytes: its params padded
// with white space.
func bigDecide(id int, size int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"wake_decide",%s"arguments":{"what":"Call %d","because":"it is so"}}}`,
		id, strings.Repeat(" ", size), id)
}

// heldSession serves a root whose writes wait for the test's tokens, with
// at most 1 MiB of large requests held, on pipes whose input is counted;
// it has sent initialize. stopped hears each time the server stops
// reading.
func heldSession(t *testing.T) (r *rawSession, counted *countingReader, gate *tokenLocker, stopped chan struct{}, fsys afero.Fs) {
	t.Helper()
	fsys, o := newRoot(t)
	gate = &tokenLocker{waiting: make(chan struct{}, 64), tokens: make(chan struct{}, 64)}
	o.Locker = gate
	srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o})
	if err != nil {
		t.Fatal(err)
	}
	stopped = make(chan struct{}, 64)
	mcpserver.SetHeldLimits(srv, 1<<20, 64, func() { stopped <- struct{}{} })
	inR, inW := io.Pipe()
	counted = &countingReader{r: inR}
	r = startRawOn(t, srv, counted, inW)
	r.send(rawInit)
	if a := r.recv(); a.Error != nil {
		t.Fatalf("initialize: %+v", a.Error)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r, counted, gate, stopped, fsys
}

// sendAll writes lines to r's input in the background, telling written
// the end offset of each once the server has read it whole.
func sendAll(r *rawSession, counted *countingReader, lines []string) <-chan int64 {
	written := make(chan int64, len(lines))
	base := counted.n.Load()
	go func() {
		for _, l := range lines {
			if _, err := io.WriteString(r.in, l+"\n"); err != nil {
				return
			}
			base += int64(len(l) + 1)
			written <- base
		}
	}()
	return written
}

// waitStopped waits for the server to stop reading; a server that never
// does fails the test (the only wait on a clock, and only when failing).
func waitStopped(t *testing.T, stopped <-chan struct{}) {
	t.Helper()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the server never stopped reading while calls were held")
	}
}

// Repro 13 of issue 23: wake mcp read requests ahead with no bound (20
// pending calls of 15 MB held 604 MB). While a call holds the tools and
// one large call is let in, the server reads on past two large calls
// waiting to be let in and the one in its reader's hands, no further,
// until one is answered; then every call is served.
func TestMCPBoundsTheRequestsHeld(t *testing.T) {
	r, counted, gate, stopped, fsys := heldSession(t)
	const size = 600 << 10 // two do not fit in 1 MiB
	lines := []string{decide("100", "Hold the tools")}
	for i := 1; i <= 8; i++ {
		lines = append(lines, bigDecide(i, size))
	}
	written := sendAll(r, counted, lines)
	<-gate.waiting // the first call holds the tools, waiting for the root's lock
	waitStopped(t, stopped)
	// Call 1 is let in (waiting for the tools), 2 and 3 wait to be, and
	// 4 is the reader's: the server reads nothing past it.
	var end int64
	for range 5 {
		end = <-written
	}
	if n := counted.n.Load(); n > end+mcpserver.SmallCall {
		t.Fatalf("%d bytes read while calls were held, over %d: the server reads ahead with no bound", n, end+mcpserver.SmallCall)
	}
	for range 9 {
		gate.tokens <- struct{}{}
	}
	got := map[string]bool{}
	for range 9 {
		a := r.recv()
		if a.Result == nil || a.Result.IsError {
			t.Fatalf("a call: %+v", a)
		}
		got[string(a.ID)] = true
	}
	if len(got) != 9 {
		t.Fatalf("answers %v", got)
	}
	if err := r.end(); err != nil {
		t.Fatal(err)
	}
	log, _ := afero.ReadFile(fsys, "/p/.wake/warm/decisions.md")
	if !strings.Contains(string(log), "Call 8") {
		t.Fatal("the last call was not served")
	}
}

// While large calls wait to be let in, a ping sent after them is
// answered, and a waiting call cancelled is answered at once, never
// served, its place taken by the next.
func TestMCPPingAndCancelWhileCallsWait(t *testing.T) {
	r, counted, gate, stopped, fsys := heldSession(t)
	const size = 600 << 10
	lines := []string{decide("100", "Hold the tools"), bigDecide(1, size), bigDecide(2, size),
		`{"jsonrpc":"2.0","id":50,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`,
		bigDecide(3, size), bigDecide(4, size), bigDecide(5, size)}
	sendAll(r, counted, lines)
	<-gate.waiting
	seen := map[string]rawAnswer{}
	for range 2 {
		a := r.recv()
		seen[string(a.ID)] = a
	}
	if a, ok := seen["50"]; !ok || a.Error != nil {
		t.Fatalf("the ping: %+v", seen)
	}
	if a, ok := seen["2"]; !ok || a.Error == nil || !strings.Contains(a.Error.Message, "cancelled before it started") {
		t.Fatalf("the cancelled call: %+v", seen)
	}
	waitStopped(t, stopped) // 3 and 4 wait, 5 is the reader's
	for range 5 {
		gate.tokens <- struct{}{}
	}
	for range 5 {
		if a := r.recv(); a.Result == nil || a.Result.IsError || string(a.ID) == "2" {
			t.Fatalf("a call: %+v", a)
		}
	}
	if err := r.end(); err != nil {
		t.Fatal(err)
	}
	log, _ := afero.ReadFile(fsys, "/p/.wake/warm/decisions.md")
	if strings.Contains(string(log), "Call 2") || !strings.Contains(string(log), "Call 5") {
		t.Fatalf("decisions:\n%s", log)
	}
}

package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/mcpserver"
)

// gatedLocker holds every exclusive lock of the root until open is
// closed, or the caller's context is done: a writing call waits there.
type gatedLocker struct {
	memlock.Locker
	waiting chan struct{} // a call is waiting at the gate
	open    chan struct{}
}

func newGatedLocker() *gatedLocker {
	return &gatedLocker{waiting: make(chan struct{}, 10), open: make(chan struct{})}
}

func (g *gatedLocker) Lock(ctx context.Context, root string) (func() error, error) {
	g.waiting <- struct{}{}
	select {
	case <-g.open:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return g.Locker.Lock(ctx, root)
}

// rawSession runs srv on pipes: lines are sent with send and answers read
// with recv; end closes the input and returns Run's error.
type rawSession struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func startRaw(t *testing.T, srv *mcpserver.Server) *rawSession {
	t.Helper()
	inR, inW := io.Pipe()
	return startRawOn(t, srv, inR, inW)
}

// startRawOn is startRaw on the input in, which inW writes.
func startRawOn(t *testing.T, srv *mcpserver.Server, in io.Reader, inW *io.PipeWriter) *rawSession {
	t.Helper()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	r := &rawSession{t: t, in: inW, done: make(chan error, 1)}
	go func() { r.done <- srv.Run(ctx, in, outW); outW.Close() }()
	r.out = bufio.NewScanner(outR)
	r.out.Buffer(nil, 1<<25)
	return r
}

func (r *rawSession) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

type rawAnswer struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result *struct {
		Content []struct{ Text string }
		IsError bool
	} `json:"result"`
	Error *struct {
		Code    int
		Message string
	} `json:"error"`
}

func (r *rawSession) recv() rawAnswer {
	r.t.Helper()
	if !r.out.Scan() {
		r.t.Fatalf("no answer: %v", r.out.Err())
	}
	var a rawAnswer
	if err := json.Unmarshal(r.out.Bytes(), &a); err != nil {
		r.t.Fatalf("answer %.200q: %v", r.out.Text(), err)
	}
	return a
}

func (r *rawSession) end() error {
	r.in.Close()
	go io.Copy(io.Discard, struct{ io.Reader }{readerOf(r.out)})
	select {
	case err := <-r.done:
		return err
	case <-time.After(25 * time.Second):
		r.t.Fatal("the server did not end when its input did")
	}
	return nil
}

// readerOf drains what is left of a scanner.
func readerOf(sc *bufio.Scanner) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		for sc.Scan() {
		}
		pw.Close()
	}()
	return pr
}

const rawInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func decide(id, what string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"wake_decide","arguments":{"what":"` + what + `","because":"it is so"}}}`
}

// TestPingAndCancelDuringACall: while a call waits (here for the root's
// lock), a ping is answered, a request reusing its id is refused, and its
// cancellation ends it, answered as a tool error; the decision is not
// recorded.
func TestPingAndCancelDuringACall(t *testing.T) {
	fsys, o := newRoot(t)
	gate := newGatedLocker()
	o.Locker = gate
	srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o})
	if err != nil {
		t.Fatal(err)
	}
	r := startRaw(t, srv)
	r.send(rawInit)
	if a := r.recv(); a.Error != nil {
		t.Fatalf("initialize: %+v", a.Error)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	r.send(decide("7", "Bake at dawn"))
	<-gate.waiting
	r.send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	if a := r.recv(); string(a.ID) != "8" || a.Error != nil {
		t.Fatalf("the ping during the call: %+v", a)
	}
	r.send(decide("7", "Bake at noon"))
	if a := r.recv(); string(a.ID) != "7" || a.Error == nil || a.Error.Code != -32600 || !strings.Contains(a.Error.Message, "still pending") {
		t.Fatalf("a repeated id while pending: %+v", a)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`)
	a := r.recv()
	if string(a.ID) != "7" || a.Result == nil || !a.Result.IsError || !strings.Contains(a.Result.Content[0].Text, "context canceled") {
		t.Fatalf("the cancelled call: %+v", a)
	}
	// The id is free again: the same id is a new request, served.
	close(gate.open)
	r.send(decide("7", "Bake at six"))
	if a := r.recv(); string(a.ID) != "7" || a.Result == nil || a.Result.IsError || !strings.Contains(a.Result.Content[0].Text, "Decided #1") || !strings.Contains(a.Result.Content[0].Text, "Bake at six") {
		t.Fatalf("the id reused after the answer: %+v %+v", a, a.Result)
	}
	if err := r.end(); err != nil {
		t.Errorf("Run: %v", err)
	}
	log, _ := afero.ReadFile(fsys, "/p/.wake/warm/decisions.md")
	if strings.Contains(string(log), "Bake at dawn") || strings.Contains(string(log), "Bake at noon") || !strings.Contains(string(log), "Bake at six") {
		t.Errorf("decisions.md:\n%s", log)
	}
}

// TestDrainAtEOF ends the input while a call waits: the session ends only
// once the call is answered.
func TestDrainAtEOF(t *testing.T) {
	_, o := newRoot(t)
	gate := newGatedLocker()
	o.Locker = gate
	srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o})
	if err != nil {
		t.Fatal(err)
	}
	r := startRaw(t, srv)
	r.send(rawInit)
	r.recv()
	r.send(decide("2", "Bake at dawn"))
	<-gate.waiting
	r.in.Close()
	select {
	case err := <-r.done:
		t.Fatalf("the session ended with a call running: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(gate.open)
	if a := r.recv(); string(a.ID) != "2" || a.Result == nil || a.Result.IsError {
		t.Fatalf("the call running at EOF: %+v", a)
	}
	if err := <-r.done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// TestLongLine: a line over the SDK's bound (16 MiB) is answered as a
// parse error and skipped; the session goes on.
func TestLongLine(t *testing.T) {
	_, o := newRoot(t)
	srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o})
	if err != nil {
		t.Fatal(err)
	}
	r := startRaw(t, srv)
	r.send(rawInit)
	r.recv()
	long := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"` + strings.Repeat("x", 16<<20) + `"}}`
	r.send(long)
	if a := r.recv(); a.Error == nil || a.Error.Code != -32700 {
		t.Fatalf("a line of %d bytes: %+v", len(long), a)
	}
	r.send(`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"` + strings.Repeat("x", 1<<20) + `"}}`)
	if a := r.recv(); string(a.ID) != "3" || a.Error != nil {
		t.Fatalf("a line of 1 MiB: %+v", a)
	}
	if err := r.end(); err != nil {
		t.Errorf("Run: %v", err)
	}
}

// TestSDKClientVersions connects the SDK's client asking for each
// version: the sessionless protocol (server/discover), the latest of the
// session protocol and the oldest; each lists the tools and calls one.
func TestSDKClientVersions(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25", "2024-11-05"} {
		t.Run(version, func(t *testing.T) {
			_, o := newRoot(t)
			srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o, Version: "v1.2.3"})
			if err != nil {
				t.Fatal(err)
			}
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- srv.Run(ctx, inR, outW); outW.Close() }()
			// A client that hears of list changes opens subscriptions/listen
			// in the sessionless protocol.
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {}})
			cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			res := cs.InitializeResult()
			if res.ProtocolVersion != version || res.ServerInfo == nil || res.ServerInfo.Version != "v1.2.3" || res.Capabilities.Tools == nil || !res.Capabilities.Tools.ListChanged {
				t.Errorf("initialize result: %+v %+v", res, res.ServerInfo)
			}
			lt, err := cs.ListTools(ctx, nil)
			if err != nil || len(lt.Tools) != 9 {
				t.Fatalf("tools/list: %v %+v", err, lt)
			}
			ct, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wake_check"})
			if err != nil || ct.IsError || !strings.Contains(ct.Content[0].(*mcp.TextContent).Text, "Outcome:") {
				t.Fatalf("wake_check: %v %+v", err, ct)
			}
			if err := cs.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			inW.Close()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-ctx.Done():
				t.Fatal("the server did not end")
			}
		})
	}
}

// TestListen: subscriptions/listen is acknowledged at once and held until
// cancelled; one still held when the input ends does not hold the session.
func TestListen(t *testing.T) {
	_, o := newRoot(t)
	srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o})
	if err != nil {
		t.Fatal(err)
	}
	r := startRaw(t, srv)
	for _, id := range []string{"1", "2"} {
		r.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + sessionlessMeta + `}}`)
		if a := r.recv(); a.Method != "notifications/subscriptions/acknowledged" || !strings.Contains(r.out.Text(), `"io.modelcontextprotocol/subscriptionId":`+id) {
			t.Fatalf("listen %s: %s", id, r.out.Text())
		}
	}
	r.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{` + sessionlessMeta + `}}`)
	if a := r.recv(); string(a.ID) != "3" || a.Error != nil {
		t.Fatalf("tools/list while listening: %s", r.out.Text())
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	if a := r.recv(); string(a.ID) != "1" || a.Error != nil || !strings.Contains(r.out.Text(), `"io.modelcontextprotocol/subscriptionId":1`) {
		t.Fatalf("the cancelled listen: %s", r.out.Text())
	}
	start := time.Now()
	if err := r.end(); err != nil || time.Since(start) > 5*time.Second {
		t.Errorf("Run: %v after %v", err, time.Since(start))
	}
}

// failingWriter fails every write with err, but the first ok ones.
type failingWriter struct {
	ok  int
	err error
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.ok > 0 {
		w.ok--
		return len(p), nil
	}
	return 0, w.err
}

// TestOutputGone: when the answers cannot be written, the session ends,
// however long the input: with the error, or with none when the client
// closed its end (a broken pipe).
func TestOutputGone(t *testing.T) {
	_, o := newRoot(t)
	srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o})
	if err != nil {
		t.Fatal(err)
	}
	full := errors.New("no space left on device")
	for _, c := range []struct {
		ok   int // the writes that succeed: initialize's answer is written by the reading loop, a ping's by its own goroutine
		err  error
		want string
	}{{0, full, "writing to the client: no space left on device"}, {1, full, "writing to the client: no space left on device"},
		{0, io.ErrClosedPipe, ""}, {1, syscall.EPIPE, ""}} {
		inR, inW := io.Pipe()
		defer inW.Close()
		go io.WriteString(inW, rawInit+"\n"+`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n")
		done := make(chan error, 1)
		go func() { done <- srv.Run(context.Background(), inR, &failingWriter{c.ok, c.err}) }()
		select {
		case err := <-done:
			if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want) {
				t.Errorf("Run on a writer failing with %v: %v, want %q", c.err, err, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the session went on without its output")
		}
	}
}

// sessionlessMeta is the _meta of a request of the sessionless protocol.
const sessionlessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// TestHandoffSurvivesClientGone: a client sends wake_handoff and goes
// away (its input ends, its end of the output closed) while the hand-off
// waits for the root's lock, which another wake process frees a moment
// later. The hand-off is recorded: with a listen held open, as Claude
// Code holds one, whose answer is the first write to fail, and without.
func TestHandoffSurvivesClientGone(t *testing.T) {
	for _, listen := range []bool{true, false} {
		fsys, o := newRoot(t)
		gate := newGatedLocker()
		o.Locker = gate
		srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o})
		if err != nil {
			t.Fatal(err)
		}
		inR, inW := io.Pipe()
		done := make(chan error, 1)
		ok := 0
		if listen {
			ok = 1 // the listen's acknowledgment gets through
		}
		go func() { done <- srv.Run(context.Background(), inR, &failingWriter{ok, syscall.EPIPE}) }()
		if listen {
			io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},`+sessionlessMeta+`}}`+"\n")
		}
		io.WriteString(inW, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wake_handoff","arguments":{"summary":"Baked the MARKER loaves","next":"Sell"},`+sessionlessMeta+`}}`+"\n")
		<-gate.waiting
		inW.Close()
		time.Sleep(200 * time.Millisecond) // the input's end and the listen's answer are seen first
		close(gate.open)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("listen %v: Run: %v", listen, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("listen %v: Run did not end", listen)
		}
		latest, _ := afero.ReadFile(fsys, "/p/.wake/recent/latest.md")
		if !strings.Contains(string(latest), "Baked the MARKER loaves") {
			t.Errorf("listen %v: the hand-off sent before the client went was lost:\n%s", listen, latest)
		}
	}
}

// TestInvalidUTF8ID: an id with bytes that are not UTF-8 is answered as
// the SDK answers it, each bad byte U+FFFD, so that the answer is valid
// JSON text.
func TestInvalidUTF8ID(t *testing.T) {
	_, o := newRoot(t)
	srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o})
	if err != nil {
		t.Fatal(err)
	}
	r := startRaw(t, srv)
	r.send(rawInit)
	r.recv()
	r.send("{\"jsonrpc\":\"2.0\",\"id\":\"a\xffb\",\"method\":\"ping\"}")
	if !r.out.Scan() {
		t.Fatal("no answer")
	}
	line := r.out.Bytes()
	var a rawAnswer
	var id string
	if !utf8.Valid(line) || json.Unmarshal(line, &a) != nil || json.Unmarshal(a.ID, &id) != nil || id != "a\uFFFDb" {
		t.Errorf("the answer to a ping whose id is not UTF-8: %q", line)
	}
	if err := r.end(); err != nil {
		t.Error(err)
	}
}

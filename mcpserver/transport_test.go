package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/mcpserver"
)

// TestGarbage sends the server lines that are not JSON-RPC messages
// between real requests: each is answered with the protocol's error, and
// the requests after them are served.
func TestGarbage(t *testing.T) {
	_, o := newRoot(t)
	srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, inR, outW); outW.Close() }()
	out := bufio.NewScanner(outR)
	out.Buffer(nil, 1<<24)
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	type response struct {
		ID     any             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	recv := func() response {
		t.Helper()
		if !out.Scan() {
			t.Fatalf("no answer: %v", out.Err())
		}
		var r response
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("answer %q: %v", out.Text(), err)
		}
		return r
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := recv(); r.Error != nil || !strings.Contains(string(r.Result), "wake_load") {
		t.Fatalf("initialize: %+v %s", r.Error, r.Result)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, c := range []struct {
		line string
		code int
		id   any
	}{
		{`garbage{{`, -32700, nil},
		{"\x00\xff", -32700, nil},
		{`{"jsonrpc":"2.0","id":2,"method":`, -32700, nil},
		{`[1, 2]`, -32600, nil},
		{`{"id":7}`, -32600, float64(7)},
		{`"just a string"`, -32600, nil},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":"x"}`, -32602, float64(8)},
		{`{"jsonrpc":"2.0","id":9,"method":"no/such"}`, -32601, float64(9)},
	} {
		send(c.line)
		r := recv()
		if r.Error == nil || r.Error.Code != c.code || r.ID != c.id {
			t.Errorf("%q: answered %+v %v (id %v), want code %d id %v", c.line, r.Error, string(r.Result), r.ID, c.code, c.id)
		}
	}
	send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"wake_check","arguments":{}}}`)
	if r := recv(); r.Error != nil || !strings.Contains(string(r.Result), "Outcome:") {
		t.Fatalf("wake_check after the garbage: %+v %s", r.Error, r.Result)
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the server did not end when its input did")
	}
}

// TestAnswersAfterInputEnds closes the input right after the requests:
// the server answers each before it ends.
func TestAnswersAfterInputEnds(t *testing.T) {
	_, o := newRoot(t)
	srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o})
	if err != nil {
		t.Fatal(err)
	}
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wake_decide","arguments":{"what":"Bake at dawn","because":"the shop opens at seven"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wake_log","arguments":{}}}
`)
	var out strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Run(ctx, in, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"id":1,"result"`, `"id":2,"result":{"content":[{"type":"text","text":"Decided #1`, `"id":3,"result"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in:\n%s", want, out.String())
		}
	}
}

// TestRepeatedID: a request whose id is still pending is refused at once,
// and the session ends promptly when the input does: the server answers
// one request an id.
func TestRepeatedID(t *testing.T) {
	_, o := newRoot(t)
	srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o})
	if err != nil {
		t.Fatal(err)
	}
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wake_log","arguments":{}}}
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wake_log","arguments":{}}}
{"jsonrpc":"2.0","id":8,"method":"tools/list"}
`)
	var out strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	if err := srv.Run(ctx, in, &out); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the session took %v to end", d)
	}
	for _, want := range []string{`"id":7,"result"`, `"id":8,"result"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in:\n%s", want, out.String())
		}
	}
	// Refused while the first is pending; a first answered before the
	// repeat was read leaves the repeat a request of its own.
	refused := strings.Contains(out.String(), "a request with this id is still pending")
	if strings.Count(out.String(), `"id":7`) != 2 || !refused && strings.Count(out.String(), `"id":7,"result"`) != 2 {
		t.Errorf("the repeated id was neither refused nor answered:\n%s", out.String())
	}
}

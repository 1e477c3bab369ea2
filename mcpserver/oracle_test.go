package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/skeleton"
)

// The MCP Go SDK is the oracle of the protocol: its server, made with the
// same tools (the same argument structs) and resources, must answer what
// ours answers.

var (
	oracleEncOnce sync.Once
	oracleEnc     *budget.Encoder
	oracleEncErr  error
)

// oracleRoot is a memory root on an in-memory file system, with a clock
// that stands still, and the server's options for it.
func oracleRoot(t *testing.T) Options {
	t.Helper()
	fsys := afero.NewMemMapFs()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home/ava"}, Locker: &memlock.Locker{},
		Encoder: func(name string) (*budget.Encoder, error) {
			oracleEncOnce.Do(func() { oracleEnc, oracleEncErr = budget.NewEncoder(name) })
			return oracleEnc, oracleEncErr
		},
		Now: func() time.Time { return now }}
	if _, err := wake.Init(context.Background(), "/p/.wake", skeleton.Params{Agent: "Ava", Project: "bakery"}, o); err != nil {
		t.Fatal(err)
	}
	afero.WriteFile(fsys, "/p/.wake/cold/notes/vat.md", []byte("---\nsummary: VAT rates\n---\n# VAT\n\nBread is taxed at 7%.\n"), 0o644)
	return Options{Root: "/p/.wake", Library: o, Version: "v9.9.9", Cwd: "/p"}
}

// addSDKTool adds our tool name, whose arguments are an In, to the SDK's
// server: the SDK infers its schema and checks its arguments.
func addSDKTool[In any](sdk *mcp.Server, srv *Server, name string) {
	t := srv.tool(name)
	mcp.AddTool(sdk, &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description},
		func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
			args, _ := json.Marshal(in)
			text, err := t.call(ctx, args)
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
}

// sdkServer is the SDK's server of what srv serves, made as wake made it
// before it served MCP itself.
func sdkServer(t *testing.T, srv *Server) *mcp.Server {
	t.Helper()
	sdk := mcp.NewServer(&mcp.Implementation{Name: srv.info.Name, Title: srv.info.Title, Version: srv.info.Version},
		&mcp.ServerOptions{Instructions: srv.instructions, Capabilities: &mcp.ServerCapabilities{}})
	addSDKTool[loadArgs](sdk, srv, "wake_load")
	addSDKTool[checkArgs](sdk, srv, "wake_check")
	addSDKTool[coldArgs](sdk, srv, "wake_cold")
	addSDKTool[decideArgs](sdk, srv, "wake_decide")
	addSDKTool[contestArgs](sdk, srv, "wake_contest")
	addSDKTool[handoffArgs](sdk, srv, "wake_handoff")
	addSDKTool[rememberArgs](sdk, srv, "wake_remember")
	addSDKTool[logArgs](sdk, srv, "wake_log")
	addSDKTool[wakeupArgs](sdk, srv, "memory_wakeup")
	if len(srv.tools) != 9 {
		t.Fatalf("the oracle has 9 tools, the server %d: add the new ones above", len(srv.tools))
	}
	for _, r := range srv.resources {
		read := r.read
		mime := r.MIMEType
		h := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			text, err := read(req.Params.URI)
			var re *rpcError
			if errors.As(err, &re) && re.Message == "Resource not found" {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			if err != nil {
				return nil, err
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: mime, Text: text}}}, nil
		}
		if r.URITemplate != "" {
			sdk.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: r.URITemplate, Name: r.Name, Title: r.Title, MIMEType: r.MIMEType, Description: r.Description}, h)
		} else {
			sdk.AddResource(&mcp.Resource{URI: r.URI, Name: r.Name, Title: r.Title, MIMEType: r.MIMEType, Description: r.Description}, h)
		}
	}
	return sdk
}

// peer is a raw session with a server: a line sent, the answer read.
type peer struct {
	t   *testing.T
	in  *io.PipeWriter
	out *bufio.Scanner
}

// startPeer runs run (a server's session) on a pair of pipes.
func startPeer(t *testing.T, run func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error) *peer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { run(ctx, inR, outW); outW.Close(); close(done) }()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		go io.Copy(io.Discard, outR)
		<-done
	})
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<24)
	return &peer{t: t, in: inW, out: sc}
}

// send sends line; for a request, it returns the answer to it (and the
// notifications sent before it), else nil.
func (p *peer) send(line string) []string {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatalf("%s: %v", line, err)
	}
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	json.Unmarshal([]byte(line), &m)
	if len(m.ID) == 0 {
		return nil
	}
	var got []string
	for {
		if !p.out.Scan() {
			p.t.Fatalf("%s: no answer: %v", line, p.out.Err())
		}
		got = append(got, p.out.Text())
		var r struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(p.out.Bytes(), &r)
		if bytes.Equal(r.ID, m.ID) {
			return got
		}
	}
}

// exchange is a request and how our answer must match the SDK's.
type exchange struct {
	line string
	// same: "bytes" (the answer's bytes), "json" (the same JSON value),
	// "kind" (both a result marked isError, or both an error of the same
	// code: the messages are our own).
	same string
}

const (
	initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	metaTriple = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
)

// TestOracle sends the same requests to our server and to the SDK's: the
// answers are the same.
func TestOracle(t *testing.T) {
	o := oracleRoot(t)
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	sdk := sdkServer(t, srv)
	ours := func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error { return srv.Run(ctx, in, out) }
	theirs := func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return sdk.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
	}
	call := func(id, tool, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	}
	sessions := map[string][]exchange{
		"before initialize": {
			{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "bytes"},
			{`{"jsonrpc":"2.0","id":2,"method":"no/such"}`, "bytes"},
			{`{"jsonrpc":"2.0","id":3,"method":"ping"}`, "bytes"},
			{`{"jsonrpc":"2.0","id":4,"method":"initialize"}`, "bytes"},
		},
		"2025-06-18": {
			{strings.Replace(initialize, "%s", "2025-06-18", 1), "bytes"},
			{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
			{`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, "bytes"},
			{`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":""}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"zzz"}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[]}`, "kind"},
			{`{"jsonrpc":"2.0","id":6,"method":"resources/list"}`, "bytes"},
			{`{"jsonrpc":"2.0","id":7,"method":"resources/templates/list","params":{}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":8,"method":"prompts/list"}`, "bytes"},
			{`{"jsonrpc":"2.0","id":9,"method":"prompts/get","params":{"name":"x"}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":10,"method":"ping"}`, "bytes"},
			{`{"jsonrpc":"2.0","id":"s","method":"ping","params":"x"}`, "kind"},
			{`{"jsonrpc":"2.0","id":11,"method":"logging/setLevel","params":{"level":"debug"}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":12,"method":"logging/setLevel"}`, "bytes"},
			{`{"jsonrpc":"2.0","id":13,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"wake://packet/{profile}"},"argument":{"name":"profile","value":"p"}}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":14,"method":"resources/subscribe","params":{"uri":"wake://boot"}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":15,"method":"no/such"}`, "bytes"},
			{`{"jsonrpc":"2.0","id":16,"method":"server/discover"}`, "bytes"},
			{strings.Replace(initialize, "%s", "2025-06-18", 1), "bytes"},
			{`{"jsonrpc":"2.0","id":17,"method":"notifications/cancelled","params":{"requestId":3}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":18,"method":"resources/read","params":{"uri":"wake://skill"}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":19,"method":"resources/read","params":{"uri":"wake://packet/project"}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":20,"method":"resources/read","params":{"uri":"wake://nothing"}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":21,"method":"resources/read","params":{"uri":"wake://packet/nobody"}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":22,"method":"resources/read","params":{"uri":"wake://packet/a/b"}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":23,"method":"resources/read","params":{}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":24,"method":"resources/read"}`, "bytes"},
			{`{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":26,"method":"tools/call"}`, "bytes"},
			{call("27", "wake_nope", "{}"), "bytes"},
			{call("28", "wake_log", "{}"), "bytes"},
			{`{"jsonrpc":"2.0","id":29,"method":"tools/call","params":{"name":"wake_log"}}`, "bytes"},
			{call("30", "wake_log", "null"), "bytes"},
			{call("31", "wake_check", `{"format":"json"}`), "bytes"},
			{call("32", "wake_cold", "{}"), "bytes"},
			{call("33", "wake_cold", `{"path":"../main.md"}`), "bytes"},
			{call("34", "wake_load", `{"page":0.5}`), "kind"},
			{call("35", "wake_log", `{"page":2e0}`), "bytes"},
			{call("36", "wake_log", `{"page":-1}`), "bytes"},
			{call("37", "wake_log", `{"op":null}`), "kind"},
			{call("38", "wake_log", `{"op":3}`), "kind"},
			{call("39", "wake_log", `{"nope":3}`), "kind"},
			{call("40", "wake_log", `[1]`), "kind"},
			{call("41", "wake_log", `"x"`), "kind"},
			{call("42", "wake_decide", `{"what":"a"}`), "kind"},
			{call("43", "wake_decide", `null`), "kind"},
			{call("44", "wake_decide", `{"what":"a","because":"b","force":"yes"}`), "kind"},
			{call("45", "memory_wakeup", `{"files":"one.go"}`), "kind"},
			{call("46", "memory_wakeup", `{"files":[1]}`), "kind"},
			{call("47", "memory_wakeup", `{"files":null,"format":"markdown"}`), "bytes"},
			{call("48", "wake_load", `{"page":99999999999999999999}`), "kind"},
			{call("49", "wake_handoff", `{"summary":"s"}`), "kind"},
			{call("50", "wake_contest", `{"decision":"zzz","objection":"o","proposal":"p"}`), "bytes"},
			{`{"jsonrpc":"2.0","id":51,"method":"tools/call","params":null}`, "bytes"},
			{`{"jsonrpc":"2.0","id":52,"method":"resources/read","params":null}`, "bytes"},
			{`{"jsonrpc":"2.0","id":53,"method":"logging/setLevel","params":null}`, "bytes"},
			{`{"jsonrpc":"2.0","id":54,"method":"tools/list","params":null}`, "bytes"},
			{`{"jsonrpc":"2.0","id":55,"method":"ping","params":{"_meta":{"progressToken":1}}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":56,"method":"tools/call","params":{"name":"wake_log","arguments":{},"_meta":{"progressToken":"p"}}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":57,"method":"notifications/initialized"}`, "bytes"},
			{`{"jsonrpc":"2.0","id":58,"method":"subscriptions/listen","params":{"notifications":{}}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":59,"method":"tools/call","params":{"name":"wake_log","arguments":{"op":"x","op":"y"}}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":"60","method":"ping"}`, "bytes"},
			{`{"jsonrpc":"2.0","id":-61,"method":"ping"}`, "bytes"},
		},
		"2025-11-25": {
			{strings.Replace(initialize, "%s", "2025-11-25", 1), "bytes"},
			{call("2", "wake_log", "{}"), "bytes"},
		},
		"2024-11-05":              {{strings.Replace(initialize, "%s", "2024-11-05", 1), "bytes"}},
		"initialize, params null": {{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":null}`, "bytes"}},
		"initialize, no version":  {{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, "bytes"}},
		"2025-03-26":              {{strings.Replace(initialize, "%s", "2025-03-26", 1), "bytes"}},
		"unknown version": {
			{strings.Replace(initialize, "%s", "1999-01-01", 1), "bytes"},
			{call("2", "wake_log", "{}"), "bytes"},
		},
		"2026-07-28 by initialize": {
			{strings.Replace(initialize, "%s", "2026-07-28", 1), "bytes"},
			{call("2", "wake_log", "{}"), "bytes"},
		},
		"sessionless": {
			{`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + metaTriple + `}}`, "json"},
			{`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + metaTriple + `}}`, "json"},
			{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wake_log","arguments":{},` + metaTriple + `}}`, "json"},
			{`{"jsonrpc":"2.0","id":4,"method":"ping","params":{` + metaTriple + `}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"wake://skill",` + metaTriple + `}}`, "json"},
			{`{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, "bytes"},
			{`{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":3}}}`, "bytes"},
			{strings.Replace(initialize, "%s", "2025-06-18", 1), "bytes"},
			{`{"jsonrpc":"2.0","id":9,"method":"subscriptions/listen","params":{"notifications":{}, ` + metaTriple + `}}`, "json"},
		},
	}
	for name, exchanges := range sessions {
		t.Run(name, func(t *testing.T) {
			a, b := startPeer(t, ours), startPeer(t, theirs)
			for _, x := range exchanges {
				got, want := a.send(x.line), b.send(x.line)
				if x.same == "" {
					continue
				}
				if len(got) != len(want) {
					t.Errorf("%s:\nours:   %q\ntheirs: %q", x.line, got, want)
					continue
				}
				for i := range got {
					if !same(x.same, got[i], want[i]) {
						t.Errorf("%s (%s):\nours:   %.3000s\ntheirs: %.3000s", x.line, x.same, got[i], want[i])
					}
				}
			}
		})
	}
}

// same is whether the answers got and want are the same in the sense of
// how.
func same(how, got, want string) bool {
	switch how {
	case "bytes":
		return got == want
	case "json":
		var g, w any
		return json.Unmarshal([]byte(got), &g) == nil && json.Unmarshal([]byte(want), &w) == nil && reflect.DeepEqual(g, w)
	}
	type answer struct {
		ID     json.RawMessage
		Result *struct{ IsError bool }
		Error  *struct{ Code int }
	}
	var g, w answer
	if json.Unmarshal([]byte(got), &g) != nil || json.Unmarshal([]byte(want), &w) != nil || !bytes.Equal(g.ID, w.ID) {
		return false
	}
	if g.Error != nil || w.Error != nil {
		return g.Error != nil && w.Error != nil && g.Error.Code == w.Error.Code
	}
	return g.Result != nil && w.Result != nil && g.Result.IsError == w.Result.IsError
}

// TestSchemasAsTheSDKInfers compares every tool of tools/list, through
// the SDK's client, with what the SDK's server lists for the same
// argument structs: the same bytes.
func TestSchemasAsTheSDKInfers(t *testing.T) {
	o := oracleRoot(t)
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	sdk := sdkServer(t, srv)
	a, b := startPeer(t, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error { return srv.Run(ctx, in, out) }),
		startPeer(t, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
			return sdk.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
		})
	line := strings.Replace(initialize, "%s", "2025-06-18", 1)
	a.send(line)
	b.send(line)
	type list struct {
		Result struct {
			Tools []struct {
				Name        string
				InputSchema json.RawMessage
			}
		}
	}
	var got, want list
	list1 := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if err := json.Unmarshal([]byte(a.send(list1)[0]), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(b.send(list1)[0]), &want); err != nil {
		t.Fatal(err)
	}
	if len(got.Result.Tools) != len(want.Result.Tools) || len(got.Result.Tools) != 9 {
		t.Fatalf("%d tools, the SDK %d", len(got.Result.Tools), len(want.Result.Tools))
	}
	for i, g := range got.Result.Tools {
		w := want.Result.Tools[i]
		if g.Name != w.Name || !bytes.Equal(g.InputSchema, w.InputSchema) {
			t.Errorf("%s:\nours:   %s\ntheirs: %s", g.Name, g.InputSchema, w.InputSchema)
		}
	}
}

// TestOracleListen holds a subscriptions/listen open on both servers, as
// Claude Code does, then cancels it: the acknowledgement and the answer
// are the same.
func TestOracleListen(t *testing.T) {
	o := oracleRoot(t)
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	sdk := sdkServer(t, srv)
	peers := []*peer{
		startPeer(t, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error { return srv.Run(ctx, in, out) }),
		startPeer(t, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
			return sdk.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
		}),
	}
	var got [2][]string
	for i, p := range peers {
		io.WriteString(p.in, `{"jsonrpc":"2.0","id":"listen:0","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true,"resourcesListChanged":true,"promptsListChanged":true},`+metaTriple+`}}`+"\n")
		if !p.out.Scan() {
			t.Fatal("no acknowledgement")
		}
		got[i] = append(got[i], p.out.Text())
		// The listen holds; other requests are served meanwhile.
		got[i] = append(got[i], p.send(`{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{`+metaTriple+`}}`)...)
		// The cancelled listen is answered, before or after the next
		// request's answer: both are read, the listen's last.
		p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"listen:0"}}`)
		var listen string
		for _, line := range p.send(`{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{` + metaTriple + `}}`) {
			if strings.Contains(line, `"id":"listen:0"`) {
				listen = line
			} else {
				got[i] = append(got[i], line)
			}
		}
		if listen == "" {
			if !p.out.Scan() {
				t.Fatal("the cancelled listen is not answered")
			}
			listen = p.out.Text()
		}
		got[i] = append(got[i], listen)
	}
	if len(got[0]) != len(got[1]) {
		t.Fatalf("ours:\n%s\ntheirs:\n%s", strings.Join(got[0], "\n"), strings.Join(got[1], "\n"))
	}
	for i := range got[0] {
		if !same("json", got[0][i], got[1][i]) {
			t.Errorf("ours:   %.500s\ntheirs: %.500s", got[0][i], got[1][i])
		}
	}
}

// kinds has an argument of every kind the schema writer knows.
type kinds struct {
	Name     string    `json:"name" jsonschema:"a string, required"`
	Count    int       `json:"count,omitempty"`
	Small    int8      `json:"small,omitempty" jsonschema:"a small one"`
	Unsigned uint      `json:"unsigned" jsonschema:"never below nought"`
	Ratio    float64   `json:"ratio,omitempty" jsonschema:"a number"`
	On       bool      `json:"on" jsonschema:"a switch"`
	Tags     []string  `json:"tags" jsonschema:"required, yet it may be null"`
	Counts   []int     `json:"counts,omitempty" jsonschema:"integers"`
	Flags    []bool    `json:"flags,omitempty"`
	Shorts   []int16   `json:"shorts,omitempty" jsonschema:"sized items"`
	Untagged string    `jsonschema:"named by its Go name"`
	Skipped  string    `json:"-"`
	Weights  []float64 `json:",omitempty" jsonschema:"named by its Go name, optional"`
	hidden   string
}

// TestSchemaKinds compares the schema written for every kind of argument
// with the one the SDK infers, byte for byte, and checks arguments of each
// kind, good and bad, as the SDK does: the same outcome.
func TestSchemaKinds(t *testing.T) {
	sdk := mcp.NewServer(&mcp.Implementation{Name: "k", Version: "1"}, nil)
	mcp.AddTool(sdk, &mcp.Tool{Name: "kinds", Description: "every kind"}, func(context.Context, *mcp.CallToolRequest, kinds) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	p := startPeer(t, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return sdk.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
	})
	p.send(strings.Replace(initialize, "%s", "2025-06-18", 1))
	var list struct {
		Result struct {
			Tools []struct{ InputSchema json.RawMessage }
		}
	}
	if err := json.Unmarshal([]byte(p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)[0]), &list); err != nil || len(list.Result.Tools) != 1 {
		t.Fatalf("tools/list: %v %+v", err, list)
	}
	fs := fieldsOf(reflect.TypeFor[kinds]())
	if got, want := string(inputSchema(fs)), string(list.Result.Tools[0].InputSchema); got != want {
		t.Errorf("schema:\nours:   %s\ntheirs: %s", got, want)
	}
	const base = `"name":"n","unsigned":1,"on":true,"tags":null,"Untagged":"u"`
	for _, args := range []string{
		`{` + base + `}`,
		`{` + base + `,"count":-3,"small":7,"ratio":0.5,"counts":[1,2e0],"flags":[true],"Weights":[1.5,-2]}`,
		`{"name":"n","unsigned":1,"on":true,"Untagged":"u"}`,
		`{` + base + `,"tags":["a"]}`,
		`{` + base + `,"tags":"a"}`,
		`{` + base + `,"tags":[1]}`,
		`{` + base + `,"count":1.5}`,
		`{` + base + `,"count":"1"}`,
		`{` + base + `,"ratio":"x"}`,
		`{` + base + `,"ratio":null}`,
		`{` + base + `,"on":"true"}`,
		`{` + base + `,"on":1}`,
		`{` + base + `,"counts":[1.5]}`,
		`{` + base + `,"flags":[null]}`,
		`{` + base + `,"Skipped":"x"}`,
		`{` + base + `,"hidden":"x"}`,
		`{` + base + `,"skipped":"x"}`,
		`{"unsigned":1,"on":true,"tags":null,"Untagged":"u"}`,
		`{` + base + `,"name":null}`,
		`{` + base + `,"small":"big"}`,
		`{` + base + `,"small":200}`,
		`{` + base + `,"shorts":[1,-32768]}`,
		`{` + base + `,"shorts":[40000]}`,
		`{` + base + `,"unsigned":-1}`,
		`{` + base + `,"count":1e400}`,
		`[]`, `3`, `null`, `{}`,
	} {
		var in kinds
		ours := decodeArgs("kinds", fs, json.RawMessage(args), &in) != nil
		answer := p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"kinds","arguments":` + args + `}}`)
		var r struct{ Result struct{ IsError bool } }
		if err := json.Unmarshal([]byte(answer[0]), &r); err != nil {
			t.Fatal(err)
		}
		if ours != r.Result.IsError {
			t.Errorf("%s: refused %v, the SDK %v: %s", args, ours, r.Result.IsError, answer[0])
		}
	}
}

// TestArgumentMessages: each refusal of an argument names it, and what
// was wanted.
func TestArgumentMessages(t *testing.T) {
	fs := fieldsOf(reflect.TypeFor[kinds]())
	const base = `"name":"n","unsigned":1,"on":true,"tags":null,"Untagged":"u"`
	for args, want := range map[string]string{
		`{` + base + `,"nope":1}`:       `argument "nope": kinds takes no such argument (it takes name, count,`,
		`{` + base + `,"count":"1"}`:    `argument "count": got the string "1", want "integer"`,
		`{` + base + `,"ratio":null}`:   `argument "ratio": got null, want "number"`,
		`{` + base + `,"tags":"a"}`:     `argument "tags": got the string "a", want an array of "string" (or null)`,
		`{` + base + `,"flags":[1]}`:    `argument "flags": item 1: got the number 1, want "boolean"`,
		`{` + base + `,"small":200}`:    `argument "small": the number 200 is out of range`,
		`{` + base + `,"shorts":[1e9]}`: `argument "shorts": an item of the array [1000000000] is out of range`,
		`{"on":true,"tags":null}`:       `missing required argument(s): "name", "unsigned", "Untagged"`,
		`[1]`:                           `arguments: want an object of named arguments, got the array [1]`,
		`{` + base + `,"name":"` + strings.Repeat("x", 200) + `","count":true}`: `argument "count": got the boolean true, want "integer"`,
	} {
		var in kinds
		err := decodeArgs("kinds", fs, json.RawMessage(args), &in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.80s: %v, want %q", args, err, want)
		}
	}
	var in kinds
	if err := decodeArgs("kinds", fs, json.RawMessage(`{`+base+`,"count":2.0,"counts":[3e0],"tags":["a"]}`), &in); err != nil ||
		in.Name != "n" || in.Count != 2 || len(in.Counts) != 1 || in.Counts[0] != 3 || in.Tags[0] != "a" || !in.On {
		t.Errorf("good arguments: %v %+v", err, in)
	}
}

// TestCaseExactParams: the SDK matches keys to fields case-sensitively
// (its internal/json), where encoding/json folds case: a "NAME" after
// "name" must not choose the tool here while a case-sensitive reader of
// the same line (the SDK, a gateway, a log) sees the other.
func TestCaseExactParams(t *testing.T) {
	o := oracleRoot(t)
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	sdk := sdkServer(t, srv)
	a := startPeer(t, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error { return srv.Run(ctx, in, out) })
	b := startPeer(t, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return sdk.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
	})
	init := strings.Replace(initialize, "%s", "2025-06-18", 1)
	a.send(init)
	b.send(init)
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wake_log","arguments":{},"NAME":"wake_decide","Arguments":{"what":"Folded in","because":"case"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"wake://nothing","URI":"wake://skill"}}`,
		`{"jsonrpc":"2.0","id":6,"METHOD":"tools/call","method":"ping"}`,
	} {
		got, want := a.send(line), b.send(line)
		if len(got) == 0 || len(want) == 0 || got[len(got)-1] != want[len(want)-1] {
			t.Errorf("%s\nours:   %.300q\ntheirs: %.300q", line, got, want)
		}
	}
}

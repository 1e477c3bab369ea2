package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// The server side of the Model Context Protocol over stdio, as the MCP Go
// SDK v1.8.0 serves it (its tests keep the SDK's client as the oracle),
// written here so that the wake binary does not link the SDK: its package
// initialisations alone cost a warm `wake load` about half its start-up.

// The protocol versions served, newest first. initialize answers with the
// client's when it is one of them (2026-07-28 excepted: that one has no
// initialize), else with the newest before it; a request carrying its
// version in _meta (the sessionless protocol of 2026-07-28) is served
// without initialize.
var protocolVersions = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// sessionless is the first version of the sessionless protocol.
const sessionless = "2026-07-28"

// The JSON-RPC error codes answered.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeUnsupported    = -32022 // an unsupported protocol version in _meta
	codeOther          = 0      // what the SDK answers an error of no code with
)

// The _meta keys of the sessionless protocol.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
	metaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// maxLine bounds one message, as the SDK's stdio transport does
// (DefaultMaxLineLength).
const maxLine = 16 << 20

// drainWait bounds the wait for the answers at the end of the input.
const drainWait = time.Minute

// rpcError is a JSON-RPC error answered to a request.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return e.Message }

func errorf(code int, format string, args ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// message is one JSON-RPC message as read.
type message struct {
	JSONRPC   string          `json:"jsonrpc"`
	ID        json.RawMessage `json:"id"`
	Method    string          `json:"method"`
	hasMethod bool            // the message names a method, "" included
	Params    json.RawMessage `json:"params"`
	Result    json.RawMessage `json:"result"`
	Error     json.RawMessage `json:"error"`
}

// isCall is whether m is a request to answer (it has an id).
func (m *message) isCall() bool { return len(m.ID) > 0 && string(m.ID) != "null" }

// session is one client's connection: what initialize told, the requests
// running and the writer of the answers.
type session struct {
	srv *Server
	out io.Writer

	mu        sync.Mutex
	wmu       sync.Mutex                    // one message a write
	gone      bool                          // the client closed its end of the output; under wmu
	requested string                        // the version initialize asked for; "" before it
	hooked    bool                          // the client's hook gave the session its boot context ([Options.Hooked])
	running   map[string]context.CancelFunc // the requests being served, by id
	end       context.CancelCauseFunc       // ends the session, as a write that failed does
	wg        sync.WaitGroup

	// What the requests being served hold (held.go), under mu: their
	// count and the bytes of the large ones, and the requests read but
	// waiting to be let in. room is told when a request is answered.
	limits  limits
	calls   int
	bytes   int
	waiting []*waiter
	room    chan struct{}
}

// Run serves one MCP session on in and out, newline-delimited JSON-RPC
// 2.0, until in ends or ctx is done. A line which is not a JSON-RPC
// message is answered with the protocol's error (-32700 for what is not
// JSON, -32600 for JSON that is not a message, a batch included) and
// skipped, not taken as the end of the session. Requests are served as
// they are read, each in its own goroutine (the tools themselves run one
// at a time), so a ping or a cancellation is not kept waiting behind a
// long call; at the end of in, the session ends once every request read
// has been answered (within drainWait): a hand-off sent just before the
// client closed the stream is finished and answered, and
// `wake mcp < requests.jsonl` answers every line.
func (srv *Server) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	outer := ctx
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The requests run under outer, not under the session's end: a client
	// that went away (its end of the output closed) does not cancel a
	// hand-off it sent before it went.
	reqCtx, reqCancel := context.WithCancel(outer)
	defer reqCancel()
	ss := &session{srv: srv, out: out, running: map[string]context.CancelFunc{}, end: cancel, limits: srv.limits, room: make(chan struct{}, 1)}
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		r := bufio.NewReaderSize(in, 64*1024)
		for {
			line, err := readLine(r)
			if len(bytes.TrimSpace(line)) > 0 {
				select {
				case lines <- line:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				readErr <- err
				return
			}
		}
	}()
	stopped := false
	for {
		// Reading stops while too many requests wait to be let in, and
		// goes on when one is answered: a client's lines wait in the
		// pipe, not in the server's memory.
		next := lines
		if stopped = ss.blocked(stopped); stopped {
			next = nil
		}
		select {
		case <-ss.room:
		case line := <-next:
			if err := ss.receive(reqCtx, line); errors.Is(err, errClientGone) {
				ss.drain(drainWait) // what was read is finished, unanswered
				return nil
			} else if err != nil {
				return err
			}
		case err := <-readErr:
			ss.drain(drainWait)
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case <-ctx.Done():
			if outer.Err() != nil {
				ss.drain(0)
				return outer.Err()
			}
			if err := context.Cause(ctx); !errors.Is(err, errClientGone) {
				ss.drain(0)
				return err // the output failed
			}
			ss.drain(drainWait) // what was read is finished, unanswered
			return nil
		}
	}
}

// readLine is the next line of r, at most maxLine bytes (the rest of a
// longer line is dropped, and what was kept is answered as a parse error).
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	dropping := false
	for {
		chunk, err := r.ReadSlice('\n')
		if dropping = dropping || len(line)+len(chunk) > maxLine; !dropping {
			line = append(line, chunk...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// drain waits until every request read has been answered, or d; then the
// requests still running are cancelled, and given stopWait to return, so
// that none is cut off in the middle of a write by the process's exit.
func (ss *session) drain(d time.Duration) {
	if d > 0 {
		ss.mu.Lock()
		// A listen waits for its cancellation, which cannot come now.
		for id, cancel := range ss.running {
			if strings.HasPrefix(id, "listen ") {
				cancel()
			}
		}
		ss.mu.Unlock()
		done := make(chan struct{})
		go func() { ss.wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(d):
		}
	}
	ss.mu.Lock()
	for _, cancel := range ss.running {
		cancel()
	}
	ss.mu.Unlock()
	done := make(chan struct{})
	go func() { ss.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(stopWait):
	}
}

// stopWait bounds the wait for the requests cancelled at the end.
const stopWait = 5 * time.Second

// write sends one message, a line.
func (ss *session) write(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	ss.wmu.Lock()
	defer ss.wmu.Unlock()
	if ss.gone {
		return errClientGone
	}
	if _, err = ss.out.Write(append(data, '\n')); err != nil {
		if errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) {
			ss.gone = true
			ss.end(errClientGone)
			return errClientGone
		}
		err = fmt.Errorf("writing to the client: %w", err)
		ss.end(err)
	}
	return err
}

// errClientGone ends a session whose client closed its end of the output:
// the session is over, not failed.
var errClientGone = errors.New("the client closed the session")

// response is a JSON-RPC response.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// answer writes the response to the request id: result, or err as a
// JSON-RPC error (code 0 when it has none, as the SDK answers).
func (ss *session) answer(id json.RawMessage, result any, err error) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	if err != nil {
		var re *rpcError
		if !errors.As(err, &re) {
			re = &rpcError{Code: codeOther, Message: err.Error()}
		}
		return ss.write(response{JSONRPC: "2.0", ID: id, Error: re})
	}
	return ss.write(response{JSONRPC: "2.0", ID: id, Result: result})
}

// receive handles one line read; an error is the session's end (the
// output is gone).
func (ss *session) receive(ctx context.Context, line []byte) error {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		return ss.answer(nil, nil, errorf(codeParseError, "Parse error: the line is not JSON"))
	}
	if line[0] == '[' {
		return ss.answer(nil, nil, errorf(codeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported"))
	}
	m, err := decode(line)
	if err != nil {
		return ss.answer(usableID(line), nil, errorf(codeInvalidRequest, "Invalid Request: %v", err))
	}
	if !m.hasMethod {
		return nil // a response: the server calls the client for nothing
	}
	if !m.isCall() {
		ss.notify(m)
		return nil
	}
	id := string(m.ID)
	key := id
	if m.Method == "subscriptions/listen" {
		key = "listen " + id
	}
	ss.mu.Lock()
	_, pending := ss.running[id]
	if !pending {
		_, pending = ss.running["listen "+id]
	}
	if pending {
		ss.mu.Unlock()
		return ss.answer(m.ID, nil, errorf(codeInvalidRequest, "Invalid Request: a request with this id is still pending"))
	}
	rctx, cancel := context.WithCancel(ctx)
	ss.running[key] = cancel
	ss.wg.Add(1)
	size := len(line)
	serve := func() error {
		defer ss.wg.Done()
		result, err := ss.handle(rctx, m)
		ss.mu.Lock()
		delete(ss.running, key)
		ss.release(size)
		ss.mu.Unlock()
		cancel()
		return ss.answer(m.ID, result, err)
	}
	// initialize is answered before anything after it is read, as the SDK
	// does; every other request runs while reading goes on, once there is
	// room for it (held.go).
	if m.Method == "initialize" {
		ss.take(size)
		ss.mu.Unlock()
		return serve()
	}
	unserved := func() {
		defer ss.wg.Done()
		ss.mu.Lock()
		delete(ss.running, key)
		ss.mu.Unlock()
		cancel()
		ss.answer(m.ID, nil, errCancelledWaiting)
	}
	ss.admit(rctx, size, func() { serve() }, unserved)
	return nil
}

// decode is line as a JSON-RPC message, checked as the SDK checks one.
func decode(line []byte) (*message, error) {
	if line[0] != '{' {
		return nil, errors.New("a message is a JSON object")
	}
	var m message
	if err := unmarshalExact(line, &m); err != nil {
		return nil, fmt.Errorf("parse error: %v", err)
	}
	var keys map[string]json.RawMessage
	json.Unmarshal(line, &keys)
	_, m.hasMethod = keys["method"]
	if m.JSONRPC != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected \"2.0\"", m.JSONRPC)
	}
	if id := usableID(line); id != nil {
		m.ID = id
	} else if len(m.ID) > 0 && string(m.ID) != "null" {
		return nil, fmt.Errorf("parse error: the id %s is neither a string nor a number", m.ID)
	}
	if !m.hasMethod && m.Result == nil && m.Error == nil && !m.isCall() {
		return nil, errors.New("the message has no method, result or error")
	}
	return &m, nil
}

// usableID is the message's id when it is a string or a number, else nil.
func usableID(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if unmarshalExact(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	switch m.ID[0] {
	case '"':
		if !utf8.Valid(m.ID) {
			// Answered as the SDK answers it, its bad bytes U+FFFD: an
			// answer is valid UTF-8 JSON.
			var id string
			json.Unmarshal(m.ID, &id)
			m.ID, _ = json.Marshal(id)
		}
		return m.ID
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return m.ID
	}
	return nil
}

// notify handles a notification: none is answered, a bad one included;
// only a cancellation does something (notifications/initialized tells
// nothing the server needs).
func (ss *session) notify(m *message) {
	switch m.Method {
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if unmarshalExact(m.Params, &p) == nil && len(p.RequestID) > 0 {
			ss.mu.Lock()
			for _, key := range []string{string(p.RequestID), "listen " + string(p.RequestID)} {
				if cancel, ok := ss.running[key]; ok {
					cancel()
				}
			}
			ss.mu.Unlock()
		}
	}
}

// The methods a client may call before initialize, or in the sessionless
// protocol not at all.
var sessionMethods = []string{"initialize", "ping", "notifications/initialized", "notifications/roots/list_changed",
	"logging/setLevel", "resources/subscribe", "resources/unsubscribe"}

// The notifications a client may send, which a request may not be.
var notifications = []string{"notifications/initialized", "notifications/cancelled", "notifications/roots/list_changed", "notifications/progress"}

// handle serves one request.
func (ss *session) handle(ctx context.Context, m *message) (any, error) {
	meta, err := requestMeta(m.Params)
	if err != nil {
		return nil, err
	}
	if meta != nil && !slices.Contains(protocolVersions, meta.version) {
		data, _ := json.Marshal(struct {
			Supported []string `json:"supported"`
			Requested string   `json:"requested"`
		}{protocolVersions, meta.version})
		return nil, &rpcError{Code: codeUnsupported, Message: "unsupported protocol version", Data: data}
	}
	switch {
	case slices.Contains(sessionMethods, m.Method):
		if meta != nil {
			return nil, errorf(codeMethodNotFound, "method not found: %q", m.Method)
		}
	case m.Method == "server/discover":
		if meta == nil {
			return nil, errorf(codeMethodNotFound, "method not found: %q", m.Method)
		}
	default:
		ss.mu.Lock()
		started := ss.requested != ""
		ss.mu.Unlock()
		if !started && meta == nil {
			return nil, fmt.Errorf("method %q is invalid during session initialization", m.Method)
		}
	}
	if meta != nil {
		// A request of the sessionless protocol starts the session.
		ss.mu.Lock()
		if ss.requested == "" {
			ss.requested = meta.version
		}
		ss.mu.Unlock()
		// It names its client each time: whether its hook gave the
		// session the boot context is the request's.
		ctx = context.WithValue(ctx, hookedKey{}, ss.srv.isHooked(meta.client))
	}
	if slices.Contains(notifications, m.Method) {
		return nil, errorf(codeInvalidRequest, "invalid request: unexpected id for %q", m.Method)
	}
	h, ok := methods[m.Method]
	if !ok {
		return nil, errorf(codeMethodNotFound, "method not found: %q", m.Method)
	}
	if m.Params == nil && !h.paramsOptional {
		return nil, errorf(codeInvalidRequest, "invalid request: missing required \"params\"")
	}
	if string(m.Params) == "null" && !h.paramsOptional && m.Method != "initialize" {
		return nil, errorf(codeInvalidRequest, "handling '%s': invalid request: missing required \"params\"", m.Method)
	}
	res, err := h.serve(ss, ctx, m)
	if err != nil || meta == nil {
		return res, err
	}
	return ss.srv.annotate(res), nil
}

// meta is what a request of the sessionless protocol says of its client:
// the protocol's version and the client's name, when it gives it.
type meta struct{ version, client string }

// hookedKey is the context key of a sessionless request's [Options.Hooked].
type hookedKey struct{}

// isHooked reports whether the client named client is one whose hook
// gives its sessions the boot context ([Options.Hooked]).
func (srv *Server) isHooked(client string) bool {
	if srv.o.Hooked == nil || client == "" {
		return false
	}
	srv.hookedMu.Lock()
	defer srv.hookedMu.Unlock()
	h, ok := srv.hookedBy[client]
	if !ok {
		// Asked once a client: a sessionless client names itself in
		// every request.
		h = srv.o.Hooked(client)
		if len(srv.hookedBy) < 16 { // names a sessionless client sends are not kept without end
			srv.hookedBy[client] = h
		}
	}
	return h
}

// hookedFor reports whether the request's session had its boot context
// from its client's hook: as its sessionless request says, else as the
// session's initialize said.
func (ss *session) hookedFor(ctx context.Context) bool {
	if h, ok := ctx.Value(hookedKey{}).(bool); ok {
		return h
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.hooked
}

// requestMeta is the _meta of params when it names a protocol version of
// the sessionless protocol, checked; nil for a request of the session
// protocol.
func requestMeta(params json.RawMessage) (*meta, error) {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if unmarshalExact(params, &p) != nil || p.Meta == nil {
		return nil, nil
	}
	var version string
	if json.Unmarshal(p.Meta[metaProtocolVersion], &version) != nil || version < sessionless {
		return nil, nil
	}
	var client string
	if raw, ok := p.Meta[metaClientInfo]; ok {
		var info *implementation
		if unmarshalExact(raw, &info) != nil || info == nil {
			return nil, errorf(codeInvalidParams, "invalid _meta field %q", metaClientInfo)
		}
		client = info.Name
	}
	var caps *map[string]json.RawMessage
	if json.Unmarshal(p.Meta[metaClientCapabilities], &caps) != nil || caps == nil {
		return nil, errorf(codeInvalidParams, "missing or invalid _meta field %q", metaClientCapabilities)
	}
	return &meta{version: version, client: client}, nil
}

// implementation names a client or the server.
type implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// annotate is a result of the sessionless protocol: with the server's
// identity in its _meta and marked complete, as the SDK sends it; the
// empty result of ping stays empty.
func (srv *Server) annotate(res any) any {
	if _, empty := res.(struct{}); empty || res == nil {
		return res
	}
	data, err := json.Marshal(res)
	if err != nil {
		return res
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return res
	}
	var m map[string]any
	json.Unmarshal(fields["_meta"], &m)
	if m == nil {
		m = map[string]any{}
	}
	m[metaServerInfo] = srv.info
	fields["_meta"], _ = json.Marshal(m)
	if _, ok := fields["resultType"]; !ok {
		fields["resultType"] = json.RawMessage(`"complete"`)
	}
	return fields
}

// method is the handler of one request method.
type method struct {
	paramsOptional bool
	serve          func(ss *session, ctx context.Context, m *message) (any, error)
}

var methods map[string]method

func init() {
	methods = map[string]method{
		"initialize":               {false, (*session).initialize},
		"ping":                     {true, func(_ *session, _ context.Context, m *message) (any, error) { return empty(m) }},
		"logging/setLevel":         {false, func(_ *session, _ context.Context, m *message) (any, error) { return empty(m) }},
		"server/discover":          {true, (*session).discover},
		"subscriptions/listen":     {false, (*session).listen},
		"tools/list":               {true, listOf("tools", (*session).toolList)},
		"resources/list":           {true, listOf("resources", func(ss *session, _ context.Context) any { return ss.srv.resourceList })},
		"resources/templates/list": {true, listOf("resourceTemplates", func(ss *session, _ context.Context) any { return ss.srv.templateList })},
		"prompts/list":             {true, listOf("prompts", func(*session, context.Context) any { return []struct{}{} })},
		"prompts/get":              {false, getPrompt},
		"tools/call":               {false, (*session).callTool},
		"resources/read":           {false, (*session).readResource},
	}
}

// params unmarshals m's params into v, a -32602 error naming the method
// when they do not fit.
func params(m *message, v any) error {
	if m.Params == nil || string(m.Params) == "null" {
		return nil
	}
	if err := unmarshalParams(m.Params, v); err != nil {
		return errorf(codeInvalidParams, "handling '%s': invalid params: %v", m.Method, err)
	}
	return nil
}

// unmarshalParams unmarshals params, an object, into v.
func unmarshalParams(params json.RawMessage, v any) error {
	if p := bytes.TrimSpace(params); len(p) == 0 || p[0] != '{' {
		return fmt.Errorf("want an object, got %s", describe(params))
	}
	var te *json.UnmarshalTypeError
	if err := unmarshalExact(params, v); errors.As(err, &te) {
		return fmt.Errorf("%s: want %s, got %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	} else if err != nil {
		return err
	}
	return nil
}

// jsonKind names a Go kind as JSON does.
func jsonKind(kind string) string {
	switch kind {
	case "struct", "map":
		return "an object"
	case "slice":
		return "an array"
	case "bool":
		return "a boolean"
	case "string":
		return "a string"
	}
	return "a number"
}

// empty is the empty result of a method whose params must be an object.
func empty(m *message) (any, error) {
	var p struct{}
	if err := params(m, &p); err != nil {
		return nil, err
	}
	return struct{}{}, nil
}

// initialize answers the initialize request: the version negotiated, the
// server's capabilities, identity and instructions.
func (ss *session) initialize(_ context.Context, m *message) (any, error) {
	var p struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      *implementation `json:"clientInfo"`
	}
	if string(m.Params) == "null" {
		return nil, errors.New(`handling 'initialize': missing required "params"`)
	}
	if err := unmarshalParams(m.Params, &p); err != nil {
		return nil, fmt.Errorf("handling 'initialize': %v", err)
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.requested != "" {
		return nil, errors.New(`duplicate "initialize" received`)
	}
	ss.requested = p.ProtocolVersion
	if ss.requested == "" {
		ss.requested = "(none)"
	}
	instructions := ss.srv.instructions
	if p.ClientInfo != nil && ss.srv.isHooked(p.ClientInfo.Name) {
		ss.hooked, instructions = true, ss.srv.hooked
	}
	return struct {
		Capabilities capabilities   `json:"capabilities"`
		Instructions string         `json:"instructions,omitempty"`
		Version      string         `json:"protocolVersion"`
		ServerInfo   implementation `json:"serverInfo"`
	}{serverCapabilities, instructions, negotiate(p.ProtocolVersion), ss.srv.info}, nil
}

// negotiate is the version initialize answers to the client's.
func negotiate(client string) string {
	if slices.Contains(protocolVersions, client) && client < sessionless {
		return client
	}
	for _, v := range protocolVersions {
		if v < sessionless {
			return v
		}
	}
	return protocolVersions[len(protocolVersions)-1]
}

// capabilities are the server's: tools and resources, whose lists are
// said to change as the SDK says of every server with some.
type capabilities struct {
	Resources *listChanged `json:"resources,omitempty"`
	Tools     *listChanged `json:"tools,omitempty"`
}

type listChanged struct {
	ListChanged bool `json:"listChanged,omitempty"`
}

var serverCapabilities = capabilities{Resources: &listChanged{true}, Tools: &listChanged{true}}

// discover answers server/discover, the sessionless protocol's initialize.
func (ss *session) discover(ctx context.Context, _ *message) (any, error) {
	instructions := ss.srv.instructions
	if ss.hookedFor(ctx) {
		instructions = ss.srv.hooked
	}
	return struct {
		TTL          int          `json:"ttlMs"`
		Scope        string       `json:"cacheScope"`
		Versions     []string     `json:"supportedVersions"`
		Capabilities capabilities `json:"capabilities"`
		Instructions string       `json:"instructions,omitempty"`
	}{0, "public", protocolVersions, serverCapabilities, instructions}, nil
}

// listen answers subscriptions/listen: it acknowledges the list changes
// subscribed to (wake's lists never change) and holds the request until it
// is cancelled or the session ends.
func (ss *session) listen(ctx context.Context, m *message) (any, error) {
	var p struct {
		Notifications *struct {
			ToolsListChanged     bool `json:"toolsListChanged"`
			ResourcesListChanged bool `json:"resourcesListChanged"`
		} `json:"notifications"`
	}
	if err := params(m, &p); err != nil {
		return nil, err
	}
	if p.Notifications == nil {
		return nil, errorf(codeInvalidParams, "invalid params: missing required 'notifications' field")
	}
	type agreed struct {
		Tools     bool `json:"toolsListChanged,omitempty"`
		Resources bool `json:"resourcesListChanged,omitempty"`
	}
	a := agreed{p.Notifications.ToolsListChanged, p.Notifications.ResourcesListChanged}
	subID := map[string]json.RawMessage{metaSubscriptionID: m.ID}
	if err := ss.write(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", "notifications/subscriptions/acknowledged", struct {
		Meta          any    `json:"_meta"`
		Notifications agreed `json:"notifications"`
	}{subID, a}}); err != nil {
		return nil, err
	}
	if a.Tools || a.Resources {
		<-ctx.Done()
	}
	return struct {
		Meta any `json:"_meta"`
	}{subID}, nil
}

// listOf is the handler of a list method: the whole list under key, in one
// page (a cursor, which the server never gives, is refused).
func listOf(key string, list func(*session, context.Context) any) func(*session, context.Context, *message) (any, error) {
	return func(ss *session, ctx context.Context, m *message) (any, error) {
		var p struct {
			Cursor string `json:"cursor"`
		}
		if err := params(m, &p); err != nil {
			return nil, err
		}
		if p.Cursor != "" {
			return nil, errorf(codeInvalidParams, "invalid params")
		}
		data, err := json.Marshal(list(ss, ctx))
		if err != nil {
			return nil, err
		}
		// ttlMs and cacheScope first, as the SDK writes them.
		return json.RawMessage(fmt.Sprintf(`{"ttlMs":0,"cacheScope":"public",%q:%s}`, key, data)), nil
	}
}

// toolList is the session's tool list: wake_load told apart for a
// session whose hook gave it the boot context.
func (ss *session) toolList(ctx context.Context) any {
	if ss.hookedFor(ctx) {
		return ss.srv.hookedToolList()
	}
	return ss.srv.toolList()
}

// getPrompt answers prompts/get: the server has no prompt.
func getPrompt(_ *session, _ context.Context, m *message) (any, error) {
	var p struct {
		Name string `json:"name"`
	}
	if err := params(m, &p); err != nil {
		return nil, err
	}
	return nil, errorf(codeInvalidParams, "unknown prompt %q", p.Name)
}

// callTool answers tools/call: the tool's text, or its error as a result
// marked isError (a bad argument included); an unknown tool is a JSON-RPC
// error.
func (ss *session) callTool(ctx context.Context, m *message) (any, error) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := params(m, &p); err != nil {
		return nil, err
	}
	t := ss.srv.tool(p.Name)
	if t == nil {
		return nil, errorf(codeInvalidParams, "unknown tool %q", p.Name)
	}
	text, err := t.call(ctx, p.Arguments)
	type content struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	res := struct {
		Content    []content `json:"content"`
		IsError    bool      `json:"isError,omitempty"`
		ResultType string    `json:"resultType,omitempty"`
	}{Content: []content{{"text", text}}}
	if err != nil {
		res.Content[0].Text, res.IsError = err.Error(), true
	}
	// The SDK marks a tool's result complete for a client that asked for
	// the sessionless protocol's version.
	ss.mu.Lock()
	if ss.requested >= sessionless {
		res.ResultType = "complete"
	}
	ss.mu.Unlock()
	return res, nil
}

// readResource answers resources/read: the resource's text, or an error:
// -32602 (ResourceNotFound) for a URI served by nothing.
func (ss *session) readResource(_ context.Context, m *message) (any, error) {
	var p struct {
		URI string `json:"uri"`
	}
	if err := params(m, &p); err != nil {
		return nil, err
	}
	r := ss.srv.resource(p.URI)
	if r == nil {
		return nil, resourceNotFound(p.URI)
	}
	text, err := r.read(p.URI)
	if err != nil {
		return nil, err
	}
	type contents struct {
		URI      string `json:"uri"`
		MIMEType string `json:"mimeType"`
		Text     string `json:"text"`
	}
	return struct {
		TTL      int        `json:"ttlMs"`
		Scope    string     `json:"cacheScope"`
		Contents []contents `json:"contents"`
	}{0, "public", []contents{{p.URI, r.MIMEType, text}}}, nil
}

// resourceNotFound is the error of a URI no resource serves.
func resourceNotFound(uri string) error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return &rpcError{Code: codeInvalidParams, Message: "Resource not found", Data: data}
}

package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one message, as the SDK's own stdio transport does.
const maxLine = mcp.DefaultMaxLineLength

// Transport is the stdio transport on in and out (newline-delimited
// JSON-RPC), except that a line which is not a JSON-RPC message is
// answered with the protocol's error (-32700 for what is not JSON, -32600
// for JSON that is not a message, a batch included) and skipped: the
// SDK's transport ends the session on the first such line, and a client's
// stray line should not take the memory away from the agent.
//
// At the end of in, the session ends once every request read has been
// answered (within drainWait), not at once as the SDK's does: a hand-off
// sent just before the client closed the stream is finished and answered,
// and `wake mcp < requests.jsonl` answers every line.
func Transport(in io.Reader, out io.Writer) mcp.Transport {
	w := &lockedWriter{w: out}
	w.idle = sync.NewCond(&w.mu)
	pr, pw := io.Pipe()
	go filter(in, pw, w)
	return &mcp.IOTransport{Reader: pr, Writer: w}
}

// drainWait bounds the wait for the answers at the end of the input.
const drainWait = time.Minute

// lockedWriter is out shared by the SDK and filter, a whole message a
// Write, counting the requests passed on and not answered yet.
type lockedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	pending int
	ids     map[string]bool // the ids of the requests pending
	idle    *sync.Cond      // pending reached 0
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	answered := false
	if msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(p)); err == nil {
		_, answered = msg.(*jsonrpc.Response)
	}
	id := string(idOf(bytes.TrimSpace(p)))
	l.mu.Lock()
	defer l.mu.Unlock()
	if answered && l.pending > 0 {
		l.pending--
		delete(l.ids, id)
		l.idle.Broadcast()
	}
	return l.w.Write(p)
}

// reply writes one of filter's answers, which answers no request passed on.
func (l *lockedWriter) reply(p []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := l.w.Write(p)
	return err
}

// request counts a request passed on, which the server will answer; false
// when a request of the same id is pending, which the server would never
// answer twice: it is refused instead.
func (l *lockedWriter) request(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ids == nil {
		l.ids = map[string]bool{}
	}
	if id != "" && l.ids[id] {
		return false
	}
	if id != "" {
		l.ids[id] = true
	}
	l.pending++
	return true
}

// drain waits until every request passed on has been answered, or d.
func (l *lockedWriter) drain(d time.Duration) {
	timer := time.AfterFunc(d, func() {
		l.mu.Lock()
		l.pending = 0
		l.idle.Broadcast()
		l.mu.Unlock()
	})
	defer timer.Stop()
	l.mu.Lock()
	for l.pending > 0 {
		l.idle.Wait()
	}
	l.mu.Unlock()
}

func (l *lockedWriter) Close() error { return nil }

// filter copies the JSON-RPC messages of in to pw, a line each, and
// answers every other non-blank line on out.
func filter(in io.Reader, pw *io.PipeWriter, out *lockedWriter) {
	r := bufio.NewReaderSize(in, 64*1024)
	for {
		line, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 {
			answer, isRequest := check(line)
			id := idOf(bytes.TrimSpace(line))
			if answer == nil && isRequest && !out.request(string(id)) {
				answer = reply(id, jsonrpc.CodeInvalidRequest, "Invalid Request: a request with this id is still pending")
			}
			if answer != nil {
				if werr := out.reply(answer); werr != nil {
					pw.CloseWithError(werr)
					return
				}
			} else if _, werr := pw.Write(append(bytes.TrimRight(line, "\r\n"), '\n')); werr != nil {
				return // the session is over
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
				out.drain(drainWait)
			}
			pw.CloseWithError(err)
			return
		}
	}
}

// readLine is the next line of r, at most maxLine bytes (the rest of a
// longer line is dropped, and what was kept is answered as a parse error).
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) <= maxLine {
			line = append(line, chunk...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// check is the error reply to line, or nil when line is a message, and
// whether it is a request (a call with an id, which is answered).
func check(line []byte) ([]byte, bool) {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		return reply(nil, jsonrpc.CodeParseError, "Parse error: the line is not JSON"), false
	}
	if line[0] == '[' {
		return reply(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported"), false
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return reply(idOf(line), jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: %v", err)), false
	}
	req, ok := msg.(*jsonrpc.Request)
	return nil, ok && req.IsCall()
}

// idOf is the request's id when it has a usable one, else nil.
func idOf(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	switch m.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return m.ID
	}
	return nil
}

// reply is a JSON-RPC error response, a line.
func reply(id json.RawMessage, code int64, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return append(data, '\n')
}

package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

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
func Transport(in io.Reader, out io.Writer) mcp.Transport {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go filter(in, pw, w)
	return &mcp.IOTransport{Reader: pr, Writer: w}
}

// lockedWriter is out shared by the SDK and filter, a whole message a
// Write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// filter copies the JSON-RPC messages of in to pw, a line each, and
// answers every other non-blank line on out.
func filter(in io.Reader, pw *io.PipeWriter, out io.Writer) {
	r := bufio.NewReaderSize(in, 64*1024)
	for {
		line, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 {
			if reply := check(line); reply != nil {
				if _, werr := out.Write(reply); werr != nil {
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

// check is the error reply to line, or nil when line is a message.
func check(line []byte) []byte {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		return reply(nil, jsonrpc.CodeParseError, "Parse error: the line is not JSON")
	}
	if line[0] == '[' {
		return reply(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return reply(idOf(line), jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: %v", err))
	}
	return nil
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

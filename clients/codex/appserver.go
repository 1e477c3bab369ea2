package codex

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// AppServer starts Codex's app server (`codex app-server`, JSON-RPC over
// stdio) from the binary at codex, with the environment env, and returns
// a connection to it. Closing the connection ends the server.
type AppServer func(ctx context.Context, codex string, env []string) (io.ReadWriteCloser, error)

// appServerTimeout bounds one conversation with the app server: it reads
// the configuration and the hooks, and writes a few keys.
const appServerTimeout = 30 * time.Second

// ExecAppServer runs `codex app-server` as a child process, its standard
// error kept for the error of a conversation that fails.
func ExecAppServer(ctx context.Context, codex string, env []string) (io.ReadWriteCloser, error) {
	cmd := exec.CommandContext(ctx, codex, "app-server")
	cmd.Env = env
	inGroup(cmd)
	// Once the server is gone, its pipes are closed after this long even
	// when a process it left behind holds them.
	cmd.WaitDelay = 5 * time.Second
	stderr := &limitedWriter{n: 4096}
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s app-server: %w", codex, err)
	}
	return &procConn{in: in, out: out, cmd: cmd, errs: stderr}, nil
}

// procConn is the app server's standard input and output.
type procConn struct {
	in   io.WriteCloser
	out  io.Reader
	cmd  *exec.Cmd
	errs *limitedWriter
}

// stderr is the first line the server wrote to its standard error.
func (c *procConn) stderr() string {
	line, _, _ := strings.Cut(strings.TrimSpace(c.errs.String()), "\n")
	return line
}

func (c *procConn) Read(p []byte) (int, error)  { return c.out.Read(p) }
func (c *procConn) Write(p []byte) (int, error) { return c.in.Write(p) }

// Close ends the server: closing its input is how a client says it is
// done; one that does not exit then is killed.
func (c *procConn) Close() error {
	c.in.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		killGroup(c.cmd)
		<-done
	}
	return nil
}

// limitedWriter keeps the first n bytes written to it; it is written by
// exec's copying goroutine and read by the conversation.
type limitedWriter struct {
	mu  sync.Mutex
	buf strings.Builder
	n   int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if k := min(len(p), l.n); k > 0 {
		l.buf.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

func (l *limitedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// rpc is a JSON-RPC conversation with the app server: one request at a
// time, its response awaited; the server's notifications are passed
// over, and its requests (it asks a client for approvals) refused.
type rpc struct {
	conn io.ReadWriteCloser
	in   *bufio.Reader
	next int
}

type rpcMessage struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params any              `json:"params,omitempty"`
	Result json.RawMessage  `json:"result,omitempty"`
	Error  *rpcError        `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

func (c *rpc) send(m rpcMessage) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = c.conn.Write(append(data, '\n'))
	return err
}

// call sends a request and decodes its result into result.
func (c *rpc) call(method string, params, result any) error {
	id := json.RawMessage(fmt.Sprint(c.next))
	c.next++
	if err := c.send(rpcMessage{ID: &id, Method: method, Params: params}); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	for {
		line, err := c.in.ReadBytes('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("the app server closed the connection")
				if e, ok := c.conn.(interface{ stderr() string }); ok && e.stderr() != "" {
					err = fmt.Errorf("the app server closed the connection: %s", e.stderr())
				}
			}
			return fmt.Errorf("%s: %w", method, err)
		}
		var m rpcMessage
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		switch {
		case m.ID == nil:
		case m.Method != "":
			c.send(rpcMessage{ID: m.ID, Error: &rpcError{Code: -32601, Message: "wake answers no requests"}})
		case string(*m.ID) == string(id) && m.Error != nil:
			return fmt.Errorf("%s: %w", method, m.Error)
		case string(*m.ID) == string(id):
			if result == nil {
				return nil
			}
			if err := json.Unmarshal(m.Result, result); err != nil {
				return fmt.Errorf("%s: %w", method, err)
			}
			return nil
		}
	}
}

// notify sends a notification.
func (c *rpc) notify(method string) error { return c.send(rpcMessage{Method: method}) }

// hookEntry is one hook as hooks/list describes it.
type listedHook struct {
	Key         string `json:"key"`
	EventName   string `json:"eventName"`
	Command     string `json:"command"`
	SourcePath  string `json:"sourcePath"`
	Source      string `json:"source"`
	Enabled     bool   `json:"enabled"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"`
}

type hooksList struct {
	Data []struct {
		Cwd      string       `json:"cwd"`
		Hooks    []listedHook `json:"hooks"`
		Warnings []string     `json:"warnings"`
		Errors   []struct {
			Path    string `json:"path"`
			Message string `json:"message"`
		} `json:"errors"`
	} `json:"data"`
}

type configEdit struct {
	KeyPath       string `json:"keyPath"`
	Value         any    `json:"value"`
	MergeStrategy string `json:"mergeStrategy"`
}

// appSession is a conversation with Codex's app server, once initialized.
type appSession struct {
	rpc
	codexHome string // as the server reports it
	stop      func() bool
}

// openAppServer starts the server and initializes the conversation.
func openAppServer(ctx context.Context, start AppServer, codex string, env []string) (*appSession, error) {
	conn, err := start(ctx, codex, env)
	if err != nil {
		return nil, err
	}
	// A server that stops answering is cut off at the deadline: closing
	// the connection ends the read that waits for it.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	s := &appSession{rpc: rpc{conn: conn, in: bufio.NewReaderSize(conn, 1<<16)}, stop: stop}
	var init struct {
		CodexHome string `json:"codexHome"`
	}
	err = s.call("initialize", map[string]any{"clientInfo": map[string]string{"name": "wake", "title": "wake", "version": "1"}}, &init)
	if err == nil {
		err = s.notify("initialized")
	}
	if err != nil {
		s.close()
		return nil, err
	}
	s.codexHome = init.CodexHome
	return s, nil
}

func (s *appSession) close() error {
	s.stop()
	return s.conn.Close()
}

// hooks lists the hooks Codex runs in dir.
func (s *appSession) hooks(dir string) (hooksList, error) {
	var l hooksList
	err := s.call("hooks/list", map[string]any{"cwds": []string{dir}}, &l)
	return l, err
}

// upsert merges value into the table at keyPath of the user's
// config.toml, as Codex's own screens do.
func (s *appSession) upsert(keyPath string, value any) error {
	return s.call("config/batchWrite", map[string]any{"edits": []configEdit{{KeyPath: keyPath, Value: value, MergeStrategy: "upsert"}}}, nil)
}

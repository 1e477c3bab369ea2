package codex

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/afero"
)

// fakeAppServer answers the three methods install uses as Codex 0.169.0's
// app server does, on an afero file system: hooks/list reads the
// project's hooks.json once the project is trusted and hashes each hook
// as Codex does (see codexHash), and config/batchWrite appends tables to
// config.toml the way Codex's editor does.
type fakeAppServer struct {
	fs        afero.Fs
	codexHome string
	mu        sync.Mutex
	calls     []string
	// fail makes the named method answer an error.
	fail string
}

func (f *fakeAppServer) start(ctx context.Context, codex string, env []string) (io.ReadWriteCloser, error) {
	client, server := net.Pipe()
	go f.serve(server)
	return client, nil
}

func (f *fakeAppServer) serve(conn net.Conn) {
	// A pipe holds nothing: what the server says goes through a queue, as
	// an operating system's pipe buffers it, so that a client answering
	// the server's request while the server writes does not deadlock.
	queue := make(chan []byte, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for line := range queue {
			if _, err := conn.Write(line); err != nil {
				return
			}
		}
	}()
	defer func() { close(queue); <-done; conn.Close() }()
	in := bufio.NewScanner(conn)
	in.Buffer(nil, 1<<20)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		f.mu.Lock()
		f.calls = append(f.calls, req.Method)
		f.mu.Unlock()
		// A notification and a request of the server's own come first,
		// as the real one sends them.
		queue <- []byte(`{"method":"configWarning","params":{"summary":"x"}}` + "\n")
		queue <- []byte(`{"id":99,"method":"item/commandExecution/requestApproval","params":{}}` + "\n")
		result, err := f.answer(req.Method, req.Params)
		var out []byte
		if err != nil {
			out, _ = json.Marshal(map[string]any{"id": req.ID, "error": map[string]any{"code": -32000, "message": err.Error()}})
		} else {
			out, _ = json.Marshal(map[string]any{"id": req.ID, "result": result})
		}
		queue <- append(out, '\n')
	}
}

func (f *fakeAppServer) answer(method string, params json.RawMessage) (any, error) {
	if method == f.fail {
		return nil, fmt.Errorf("%s failed", method)
	}
	switch method {
	case "initialize":
		return map[string]any{"codexHome": f.codexHome, "userAgent": "fake"}, nil
	case "hooks/list":
		var p struct{ Cwds []string }
		json.Unmarshal(params, &p)
		return map[string]any{"data": []any{f.list(p.Cwds[0])}}, nil
	case "config/batchWrite":
		var p struct {
			Edits []struct {
				KeyPath string
				Value   map[string]map[string]string
			}
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		for _, e := range p.Edits {
			if err := f.write(e.KeyPath, e.Value); err != nil {
				return nil, err
			}
		}
		return map[string]any{"status": "ok"}, nil
	}
	return nil, fmt.Errorf("unknown method %s", method)
}

func (f *fakeAppServer) config() map[string]any {
	data, _ := afero.ReadFile(f.fs, filepath.Join(f.codexHome, "config.toml"))
	cfg := map[string]any{}
	toml.Unmarshal(data, &cfg)
	return cfg
}

func (f *fakeAppServer) list(dir string) map[string]any {
	entry := map[string]any{"cwd": dir, "hooks": []any{}, "warnings": []any{}, "errors": []any{}}
	cfg := codexConfig(f.config())
	if cfg.projectTrust(dir) != "trusted" {
		return entry
	}
	path := filepath.Join(dir, ".codex", "hooks.json")
	data, err := afero.ReadFile(f.fs, path)
	if err != nil {
		return entry
	}
	var file struct {
		Hooks map[string][]struct {
			Hooks []map[string]any
		}
	}
	if err := json.Unmarshal(data, &file); err != nil {
		entry["errors"] = []any{map[string]any{"path": path, "message": err.Error()}}
		return entry
	}
	var hooks []any
	for event, groups := range file.Hooks {
		for g, group := range groups {
			for h, handler := range group.Hooks {
				hash := codexHash(event, handler)
				key := fmt.Sprintf("%s:%s:%d:%d", path, eventKey(event), g, h)
				state, _ := cfg.table("hooks", "state", key)["trusted_hash"].(string)
				status := "untrusted"
				switch {
				case state == hash:
					status = "trusted"
				case state != "":
					status = "modified"
				}
				enabled, ok := cfg.table("hooks", "state", key)["enabled"].(bool)
				hooks = append(hooks, map[string]any{"key": key, "eventName": strings.ToLower(event[:1]) + event[1:],
					"command": handler["command"], "sourcePath": path, "source": "project",
					"enabled": !ok || enabled, "currentHash": hash, "trustStatus": status})
			}
		}
	}
	entry["hooks"] = hooks
	return entry
}

// codexHash is the hash Codex 0.169.0 trusts a command hook by: SHA-256
// of the compact JSON, keys sorted, of the event's key name and the group
// with the one handler, its timeout filled in (600 seconds, at most 3 for
// SessionEnd) and "async" false unless set; "sha256:" and hex.
func codexHash(event string, handler map[string]any) string {
	h := map[string]any{"async": false, "timeout": 600}
	for k, v := range handler {
		h[k] = v
	}
	if event == "SessionEnd" {
		h["timeout"] = min(toInt(h["timeout"]), 3)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(map[string]any{"event_name": eventKey(event), "hooks": []any{h}})
	sum := sha256.Sum256([]byte(strings.TrimSpace(b.String())))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func toInt(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case float64:
		return int(n)
	}
	return 0
}

// write appends a table per key of value under keyPath, as Codex's
// editor does for a table that is not there yet.
func (f *fakeAppServer) write(keyPath string, value map[string]map[string]string) error {
	name := filepath.Join(f.codexHome, "config.toml")
	data, _ := afero.ReadFile(f.fs, name)
	s := string(data)
	for k, kv := range value {
		s += fmt.Sprintf("\n[%s.%q]\n", keyPath, k)
		for key, v := range kv {
			s += fmt.Sprintf("%s = %q\n", key, v)
		}
	}
	if err := f.fs.MkdirAll(f.codexHome, 0o755); err != nil {
		return err
	}
	return afero.WriteFile(f.fs, name, []byte(s), 0o600)
}

// eventKey is the name Codex gives an event in the keys of
// [hooks.state]: "session_start".
func eventKey(event string) string {
	var b strings.Builder
	for i, r := range event {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

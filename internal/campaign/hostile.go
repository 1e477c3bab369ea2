package campaign

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// hostileLimit is how long a command given hostile input may take: a
// client's hook timeout is a few seconds (issue 23 asks 3 s).
const hostileLimit = 3 * time.Second

// Hostile runs the transcript readers on inputs that must not stall them
// (a FIFO nobody writes, a character device, a directory, a large file,
// malformed lines) and the everyday commands on a root with malformed
// files: each must end within hostileLimit, without a panic.
func (c *Config) Hostile(ctx context.Context) (Result, error) {
	res := Result{Scenario: "hostile"}
	r, err := c.newRun("hostile", 0)
	if err != nil {
		return res, err
	}
	defer r.remove()
	if err := initRoot(r); err != nil {
		return res, err
	}
	inputs, err := hostileInputs(r.Dir)
	if err != nil {
		return res, err
	}
	for _, in := range inputs {
		for _, args := range [][]string{{"capsule", "--transcript", in, "--dry-run"}, {"handoff", "--auto", "--transcript", in}} {
			res.Violations = append(res.Violations, r.bounded(args, "")...)
		}
		hook := fmt.Sprintf(`{"session_id":"h","transcript_path":%q,"cwd":%q,"hook_event_name":"SubagentStart"}`, in, r.Dir)
		res.Violations = append(res.Violations, r.bounded([]string{"capsule", "--hook", "claude"}, hook)...)
	}
	for rel, data := range malformed {
		os.WriteFile(filepath.Join(r.Root, filepath.FromSlash(rel)), []byte(data), 0o644)
		for _, args := range [][]string{{"load"}, {"check"}, {"log"}, {"remember", "after " + rel}} {
			res.Violations = append(res.Violations, r.bounded(args, "")...)
		}
	}
	for _, v := range res.Violations {
		c.logf("VIOLATION hostile: %s", v)
	}
	c.logf("hostile: %d inputs, %d malformed files, %d violations", len(inputs), len(malformed), len(res.Violations))
	return res, ctx.Err()
}

// malformed are root files as a careless editor or a hostile clone leaves
// them.
var malformed = map[string]string{
	"wake.toml":            "[skill\npath = = \x00\n",
	"ledger.jsonl":         "{\"at\":\"x\"\n\x00\xff\xfe garbage\n{\"op\":1}\n",
	"warm/decisions.md":    "---\nsensitivity: [\n---\n\x00\x01 [2026-13-45] DECISION: \n",
	"warm/inbox.md":        "## 9223372036854775807 · 2026-11-22T22:24:46Z\n- reminder: x\n",
	"warm/active_tasks.md": strings.Repeat("- [ ] ", 100000),
	"recent/latest.md":     "---\nsession: not a time\n---\n# \xff\n",
}

// hostileInputs makes the transcripts: a FIFO, a link to it, a character
// device, a directory, a 64 MB file of one line, malformed JSON lines.
func hostileInputs(dir string) ([]string, error) {
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		return nil, err
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(fifo, link); err != nil {
		return nil, err
	}
	sub := filepath.Join(dir, "dir.jsonl")
	os.Mkdir(sub, 0o755)
	big := filepath.Join(dir, "big.jsonl")
	if err := os.WriteFile(big, bytes.Repeat([]byte("x"), 64<<20), 0o644); err != nil {
		return nil, err
	}
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"type\":\"user\",\"message\":{\"content\":\n\x00\xff\n{}\n[1,2\n"), 0o644); err != nil {
		return nil, err
	}
	return []string{fifo, link, "/dev/zero", "/dev/urandom", sub, big, bad}, nil
}

// bounded runs wake with stdin and reports it when it outlasts
// hostileLimit (it is killed at four times that) or panics.
func (r *Run) bounded(args []string, stdin string) []string {
	cmd := r.command(args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, io.MultiWriter(&out)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return []string{err.Error()}
	}
	timer := time.AfterFunc(4*hostileLimit, func() { cmd.Process.Kill() })
	cmd.Wait()
	timer.Stop()
	took := time.Since(start)
	var v []string
	if took > hostileLimit {
		v = append(v, fmt.Sprintf("wake %s took %v (limit %v)", strings.Join(args, " "), took.Round(time.Millisecond), hostileLimit))
	}
	if strings.Contains(out.String(), "panic:") || strings.Contains(out.String(), "goroutine ") {
		v = append(v, fmt.Sprintf("wake %s panicked: %s", strings.Join(args, " "), firstLine(out.String())))
	}
	return v
}

package transcript

import (
	"strings"
	"testing"
)

func TestDecisionCommand(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]bool{
		`wake decide "Use cents because floats round"`:            true,
		`  wake reverse D-3 --because "the bank sends floats"`:    true,
		`wake contest D-1 --because x`:                            true,
		"wake uphold D-1 --because x\nwake handoff":               true,
		`cd /work/proj && wake decide "x because y"`:              true,
		`cd '/my proj' && WAKE_ROOT=.wake LC_ALL=C wake decide x`: true,
		`FOO="a b" wake --root ../.wake decide x`:                 true,
		`wake --root=/p/.wake reverse D-2`:                        true,
		`~/go/bin/wake decide x`:                                  true,
		`echo wake decide x`:                                      false,
		`wake decisions`:                                          false,
		`wake decided`:                                            false,
		`grep "wake decide" README.md`:                            false,
		`cd /p; wake decide x`:                                    false,
		`wake handoff --summary "wake decide later" --next x`:     false,
		`git commit -m "wake decide: use cents"`:                  false,
		`mywake decide x`:                                         false,
		`cd /p && echo ok && wake decide x`:                       false,
		`WAKE_ROOT=.wake`:                                         false,
		`cd /p &&`:                                                false,
	} {
		if got := isDecision(cmd); got != want {
			t.Errorf("isDecision(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestDecisionsInTranscript: the decisions a session made are those its
// transcript shows it making (a wake decide, reverse, contest or uphold
// it ran that did not fail; the wake format's decision lines), not any
// other command, and the wake format's commands are not counted twice.
func TestDecisionsInTranscript(t *testing.T) {
	t.Parallel()
	claude := `{"type":"user","message":{"role":"user","content":"decide"},"timestamp":"2026-11-22T10:00:00Z","cwd":"/p","sessionId":"s"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"b1","name":"Bash","input":{"command":"cd /p && wake decide \"Use cents because floats round\""}},{"type":"tool_use","id":"b2","name":"Bash","input":{"command":"wake decide \"x\""}},{"type":"tool_use","id":"b3","name":"Bash","input":{"command":"echo wake decide"}}]},"timestamp":"2026-11-22T10:00:01Z"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"b1","content":"D-4"},{"type":"tool_result","tool_use_id":"b2","is_error":true,"content":"exit status 2"},{"type":"tool_result","tool_use_id":"b3","content":"wake decide"}]},"timestamp":"2026-11-22T10:00:02Z"}
`
	codex := `{"timestamp":"2026-11-22T10:00:00Z","type":"session_meta","payload":{"id":"c","timestamp":"2026-11-22T10:00:00Z","cwd":"/p"}}
{"timestamp":"2026-11-22T10:00:01Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\": \"wake reverse D-1 --because y\"}","call_id":"k1"}}
{"timestamp":"2026-11-22T10:00:02Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"k1","status":"completed","exit_code":0}}}
{"timestamp":"2026-11-22T10:00:03Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\": \"wake decide z\"}","call_id":"k2"}}
{"timestamp":"2026-11-22T10:00:04Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"k2","status":"failed","exit_code":3}}}
`
	wake := `{"type":"session","id":"o","at":"2026-11-22T10:00:00Z"}
{"type":"command","command":"wake decide \"x because y\""}
{"type":"decision"}
{"type":"command","command":"wake uphold D-1 --because z"}
`
	for _, c := range []struct {
		f    Format
		text string
	}{{Claude, claude}, {Codex, codex}, {Wake, wake}} {
		s, err := Read(strings.NewReader(c.text), c.f, DefaultLimits(), Scope{})
		if err != nil || s.Decisions != 1 || !s.DidWork() {
			t.Errorf("%s: %v, %d decisions", c.f, err, s.Decisions)
		}
		w, err := ReadWork(strings.NewReader(c.text), c.f, 0, Scope{})
		if err != nil || w.Decisions != 1 {
			t.Errorf("%s ReadWork: %v, %d decisions", c.f, err, w.Decisions)
		}
	}
}

func TestDecisionTool(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"mcp__wake__wake_decide":  true,
		"mcp__wake__wake_contest": true,
		"mcp__team__wake_decide":  true, // the server registered under another name
		"wake_decide":             true, // Codex's name within its namespace
		"mcp__wake__wake_load":    false,
		"mcp__wake__wake_handoff": false,
		"wake_remember":           false,
		"my__wake_decide":         false,
		"Bash":                    false,
	} {
		if got := isDecisionTool(name); got != want {
			t.Errorf("isDecisionTool(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestMCPDecisionsInTranscript: a decision recorded through wake's MCP
// server is the session's work as the same command is: counted once the
// call did not fail, in Claude Code's names and in Codex's, flat or by
// namespace; wake's other tools are not.
func TestMCPDecisionsInTranscript(t *testing.T) {
	t.Parallel()
	claude := `{"type":"user","message":{"role":"user","content":"decide"},"timestamp":"2026-11-22T10:00:00Z","cwd":"/p","sessionId":"s"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"m1","name":"mcp__wake__wake_decide","input":{"what":"Use cents","because":"floats round"}},{"type":"tool_use","id":"m2","name":"mcp__wake__wake_contest","input":{"id":"d-1"}},{"type":"tool_use","id":"m3","name":"mcp__wake__wake_load","input":{}}]},"timestamp":"2026-11-22T10:00:01Z"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"m1","content":"d-4"},{"type":"tool_result","tool_use_id":"m2","is_error":true,"content":"no such decision"},{"type":"tool_result","tool_use_id":"m3","content":"boot"}]},"timestamp":"2026-11-22T10:00:02Z"}
`
	codex := `{"timestamp":"2026-11-22T10:00:00Z","type":"session_meta","payload":{"id":"c","timestamp":"2026-11-22T10:00:00Z","cwd":"/p"}}
{"timestamp":"2026-11-22T10:00:01Z","type":"response_item","payload":{"type":"function_call","name":"wake_decide","namespace":"mcp__wake","arguments":"{\"what\":\"Use cents\"}","call_id":"k1"}}
{"timestamp":"2026-11-22T10:00:02Z","type":"response_item","payload":{"type":"function_call_output","call_id":"k1","output":"d-4"}}
{"timestamp":"2026-11-22T10:00:03Z","type":"response_item","payload":{"type":"function_call","name":"mcp__wake__wake_decide","arguments":"{\"what\":\"Use TOML\"}","call_id":"k2"}}
{"timestamp":"2026-11-22T10:00:04Z","type":"response_item","payload":{"type":"function_call","name":"wake_load","namespace":"mcp__wake","arguments":"{}","call_id":"k3"}}
`
	for _, c := range []struct {
		f    Format
		text string
		want int
	}{{Claude, claude, 1}, {Codex, codex, 2}} {
		s, err := Read(strings.NewReader(c.text), c.f, DefaultLimits(), Scope{})
		if err != nil || s.Decisions != c.want || !s.DidWork() {
			t.Errorf("%s: %v, %d decisions, want %d", c.f, err, s.Decisions, c.want)
		}
		w, err := ReadWork(strings.NewReader(c.text), c.f, 0, Scope{})
		if err != nil || w.Decisions != c.want {
			t.Errorf("%s ReadWork: %v, %d decisions, want %d", c.f, err, w.Decisions, c.want)
		}
	}
}

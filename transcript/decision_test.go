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

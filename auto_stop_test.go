package wake_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
)

// TestAutoHandoffAfterStopHook (issue 26, point 5): a session that was
// asked by wake's Stop hook for its hand-off, answered that it would not
// write one, and ended, is handed off from its work: the last message is
// the one before the hook's feedback, what it left open is an open
// thread and the next priority, and the previous hand-off's next
// priority is kept as an open thread, not carried over unchanged.
func TestAutoHandoffAfterStopHook(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t) // a hand-off at 09:00 whose next priority is "Import the bank CSV"
	start := now.Add(-10 * time.Minute)
	ts := func(s int) string { return start.Add(time.Duration(s) * time.Second).Format(time.RFC3339) }
	tr := `{"type":"user","message":{"role":"user","content":"regenerate the parser"},"timestamp":"` + ts(0) + `","cwd":"/p","sessionId":"s1"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"w1","name":"Write","input":{"file_path":"/p/parser.go"}}]},"timestamp":"` + ts(1) + `","sessionId":"s1"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"w1","content":"ok"}]},"timestamp":"` + ts(2) + `","sessionId":"s1"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Regenerated the parser. The golden files still need regenerating."}]},"timestamp":"` + ts(3) + `","sessionId":"s1"}
{"type":"user","isMeta":true,"message":{"role":"user","content":"Stop hook feedback:\n[wake hook stop claude]: wake: this session changed files (parser.go among them) but wrote no hand-off, so the next session would start without knowing what happened."},"timestamp":"` + ts(4) + `","sessionId":"s1"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Understood. I will leave the hand-off to wake; no hand-off from me."}]},"timestamp":"` + ts(5) + `","sessionId":"s1"}
`
	afero.WriteFile(fsys, "/t/s1.jsonl", []byte(tr), 0o644)
	res, err := m.AutoHandoff(context.Background(), wake.AutoOptions{Transcript: "/t/s1.jsonl", Boot: wake.BootFiles{NoSkill: true}})
	if err != nil || res.Written == nil {
		t.Fatalf("AutoHandoff: %+v %v", res, err)
	}
	latest := readMem(t, fsys, "/p/.wake/recent/latest.md")
	const left = "“The golden files still need regenerating.”"
	for _, want := range []string{
		"- The agent's last message: “Regenerated the parser. The golden files still need regenerating.”\n",
		"## Open threads\n- Left open by the agent's last message: " + left + "\n" +
			"- The previous hand-off's next priority, which this session may or may not have taken up: “Import the bank CSV”\n",
	} {
		if !strings.Contains(latest, want) {
			t.Errorf("latest.md lacks %q", want)
		}
	}
	main := readMem(t, fsys, "/p/.wake/main.md")
	if want := "next_priority: Check this automatic hand-off against the work tree, then take up what the agent's last message left open: " + left + "\n"; !strings.Contains(main, want) {
		t.Errorf("main.md lacks %q:\n%s", want, main)
	}
	if strings.Contains(latest, "Understood") || strings.Contains(latest, "carried over") {
		t.Errorf("latest.md takes the answer to the hook for the work, or carries the next priority over")
	}
	if t.Failed() {
		t.Logf("latest.md:\n%s", latest)
	}
}

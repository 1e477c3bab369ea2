package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// TestStopHookReply reads transcripts the real clients wrote (Claude
// Code 2.1.330 and Codex 0.169.0 against a loopback stub, texts of the
// agent's replaced, Codex's own long texts cut) of a session that wrote a
// file, was asked by wake's Stop hook for a hand-off, and answered it:
// the last message of the session's work is the one before the hook's
// feedback, not the answer, and its open follow-up is kept. Without the
// feedback's record the answer would be the last message.
func TestStopHookReply(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file, feedback, work, reply string
		followUps                   []string
	}{
		{"claude-stop.jsonl", `"Stop hook feedback:`,
			"Wrote the notes for the bakery. The weekly totals still need checking against the till rolls.",
			"Understood: I will not write a hand-off now.",
			[]string{"The weekly totals still need checking against the till rolls."}},
		{"codex-stop.jsonl", `<hook_prompt`,
			"Added the todo note. Not yet wired into the release checklist.",
			"Understood: no hand-off from me.",
			[]string{"Not yet wired into the release checklist."}},
	} {
		s := readFile(t, c.file, Auto)
		if s.LastMessage != c.work || !reflect.DeepEqual(s.FollowUps, c.followUps) {
			t.Errorf("%s: last message %q, follow-ups %q; want %q, %q", c.file, s.LastMessage, s.FollowUps, c.work, c.followUps)
		}
		if !s.DidWork() || len(s.Prompts) != 1 {
			t.Errorf("%s: work %v, prompts %q", c.file, s.DidWork(), s.Prompts)
		}
		var kept []string
		for line := range strings.SplitSeq(readTestdata(t, c.file), "\n") {
			if !strings.Contains(line, c.feedback) {
				kept = append(kept, line)
			}
		}
		if len(kept) == strings.Count(readTestdata(t, c.file), "\n")+1 {
			t.Fatalf("%s: no line holds %s", c.file, c.feedback)
		}
		if s, err := Read(strings.NewReader(strings.Join(kept, "\n")), Auto, DefaultLimits(), Scope{}); err != nil || s.LastMessage != c.reply {
			t.Errorf("%s without the feedback: last message %q (%v), want %q", c.file, s.LastMessage, err, c.reply)
		}
	}
}

// TestStopHookReplyEnds: the user's next prompt, or more work, ends the
// agent's answer to the Stop hook: what it says after is the session's.
// Another hook's feedback, or the agent quoting wake's reason, is not
// wake's Stop hook asking.
func TestStopHookReplyEnds(t *testing.T) {
	t.Parallel()
	const (
		ask      = `{"type":"user","isMeta":true,"message":{"role":"user","content":"Stop hook feedback:\n[wake hook stop claude]: wake: this session changed files (a.go among them) but wrote no hand-off"},"timestamp":"2026-11-22T10:00:03Z"}` + "\n"
		reply    = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"No hand-off."}]},"timestamp":"2026-11-22T10:00:04Z"}` + "\n"
		start    = `{"type":"user","message":{"role":"user","content":"fix a.go"},"timestamp":"2026-11-22T10:00:00Z","cwd":"/p","sessionId":"s"}` + "\n"
		edit     = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"w1","name":"Edit","input":{"file_path":"/p/a.go"}}]},"timestamp":"2026-11-22T10:00:01Z"}` + "\n"
		worked   = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Fixed a.go."}]},"timestamp":"2026-11-22T10:00:02Z"}` + "\n"
		prompt   = `{"type":"user","message":{"role":"user","content":"and b.go"},"timestamp":"2026-11-22T10:00:05Z"}` + "\n"
		editB    = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"w2","name":"Edit","input":{"file_path":"/p/b.go"}}]},"timestamp":"2026-11-22T10:00:06Z"}` + "\n"
		after    = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Fixed b.go too."}]},"timestamp":"2026-11-22T10:00:07Z"}` + "\n"
		other    = `{"type":"user","isMeta":true,"message":{"role":"user","content":"Stop hook feedback:\n[make lint]: run the linter first"},"timestamp":"2026-11-22T10:00:03Z"}` + "\n"
		quoted   = `{"type":"user","message":{"role":"user","content":"why did it say wake: this session changed files?"},"timestamp":"2026-11-22T10:00:03Z"}` + "\n"
		answered = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Because of the hook."}]},"timestamp":"2026-11-22T10:00:04Z"}` + "\n"
	)
	for _, c := range []struct{ name, tr, want string }{
		{"reply", start + edit + worked + ask + reply, "Fixed a.go."},
		{"a prompt after", start + edit + worked + ask + reply + prompt + after, "Fixed b.go too."},
		{"work after", start + edit + worked + ask + reply + editB + after, "Fixed b.go too."},
		{"another hook", start + edit + worked + other + reply, "No hand-off."},
		{"quoted", start + edit + worked + quoted + answered, "Because of the hook."},
	} {
		s, err := Read(strings.NewReader(c.tr), Claude, DefaultLimits(), Scope{})
		if err != nil || s.LastMessage != c.want {
			t.Errorf("%s: last message %q (%v), want %q", c.name, s.LastMessage, err, c.want)
		}
	}
}

// TestFollowUps: the sentences that leave something to do, and only
// those.
func TestFollowUps(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Regenerated the parser. The golden files still need regenerating.", []string{"The golden files still need regenerating."}},
		{"Done. TODO: wire the flag into the CLI. Tests pass!", []string{"TODO: wire the flag into the CLI."}},
		{"The fix is in. Not yet tested on Windows.\nThe docs are yet to be updated.", []string{"Not yet tested on Windows.", "The docs are yet to be updated."}},
		{"Wrote the importer.\n\nRemaining:\n- map the VAT codes\n- 2. dedupe rows\n\nAll else is done.", []string{"map the VAT codes", "2. dedupe rows"}},
		{"Next steps:\n1. run the benchmarks\n2) compare with main", []string{"run the benchmarks", "compare with main"}},
		{"Next step: ship it.", []string{"Next step: ship it."}},
		// What merely mentions work, or says nothing is left, is none.
		{"All done. The remaining tests pass and nothing still needs doing.", nil},
		{"Put the helper next to the parser. No TODO is left; the mastodon client is untouched.", nil},
		{"Added the todo note and a to-do list.", nil},
		{"There is no remaining work.", nil},
		{"", nil},
	} {
		if got := FollowUps(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("FollowUps(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	many := strings.Repeat("This still needs doing. ", 9) + strings.Repeat("x", 1000) + " still needs doing."
	if got := FollowUps(many); len(got) != maxFollowUps {
		t.Errorf("%d follow-ups kept, want %d", len(got), maxFollowUps)
	}
	if got := FollowUps(strings.Repeat("y", 1000) + " still needs doing."); len(got) != 1 || len(got[0]) > maxFollowUp+len("…") {
		t.Errorf("a long follow-up is not cut: %d bytes", len(got[0]))
	}
}

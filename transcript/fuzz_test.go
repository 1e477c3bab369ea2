package transcript

import (
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzRead checks, on any input in any format, that Read never fails on
// content, keeps within its limits, and gives one-line texts of valid
// UTF-8; and that ReadWork agrees with Read on whether the session did
// work.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"claude.jsonl", "codex.jsonl", "codex-0.169.jsonl", "wake.jsonl", "claude-stop.jsonl", "codex-stop.jsonl"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		for _, format := range []string{"", "claude", "codex", "wake"} {
			f.Add(string(data), format)
		}
	}
	f.Add("{\"type\":\"user\",\"message\":{\"content\":\"\xff\\u2028x\"}}\n\n\r\n{", "claude")
	f.Add(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"Write","input":{"file_path":"../x"}}]}}`, "")
	f.Fuzz(func(t *testing.T, data, format string) {
		fm, err := ParseFormat(format)
		if err != nil {
			return
		}
		lim := Limits{MaxLine: 200, FirstPrompts: 1, LastPrompts: 2, Text: 20, Files: 3, Commands: 2, Command: 10}
		s, err := Read(strings.NewReader(data), fm, lim, Scope{})
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if len(s.Prompts) > 3 || len(s.Edits) > 3 || len(s.Commands) > 2 || len(s.Prompts) > s.PromptCount || len(s.Commands) > s.CommandCount {
			t.Fatalf("over the limits: %+v", s)
		}
		if s.Lines+s.TooLong > strings.Count(data, "\n")+1 || s.Malformed > s.Lines {
			t.Fatalf("counted %d lines, %d malformed, %d too long, of %d", s.Lines, s.Malformed, s.TooLong, strings.Count(data, "\n")+1)
		}
		texts := append(append(append(append([]string{s.LastMessage, s.SessionID, s.Cwd}, s.Prompts...), s.Commands...), s.EditedPaths()...), s.FollowUps...)
		for _, x := range texts {
			if !utf8.ValidString(x) || strings.ContainsAny(x, "\r\n\x00\u2028\u2029") {
				t.Fatalf("text %q is not one line of valid UTF-8", x)
			}
		}
		if len(s.FollowUps) > maxFollowUps || s.LastMessage == "" && len(s.FollowUps) > 0 {
			t.Fatalf("follow-ups %q of the last message %q", s.FollowUps, s.LastMessage)
		}
		for _, f := range s.FollowUps {
			if len(f) > maxFollowUp+len("…") {
				t.Fatalf("follow-up %q over %d bytes", f, maxFollowUp)
			}
		}
		for _, p := range append(s.Prompts, s.LastMessage) {
			if len(p) > lim.Text+len("…") {
				t.Fatalf("text %q over %d bytes", p, lim.Text)
			}
		}
		w, err := ReadWork(strings.NewReader(data), fm, lim.MaxLine, Scope{})
		if err != nil || w.DidWork() != s.DidWork() {
			t.Fatalf("ReadWork says did work %v (%v), Read %v", w.DidWork(), err, s.DidWork())
		}
		// Within a scope too, and the start is the whole transcript's.
		sc := Scope{Since: time.Date(2026, 11, 22, 10, 0, 1, 0, time.UTC), Project: func(string) string { return "/work" }}
		s2, err := Read(strings.NewReader(data), fm, lim, sc)
		if err != nil || !s2.Start.Equal(s.Start) || s2.PromptCount > s.PromptCount || s2.CommandCount > s.CommandCount {
			t.Fatalf("Read since: %v %+v", err, s2)
		}
		w, err = ReadWork(strings.NewReader(data), fm, lim.MaxLine, sc)
		if err != nil || w.DidWork() != s2.DidWork() {
			t.Fatalf("ReadWork since says did work %v (%v), Read %v", w.DidWork(), err, s2.DidWork())
		}
	})
}

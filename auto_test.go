package wake_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
	"github.com/wakeproto/wake/transcript"
)

const autoSecret = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"

// autoTranscript is a Claude Code session of two prompts that wrote one
// file, edited another and ran a command, starting at start.
func autoTranscript(start time.Time) string {
	ts := func(d time.Duration) string { return start.Add(d).Format(time.RFC3339Nano) }
	return `{"type":"queue-operation","operation":"enqueue","timestamp":"` + ts(0) + `","sessionId":"s1"}
{"type":"user","message":{"role":"user","content":"write notes.txt with the token ` + autoSecret + `"},"timestamp":"` + ts(time.Second) + `","cwd":"/p","sessionId":"s1"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/p/notes.txt","content":"x"}},{"type":"tool_use","id":"t2","name":"Edit","input":{"file_path":"/p/src/calc.go"}},{"type":"tool_use","id":"t3","name":"Bash","input":{"command":"go test ./..."}}]},"timestamp":"` + ts(2*time.Second) + `"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"tool_result","tool_use_id":"t2","content":"ok"},{"type":"tool_result","tool_use_id":"t3","content":"PASS"}]},"timestamp":"` + ts(3*time.Second) + `"}
{broken line
{"type":"user","message":{"role":"user","content":"now round the totals"},"timestamp":"` + ts(4*time.Second) + `"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Wrote notes.txt and fixed calc.go."}]},"timestamp":"` + ts(5*time.Second) + `"}
`
}

// autoMemory is a memory root after one hand-off at 09:00, with its
// clock at now, and the options it was opened with.
func autoMemory(t *testing.T) (*wake.Memory, afero.Fs, *time.Time) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	o := wake.Options{FS: fsys, Env: map[string]string{}, Now: func() time.Time { return now }, Locker: &memlock.Locker{}}
	ctx := context.Background()
	if _, err := wake.Init(ctx, "/p/.wake", skeleton.Params{Agent: "Ava", Project: "bakery"}, o); err != nil {
		t.Fatal(err)
	}
	m, err := wake.Open("/p/.wake", o)
	if err != nil {
		t.Fatal(err)
	}
	in := handoff.Input{Session: tiers.Session{Summary: "Set up VAT rounding", NextPriority: "Import the bank CSV"}}
	if _, err := m.Handoff(ctx, in, wake.BootFiles{NoSkill: true}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Hour)
	return m, fsys, &now
}

func readMem(t *testing.T, fsys afero.Fs, name string) string {
	t.Helper()
	data, err := afero.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestAutoHandoff: a session that ended without a hand-off gets one from
// its transcript, marked automatic in the summary and the ledger, with
// its next priority the user's last request, the previous one kept as an
// open thread, and the secret scrubbed; a
// second run keeps it.
func TestAutoHandoff(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	start := now.Add(-30 * time.Minute)
	afero.WriteFile(fsys, "/t/s1.jsonl", []byte(autoTranscript(start)), 0o644)
	ctx := context.Background()
	res, err := m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/s1.jsonl", Boot: wake.BootFiles{NoSkill: true}})
	if err != nil || res.Written == nil || res.Skipped != "" {
		t.Fatalf("AutoHandoff: %+v %v", res, err)
	}
	if !res.Start.Equal(start) || res.Session.Format != transcript.Claude || res.Session.Malformed != 1 {
		t.Errorf("start %v, session %+v", res.Start, res.Session)
	}
	latest := readMem(t, fsys, "/p/.wake/recent/latest.md")
	for _, want := range []string{
		"summary: 'Automatic hand-off (the session ended without one): the agent''s tools edited 2 files (notes.txt, src/calc.go), ran 1 command; the user asked: “write notes.txt with the token [redacted:github-token]”'",
		"- The user asked: “now round the totals”\n",
		"- The agent's tools edited: notes.txt (Write), src/calc.go (Edit)\n",
		"- The agent ran: `go test ./...`\n",
		"- The agent's last message: “Wrote notes.txt and fixed calc.go.”\n",
		"(7 lines read, 1 skipped)",
		"Secrets in the transcript were replaced with [redacted:…] markers (2 in this summary).",
	} {
		if !strings.Contains(latest, want) {
			t.Errorf("latest.md lacks %q:\n%s", want, latest)
		}
	}
	// The next priority is the session's, the previous one an open thread.
	main := readMem(t, fsys, "/p/.wake/main.md")
	if !strings.Contains(main, "next_priority: Check this automatic hand-off against the work tree, then take up the user's last request: “now round the totals”\n") {
		t.Errorf("main.md's next priority is not the user's last request:\n%s", main)
	}
	if !strings.Contains(latest, "## Open threads\n- The previous hand-off's next priority, which this session may or may not have taken up: “Import the bank CSV”\n") {
		t.Errorf("latest.md does not keep the previous next priority as an open thread:\n%s", latest)
	}
	for name, text := range map[string]string{"latest.md": latest, "main.md": main, "ledger": readMem(t, fsys, "/p/.wake/ledger.jsonl")} {
		if strings.Contains(text, autoSecret) {
			t.Errorf("%s holds the secret", name)
		}
	}
	es, err := store.SessionHandoffs(fsys, "/p/.wake", start, "s1")
	if err != nil || len(es) != 1 || !es[0].Auto || es[0].Session != "s1" || !strings.HasPrefix(es[0].Summary, handoff.AutoPrefix) {
		t.Fatalf("ledger: %+v %v", es, err)
	}

	*now = now.Add(time.Minute)
	again, err := m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/s1.jsonl"})
	if err != nil || again.Written != nil || !strings.Contains(again.Skipped, "an automatic hand-off was written in this session already") {
		t.Fatalf("second run: %+v %v", again, err)
	}
	if readMem(t, fsys, "/p/.wake/recent/latest.md") != latest {
		t.Fatal("the second run rewrote latest.md")
	}
}

// TestAutoHandoffKeepsTheAgents: a hand-off the agent wrote after the
// session started is never overwritten.
func TestAutoHandoffKeepsTheAgents(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	afero.WriteFile(fsys, "/t/s1.jsonl", []byte(autoTranscript(now.Add(-30*time.Minute))), 0o644)
	ctx := context.Background()
	in := handoff.Input{Session: tiers.Session{Summary: "Wrote the notes", NextPriority: "Round the totals"}}
	if _, err := m.Handoff(ctx, in, wake.BootFiles{NoSkill: true}); err != nil {
		t.Fatal(err)
	}
	latest := readMem(t, fsys, "/p/.wake/recent/latest.md")
	*now = now.Add(time.Minute)
	res, err := m.AutoHandoff(ctx, wake.AutoOptions{Transcript: "/t/s1.jsonl"})
	if err != nil || res.Written != nil || !strings.HasPrefix(res.Skipped, "a hand-off was written in this session already") {
		t.Fatalf("%+v %v", res, err)
	}
	if readMem(t, fsys, "/p/.wake/recent/latest.md") != latest {
		t.Fatal("latest.md was rewritten")
	}
}

// TestAutoHandoffNoWork: a session that only talked is not handed off.
func TestAutoHandoffNoWork(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	talk := `{"type":"user","message":{"role":"user","content":"what is VAT?"},"timestamp":"` + now.Add(-time.Minute).Format(time.RFC3339) + `"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"r","name":"Read","input":{"file_path":"/p/a"}},{"type":"tool_use","id":"w","name":"Write","input":{"file_path":"/etc/x"}}]}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"w","is_error":true,"content":"denied"}]}}
`
	afero.WriteFile(fsys, "/t/talk.jsonl", []byte(talk), 0o644)
	latest := readMem(t, fsys, "/p/.wake/recent/latest.md")
	res, err := m.AutoHandoff(context.Background(), wake.AutoOptions{Transcript: "/t/talk.jsonl"})
	if err != nil || res.Written != nil || !strings.Contains(res.Skipped, "did no work") {
		t.Fatalf("%+v %v", res, err)
	}
	if readMem(t, fsys, "/p/.wake/recent/latest.md") != latest {
		t.Fatal("latest.md was rewritten")
	}
	w, err := sessionWork(m, "/t/talk.jsonl", transcript.Auto)
	if err != nil || w.DidWork() || !w.HandedOff.IsZero() {
		t.Fatalf("SessionWork: %+v %v", w, err)
	}
}

// TestAutoHandoffWakeFormat: the OpenCode plugin's transcript, whose
// only work was a decision.
func TestAutoHandoffWakeFormat(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	tr := `{"type":"session","id":"ses_1","at":"` + now.Add(-time.Minute).Format(time.RFC3339) + `","cwd":"/p"}
{"type":"prompt","text":"decide the rounding"}
{"type":"decision"}
{"type":"message","text":"Decided."}
`
	afero.WriteFile(fsys, "/t/oc.jsonl", []byte(tr), 0o644)
	res, err := m.AutoHandoff(context.Background(), wake.AutoOptions{Transcript: "/t/oc.jsonl", Format: transcript.Wake})
	if err != nil || res.Written == nil {
		t.Fatalf("%+v %v", res, err)
	}
	if s := string(res.Written.Summary); !strings.Contains(s, "summary: 'Automatic hand-off (the session ended without one): recorded 1 decision; the user asked: “decide the rounding”'") ||
		!strings.Contains(s, "## Decisions made\nThe session recorded 1 decision in the decision log; see `wake decisions`.\n") {
		t.Errorf("summary:\n%s", s)
	}
}

// TestAutoHandoffNeedsAStart: with no time to go by, nothing is written.
func TestAutoHandoffNeedsAStart(t *testing.T) {
	t.Parallel()
	m, fsys, _ := autoMemory(t)
	afero.WriteFile(fsys, "/t/x.jsonl", []byte(`{"type":"prompt","text":"hi"}`+"\n"), 0o644)
	_, err := m.AutoHandoff(context.Background(), wake.AutoOptions{Transcript: "/t/x.jsonl"})
	if !errors.Is(err, wake.ErrNoStart) {
		t.Fatalf("%v", err)
	}
	if _, err := m.AutoHandoff(context.Background(), wake.AutoOptions{Transcript: "/t/none.jsonl"}); err == nil || !strings.Contains(err.Error(), "transcript /t/none.jsonl: no such file") {
		t.Fatalf("%v", err)
	}
}

// sessionWork is what the Stop hook reads of a session.
func sessionWork(m *wake.Memory, name string, f transcript.Format) (wake.SessionWork, error) {
	k, err := m.SessionMark(name, f, "")
	if err != nil {
		return wake.SessionWork{}, err
	}
	return m.SessionWork(name, f, k)
}

// TestSessionWork: what the Stop hook reads: work done since the
// session's start, and none after a hand-off written since.
func TestSessionWork(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	start := now.Add(-30 * time.Minute)
	afero.WriteFile(fsys, "/t/s1.jsonl", []byte(autoTranscript(start)), 0o644)
	w, err := sessionWork(m, "/t/s1.jsonl", transcript.Claude)
	if err != nil || !w.DidWork() || w.Edited != "notes.txt" || !w.HandedOff.IsZero() || !w.Since().Equal(start) || w.SessionID != "s1" {
		t.Fatalf("%+v %v", w, err)
	}
	in := handoff.Input{Session: tiers.Session{Summary: "Wrote the notes", NextPriority: "Round the totals"}}
	if _, err := m.Handoff(context.Background(), in, wake.BootFiles{NoSkill: true}); err != nil {
		t.Fatal(err)
	}
	if w, err = sessionWork(m, "/t/s1.jsonl", transcript.Claude); err != nil || !w.HandedOff.Equal(*now) || !w.Since().Equal(*now) || w.DidWork() {
		t.Fatalf("after the hand-off: %+v %v", w, err)
	}
}

// TestAutoHandoffScrubsBeforeCut: a private key pasted in a prompt, and a
// token where the summary line cuts the prompt, leave nothing of
// themselves in the hand-off or the ledger, and no cut falls inside a
// redaction marker.
func TestAutoHandoffScrubsBeforeCut(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("MIIEowIBAAKCAQEAx7Qz", 3) + "AbCd"
	key := "-----BEGIN RSA " + "PRIVATE KEY-----\\n" + strings.Repeat(line+"\\n", 20) + "-----END RSA " + "PRIVATE KEY-----\\n"
	for _, pad := range []int{85, 100, 105, 110, 118} {
		m, fsys, now := autoMemory(t)
		ts := func(d time.Duration) string { return now.Add(d - 30*time.Minute).Format(time.RFC3339) }
		prompt := strings.Repeat("x", pad-1) + " " + autoSecret + " and more"
		tr := `{"type":"user","message":{"role":"user","content":"` + prompt + `"},"timestamp":"` + ts(0) + `","cwd":"/p","sessionId":"s1"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/p/id_rsa"}}]},"timestamp":"` + ts(time.Second) + `"}
{"type":"user","message":{"role":"user","content":"store this key:\n` + key + `thanks"},"timestamp":"` + ts(2*time.Second) + `"}
`
		afero.WriteFile(fsys, "/t/s.jsonl", []byte(tr), 0o644)
		res, err := m.AutoHandoff(context.Background(), wake.AutoOptions{Transcript: "/t/s.jsonl"})
		if err != nil || res.Written == nil {
			t.Fatalf("pad %d: %+v %v", pad, res, err)
		}
		for _, name := range []string{"/p/.wake/recent/latest.md", "/p/.wake/ledger.jsonl", "/p/.wake/main.md"} {
			text := readMem(t, fsys, name)
			if strings.Contains(text, "ghp_") || strings.Contains(text, line[:16]) || strings.Contains(text, "BEGIN RSA") {
				t.Errorf("pad %d: %s holds a secret or its head:\n%s", pad, name, text)
			}
			for _, l := range strings.Split(text, "\n") {
				if i := strings.Index(l, "[redacted"); i >= 0 && !strings.HasPrefix(l[i:], "[redacted:github-token]") && !strings.HasPrefix(l[i:], "[redacted:private-key]") && !strings.HasPrefix(l[i:], "[redacted:…]") {
					t.Errorf("pad %d: %s cuts a marker: %s", pad, name, l)
				}
			}
		}
	}
}

package handoff

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/transcript"
)

// TestAutoNextAndThreads: the automatic hand-off's next priority comes
// from the session (what its last message left open, else the user's
// last request); the previous hand-off's is an open thread, and the next
// priority only when the session tells none. Of a previous automatic
// hand-off's own next priority only what it took from a message left
// open is kept: the rest pointed at that session.
func TestAutoNextAndThreads(t *testing.T) {
	t.Parallel()
	const (
		byPrompt  = "Check this automatic hand-off against the work tree, then take up the user's last request: “fix b”"
		byOpen    = "Check this automatic hand-off against the work tree, then take up what the agent's last message left open: “The goldens still need regenerating.”"
		byNothing = "Check this automatic hand-off against the work tree and ask the user what comes next."
		previous  = "The previous hand-off's next priority, which this session may or may not have taken up: "
	)
	open := &transcript.Summary{Prompts: []string{"fix a", "fix b"}, PromptCount: 2, FollowUps: []string{"The goldens still need regenerating.", "TODO: docs."}}
	asked := &transcript.Summary{Prompts: []string{"fix a", "fix b"}, PromptCount: 2}
	silent := &transcript.Summary{}
	for _, c := range []struct {
		name    string
		session *transcript.Summary
		carried string
		next    string
		threads []string
	}{
		// The first thing left open is the next priority's alone.
		{"left open", open, "Import the CSV", byOpen, []string{
			"Left open by the agent's last message: “TODO: docs.”",
			previous + "“Import the CSV”"}},
		{"asked", asked, "Import the CSV", byPrompt, []string{previous + "“Import the CSV”"}},
		{"asked, carried before", asked, CarriedPrefix + "Import the CSV", byPrompt, []string{previous + "“Import the CSV”"}},
		{"silent", silent, "Import the CSV", CarriedPrefix + "Import the CSV", nil},
		{"no transcript", nil, "Import the CSV", CarriedPrefix + "Import the CSV", nil},
		{"after an automatic one", asked, "Check this automatic hand-off against the work tree, then take up the user's last request: “fix z”", byPrompt, nil},
		{"after an automatic one, silent", silent, byNothing, byNothing, nil},
		{"after an automatic one that left open", asked, byOpen, byPrompt, []string{previous + "“The goldens still need regenerating.”"}},
		{"nothing", silent, "", byNothing, nil},
	} {
		in := Auto(Facts{Session: c.session, Carried: c.carried, Start: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)})
		if got := in.Session.NextPriority; got != c.next {
			t.Errorf("%s: next priority %q, want %q", c.name, got, c.next)
		}
		if got := in.Session.Threads.Items; len(got)+len(c.threads) > 0 && !reflect.DeepEqual(got, c.threads) {
			t.Errorf("%s: open threads %q, want %q", c.name, got, c.threads)
		}
	}
}

// TestAutoKeepsWhatWasLeftOpen (from the review): a follow-up cut in the
// next priority, by bytes as the cut counts (146 Cyrillic letters are
// 256 bytes), is kept whole in the open threads; the quoted last message
// loses the follow-up itself, not an earlier sentence that begins with
// its words.
func TestAutoKeepsWhatWasLeftOpen(t *testing.T) {
	t.Parallel()
	long := "Осталось переписать загрузчик конфигурации и " + strings.Repeat("проверить тесты ", 6) + "до выпуска."
	if n := len([]rune(long)); n > 200 || len(long) <= 200 {
		t.Fatalf("the follow-up is %d runes, %d bytes: want at most 200 runes and over 200 bytes", n, len(long))
	}
	in := Auto(Facts{Session: &transcript.Summary{FollowUps: []string{long}, LastMessage: "Готово. " + long}, Start: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)})
	if strings.Contains(in.Session.NextPriority, long) {
		t.Fatalf("the test wants a follow-up the next priority cuts: %q", in.Session.NextPriority)
	}
	if items := in.Session.Threads.Items; len(items) != 1 || !strings.Contains(items[0], long) {
		t.Errorf("the follow-up the next priority cut is not whole in the threads: %q", items)
	}
	msg := "Update the docs step was skipped because CI broke.\n\nNext steps:\n- Update the docs"
	in = Auto(Facts{Session: &transcript.Summary{FollowUps: []string{"Update the docs"}, LastMessage: msg}, Start: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)})
	if got := strings.Join(in.Session.Happened.Items, "\n"); !strings.Contains(got, "Update the docs step was skipped because CI broke.") {
		t.Errorf("the quoted message lost an earlier sentence instead of the follow-up:\n%s", got)
	}
}

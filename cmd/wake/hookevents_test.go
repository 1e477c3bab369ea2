package main

import (
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/transcript"
)

// TestStopReasonHasNoMarkup: the Stop hook's reason holds no character
// that Codex, which hands it on inside a <hook_prompt> element, would
// escape; the model would read &lt; and &gt; for its placeholders.
func TestStopReasonHasNoMarkup(t *testing.T) {
	start := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	for _, w := range []wake.SessionWork{
		{SessionMark: wake.SessionMark{Start: start}, Edited: "notes.txt"},
		{SessionMark: wake.SessionMark{Start: start}, Decisions: 1},
		{SessionMark: wake.SessionMark{Start: start, HandedOff: start.Add(time.Hour)}, Edited: "a/b.go"},
	} {
		reason := stopReason(w, "wake handoff --root '/tmp/x y'")
		// The transcript's reading tells the agent's answer to it from
		// the session's work by its opening.
		if !strings.HasPrefix(reason, transcript.StopReasonOpening) {
			t.Errorf("the reason does not open with %q: %s", transcript.StopReasonOpening, reason)
		}
		if i := strings.IndexAny(reason, "<>&"); i >= 0 {
			t.Errorf("the reason holds %q: %s", reason[i], reason)
		}
		if !strings.Contains(reason, `--summary "ONE LINE: WHAT THIS SESSION DID`) || !strings.Contains(reason, `--next "THE SINGLE MOST IMPORTANT NEXT STEP"`) {
			t.Errorf("the reason's command lacks its placeholders: %s", reason)
		}
	}
}

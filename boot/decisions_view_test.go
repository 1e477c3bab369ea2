package boot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

// viewLog is a log of n entries, every fifth reversed, one contested.
func viewLog(n int) string {
	var b strings.Builder
	b.WriteString("---\nsummary: the log\n---\n# Decisions\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "[2026-01-%02d] DECISION: Adopt practice %d for the build BECAUSE: experiment %d showed it saves time\nID: d-%04x\n", i%28+1, i, i, i)
		switch {
		case i%5 == 0:
			fmt.Fprintf(&b, "STATUS: reversed\nREVERSED_BY: [2026-02-01] practice %d replaced it\n\n", i+1)
		case i == 7:
			b.WriteString("STATUS: contested\nOBJECTION: [2026-02-01] too slow\nPROPOSED: drop it\n\n")
		default:
			b.WriteString("STATUS: active\n\n")
		}
	}
	return b.String()
}

// TestDecisionsViewShowsWhatIsInForce: at every share, from starved to
// roomy, the view of a 400-entry log never shows a reversed decision while
// one in force is left out; the decisions shown whole are the newest in
// force, newest first; a reversed one is never whole; what is left out is
// counted; and the view's count is exact and within the share whenever the
// head and the counts fit.
func TestDecisionsViewShowsWhatIsInForce(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	text := viewLog(400)
	log := tiers.ParseDecisions([]byte(text))
	for _, share := range []int{60, 200, 800, 2000, 5000, 8000, 12000, 20000} {
		v, ok := decisionsView(text, share, enc)
		if !ok || enc.Count(v.Text) != v.Tokens {
			t.Fatalf("share %d: ok %v, count %d of %d", share, ok, v.Tokens, enc.Count(v.Text))
		}
		if share >= 200 && v.Tokens > share {
			t.Errorf("share %d: %d tokens", share, v.Tokens)
		}
		whole, listed, lastWhole := 0, 0, -1
		reversedShown := strings.Contains(v.Text, "Reversed, one line each")
		for _, e := range log.Entries {
			isWhole := strings.Contains(v.Text, e.Raw[:strings.Index(e.Raw, "\n")+1]+"ID: "+e.ID)
			isListed := strings.Contains(v.Text, fmt.Sprintf("- #%d %s ", e.Number, e.ID))
			if e.Status == tiers.StatusReversed {
				if isWhole {
					t.Fatalf("share %d: reversed entry %d shown whole", share, e.Number)
				}
				continue
			}
			switch {
			case isWhole:
				whole++
			case isListed:
				listed++
			case reversedShown:
				t.Fatalf("share %d: entry %d in force left out while reversed ones are listed", share, e.Number)
			}
		}
		// The whole ones are the newest in force, newest first.
		for i := len(log.Entries) - 1; i >= 0; i-- {
			e := log.Entries[i]
			if e.Status == tiers.StatusReversed {
				continue
			}
			at := strings.Index(v.Text, "Adopt practice "+fmt.Sprint(e.Number)+" for the build BECAUSE")
			if at < 0 {
				break
			}
			if at < lastWhole {
				t.Fatalf("share %d: entry %d shown whole before a newer one", share, e.Number)
			}
			lastWhole = at
		}
		inForce := 400 - 80
		if left := inForce - whole - listed; left > 0 && !strings.Contains(v.Text, fmt.Sprintf("%d older decision(s) in force not listed here", left)) {
			t.Errorf("share %d: %d in force left out, not counted:\n%s", share, left, v.Text[max(0, len(v.Text)-300):])
		}
		if share >= 12000 && whole+listed != inForce {
			t.Errorf("share %d: %d whole and %d listed of %d in force", share, whole, listed, inForce)
		}
		if len(v.Cuts) != inForce-whole+80 {
			t.Errorf("share %d: %d cuts recorded for %d entries not whole", share, len(v.Cuts), inForce-whole+80)
		}
	}
}

// TestDecisionsViewSmallLog: a log within its share shows every decision
// in force whole, newest first, and a reversed one in one line with what
// reversed it, after them.
func TestDecisionsViewSmallLog(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	v, ok := decisionsView(viewLog(6), 5000, enc)
	if !ok || v.Truncated {
		t.Fatalf("ok %v truncated %v", ok, v.Truncated)
	}
	want := []string{"Adopt practice 6 ", "Adopt practice 4 ", "Adopt practice 1 ",
		"Reversed, one line each", "- #5 d-0005 [2026-01-06] Adopt practice 5 for the build; reversed by [2026-02-01] practice 6 replaced it\n"}
	at := 0
	for _, w := range want {
		i := strings.Index(v.Text[at:], w)
		if i < 0 {
			t.Fatalf("%q missing or out of order:\n%s", w, v.Text)
		}
		at += i
	}
}

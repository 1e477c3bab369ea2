package merge

import (
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// FuzzMerge holds the rules to "nothing is lost": whatever the three
// versions, no merge panics; every ledger line of either side is in the
// merged ledger; every decision ID and reminder text a side added since
// base is in the merged log and inbox.
func FuzzMerge(f *testing.F) {
	f.Add(logHead+goEntry, logHead+goEntry+"\n"+entry("A", "d-000a"), logHead+goEntry+"\n"+entry("B", "d-000b"))
	f.Add(logHead+goEntry, logHead+strings.Replace(goEntry, "active", "reversed", 1)+"REVERSED_BY: [2026-11-22] x BECAUSE: y\n",
		strings.ReplaceAll(logHead+strings.Replace(goEntry, "active", "contested", 1)+"OBJECTION: [2026-11-22] o\nPROPOSED: p\n", "\n", "\r\n"))
	f.Add(inboxHead+rem(1, "2026-11-28T09:00:00Z", "one"), inboxHead+rem(2, "2026-11-28T09:01:00Z", "a"), inboxHead+rem(2, "2026-11-28T09:02:00Z", "b", "- done: x"))
	f.Add(`{"at":"2026-11-28T09:00:00Z"}`, "torn\n{\"at\":\"2026-11-28T09:01:00Z\"}\n", "{}\n\n")
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		o := Options{Prose: func(_, ours, _ []byte) ([]byte, bool, error) { return ours, true, nil }, Now: time.Now}
		ledger := string(MergeLedger([]byte(base), []byte(ours), []byte(theirs)))
		for _, l := range ledgerLines([]byte(ours + "\n" + theirs)) {
			if !strings.Contains(ledger, l.text) {
				t.Fatalf("ledger line lost: %q", l.text)
			}
		}
		o.Path = "warm/decisions.md"
		r, err := File(o, []byte(base), []byte(ours), []byte(theirs))
		if err != nil {
			t.Fatal(err)
		}
		merged := tiers.ParseDecisions(r.Data)
		had := tiers.ParseDecisions([]byte(base)).IDs()
		for _, side := range []string{ours, theirs} {
			for _, e := range tiers.ParseDecisions([]byte(side)).Entries {
				if e.ID != "" && !had.Has(e.ID) && len(merged.ByID(e.ID)) == 0 {
					t.Fatalf("decision %s lost:\n%s", e.ID, r.Data)
				}
			}
		}
		o.Path = "warm/inbox.md"
		r, err = File(o, []byte(base), []byte(ours), []byte(theirs))
		if err != nil {
			t.Fatal(err)
		}
		if r.Conflict {
			return // not text: left to a person
		}
		inbox, _ := tiers.ParseInbox(r.Data)
		texts := map[string]bool{}
		for _, rm := range inbox.Reminders {
			texts[rm.Text] = true
		}
		b, _ := tiers.ParseInbox([]byte(base))
		old := map[string]bool{}
		for _, rm := range b.Reminders {
			old[rm.Text] = true
		}
		for _, side := range []string{ours, theirs} {
			s, _ := tiers.ParseInbox([]byte(side))
			for _, rm := range s.Reminders {
				if !old[rm.Text] && !texts[rm.Text] {
					t.Fatalf("reminder %q lost:\n%s", rm.Text, r.Data)
				}
			}
		}
	})
}

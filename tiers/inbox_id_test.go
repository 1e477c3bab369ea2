package tiers

import "testing"

// TestReminderIDs: two clones adding the same reminder as #25 in the same
// second give it different ids; the id line is read, and an entry without
// one (an older wake's) is read as before, by its number.
func TestReminderIDs(t *testing.T) {
	t.Parallel()
	a := ReminderID("k3f9qa", 25, "2026-11-22T03:24:20Z", "Check the cache")
	b := ReminderID("m7x2pb", 25, "2026-11-22T03:24:20Z", "Check the cache")
	if a == b || len(a) != len("r-9c04e1-k3f9qa") {
		t.Fatalf("ids %q and %q", a, b)
	}
	in, err := ParseInbox([]byte("# Remember later\n\n## 24 · 2026-11-21T03:24:20Z\n- reminder: old\n\n## 25 · 2026-11-22T03:24:20Z\n- id: " + a + "\n- reminder: Check the cache\n"))
	if err != nil {
		t.Fatal(err)
	}
	old, _ := in.Reminder(24)
	r, _ := in.Reminder(25)
	if old.ID != "" || old.Text != "old" || r.ID != a || r.Text != "Check the cache" {
		t.Fatalf("read %+v and %+v", old, r)
	}
}

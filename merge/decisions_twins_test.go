package merge

import (
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

// twinLogs are two branches' logs that each added an entry with the same
// short ID (an older wake derived it from the date alone on both), two
// different decisions.
func twinLogs() (base, ours, theirs string) {
	base = logHead + goEntry
	ours = base + "\n" + entry("Use SQLite", "d-ac2b")
	theirs = base + "\n" + entry("Use TOML", "d-ac2b")
	return
}

// idsOf maps each decision of text to its ID, and fails on an ID held
// twice.
func idsOf(t *testing.T, text string) map[string]string {
	t.Helper()
	log := tiers.ParseDecisions([]byte(text))
	if d := log.DuplicateIDs(); len(d) > 0 {
		t.Fatalf("an ID held twice:\n%s", text)
	}
	out := map[string]string{}
	for _, e := range log.Entries {
		if _, dup := out[e.What]; dup {
			t.Fatalf("%q twice:\n%s", e.What, text)
		}
		out[e.What] = e.ID
	}
	return out
}

// Two entries with one ID after a merge are both kept, the later one
// re-identified, and the result says which; the merge in the other
// direction gives the same IDs.
func TestDecisionsTwinsReidentified(t *testing.T) {
	base, ours, theirs := twinLogs()
	got, r := mergeLog(t, base, ours, theirs)
	ids := idsOf(t, got)
	if ids["Use SQLite"] != "d-ac2b" || ids["Use TOML"] == "d-ac2b" || ids["Use TOML"] == "" || ids["Use Go"] != "d-0001" {
		t.Fatalf("IDs %v:\n%s", ids, got)
	}
	if len(r.Reidentified) != 1 || r.Reidentified[0] != (Reidentified{Was: "d-ac2b", Now: ids["Use TOML"], What: "Use TOML"}) {
		t.Errorf("reidentified %+v", r.Reidentified)
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], ids["Use TOML"]) {
		t.Errorf("notes %q", r.Notes)
	}
	if !strings.HasPrefix(got, ours) {
		t.Errorf("ours' bytes changed:\n%s", got)
	}
	back, r2 := mergeLog(t, base, theirs, ours)
	if b := idsOf(t, back); b["Use TOML"] != ids["Use TOML"] || b["Use SQLite"] != "d-ac2b" || len(r2.Reidentified) != 1 {
		t.Errorf("the other direction gives %v, want %v:\n%s", b, ids, back)
	}
	// Merged again with the same side: nothing new.
	if again, r := mergeLog(t, base, got, theirs); again != got || len(r.Reidentified) != 0 {
		t.Errorf("a second merge changed it (%+v):\n%s", r.Reidentified, again)
	}
}

// The entry base had under the ID keeps it, whichever is later.
func TestDecisionsTwinsBaseKeepsID(t *testing.T) {
	base := logHead + goEntry + "\n" + entry("Use TOML", "d-ac2b")
	ours := base
	theirs := logHead + goEntry + "\n" + entry("Use A different thing", "d-ac2b") // rewritten by hand
	ours += "\n" + entry("Use SQLite", "d-0002")
	got, r := mergeLog(t, base, ours, theirs)
	ids := idsOf(t, got)
	if ids["Use TOML"] != "d-ac2b" || ids["Use A different thing"] == "" || ids["Use A different thing"] == "d-ac2b" || len(r.Reidentified) != 1 {
		t.Errorf("IDs %v:\n%s", ids, got)
	}
}

// A rebase replays the other branch's commits one by one onto a log that
// already holds its entry under the new ID: a later commit's annotation
// of that entry joins it, and no third entry appears. The same when the
// side that holds it is theirs.
func TestDecisionsTwinsReplayed(t *testing.T) {
	base, ours, theirs := twinLogs()
	merged, _ := mergeLog(t, base, ours, theirs)
	newID := idsOf(t, merged)["Use TOML"]
	later := strings.Replace(theirs, "ID: d-ac2b\nSTATUS: active\n", "ID: d-ac2b\nSTATUS: reversed\nREVERSED_BY: [2026-11-23] Use YAML BECAUSE: comments\n", 1)
	got, r := mergeLog(t, theirs, merged, later)
	ids := idsOf(t, got)
	if ids["Use TOML"] != newID || ids["Use SQLite"] != "d-ac2b" || len(r.Reidentified) != 0 {
		t.Fatalf("IDs %v, reidentified %+v:\n%s", ids, r.Reidentified, got)
	}
	if st, _ := statusOfID(t, got, newID); st != tiers.StatusReversed {
		t.Errorf("the annotation of the replayed commit is lost:\n%s", got)
	}
	// The branch that still has its entry under the old ID pulls the
	// merged log: its entry takes the new ID, the other branch's keeps
	// the old one.
	got, r = mergeLog(t, base, later, merged)
	ids = idsOf(t, got)
	if ids["Use TOML"] != newID || ids["Use SQLite"] != "d-ac2b" || len(r.Reidentified) != 0 {
		t.Fatalf("IDs %v, reidentified %+v:\n%s", ids, r.Reidentified, got)
	}
	if st, _ := statusOfID(t, got, newID); st != tiers.StatusReversed {
		t.Errorf("ours' annotation is lost:\n%s", got)
	}
}

// Long IDs give a long new ID with the same writer.
func TestDecisionsTwinsLongID(t *testing.T) {
	base := logHead + goEntry
	got, r := mergeLog(t, base, base+"\n"+entry("Use SQLite", "d-1a2b3c-k3f9qa"), base+"\n"+entry("Use TOML", "d-1a2b3c-k3f9qa"))
	if len(r.Reidentified) != 1 || !strings.HasSuffix(r.Reidentified[0].Now, "-k3f9qa") || len(r.Reidentified[0].Now) != len("d-1a2b3c-k3f9qa") {
		t.Errorf("reidentified %+v:\n%s", r.Reidentified, got)
	}
	idsOf(t, got)
}

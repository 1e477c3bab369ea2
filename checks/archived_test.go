package checks

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/store"
)

// An entry wake compact moved to the decisions archive was not deleted:
// the check does not report its ID as gone from the log; an entry gone
// from both still is.
func TestCheckDecisionsArchivedIDsNotVanished(t *testing.T) {
	t.Parallel()
	const root = "/r"
	fs := afero.NewMemMapFs()
	var ledger strings.Builder
	for _, id := range []string{"d-0001", "d-0002", "d-0003"} {
		ledger.WriteString(`{"at":"2026-01-03T09:00:00Z","op":"decide","paths":["warm/decisions.md"],"change_summary":"decided","decision_ids":["` + id + `"]}` + "\n")
	}
	log := "[2026-01-01] DECISION: Use TOML BECAUSE: fewer parse errors\nID: d-0001\nSTATUS: active\n"
	archive := "---\nsummary: archive\n---\n\n[2026-01-02] DECISION: Use YAML BECAUSE: readable\nID: d-0002\nSTATUS: reversed\nREVERSED_BY: [2026-01-03] Use TOML BECAUSE: fewer parse errors\n"
	for rel, data := range map[string]string{"ledger.jsonl": ledger.String(), store.DecisionsArchive: archive} {
		if err := afero.WriteFile(fs, root+"/"+rel, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	written, skipped := ReadWritten(fs, root)
	if skipped != "" || len(written) != 2 || written[0].ID != "d-0001" || written[1].ID != "d-0003" {
		t.Fatalf("written %+v, skipped %q", written, skipped)
	}
	m := decisionsMemory(log, "")
	m.Written = written
	d := CheckDecisions(m)[0].Details
	if len(d) != 1 || !strings.HasPrefix(d[0], "entry id d-0003, which the ledger records wake writing") {
		t.Fatalf("details %q, want d-0003 alone reported", d)
	}
}

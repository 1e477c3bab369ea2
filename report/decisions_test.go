package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

// The listing shows each entry's ID; one written by hand, without an ID
// line, is shown with the ID planned for it, marked as not in the file.
func TestDecisionsShowIDs(t *testing.T) {
	t.Parallel()
	log := tiers.ParseDecisions([]byte("[2026-01-01] DECISION: A BECAUSE: x\nID: d-0001\nSTATUS: active\n\n" +
		"[2026-01-02] DECISION: B BECAUSE: y\nSTATUS: active\nTOPIC: t\n"))
	planned := map[int]string{2: "d-0b0b"}
	var b bytes.Buffer
	DecisionsText(&b, log, planned, "", false, nil, nil, Pager{})
	for _, want := range []string{
		"#1   active    d-0001  [2026-01-01] A\n",
		"#2   active    d-0b0b* [2026-01-02] B  (topic: t)\n",
		"\n* written by hand: wake writes this id into the entry at its next write of the log; reverse, contest and uphold take it already.\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	data, err := DecisionsJSON(log, planned, "", false, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out Decisions
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if e := out.Entries; len(e) != 2 || e[0].ID != "d-0001" || !e[0].IDWritten || e[1].ID != "d-0b0b" || e[1].IDWritten {
		t.Errorf("JSON entries %+v", e)
	}
	b.Reset()
	DecisionsText(&b, log, nil, "", false, nil, nil, Pager{})
	if strings.Contains(b.String(), "*") {
		t.Errorf("nothing planned, nothing marked:\n%s", b.String())
	}
}

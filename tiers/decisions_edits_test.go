package tiers

import (
	"reflect"
	"strings"
	"testing"
)

const lastWrite = `---
summary: Decision log
---
# Decisions

<!-- guidance -->

[2026-01-01] DECISION: Use YAML for config BECAUSE: readability
STATUS: active

[2026-01-02] DECISION: Use SQLite BECAUSE: one file
STATUS: active
TOPIC: storage

[2026-01-03] DECISION: Money in cents BECAUSE: rounding
STATUS: active
`

func TestFindHandEdits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		current string
		want    []HandEdit
	}{
		{"unchanged", lastWrite, nil},
		{"lines added by hand", lastWrite + "\n[2026-01-04] DECISION: Mine BECAUSE: I say so\n", nil},
		{"template comment and heading removed", strings.Replace(strings.Replace(lastWrite, "<!-- guidance -->\n", "", 1), "# Decisions\n", "", 1), nil},
		{"trailing space and CRLF are not edits", strings.ReplaceAll(strings.Replace(lastWrite, "STATUS: active\n", "STATUS: active  \n", 1), "\n", "\r\n"), nil},
		{"entry deleted", strings.Replace(lastWrite, "[2026-01-02] DECISION: Use SQLite BECAUSE: one file\nSTATUS: active\nTOPIC: storage\n\n", "", 1),
			[]HandEdit{{Entry: 2, Title: "[2026-01-02] Use SQLite", Deleted: true, Removed: []RemovedLine{
				{11, "[2026-01-02] DECISION: Use SQLite BECAUSE: one file"}, {12, "STATUS: active"}, {13, "TOPIC: storage"}}}}},
		{"status edited by hand", strings.Replace(lastWrite, "BECAUSE: readability\nSTATUS: active", "BECAUSE: readability\nSTATUS: reversed", 1),
			[]HandEdit{{Entry: 1, Title: "[2026-01-01] Use YAML for config", Removed: []RemovedLine{{9, "STATUS: active"}}}}},
		{"text reworded and last entry cut", strings.Replace(lastWrite[:strings.Index(lastWrite, "[2026-01-03]")], "one file", "one file to back up", 1),
			[]HandEdit{
				{Entry: 2, Title: "[2026-01-02] Use SQLite", Removed: []RemovedLine{{11, "[2026-01-02] DECISION: Use SQLite BECAUSE: one file"}}},
				{Entry: 3, Title: "[2026-01-03] Money in cents", Deleted: true, Removed: []RemovedLine{{15, "[2026-01-03] DECISION: Money in cents BECAUSE: rounding"}, {16, "STATUS: active"}}},
			}},
		{"file emptied", "", []HandEdit{
			{Entry: 1, Title: "[2026-01-01] Use YAML for config", Deleted: true, Removed: []RemovedLine{{8, "[2026-01-01] DECISION: Use YAML for config BECAUSE: readability"}, {9, "STATUS: active"}}},
			{Entry: 2, Title: "[2026-01-02] Use SQLite", Deleted: true, Removed: []RemovedLine{{11, "[2026-01-02] DECISION: Use SQLite BECAUSE: one file"}, {12, "STATUS: active"}, {13, "TOPIC: storage"}}},
			{Entry: 3, Title: "[2026-01-03] Money in cents", Deleted: true, Removed: []RemovedLine{{15, "[2026-01-03] DECISION: Money in cents BECAUSE: rounding"}, {16, "STATUS: active"}}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := FindHandEdits([]byte(lastWrite), []byte(tc.current))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("FindHandEdits:\n got  %+v\n want %+v", got, tc.want)
			}
		})
	}
}

// A hand edit names the entry by the ID it had in wake's last write.
func TestFindHandEditsNamesIDs(t *testing.T) {
	t.Parallel()
	last := "[2026-01-01] DECISION: A BECAUSE: x\nID: d-0001\n\n[2026-01-02] DECISION: B BECAUSE: y\nID: d-0002\n"
	got := FindHandEdits([]byte(last), []byte("[2026-01-02] DECISION: B BECAUSE: y\nID: d-0002\n"))
	if len(got) != 1 || got[0].ID != "d-0001" || got[0].Name() != "1 (id d-0001)" || !got[0].Deleted {
		t.Errorf("edits %+v", got)
	}
}

func FuzzFindHandEdits(f *testing.F) {
	f.Add([]byte(lastWrite), []byte(""))
	f.Add([]byte(lastWrite), []byte(strings.Replace(lastWrite, "STATUS: active", "STATUS: reversed", 2)))
	f.Add([]byte("[2026-01-01] DECISION: A BECAUSE: x\n"), []byte("[2026-01-01] DECISION: A BECAUSE: x\n"))
	f.Fuzz(func(t *testing.T, last, cur []byte) {
		edits := FindHandEdits(last, cur)
		n := len(ParseDecisions(last).Entries)
		for _, e := range edits {
			if e.Entry < 1 || e.Entry > n || len(e.Removed) == 0 {
				t.Fatalf("edit %+v of %d entries", e, n)
			}
		}
		if string(last) == string(cur) && len(edits) > 0 {
			t.Fatalf("identical texts give edits %+v", edits)
		}
	})
}

// A STATUS line another clone's wake changed, brought by git without the
// merge driver (a pull that fast-forwards, a rebase, a checkout), is no
// edit by hand: the entry gained the annotation that gives its status. A
// status changed alone, or to one its annotations do not give, still is.
func TestFindHandEditsStatusFromAnotherClone(t *testing.T) {
	t.Parallel()
	last := "[2026-01-01] DECISION: Use Go BECAUSE: fast\nID: d-1a2b3c-aaaaaa\nSTATUS: reversed\nREVERSED_BY: [2026-01-02] Use Zig BECAUSE: small\n\n" +
		"[2026-01-01] DECISION: Use SQLite BECAUSE: one file\nID: d-4d5e6f-aaaaaa\nSTATUS: active\n"
	edited := func(t *testing.T, current string, want bool) {
		t.Helper()
		if got := FindHandEdits([]byte(last), []byte(current)) != nil; got != want {
			t.Errorf("edit found %v, want %v:\n%s", got, want, current)
		}
	}
	t.Run("merged contested", func(t *testing.T) {
		edited(t, strings.Replace(last, "STATUS: reversed\n", "STATUS: contested\nREVERSED_BY: [2026-01-02] Use Rust BECAUSE: safe\n", 1)+
			"", false)
		edited(t, strings.Replace(last, "STATUS: reversed\nREVERSED_BY: [2026-01-02] Use Zig BECAUSE: small\n",
			"STATUS: contested\nREVERSED_BY: [2026-01-02] Use Rust BECAUSE: safe\nREVERSED_BY: [2026-01-02] Use Zig BECAUSE: small\nOBJECTION: [2026-01-03] reversed differently on two branches\n", 1), false)
	})
	t.Run("reversed elsewhere", func(t *testing.T) {
		edited(t, strings.Replace(last, "STATUS: active\n", "STATUS: reversed\nREVERSED_BY: [2026-01-02] Use Postgres BECAUSE: big\n", 1), false)
	})
	t.Run("contested then upheld elsewhere", func(t *testing.T) {
		edited(t, strings.Replace(last, "STATUS: active\n", "STATUS: active\nOBJECTION: [2026-01-02] big\nPROPOSED: Postgres\nUPHELD: [2026-01-03] small is fine\n", 1), false)
		edited(t, strings.Replace(last, "STATUS: active\n", "STATUS: contested\nOBJECTION: [2026-01-02] big\nPROPOSED: Postgres\n", 1), false)
	})
	t.Run("status alone", func(t *testing.T) {
		edited(t, strings.Replace(last, "STATUS: active\n", "STATUS: reversed\n", 1), true)
		edited(t, strings.Replace(last, "STATUS: reversed\n", "STATUS: active\n", 1), true)
	})
	t.Run("status the annotations do not give", func(t *testing.T) {
		edited(t, strings.Replace(last, "STATUS: active\n", "STATUS: active\nREVERSED_BY: [2026-01-02] Use Postgres BECAUSE: big\n", 1), false) // only lines added
		edited(t, strings.Replace(last, "STATUS: active\n", "STATUS: contested\nREVERSED_BY: [2026-01-02] Use Postgres BECAUSE: big\n", 1), true)
		edited(t, strings.Replace(last, "STATUS: reversed\n", "STATUS: active\nOBJECTION: [2026-01-03] no\n", 1), true)
	})
	t.Run("moved behind the other branch's entries", func(t *testing.T) {
		// Their entries before ours, one reversed as ours was: a diff of
		// the whole log may keep ours' STATUS line against theirs' and
		// drop the REVERSED_BY both logs hold.
		theirs := "[2026-01-01] DECISION: Use Rust BECAUSE: safe\nID: d-777777-bbbbbb\nSTATUS: active\n\n" +
			"[2026-01-01] DECISION: Theirs BECAUSE: x\nID: d-888888-bbbbbb\nSTATUS: reversed\nREVERSED_BY: [2026-01-02] Other BECAUSE: y\n\n"
		head, rest, _ := strings.Cut(last, "\n\n")
		merged := strings.Replace(head+"\n", "STATUS: reversed\n", "STATUS: contested\nREVERSED_BY: [2026-01-02] Use Rust BECAUSE: safe\n", 1) +
			"OBJECTION: [2026-01-03] reversed differently on two branches\n\n" + theirs + rest
		edited(t, merged, false)
		edited(t, strings.Replace(merged, "REVERSED_BY: [2026-01-02] Use Zig BECAUSE: small\n", "", 1), true)
	})
	t.Run("status and another line", func(t *testing.T) {
		edited(t, strings.Replace(last, "STATUS: active\n", "STATUS: reversed\nREVERSED_BY: [2026-01-02] Use Postgres BECAUSE: big\n", 1)+"", false)
		edited(t, strings.Replace(strings.Replace(last, "STATUS: active\n", "STATUS: reversed\nREVERSED_BY: [2026-01-02] Use Postgres BECAUSE: big\n", 1), "one file", "two files", 1), true)
	})
}

// An entry a merge re-identified (the other branch had an entry with its
// ID, another decision) is no edit by hand on the clone that pulls the
// merge: its ID line alone changed, and its old ID is the other entry's.
// Its text changed as well still is one.
func TestFindHandEditsReidentified(t *testing.T) {
	t.Parallel()
	last := "[2026-01-01] DECISION: Use tabs BECAUSE: width\nID: d-ac2b\nSTATUS: active\n"
	merged := "[2026-01-01] DECISION: Use spaces BECAUSE: diffs\nID: d-ac2b\nSTATUS: active\n\n" +
		"[2026-01-01] DECISION: Use tabs BECAUSE: width\nID: d-13f5\nSTATUS: active\n"
	if h := FindHandEdits([]byte(last), []byte(merged)); h != nil {
		t.Errorf("re-identified: %+v", h)
	}
	if h := FindHandEdits([]byte(last), []byte(strings.Replace(merged, "BECAUSE: width", "BECAUSE: taste", 1))); h == nil {
		t.Error("re-identified and reworded: no edit found")
	}
	// The ID changed with no other entry holding the old one: an edit.
	if h := FindHandEdits([]byte(last), []byte(strings.Replace(last, "d-ac2b", "d-13f5", 1))); h == nil {
		t.Error("ID edited: no edit found")
	}
}

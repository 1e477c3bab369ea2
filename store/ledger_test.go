package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

	"github.com/spf13/afero"
)

var ledgerT0 = time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC)

func ledgerEntry(i int) Entry {
	return Entry{At: ledgerT0.Add(time.Duration(i) * time.Hour), Op: "decide", Paths: []string{"warm/decisions.md"}, ChangeSummary: fmt.Sprintf("decision %d", i)}
}

func writeLedger(t *testing.T, fs afero.Fs, text string) {
	t.Helper()
	if err := afero.WriteFile(fs, "/r/ledger.jsonl", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readLedgerText(t *testing.T, fs afero.Fs) string {
	t.Helper()
	data, err := afero.ReadFile(fs, "/r/ledger.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestEntryValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		e    Entry
		err  string
	}{
		{"ok", Entry{Op: "handoff", ChangeSummary: "wrote the hand-off", Summary: "one line"}, ""},
		{"no op", Entry{ChangeSummary: "x"}, "op is required"},
		{"op with space", Entry{Op: "hand off", ChangeSummary: "x"}, "one word"},
		{"no change summary", Entry{Op: "init", ChangeSummary: "  "}, "change_summary is required"},
		{"two-line change summary", Entry{Op: "init", ChangeSummary: "a\nb"}, "change_summary must be one line"},
		{"two-line summary", Entry{Op: "init", ChangeSummary: "a", Summary: "a\r\nb"}, "summary must be one line"},
		{"secret", Entry{Op: "edit", ChangeSummary: "deleted by hand", Sensitivity: "secret"}, ""},
		{"internal is not recorded", Entry{Op: "edit", ChangeSummary: "x", Sensitivity: "internal"}, "neither confidential nor secret"},
	} {
		err := tc.e.Validate()
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.err)
		}
	}
}

// TestLedgerRoundTrip proves entries come back as written, one line each,
// with the summary field only when set.
func TestLedgerRoundTrip(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	want := []Entry{ledgerEntry(0), {At: ledgerT0.Add(90 * time.Minute), Op: "handoff", Paths: []string{"recent/latest.md"}, ChangeSummary: "hand-off", Summary: "Fixed rounding"}}
	for _, e := range want {
		if err := AppendLedger(fs, "/r", e); err != nil {
			t.Fatal(err)
		}
	}
	text := readLedgerText(t, fs)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) != 2 || strings.Contains(lines[0], "summary\":\"") && !strings.Contains(lines[0], "change_summary") || strings.Contains(lines[0], `"summary"`) || !strings.Contains(lines[1], `"summary":"Fixed rounding"`) {
		t.Fatalf("ledger text:\n%s", text)
	}
	got, bad, err := ReadLedger(fs, "/r")
	if err != nil || len(bad) != 0 || len(got) != 2 {
		t.Fatalf("got %v, bad %v, err %v", got, bad, err)
	}
	for i := range want {
		if !got[i].At.Equal(want[i].At) || got[i].Op != want[i].Op || got[i].ChangeSummary != want[i].ChangeSummary || got[i].Summary != want[i].Summary {
			t.Errorf("entry %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if err := AppendLedger(fs, "/r", Entry{Op: "x"}); err == nil || readLedgerText(t, fs) != text {
		t.Fatalf("an invalid entry was appended (err %v)", err)
	}
}

// TestLedgerTornAndEditedLines covers a crash mid-append (a torn last line),
// a hand edit, and appending after the torn line: every bad line is skipped
// and reported with its number, and the good ones are all kept.
func TestLedgerTornAndEditedLines(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	for i := range 3 {
		AppendLedger(fs, "/r", ledgerEntry(i))
	}
	good := readLedgerText(t, fs)
	lines := strings.SplitAfter(good, "\n")
	// Line 2 edited by hand into something that is not an entry; a torn
	// copy of line 1 left at the end with no newline.
	edited := lines[0] + `{"at":"yesterday","op":"decide","change_summary":"x"}` + "\n" + lines[2] + lines[0][:40]
	writeLedger(t, fs, edited)

	entries, bad, err := ReadLedger(fs, "/r")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].ChangeSummary != "decision 0" || entries[1].ChangeSummary != "decision 2" {
		t.Fatalf("entries: %+v", entries)
	}
	if len(bad) != 2 || bad[0].Line != 2 || bad[1].Line != 4 {
		t.Fatalf("bad lines: %+v", bad)
	}
	if s := bad[1].String(); !strings.HasPrefix(s, "ledger.jsonl:4: skipped an unreadable ledger line") {
		t.Fatalf("report: %s", s)
	}

	// Appending after the torn line closes it first: the torn line stays
	// one bad line and the new entry is whole.
	if err := AppendLedger(fs, "/r", ledgerEntry(3)); err != nil {
		t.Fatal(err)
	}
	after := readLedgerText(t, fs)
	if !strings.HasPrefix(after, edited+"\n{") || !strings.HasSuffix(after, "}\n") {
		t.Fatalf("append after a torn line:\n%s", after)
	}
	entries, bad, _ = ReadLedger(fs, "/r")
	if len(entries) != 3 || entries[2].ChangeSummary != "decision 3" || len(bad) != 2 || bad[1].Line != 4 {
		t.Fatalf("after append: entries %+v, bad %+v", entries, bad)
	}
}

func TestLedgerMissingAndBlankLines(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	if e, b, err := ReadLedger(fs, "/r"); e != nil || b != nil || err != nil {
		t.Fatalf("missing ledger: %v %v %v", e, b, err)
	}
	writeLedger(t, fs, "\n   \n")
	if e, b, err := ReadLedger(fs, "/r"); len(e) != 0 || len(b) != 0 || err != nil {
		t.Fatalf("blank ledger: %v %v %v", e, b, err)
	}
	for _, line := range []string{`{"op":"init","change_summary":"x"}`, `{"at":"2026-11-22T03:24:20Z","change_summary":"x"}`, `{"at":"2026-11-22T03:24:20Z","op":"init","change_summary":""}`, `[1,2]`} {
		writeLedger(t, fs, line+"\n")
		if e, b, _ := ReadLedger(fs, "/r"); len(e) != 0 || len(b) != 1 || b[0].Line != 1 {
			t.Errorf("%s: entries %v bad %v", line, e, b)
		}
	}
}

// TestReadLedgerSince proves the digest's reader returns exactly the
// window's entries and its bad lines, with file line numbers, without
// looking past the first older entry.
func TestReadLedgerSince(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	var b strings.Builder
	b.WriteString("not json from long ago\n") // line 1: older than the window
	for i := range 6 {                        // lines 2-7
		AppendLedger(fs, "/r", ledgerEntry(i))
	}
	b.WriteString(readLedgerText(t, fs))
	b.WriteString("{\"at\":\"2026-11-22T09:") // line 8, torn
	writeLedger(t, fs, b.String())

	for _, tc := range []struct {
		since   time.Time
		want    []string
		badLine []int
	}{
		{ledgerT0.Add(3 * time.Hour), []string{"decision 3", "decision 4", "decision 5"}, []int{8}},
		{ledgerT0.Add(3*time.Hour + time.Second), []string{"decision 4", "decision 5"}, []int{8}},
		{ledgerT0.Add(10 * time.Hour), nil, []int{8}},
		{ledgerT0.Add(-time.Hour), []string{"decision 0", "decision 1", "decision 2", "decision 3", "decision 4", "decision 5"}, []int{1, 8}},
	} {
		entries, bad, err := ReadLedgerSince(fs, "/r", tc.since)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.ChangeSummary)
		}
		var lines []int
		for _, b := range bad {
			lines = append(lines, b.Line)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) || fmt.Sprint(lines) != fmt.Sprint(tc.badLine) {
			t.Errorf("since %s: got %v bad %v, want %v bad %v", tc.since.Format(time.TimeOnly), got, lines, tc.want, tc.badLine)
		}
	}
	if e, b, err := ReadLedgerSince(afero.NewMemMapFs(), "/r", ledgerT0); e != nil || b != nil || err != nil {
		t.Fatalf("missing ledger: %v %v %v", e, b, err)
	}
}

// TestMutateAppendsOneLine proves every mutation through the Store leaves
// exactly one ledger line, and a failed one none.
func TestMutateAppendsOneLine(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	s := &Store{FS: fs, Root: "/r", Now: func() time.Time { return ledgerT0 }, Locker: &memlock.Locker{}, Writer: "wtest"}
	for i := range 3 {
		err := s.Mutate(context.Background(), func() (Entry, error) {
			return Entry{Op: "remember", Paths: []string{"cold/a.md"}, ChangeSummary: fmt.Sprintf("change %d", i), Summary: "doc summary"}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	boom := errors.New("boom")
	if err := s.Mutate(context.Background(), func() (Entry, error) { return Entry{}, boom }); !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	if n := strings.Count(readLedgerText(t, fs), "\n"); n != 3 {
		t.Fatalf("%d ledger lines after 3 mutations and a failed one", n)
	}
	entries, _, _ := ReadLedger(fs, "/r")
	if !entries[0].At.Equal(ledgerT0) || entries[2].Summary != "doc summary" {
		t.Fatalf("entries: %+v", entries)
	}
}

// FuzzReadLedger feeds arbitrary ledgers to both readers: they never fail
// on content, every line is either an entry or a bad line, and the window
// reader agrees with the full reader on the entries it returns.
func FuzzReadLedger(f *testing.F) {
	f.Add([]byte(`{"at":"2026-11-22T03:24:20Z","op":"init","paths":["main.md"],"change_summary":"first wake"}` + "\n"))
	f.Add([]byte(`{"at":"2026-11-22T03:24:20Z","op":"init","paths":[],"change_summary":"x"}` + "\n{\"at\":\"2026-11"))
	f.Add([]byte("\n\n{}\n[]\nnull\n"))
	f.Add([]byte(`{"at":"2026-11-22T03:24:20Z","op":"a b","change_summary":"x\ny"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fs := afero.NewMemMapFs()
		afero.WriteFile(fs, "/r/ledger.jsonl", data, 0o644)
		entries, bad, err := ReadLedger(fs, "/r")
		if err != nil {
			t.Fatal(err)
		}
		nonBlank := 0
		for _, l := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(l) != "" {
				nonBlank++
			}
		}
		if len(entries)+len(bad) > nonBlank {
			t.Fatalf("%d entries and %d bad lines from %d lines", len(entries), len(bad), nonBlank)
		}
		for _, e := range entries {
			if e.Validate() != nil || e.At.IsZero() {
				t.Fatalf("invalid entry returned: %+v", e)
			}
		}
		since, _, err := ReadLedgerSince(fs, "/r", time.Time{})
		if err != nil || len(since) > len(entries) {
			t.Fatalf("since: %d entries, full: %d (%v)", len(since), len(entries), err)
		}
	})
}

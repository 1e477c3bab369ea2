package tiers

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

const contractInbox = `# Remember later

Reminders to pick up later.

## 1 · 2026-11-22T22:24:46Z
- reminder: Outline onboarding UX spike
- topic: ux
- next: Review mockups
- tags: ux, spike
- consumed: main/20261122T223000Z at 2026-11-22T22:30:00Z

## 2 · 2026-11-22T22:25:00Z
- reminder: Check the flaky test
- done: fixed in #12 at 2026-11-23T08:00:00Z

## 3 · 2026-11-22T22:26:00Z
- reminder: Ask about the API key rotation
`

func TestParseInboxContractFormat(t *testing.T) {
	b, err := ParseInbox([]byte(contractInbox))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Reminders) != 3 || b.Last != 3 || b.EOL != "\n" {
		t.Fatalf("%+v", b)
	}
	r := b.Reminders[0]
	want := Reminder{N: 1, At: time.Date(2026, 11, 22, 22, 24, 46, 0, time.UTC), Text: "Outline onboarding UX spike",
		Topic: "ux", Next: "Review mockups", Tags: []string{"ux", "spike"}, Consumed: "main/20261122T223000Z",
		ClosedAt: time.Date(2026, 11, 22, 22, 30, 0, 0, time.UTC), Line: 5}
	want.End = strings.Index(contractInbox, "\n\n## 2") + 1
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("got  %+v\nwant %+v", r, want)
	}
	if r.Open() || r.Closure() != "consumed by capsule main/20261122T223000Z at 2026-11-22T22:30:00Z" {
		t.Fatalf("closure %q", r.Closure())
	}
	d := b.Reminders[1]
	if d.Done != "fixed in #12" || d.Open() || d.Closure() != "done at 2026-11-23T08:00:00Z: fixed in #12" {
		t.Fatalf("%+v %q", d, d.Closure())
	}
	if open := b.Open(); len(open) != 1 || open[0].N != 3 || open[0].End != len(contractInbox) {
		t.Fatalf("open %+v", open)
	}
}

// Hand edits: CRLF, front matter (lines still counted), prose and foreign
// headings, "*" bullets, keys in capitals, a wrapped value, unknown
// fields, a heading written with "-" and a date only, a last line with no
// newline.
func TestParseInboxToleratesHandEdits(t *testing.T) {
	in := strings.Join([]string{
		"---",
		"sensitivity: confidential",
		"---",
		"# Remember later",
		"",
		"Some notes of my own.",
		"",
		"## 4 - 2026-11-20",
		"* Reminder: Wrap the long",
		"  reminder onto two lines",
		"* Priority: high",
		"Free prose in the entry.",
		"* TAGS: a,, b ,c",
		"",
		"## My own notes",
		"- reminder: not an entry: this heading has no number",
		"",
		"  ## 7 · 2026-11-21T10:00:00Z",
		"- reminder: last one",
		"- next: do it",
	}, "\r\n")
	b, err := ParseInbox([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if b.EOL != "\r\n" || b.Last != 7 || len(b.Reminders) != 2 {
		t.Fatalf("%+v", b)
	}
	r := b.Reminders[0]
	if r.N != 4 || r.Line != 8 || r.Text != "Wrap the long reminder onto two lines" || !reflect.DeepEqual(r.Tags, []string{"a", "b", "c"}) ||
		!r.At.Equal(time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("%+v", r)
	}
	if got := in[:r.End]; !strings.HasSuffix(got, "* TAGS: a,, b ,c\r\n") {
		t.Fatalf("entry 4 ends at %q", got[len(got)-20:])
	}
	if l := b.Reminders[1]; l.N != 7 || l.Line != 18 || l.Next != "do it" || l.End != len(in) {
		t.Fatalf("%+v", l)
	}
}

func TestParseInboxReportsMalformedEntries(t *testing.T) {
	in := `# Remember later

## 1 · 2026-11-22T22:24:46Z
- reminder: fine
- topic: a
- topic: b

## 2 · yesterday
- reminder: time unreadable, still read

## 3 · 2026-11-22T22:24:46Z
- next: but no reminder line

## 1 · 2026-11-22T22:24:46Z
- reminder: a number used twice

## 5
- reminder: no time
- done:
`
	b, err := ParseInbox([]byte(in))
	var ie *InboxError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v", err)
	}
	lines := map[int]string{}
	for _, p := range ie.Problems {
		lines[p.Line] = p.Reason
	}
	for line, want := range map[int]string{6: "topic: twice", 8: `time "yesterday" is not readable`,
		11: "entry 3 has no reminder: line", 14: "already the entry on line 3", 17: "entry 5 has no time", 19: "done: says nothing"} {
		if !strings.Contains(lines[line], want) {
			t.Errorf("line %d: %q, want %q", line, lines[line], want)
		}
	}
	if len(ie.Problems) != 6 {
		t.Errorf("%d problems: %+v", len(ie.Problems), ie.Problems)
	}
	if !strings.Contains(err.Error(), InboxPath+":14: ") {
		t.Errorf("the error names no file and line: %v", err)
	}
	// What could be read still is: 1 (first topic kept), 2, 5 (open).
	var ns []int
	for _, r := range b.Reminders {
		ns = append(ns, r.N)
	}
	if !reflect.DeepEqual(ns, []int{1, 2, 5}) || b.Reminders[0].Topic != "a" || !b.Reminders[2].Open() || b.Last != 5 {
		t.Fatalf("%v %+v", ns, b.Reminders)
	}
}

func TestParseInboxRefusesNonText(t *testing.T) {
	for name, tc := range map[string]struct {
		data string
		want string
	}{
		"binary":  {"# Remember later\n\x00\x01", InboxPath + ": not a text file (NUL byte at offset 17)"},
		"invalid": {"# Remember later\n\n## 1 · 2026-11-22\n- reminder: caf\xe9\n", InboxPath + ":4: invalid UTF-8"},
	} {
		b, err := ParseInbox([]byte(tc.data))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || len(b.Reminders) != 0 {
			t.Errorf("%s: %v %+v", name, err, b)
		}
		var ie *InboxError
		if errors.As(err, &ie) {
			t.Errorf("%s: refused as malformed entries, not as a file that is no text", name)
		}
	}
}

func TestParseInboxEmpty(t *testing.T) {
	for _, in := range []string{"", "# Remember later\n\nnothing yet\n", "---\nsensitivity: secret\n---\n"} {
		b, err := ParseInbox([]byte(in))
		if err != nil || len(b.Reminders) != 0 || b.Last != 0 {
			t.Errorf("%q: %+v %v", in, b, err)
		}
	}
}

func FuzzParseInbox(f *testing.F) {
	f.Add([]byte(contractInbox))
	f.Add([]byte("## 1 · x\r\n- reminder: a\r\n  b"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, _ := ParseInbox(data)
		seen := map[int]bool{}
		for _, r := range b.Reminders {
			if r.End < 0 || r.End > len(data) || r.Text == "" || seen[r.N] || r.N > b.Last {
				t.Fatalf("%+v", r)
			}
			seen[r.N] = true
		}
	})
}

// Two reminders with one id (a copy by hand, a merge without the driver)
// are both read, by number, and the second is a problem naming the likely
// cause.
func TestParseInboxDuplicateID(t *testing.T) {
	t.Parallel()
	data := "# Remember later\n\n## 1 · 2026-11-20T10:00:00Z\n- id: r-1a2b3c-k3f9qa\n- reminder: check the oven log\n\n" +
		"## 2 · 2026-11-21T10:00:00Z\n- id: R-1A2B3C-k3f9qa\n- reminder: call the bank\n"
	b, err := ParseInbox([]byte(data))
	if len(b.Reminders) != 2 || len(b.Problems) != 1 || b.Problems[0].Line != 7 ||
		!strings.Contains(b.Problems[0].Reason, "entry 2 has the id R-1A2B3C-k3f9qa of the entry on line 3") ||
		!strings.Contains(b.Problems[0].Reason, "without wake's merge driver") || err == nil {
		t.Errorf("reminders %+v, problems %+v, err %v", b.Reminders, b.Problems, err)
	}
}

// TestInboxThreadFields: an entry's hypothesis and missing lines (with
// continuations) are read.
func TestInboxThreadFields(t *testing.T) {
	b, err := ParseInbox([]byte("# Remember later\n\n## 1 · 2026-11-22T09:00:00Z\n- reminder: slow imports\n- hypothesis: the parser\n  copies rows\n- missing: a profile\n"))
	if err != nil || len(b.Reminders) != 1 || b.Reminders[0].Hypothesis != "the parser copies rows" || b.Reminders[0].Missing != "a profile" {
		t.Fatalf("reminders %+v, %v", b.Reminders, err)
	}
}

package cold

import (
	"cmp"
	"regexp"
	"strconv"
	"testing"
)

// TestSessionRecordNames: a record named with its writer id, as wake
// names them now, and one named by time alone, as older wakes did, are
// both records grouped by month and ordered newest first.
func TestSessionRecordNames(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"cold/sessions/2026-11-22T03-24-20Z.md",
		"cold/sessions/2026-11-22T03-24-20Z-3.md",
		"cold/sessions/2026-11-22T03-24-20Z-k3f9qa.md",
		"cold/sessions/2026-11-22T03-24-20Z-k3f9qa-2.md",
	} {
		if got := sessionMonth(name); got != "2026-11" {
			t.Errorf("sessionMonth(%q) = %q", name, got)
		}
	}
	if got := sessionMonth("cold/sessions/2026-11-22T03-24-20Z-K3F9QA.md"); got != "" {
		t.Errorf("a name that is no record's has month %q", got)
	}
	for _, tc := range []struct{ newer, older string }{
		{"2026-11-22T03-24-21Z-aaaaaa.md", "2026-11-22T03-24-20Z-zzzzzz.md"},
		{"2026-11-22T03-24-20Z-k3f9qa-2.md", "2026-11-22T03-24-20Z-k3f9qa.md"},
		{"2026-11-22T03-24-20Z-k3f9qa.md", "2026-11-22T03-24-19Z.md"},
	} {
		if c, ok := compareRecords(tc.newer, tc.older); !ok || c >= 0 {
			t.Errorf("compareRecords(%q, %q) = %d, %v: want the first first", tc.newer, tc.older, c, ok)
		}
	}
}

// recordPattern is the regular expression the names were read with
// before parseRecordName: the two must agree.
var recordPattern = regexp.MustCompile(`^(\d{4}-\d{2})-\d{2}T\d{2}-\d{2}-\d{2}Z(?:-([a-z][a-z0-9]{2,15}))?(?:-(\d{1,9}))?\.md$`)

func checkRecordName(t *testing.T, name string) {
	m := recordPattern.FindStringSubmatch(name)
	r, ok := parseRecordName(name)
	if ok != (m != nil) {
		t.Fatalf("parseRecordName(%q) ok = %v, the pattern %v", name, ok, m != nil)
	}
	if !ok {
		return
	}
	n, _ := strconv.Atoi(cmp.Or(m[3], "1"))
	if r.month() != m[1] || r.writer != m[2] || r.n != n || r.time != name[:20] {
		t.Fatalf("parseRecordName(%q) = %+v, the pattern %q", name, r, m)
	}
}

func TestParseRecordNameAgrees(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"2026-11-22T03-24-20Z.md", "2026-11-22T03-24-20Z-3.md", "2026-11-22T03-24-20Z-k3f9qa.md",
		"2026-11-22T03-24-20Z-k3f9qa-2.md", "2026-11-22T03-24-20Z-K3F9QA.md", "2026-11-22T03-24-20Z-ab.md",
		"2026-11-22T03-24-20Z-abcdefghijklmnop.md", "2026-11-22T03-24-20Z-abcdefghijklmnopq.md",
		"2026-11-22T03-24-20Z-123456789.md", "2026-11-22T03-24-20Z-1234567890.md", "2026-11-22T03-24-20Z-.md",
		"2026-11-22T03-24-20Z--1.md", "2026-11-22T03-24-20Z-abc-.md", "2026-11-22T03-24-20Z-abc-1-2.md",
		"2026-11-22T03-24-20Zx.md", "2026-11-22T03-24-20Z.txt", "2026-1-22T03-24-20Z.md", "notes.md", ".md", "",
		"2026-11-22T03-24-20Z-a1b.md", "2026-11-22T03-24-20Z-1ab.md", "2026-11-22T03-24-20Z.md.md",
	} {
		checkRecordName(t, name)
	}
}

func FuzzParseRecordName(f *testing.F) {
	f.Add("2026-11-22T03-24-20Z-k3f9qa-2.md")
	f.Add("2026-11-22T03-24-20Z.md")
	f.Fuzz(checkRecordName)
}

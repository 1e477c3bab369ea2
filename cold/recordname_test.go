package cold

import "testing"

// TestRecordNameIsTheRegexp: recordName matches what sessionRecord
// matches, with the same month and "-N".
func TestRecordNameIsTheRegexp(t *testing.T) {
	names := []string{
		"2026-01-02T09-00-00Z.md", "2026-01-02T09-00-00Z-2.md", "2026-01-02T09-00-00Z-123456789.md",
		"2026-01-02T09-00-00Z-1234567890.md", "2026-01-02T09-00-00Z-.md", "2026-01-02T09-00-00Z-x.md",
		"2026-01-02T09-00-00Z.txt", "2026-01-02T09-00-00.md", "2026-01-02t09-00-00Z.md", "x2026-01-02T09-00-00Z.md",
		"2026-01-02T09-00-00Z.md.md", "2026-1-02T09-00-00Z.md", "2026-01-02T09:00:00Z.md", "notes.md", ".md", "",
		"2026-01-02T09-00-00Z-02.md", "2026-01-02T09-00-00Z--2.md", "2026-01-02T09-00-00Z-2-3.md", "٢٠٢٦-01-02T09-00-00Z.md",
	}
	for _, base := range names {
		m := sessionRecord().FindStringSubmatch(base)
		month, n, ok := recordName(base)
		if ok != (m != nil) || ok && (month != m[1] || n != m[2]) {
			t.Errorf("%q: recordName %q %q %v, the regexp %q", base, month, n, ok, m)
		}
	}
}

func FuzzRecordName(f *testing.F) {
	f.Add("2026-01-02T09-00-00Z-2.md")
	f.Fuzz(func(t *testing.T, base string) {
		m := sessionRecord().FindStringSubmatch(base)
		month, n, ok := recordName(base)
		if ok != (m != nil) || ok && (month != m[1] || n != m[2]) {
			t.Errorf("%q: recordName %q %q %v, the regexp %q", base, month, n, ok, m)
		}
	})
}

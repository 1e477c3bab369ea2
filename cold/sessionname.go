package cold

import (
	"cmp"
	"path"
	"strings"
)

// recordName is what the name of a session record says: a hand-off names
// its records by the session's time, the writer id of the clone that
// wrote it (absent from the names older wakes gave) and "-N" when the
// name was taken: 2026-11-22T03-24-20Z-k3f9qa-2.md.
type recordName struct {
	time   string // "2026-11-22T03-24-20Z"
	writer string // "" in the names older wakes gave
	n      int    // 1 when the name has no "-N"
}

// month is the month of the record's session: "2026-11".
func (r recordName) month() string { return r.time[:7] }

// parseRecordName reads the base name of a session record; ok is false
// for any other name. It reads the name by hand, not with a regular
// expression: the table of contents reads every record's name at every
// start, and sorts by them.
func parseRecordName(base string) (r recordName, ok bool) {
	const layout = "dddd-dd-ddTdd-dd-ddZ"
	rest, found := strings.CutSuffix(base, ".md")
	if !found || len(rest) < len(layout) {
		return recordName{}, false
	}
	for i := range len(layout) {
		c := rest[i]
		if layout[i] == 'd' && !isDigit(c) || layout[i] != 'd' && c != layout[i] {
			return recordName{}, false
		}
	}
	r.time, rest = rest[:len(layout)], rest[len(layout):]
	r.n = 1
	if w, ok := strings.CutPrefix(rest, "-"); ok && w != "" && 'a' <= w[0] && w[0] <= 'z' {
		end := 1
		for end < len(w) && (isDigit(w[end]) || 'a' <= w[end] && w[end] <= 'z') {
			end++
		}
		if end < 3 || end > 16 {
			return recordName{}, false
		}
		r.writer, rest = w[:end], w[end:]
	}
	if d, ok := strings.CutPrefix(rest, "-"); ok {
		if d == "" || len(d) > 9 {
			return recordName{}, false
		}
		n := 0
		for i := range len(d) {
			if !isDigit(d[i]) {
				return recordName{}, false
			}
			n = n*10 + int(d[i]-'0')
		}
		r.n, rest = n, ""
	}
	return r, rest == ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// sessionMonth is the month of a session record's name, "" for another
// name.
func sessionMonth(p string) string {
	if r, ok := parseRecordName(path.Base(p)); ok {
		return r.month()
	}
	return ""
}

// compareRecords orders session records newest first by their names
// (their session times, then the "-N" of a name taken in that second,
// then their writers); ok is false unless both are named as records.
func compareRecords(a, b string) (c int, ok bool) {
	ra, okA := parseRecordName(path.Base(a))
	rb, okB := parseRecordName(path.Base(b))
	if !okA || !okB {
		return 0, false
	}
	return compareRecordNames(ra, rb), true
}

// compareRecordNames is [compareRecords] of names already read.
func compareRecordNames(a, b recordName) int {
	if c := strings.Compare(b.time, a.time); c != 0 {
		return c
	}
	if c := cmp.Compare(b.n, a.n); c != 0 {
		return c
	}
	return strings.Compare(b.writer, a.writer)
}

package capsule

import (
	"path"
	"strings"
)

// changedPath is the file a Knowledge Base item names, cleaned, for
// telling two items about one file apart from two files: the text up to
// its first " (", " — ", " - " or ": " (a status or a note after the
// path), less backticks, a list marker and a leading "./". "" when the
// item names no path.
func changedPath(item string) string {
	s := strings.TrimSpace(item)
	for _, p := range []string{"-", "*"} {
		if r, ok := strings.CutPrefix(s, p); ok && (r == "" || r[0] == ' ') {
			s = strings.TrimSpace(r)
		}
	}
	cut := len(s)
	for _, sep := range []string{" (", " — ", " - ", ": "} {
		if i := strings.Index(s, sep); i >= 0 && i < cut {
			cut = i
		}
	}
	s = strings.Trim(strings.TrimSpace(s[:cut]), "`")
	if s == "" {
		return ""
	}
	return path.Clean(strings.TrimPrefix(s, "./"))
}

// gitNow is what git says of a file now, from a git item "path (status)":
// "status", or "" when the item carries none.
func gitNow(item string) string {
	i := strings.Index(item, " (")
	if i < 0 || !strings.HasSuffix(item, ")") {
		return ""
	}
	return item[i+2 : len(item)-1]
}

package transcript

import "bytes"

// member is a JSON member, key and value as JSON text (`"type"`,
// `"user"`), looked for in a line's bytes without a parse: the fast
// paths' test of whether a line needs parsing. It takes any JSON spacing
// around the colon, so that a transcript written with spaces ("type":
// "user", as some writers and every pretty-printer do) takes the fast
// path too, and reads as the same transcript written tight.
type member struct{ key, val []byte }

func newMember(key, val string) member { return member{[]byte(`"` + key + `"`), []byte(val)} }

// in reports whether the member is anywhere in line, nested or not, its
// key and value at the same place: a key in a string's text, escaped, is
// not found unless its value follows it there too (a superset, as the
// fast paths want: a line found is parsed).
func (m member) in(line []byte) bool {
	for i := 0; ; {
		j := bytes.Index(line[i:], m.key)
		if j < 0 {
			return false
		}
		i += j + len(m.key)
		if k := skipSpace(line, i); k < len(line) && line[k] == ':' {
			if bytes.HasPrefix(line[skipSpace(line, k+1):], m.val) {
				return true
			}
		}
	}
}

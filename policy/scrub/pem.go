package scrub

import (
	"strings"
)

var base64Bytes = bytesOf("a-z", "A-Z", "0-9", "+/=")

// pemEnd is the line that closes a private-key block.
var pemEnd = anchor(`-----END[ A-Z0-9_-]{0,64}PRIVATE KEY(?: BLOCK)?-----`)

// pemHeaders open the header lines a PEM or PGP armor block may have.
var pemHeaders = []string{"Proc-Type:", "DEK-Info:", "Comment:", "Version:", "Charset:", "Hash:"}

// pemBody measures the body of a private-key block in s, the text after
// its BEGIN line: key lines (base64, header lines, blank lines, newlines
// escaped as in a JSON string) up to and including the END line. A block
// pasted without its END line ends with its last line of 16 base64
// characters or more.
func pemBody(s string) (int, bool) {
	line := true // at the start of a line
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			line, i = true, i+1
			continue
		case c == '\\' && i+1 < len(s) && s[i+1] == 'n': // in a JSON string
			line, i = true, i+2
			continue
		case c == ' ' || c == '\t' || c == '\r':
		case line && (c == '>' || c == '#' || c == ';' || c == '/' && i+1 < len(s) && s[i+1] == '/'):
			// A block pasted quoted or commented out: "> ", "# ", "// "
			// open its lines, which stay the key's.
			for i < len(s) && (s[i] == '/' || s[i] == c) {
				i++
			}
			continue
		case line && pemHeader(s[i:]):
			n := strings.IndexByte(s[i:], '\n')
			if n < 0 {
				return pemCut(s)
			}
			i += n
			continue
		case base64Bytes[c]:
			line = false
		case c == '-':
			if loc := pemEnd.FindStringIndex(s[i:min(len(s), i+128)]); loc != nil {
				return i + loc[1], true
			}
			return pemCut(s)
		default:
			return pemCut(s)
		}
		i++
	}
	return pemCut(s)
}

// pemHeader reports whether s opens with a header line's name.
func pemHeader(s string) bool {
	for _, h := range pemHeaders {
		if strings.HasPrefix(s, h) {
			return true
		}
	}
	return false
}

// keyLine is a line of a key pasted without its END line.
var keyLine = lazy(`^[ \t]*[A-Za-z0-9+/=]{16,}\r?$`)

// pemCut measures a block that has no END line: the header and blank
// lines and the key lines that follow the BEGIN line, to the end of the
// last key line.
func pemCut(s string) (int, bool) {
	if !strings.HasPrefix(s, "\n") && !strings.HasPrefix(s, "\r\n") {
		return 0, false
	}
	end, at := 0, 0
	for at < len(s) {
		nl := strings.IndexByte(s[at:], '\n')
		if nl < 0 {
			nl = len(s) - at
		}
		line := s[at : at+nl]
		switch t := strings.TrimSpace(line); {
		case keyLine.MatchString(line):
			end = at + len(strings.TrimRight(line, "\r"))
		case at > 0 && t != "" && !pemHeader(t):
			return end, end > 0
		}
		at += nl + 1
	}
	return end, end > 0
}

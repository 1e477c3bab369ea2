package tiers

import "bytes"

// Git's conflict markers, as a merge left unresolved writes them at the
// start of a line: "<<<<<<< ours", "|||||||" (the ancestor, with diff3),
// "=======" and ">>>>>>> theirs".
var (
	markerOpen  = []byte("<<<<<<<")
	markerBase  = []byte("|||||||")
	markerSep   = []byte("=======")
	markerClose = []byte(">>>>>>>")
)

// ConflictMarkers returns the 1-based numbers of the lines of data that
// are git conflict markers, nil when there are none. Only a file with both
// an opening and a closing marker counts, so that a Markdown heading
// underlined with "=======" is no conflict, nor lines inside a fenced code
// block; a marker is seven of its characters alone on the line or
// followed by a space.
func ConflictMarkers(data []byte) []int {
	if !bytes.Contains(data, markerOpen) || !bytes.Contains(data, markerClose) {
		return nil
	}
	var lines []int
	var open, close, fenced bool
	for n, rest := 1, data; len(rest) > 0; n++ {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		// A fenced code block may show a conflict (a session explaining
		// one it resolved): what it quotes is no conflict of the file's.
		if t := bytes.TrimLeft(line, " "); bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")) {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range [][]byte{markerOpen, markerBase, markerSep, markerClose} {
			if bytes.HasPrefix(line, m) && (len(line) == len(m) || line[len(m)] == ' ') {
				lines = append(lines, n)
				open = open || bytes.Equal(m, markerOpen)
				close = close || bytes.Equal(m, markerClose)
				break
			}
		}
	}
	if !open || !close {
		return nil
	}
	return lines
}

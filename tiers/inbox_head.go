package tiers

import "bytes"

// ParseInboxHead parses data, the head of an inbox too big to read whole
// (a [Doc] read Huge, cut at a line's end), as [ParseInbox] does, up to
// the last heading of level 1 or 2 in it: the entry that heading opens
// may go on past the head (a closing line is added at an entry's end),
// so it is not read, open or closed. The result is Partial: the entries
// past the head are unknown, and Last is only the head's highest number,
// so no writer numbers from it.
func ParseInboxHead(data []byte) (Inbox, error) {
	start := 0
	if _, body, ok := SplitFrontMatter(data); ok {
		start = len(data) - len(body)
	}
	cut := len(data)
	for off := start; off < len(data); {
		next := len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			next = off + i + 1
		}
		if data[off] == '#' || data[off] == ' ' {
			if lvl, _ := HeadingLevel(string(bytes.TrimRight(data[off:next], "\r\n"))); lvl > 0 && lvl <= 2 {
				cut = off
			}
		}
		off = next
	}
	b, err := ParseInbox(data[:cut])
	b.Partial = true
	return b, err
}

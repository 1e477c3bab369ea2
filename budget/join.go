package budget

import "unicode/utf8"

// joinReach is how far back from the end of a head [CountJoined] looks
// for a line where the head's pieces are sure not to join the tail's.
const joinReach = 4 << 10

// CountJoined returns c.Count(head+tail) given n, which must be
// c.Count(head), counting only near the join when c is an [Encoder] or a
// [Cache] in front of one: the last lines of head and tail together, and
// not the whole of head again. With any other counter it counts
// head+tail. A Cache asks itself for head+tail first, and remembers it.
//
// It rests on a property of both encodings' split patterns (see
// split.go): a newline followed by a rune that is neither whitespace nor
// "/" always ends a piece, and no piece before it looks past it. At such a
// point p, the pieces of a text are the pieces of text[:p] followed by
// those of text[p:], so its count is the sum of theirs; and byte-pair
// merging never crosses a piece. TestCountJoined checks this against
// counting the whole text on many random texts.
func CountJoined(c Counter, head string, n int, tail string) int {
	switch c := c.(type) {
	case *Cache:
		return c.countJoined(head, n, tail)
	case *Encoder:
		return c.countJoined(head, n, tail)
	}
	return c.Count(head + tail)
}

// countJoined is [CountJoined] for the encoder.
func (e *Encoder) countJoined(head string, n int, tail string) int {
	if tail == "" {
		return n
	}
	p := joinPoint(head, tail)
	if p < 0 {
		return e.Count(head + tail)
	}
	if p == len(head) {
		return n + e.Count(tail)
	}
	last := head[p:]
	return n - e.Count(last) + e.Count(last+tail)
}

// joinPoint returns the last offset p of head, within joinReach of its
// end, that follows a newline and precedes a rune (of head+tail) that is
// neither whitespace nor "/", or -1 when there is none.
func joinPoint(head, tail string) int {
	for p := len(head); p > 0 && len(head)-p <= joinReach; p-- {
		if head[p-1] != '\n' {
			continue
		}
		var r rune
		var k uint8
		if p < len(head) {
			r, _, k = at(head, p)
		} else {
			r, _ = utf8.DecodeRuneInString(tail)
			k = classify(r)
			if r < 256 {
				k = latin1[r]
			}
		}
		if k&cS == 0 && r != '/' {
			return p
		}
	}
	return -1
}

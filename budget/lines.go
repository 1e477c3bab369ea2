package budget

import "sync"

// lineMemoMax is how many bytes of text a [lineMemo] holds counts for
// before it starts afresh: a session start's texts several times over,
// and a bound for a long-lived server.
const lineMemoMax = 8 << 20

// lineMemo counts a text as the sum of its lines' counts, remembering
// each line's count for the process: a rendered context or skill.md is
// mostly lines of the tier files already counted, and a fitter measures
// the same text again with a few lines cut. A line here runs from one
// split point to the next: a point after a newline and before a rune that
// is neither whitespace nor "/", where the encodings' pieces never join
// (see [CountJoined]), so the sum is the text's exact count.
type lineMemo struct {
	mu    sync.Mutex
	n     map[string]int
	bytes int
}

func newLineMemo() *lineMemo {
	return &lineMemo{n: map[string]int{}}
}

// Count returns the number of tokens in text, a line the memo does not
// hold counted with count: the encoder, or the count cache in front of it
// (see [Cache.countLine]).
func (m *lineMemo) Count(text string, count func(line string) int) int {
	total := 0
	for len(text) > 0 {
		p := nextSplit(text)
		line := text[:p]
		text = text[p:]
		m.mu.Lock()
		n, ok := m.n[line]
		m.mu.Unlock()
		if !ok {
			n = count(line)
			m.mu.Lock()
			if m.bytes += len(line); m.bytes > lineMemoMax {
				clear(m.n)
				m.bytes = len(line)
			}
			m.n[line] = n
			m.mu.Unlock()
		}
		total += n
	}
	return total
}

// nextSplit returns the first split point of text after its start, or
// len(text) when it has none.
func nextSplit(text string) int {
	for i := 0; i+1 < len(text); i++ {
		if text[i] != '\n' {
			continue
		}
		if c := text[i+1]; c < 0x80 {
			if latin1[c]&cS == 0 && c != '/' {
				return i + 1
			}
			continue
		}
		if _, _, k := at(text, i+1); k&cS == 0 {
			return i + 1
		}
	}
	return len(text)
}

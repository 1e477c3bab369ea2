package budget

// merger counts the tokens of one piece by byte-pair merging, giving the
// tokens of tiktoken's _byte_pair_merge: while some pair of adjacent parts
// is itself a token, merge the pair of lowest rank, the leftmost of equals.
// tiktoken finds that pair by scanning every part after each merge, which is
// quadratic on a long piece (a run of one letter); merger keeps the pairs in
// a heap and is O(n log n). Its buffers are reused from piece to piece.
//
// Parts are named by the offset of their first byte. A pair in the heap
// goes stale when either of its parts is merged into something else; it is
// dropped when popped, and is then recognised because its end is no longer
// where the pair starting at its start ends: a pair's end only grows.
type merger struct {
	next, prev []int32 // per part start: the next and previous part's start; next is -1 once merged away
	heap       []pair
}

// pair is two adjacent parts whose bytes, piece[start:end], form a token of
// the given rank.
type pair struct {
	rank, start, end int32
}

// before orders pairs as tiktoken merges them: lowest rank, then leftmost.
func (p pair) before(q pair) bool {
	return p.rank < q.rank || p.rank == q.rank && p.start < q.start
}

// count returns the number of tokens piece merges into under ranks. Every
// single byte must be a token, as in every tiktoken encoding.
func (m *merger) count(piece string, ranks map[string]int) int {
	n := int32(len(piece))
	m.reset(n)
	for i := int32(0); i+1 < n; i++ {
		if r, ok := ranks[piece[i:i+2]]; ok {
			m.heap = append(m.heap, pair{int32(r), i, i + 2})
		}
	}
	m.heapify()
	parts := int(n)
	for len(m.heap) > 0 {
		p := m.pop()
		mid := m.next[p.start]
		if mid < 0 || mid >= n || m.next[mid] != p.end {
			continue // stale
		}
		m.next[p.start], m.next[mid] = p.end, -1
		if p.end < n {
			m.prev[p.end] = p.start
		}
		parts--
		if p.end < n {
			m.push(piece, ranks, p.start, m.next[p.end])
		}
		if p.start > 0 {
			m.push(piece, ranks, m.prev[p.start], p.end)
		}
	}
	return parts
}

// reset readies the buffers for a piece of n bytes, one part per byte.
func (m *merger) reset(n int32) {
	if cap(m.next) < int(n)+1 {
		m.next = make([]int32, n+1)
		m.prev = make([]int32, n+1)
	}
	m.next, m.prev = m.next[:n+1], m.prev[:n+1]
	for i := range n + 1 {
		m.next[i], m.prev[i] = i+1, i-1
	}
	m.heap = m.heap[:0]
}

// push adds the pair piece[start:end] when it is a token.
func (m *merger) push(piece string, ranks map[string]int, start, end int32) {
	r, ok := ranks[piece[start:end]]
	if !ok {
		return
	}
	m.heap = append(m.heap, pair{int32(r), start, end})
	m.up(len(m.heap) - 1)
}

// pop removes and returns the first pair to merge.
func (m *merger) pop() pair {
	h := m.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	m.heap = h[:last]
	m.down(0)
	return top
}

func (m *merger) heapify() {
	for i := len(m.heap)/2 - 1; i >= 0; i-- {
		m.down(i)
	}
}

func (m *merger) up(i int) {
	h := m.heap
	for i > 0 {
		parent := (i - 1) / 2
		if !h[i].before(h[parent]) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (m *merger) down(i int) {
	h := m.heap
	for {
		least := i
		if l := 2*i + 1; l < len(h) && h[l].before(h[least]) {
			least = l
		}
		if r := 2*i + 2; r < len(h) && h[r].before(h[least]) {
			least = r
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

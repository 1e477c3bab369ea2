package budget

// merger counts the tokens of one piece by byte-pair merging, giving the
// tokens of tiktoken's _byte_pair_merge: while some pair of adjacent parts
// is itself a token, merge the pair of lowest rank, the leftmost of equals.
// tiktoken finds that pair by scanning every part after each merge, which is
// quadratic on a long piece (a run of one letter); merger keeps the pairs in
// a heap and is O(n log n). Its buffers are reused from piece to piece.
//
// Parts are named by the offset of their first byte, and so are the pairs
// that start with them. A heap entry goes stale when its pair changes (one
// of its parts is merged into something else); it is dropped when popped,
// known by a rank that is no longer its start's. An entry of the same rank
// and start as the current pair stands for that pair, stale or not: the
// heap orders by nothing else, so merges happen in tiktoken's order.
type merger struct {
	next, prev []int32  // per part: the next and previous part's start
	rank       []int32  // per part: the rank of the pair it starts, or noRank
	heap       []uint64 // 4-ary min-heap of rank<<32 | start
}

// noRank marks a part that starts no pair that is a token, or that was
// merged into the part before it.
const noRank = -1

// count returns the number of tokens piece merges into under ranks. Every
// single byte must be a token, as in every tiktoken encoding.
func (m *merger) count(piece string, ranks *table) int {
	n := int32(len(piece))
	m.reset(n)
	for i := int32(0); i+1 < n; i++ {
		if r, ok := ranks.rank(piece[i : i+2]); ok {
			m.rank[i] = r
			m.heap = append(m.heap, key(r, i))
		}
	}
	for i := (len(m.heap) - 2) / 4; i >= 0; i-- {
		m.down(i)
	}
	parts := int(n)
	for len(m.heap) > 0 {
		r, start := m.pop()
		if m.rank[start] != r {
			continue // stale
		}
		mid := m.next[start]
		end := m.next[mid]
		m.next[start] = end
		m.rank[mid] = noRank
		m.prev[end] = start
		parts--
		m.rank[start] = noRank
		if end < n {
			m.pair(piece, ranks, start, m.next[end])
		}
		if start > 0 {
			m.pair(piece, ranks, m.prev[start], end)
		}
	}
	return parts
}

// reset readies the buffers for a piece of n bytes, one part per byte.
func (m *merger) reset(n int32) {
	if cap(m.next) < int(n)+1 {
		m.next = make([]int32, n+1)
		m.prev = make([]int32, n+1)
		m.rank = make([]int32, n+1)
		m.heap = make([]uint64, 0, n)
	}
	m.next, m.prev, m.rank = m.next[:n+1], m.prev[:n+1], m.rank[:n+1]
	for i := range n + 1 {
		m.next[i], m.prev[i], m.rank[i] = i+1, i-1, noRank
	}
	m.heap = m.heap[:0]
}

// pair sets the rank of the pair piece[start:end] that start now starts,
// and queues it when it is a token.
func (m *merger) pair(piece string, ranks *table, start, end int32) {
	r, ok := ranks.rank(piece[start:end])
	if !ok {
		m.rank[start] = noRank
		return
	}
	m.rank[start] = r
	m.heap = append(m.heap, key(r, start))
	m.up(len(m.heap) - 1)
}

// key orders pairs as tiktoken merges them: lowest rank, then leftmost.
func key(rank, start int32) uint64 { return uint64(rank)<<32 | uint64(start) }

// pop removes the first pair to merge and returns its rank and start.
func (m *merger) pop() (rank, start int32) {
	top := m.heap[0]
	last := len(m.heap) - 1
	m.heap[0] = m.heap[last]
	m.heap = m.heap[:last]
	m.down(0)
	return int32(top >> 32), int32(uint32(top))
}

func (m *merger) up(i int) {
	h := m.heap
	for i > 0 {
		parent := (i - 1) / 4
		if h[parent] <= h[i] {
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
		first := 4*i + 1
		for c := first; c < first+4 && c < len(h); c++ {
			if h[c] < h[least] {
				least = c
			}
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

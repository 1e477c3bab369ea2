package checks

import (
	"slices"
)

// Candidate pairs for the contradiction check. Comparing every pair of
// active decisions with a word diff is quadratic, and almost every pair
// of a real log shares nothing a contradiction needs. [comparer.contradicts]
// reports a pair only when its word diff has one hunk, so that the two
// texts are P X S and P Y S: the same words P before it and S after it
// (the equal words, in order), and X and Y what differs. Each of its three
// reasons then asks more of them, and each gives a key both texts of such
// a pair share, which an index finds without comparing the texts:
//
//   - a negation: Y is empty (or X), X only negations and auxiliaries,
//     and P S has a word of substance. Both texts with every negation and
//     auxiliary dropped are then the same words: key "n" + those words.
//   - an opposite: X and Y are one word each, opposites, and P S has a
//     word of substance: key "o" + P + a gap + S, for every position of a
//     text whose word has an opposite.
//   - another choice: X and Y are one or two words each, P S has two
//     words of substance and makes more than 6 in 10 of the longer text:
//     key "c" + P + a gap + S, for every stretch of one or two words of a
//     text whose removal leaves such a P S.
//
// So every pair contradicts reports shares a key (TestCandidatesKeepEveryFlaggedPair
// holds the index to that on random logs): comparing only the pairs that
// share one gives the same findings. A text of n words has at most 3n+1
// keys, and a pair shares one only when it is nearly the same text.

// Key kinds, mixed into the hash so that kinds never meet.
const (
	keyNegation = 1 + iota
	keyOpposite
	keyChoice
)

// gap stands for the words removed between P and S.
const gap = 0xFFFFFFFF

// opposites are the words antonymPairs pairs.
var opposites = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range antonymPairs {
		m[p[0]], m[p[1]] = true, true
	}
	return m
}()

// keyHash hashes a kind and a word sequence (FNV-1a over the words'
// runes, a rune a step).
// Two sequences with the same hash may differ: that only adds a candidate,
// which the word diff then rejects.
type keyHash uint64

func newKey(kind int) keyHash {
	return keyHash(14695981039346656037).add(uint32(kind))
}

func (h keyHash) add(v uint32) keyHash { return (h ^ keyHash(v)) * 1099511628211 }

// add64 adds a hash.
func (h keyHash) add64(v keyHash) keyHash { return (h ^ v) * 1099511628211 }

// keys returns the index keys of a phrase (see above). A key of P + a gap
// + S hashes the hashes of P and of S, each made once for every prefix
// and every suffix of the phrase: a phrase of n words costs O(n), not a
// hash of the words of each of its 3n keys.
func keys(p phrase) []keyHash {
	n := len(p.words)
	if n == 0 {
		return nil
	}
	// substance[i] counts the words of substance before i.
	substance := make([]int, n+1)
	for i, w := range p.words {
		substance[i+1] = substance[i]
		if !stopwords[w] && !negations[w] && !auxiliaries[w] {
			substance[i+1]++
		}
	}
	total := substance[n]
	if total == 0 {
		return nil // no word of substance: no reason applies
	}
	out := make([]keyHash, 0, 1+3*n)
	// A negation: the words without negations and auxiliaries.
	h := newKey(keyNegation)
	for i, w := range p.words {
		if !negations[w] && !auxiliaries[w] {
			h = h.add(uint32(p.runes[i]))
		}
	}
	out = append(out, h)
	// prefix[i] hashes the words before i, suffix[j] those from j on.
	prefix := make([]keyHash, 2*(n+1))
	suffix := prefix[n+1:]
	prefix[0], suffix[n] = newKey(0), newKey(0)
	for i := range n {
		prefix[i+1] = prefix[i].add(uint32(p.runes[i]))
		suffix[n-1-i] = suffix[n-i].add(uint32(p.runes[n-1-i]))
	}
	split := func(kind, i, j int) keyHash {
		return newKey(kind).add64(prefix[i]).add(gap).add64(suffix[j])
	}
	for i := range n {
		if opposites[p.words[i]] && total-(substance[i+1]-substance[i]) >= 1 {
			out = append(out, split(keyOpposite, i, i+1))
		}
		for l := 1; l <= 2 && i+l <= n; l++ {
			if total-(substance[i+l]-substance[i]) >= 2 && 10*(n-l) > 6*n {
				out = append(out, split(keyChoice, i, i+l))
			}
		}
	}
	return out
}

// candidates returns the pairs {i, j}, i < j, of phrases that share a key,
// in the order a loop over every pair would meet them.
func candidates(ps []phrase) [][2]int {
	// Almost every key is one phrase's: first holds each key's first
	// phrase, shared the phrases of the keys met in more than one.
	all := make([][]keyHash, len(ps))
	n := 0
	for i, p := range ps {
		all[i] = keys(p)
		n += len(all[i])
	}
	first := make(map[keyHash]int32, n)
	shared := map[keyHash][]int32{}
	for i, ks := range all {
		id := int32(i)
		for _, k := range ks {
			f, ok := first[k]
			if !ok {
				first[k] = id
				continue
			}
			if f == id {
				continue
			}
			ids, ok := shared[k]
			if !ok {
				ids = []int32{f}
			}
			if ids[len(ids)-1] != id {
				shared[k] = append(ids, id)
			}
		}
	}
	seen := map[[2]int]bool{}
	var out [][2]int
	for _, ids := range shared {
		for a := range ids {
			for b := a + 1; b < len(ids); b++ {
				if pair := [2]int{int(ids[a]), int(ids[b])}; !seen[pair] {
					seen[pair] = true
					out = append(out, pair)
				}
			}
		}
	}
	slices.SortFunc(out, func(x, y [2]int) int {
		if x[0] != y[0] {
			return x[0] - y[0]
		}
		return x[1] - y[1]
	})
	return out
}

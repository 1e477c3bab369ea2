package scrub

// keywords finds, in one pass, where any of a set of ASCII keywords occurs,
// ignoring case. A position is looked at further only when its first three
// bytes begin some keyword, which in prose few do; then only the keywords
// that begin with its first two bytes are compared.
type keywords struct {
	words []string             // lower case, three bytes or more
	rules [][]int              // for each word, the rules it belongs to
	pairs [1 << 16 / 64]uint64 // a bit for each pair of bytes a word begins with
	// byPair gives for each such pair 1 + its index in lists and thirds.
	byPair [1 << 16]uint8
	lists  [][]int     // the words that begin with a pair
	thirds [][4]uint64 // the bytes that follow the pair in those words
}

var fold = func() (f [256]byte) {
	for c := range f {
		f[c] = byte(c)
		if 'A' <= c && c <= 'Z' {
			f[c] = byte(c) + 'a' - 'A'
		}
	}
	return f
}()

func pairOf(a, b byte) uint16 { return uint16(fold[a])<<8 | uint16(fold[b]) }

func (k *keywords) add(word string, rule int) {
	if len(word) < 3 {
		panic("policy: keyword " + word + " is shorter than three bytes")
	}
	for i, w := range k.words {
		if w == word {
			k.rules[i] = append(k.rules[i], rule)
			return
		}
	}
	i := len(k.words)
	k.words = append(k.words, word)
	k.rules = append(k.rules, []int{rule})
	p := pairOf(word[0], word[1])
	k.pairs[p>>6] |= 1 << (p & 63)
	if k.byPair[p] == 0 {
		k.lists = append(k.lists, nil)
		k.thirds = append(k.thirds, [4]uint64{})
		k.byPair[p] = uint8(len(k.lists))
	}
	j := k.byPair[p] - 1
	k.lists[j] = append(k.lists[j], i)
	for _, c := range []byte{word[2], word[2] &^ 0x20} { // either case
		if fold[c] == word[2] {
			k.thirds[j][c>>6] |= 1 << (c & 63)
		}
	}
}

// scan lists, for each rule, where its keywords occur in text, in order.
func (k *keywords) scan(text string, rules int) [][]int {
	var at [][]int
	for i := 0; i+2 < len(text); i++ {
		p := pairOf(text[i], text[i+1])
		if k.pairs[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		j := k.byPair[p] - 1
		if c := text[i+2]; k.thirds[j][c>>6]&(1<<(c&63)) == 0 {
			continue
		}
		for _, w := range k.lists[j] {
			if !hasFoldPrefix(text[i:], k.words[w]) {
				continue
			}
			if at == nil {
				at = make([][]int, rules)
			}
			for _, r := range k.rules[w] {
				at[r] = append(at[r], i)
			}
		}
	}
	return at
}

// hasFoldPrefix reports whether s begins with the lower-case word, ignoring
// the case of ASCII letters in s.
func hasFoldPrefix(s, word string) bool {
	if len(s) < len(word) {
		return false
	}
	for i := 2; i < len(word); i++ {
		if fold[s[i]] != word[i] {
			return false
		}
	}
	return true
}

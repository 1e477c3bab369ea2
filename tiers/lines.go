package tiers

// LineStarts returns the byte offset of each line of text: 0, then the
// offset after every newline that is not the text's last byte.
func LineStarts(text string) []int {
	out := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' && i+1 < len(text) {
			out = append(out, i+1)
		}
	}
	return out
}

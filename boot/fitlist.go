package boot

import (
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// fitNewest fits a list shown newest first (the digest's entries, the open
// reminders): as many of lines as fit limit tokens together with the line
// more(k) that counts the k left out, counted exactly; the oldest go first.
// show(n) makes the list show its first n lines and returns its text. When
// not even the count line fits, the list is hidden: it shows none, its
// tokens are 0 and the last cut is the count line, with where as the place
// of every cut.
func fitNewest(c budget.Counter, limit int, where string, lines []string, more func(int) string, show func(int) string) (tokens int, hidden bool, cuts []budget.Cut) {
	f := &budget.Fitter{Counter: c, Limit: limit, Pieces: make([]budget.Piece, len(lines))}
	f.Estimate = c.Count(more(len(lines)))
	for i, line := range lines {
		f.Pieces[i] = budget.Piece{Text: line, Size: c.Count(line), Where: where}
		f.Estimate += f.Pieces[i].Size
	}
	f.Measure = func() int {
		tokens = c.Count(show(len(lines) - f.Steps()))
		return tokens
	}
	hidden = f.Fit() > limit
	cuts = f.Cuts()
	if hidden {
		gone := more(len(lines))
		cuts = append(cuts, budget.Cut{What: tiers.ShortLine(gone), Where: where, Tokens: c.Count(gone)})
		show(0)
		tokens = 0
	}
	return tokens, hidden, cuts
}

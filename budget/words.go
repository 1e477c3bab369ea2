package budget

// transientCounter is a Counter that can count without remembering, as a
// *Cache can.
type transientCounter interface {
	CountTransient(text string) int
}

// Transient returns how to count a cold document whose count the cold
// index keeps: the content cache is asked but not grown, since it is loaded
// at every start and 100,000 cold documents in it would cost a warm start
// more than listing them does. A document moved into cold/ from recent/ is
// still found in it.
func Transient(c Counter) func(string) int {
	if t, ok := c.(transientCounter); ok {
		return t.CountTransient
	}
	return c.Count
}

// wholeCounter is a Counter that can remember a text without its lines,
// as a *Cache can.
type wholeCounter interface {
	CountWhole(text string) int
}

// Whole returns how to count a cold document the cache may remember but
// that no start counts again in part (a pulled document, a listed one the
// cold index does not keep yet): as one text, none of its lines kept
// alone, so that the cache stays the size of the tiers.
func Whole(c Counter) Counter {
	if w, ok := c.(wholeCounter); ok {
		return wholeCount{w}
	}
	return c
}

type wholeCount struct{ w wholeCounter }

func (w wholeCount) Count(text string) int { return w.w.CountWhole(text) }

// Plural is "1 what" or "N whats", N with thousands separators.
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return Thousands(n) + " " + what + "s"
}

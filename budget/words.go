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

// Plural is "1 what" or "N whats", N with thousands separators.
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return Thousands(n) + " " + what + "s"
}

// Package countfn adapts a function to budget.Counter, for tests that count
// cheaply where exact tokens are not what they test.
package countfn

// Func counts with a function.
type Func func(string) int

// Count calls f.
func (f Func) Count(s string) int { return f(s) }

package checks

// contradicts compares two decision texts: see [comparer.contradicts].
func contradicts(a, b string) (string, bool) {
	c := newComparer()
	return c.contradicts(c.phrase(a), c.phrase(b))
}

// Passed reports whether the named check passed (warnings allowed).
func (r Report) Passed(check string) bool { return passed(r, check) }

// passed reports whether the named check of r passed (warnings allowed).
func passed(r Report, check string) bool {
	for _, f := range r.Findings {
		if f.Check == check && !f.Pass {
			return false
		}
	}
	return true
}

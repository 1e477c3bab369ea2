package scrub

// SecretKinds lists the kinds of secret scrubbing knows, in the order its
// rules are tried.
func SecretKinds() []string {
	kinds := make([]string, len(scrubRules))
	for i, r := range scrubRules {
		kinds[i] = r.kind
	}
	return kinds
}

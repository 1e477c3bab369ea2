package tiers

import (
	"fmt"
	"strings"
)

// Render formats the entry from its fields in the form wake writes: the
// DECISION line, then every field as "KEY: value", one newline after each.
// For an entry wake wrote it gives back Raw exactly.
func (d Decision) Render() string {
	var b strings.Builder
	for _, f := range d.Fields {
		if f.Key == KeyDecision {
			fmt.Fprintf(&b, "[%s] %s: %s\n", d.Date, KeyDecision, f.Value)
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n", f.Key, f.Value)
	}
	return b.String()
}

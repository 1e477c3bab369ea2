package tiers

import (
	"bytes"
	"sync"
)

// shared is the decision log [SharedDecisions] parsed last, with a copy of
// the bytes it parsed.
var shared struct {
	sync.Mutex
	data []byte
	log  DecisionLog
	ok   bool
}

// SharedDecisions is [ParseDecisions] for the readers of a session start,
// which parse the same log several times in one process (the checks, the
// skill builder, the wake-up packet): a log with the same bytes as the
// last one it parsed is not parsed again. Comparing the bytes costs a
// fraction of parsing them. The result is shared between its callers:
// they must not modify it (its slices included); a caller that edits the
// log parses it with ParseDecisions.
func SharedDecisions(data []byte) DecisionLog {
	shared.Lock()
	defer shared.Unlock()
	if shared.ok && bytes.Equal(shared.data, data) {
		return shared.log
	}
	shared.log = ParseDecisions(data)
	shared.data, shared.ok = bytes.Clone(data), true
	return shared.log
}

package store

import (
	"bytes"
	"path"
	"slices"

	"github.com/wakeproto/wake/tiers"
)

// What a merge note gathers from the driver's runs, each once: the
// hand-offs and writers the other branch brought, the decisions given a
// new ID.

// Reidentified is a decision a merge gave a new ID.
type Reidentified struct {
	Was  string `json:"was"`
	Now  string `json:"now"`
	What string `json:"what,omitempty"`
}

// addReidentified adds to list those of more it does not hold.
func addReidentified(list, more []Reidentified) []Reidentified {
	for _, r := range more {
		if !slices.Contains(list, r) {
			list = append(list, r)
		}
	}
	return list
}

// ArrivedHandoffs are the hand-offs of theirs, a ledger's bytes, that ours
// does not hold: what a merge of the ledger brings from the other branch.
func ArrivedHandoffs(ours, theirs []byte) []Arrived {
	have := map[string]bool{}
	for _, line := range bytes.Split(ours, []byte("\n")) {
		have[string(bytes.TrimSpace(line))] = true
	}
	var out []Arrived
	for i, line := range bytes.Split(theirs, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || have[string(line)] {
			continue
		}
		e, ok, _ := parseLine(line, i+1)
		if !ok || e.Op != "handoff" {
			continue
		}
		a := Arrived{At: e.At, Summary: e.Summary}
		for _, p := range e.Paths {
			if path.Dir(p) == tiers.SessionsDir {
				a.Record = p
			}
		}
		out = append(out, a)
	}
	return out
}

// addArrived adds to list the sessions of more it does not hold.
func addArrived(list, more []Arrived) []Arrived {
	for _, a := range more {
		if !slices.ContainsFunc(list, func(b Arrived) bool { return b.At.Equal(a.At) && b.Summary == a.Summary }) {
			list = append(list, a)
		}
	}
	return list
}

// ArrivedWriters are the writer ids of the lines of theirs, a ledger's
// bytes, that ours does not hold, sorted, each once.
func ArrivedWriters(ours, theirs []byte) []string {
	have := map[string]bool{}
	for _, line := range bytes.Split(ours, []byte("\n")) {
		have[string(bytes.TrimSpace(line))] = true
	}
	var out []string
	for i, line := range bytes.Split(theirs, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || have[string(line)] {
			continue
		}
		if e, ok, _ := parseLine(line, i+1); ok && e.Writer != "" && !slices.Contains(out, e.Writer) {
			out = append(out, e.Writer)
		}
	}
	slices.Sort(out)
	return out
}

// addWriters adds to list the writer ids of more it does not hold, sorted.
func addWriters(list, more []string) []string {
	for _, w := range more {
		if !slices.Contains(list, w) {
			list = append(list, w)
		}
	}
	slices.Sort(list)
	return list
}

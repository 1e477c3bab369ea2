package tiers

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// IDPrefix starts every ID wake gives a decision.
const IDPrefix = "d-"

// idWord is what an ID may look like: one word that never reads as a
// number, so that "wake reverse 3" and "wake reverse d-7f3a" cannot mean
// the same thing by accident.
var idWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`) })

// ValidID reports whether s can be an entry's ID: one word of letters,
// digits, "-" and "_" that starts with a letter.
func ValidID(s string) bool { return idWord().MatchString(s) }

// SameID reports whether two IDs name the same entry. IDs are compared
// without regard to case, as a person retyping one might not keep it.
func SameID(a, b string) bool { return a != "" && strings.EqualFold(a, b) }

// IDSet is a set of IDs, kept in lower case.
type IDSet map[string]bool

// Add puts id in the set.
func (s IDSet) Add(id string) {
	if id != "" {
		s[strings.ToLower(id)] = true
	}
}

// Has reports whether id is in the set.
func (s IDSet) Has(id string) bool { return s[strings.ToLower(id)] }

// HasIDLine reports whether the entry has an ID line, even an empty one.
func (d Decision) HasIDLine() bool { return len(d.Values(KeyID)) > 0 }

// Name is how messages name the entry: its number, and its ID when it has
// one ("3 (id d-7f3a)").
func (d Decision) Name() string {
	if d.ID == "" {
		return strconv.Itoa(d.Number)
	}
	return fmt.Sprintf("%d (id %s)", d.Number, d.ID)
}

// Ref is how a command line names the entry: its ID when it has a usable
// one, else its number.
func (d Decision) Ref() string {
	if ValidID(d.ID) {
		return d.ID
	}
	return strconv.Itoa(d.Number)
}

// IDs returns the set of the IDs the log's entries have.
func (l DecisionLog) IDs() IDSet {
	s := IDSet{}
	for _, e := range l.Entries {
		s.Add(e.ID)
	}
	return s
}

// ByID returns the entries whose ID is id, in file order.
func (l DecisionLog) ByID(id string) []Decision {
	var out []Decision
	for _, e := range l.Entries {
		if SameID(e.ID, id) {
			out = append(out, e)
		}
	}
	return out
}

// DuplicateIDs returns the groups of entries that share an ID (an entry
// copied by hand), each in file order, ordered by their first entry.
func (l DecisionLog) DuplicateIDs() [][]Decision {
	groups := map[string][]Decision{}
	var order []string
	for _, e := range l.Entries {
		k := strings.ToLower(e.ID)
		if k == "" {
			continue
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	var out [][]Decision
	for _, k := range order {
		if len(groups[k]) > 1 {
			out = append(out, groups[k])
		}
	}
	return out
}

// DeriveID returns the ID wake gives an entry dated date that decides
// what, written by the clone or worktree whose writer id is writer:
// "d-", six hex digits of a SHA-256 of the three, "-" and the writer
// ("d-7f3a9c-k3f9qa"). When taken reports that ID in use, a counter joins
// the hashed text until one is free. The writer makes the IDs two
// branches give never the same, whatever they decide and when: each
// clone only has to keep its own IDs apart, which taken does. An empty
// writer gives the IDs older wakes gave, "d-" and four hex digits of
// date and text (eight once those are crowded).
//
// An ID is derived rather than random so that the same log always gets
// the same IDs: a listing can show the ID a hand-written entry will get
// before wake writes it, and an interrupted hand-off finishes with the
// IDs it planned. Once written, an ID is a field like any other: editing
// the entry's text does not change it.
func DeriveID(writer, date, what string, taken func(id string) bool) string {
	base := date + "\n" + OneLine(what)
	digits, suffix := 4, ""
	if writer != "" {
		base = writer + "\n" + base
		digits, suffix = 6, "-"+writer
	}
	for n := 0; ; n++ {
		in := base
		if n > 0 {
			in += "\n" + strconv.Itoa(n)
		}
		sum := sha256.Sum256([]byte(in))
		d := digits
		if n >= 64 {
			d = 8
		}
		if id := IDPrefix + hex.EncodeToString(sum[:])[:d] + suffix; !taken(id) {
			return id
		}
	}
}

// MinIDPrefix is how many hex digits after "d-" a shortened ID must keep
// to name an entry: as many as the IDs older wakes gave.
const MinIDPrefix = 4

// Match returns the entries id names, in file order: those whose ID is
// id; else, when id is "d-" and at least [MinIDPrefix] hex digits, those
// whose ID starts with it ("d-7f3a" for "d-7f3a9c-k3f9qa"). More than
// one is an ambiguity for the caller to refuse.
func (l DecisionLog) Match(id string) []Decision {
	if es := l.ByID(id); len(es) > 0 {
		return es
	}
	if !IsIDPrefix(id) {
		return nil
	}
	var out []Decision
	for _, e := range l.Entries {
		if len(e.ID) > len(id) && strings.EqualFold(e.ID[:len(id)], id) {
			out = append(out, e)
		}
	}
	return out
}

// IsIDPrefix reports whether s may name a decision by the start of its
// ID: "d-" and at least [MinIDPrefix] hex digits, perhaps followed by the
// start of the writer id ("d-7f3a", "d-7f3a9c-k3").
func IsIDPrefix(s string) bool {
	h, ok := strings.CutPrefix(strings.ToLower(s), IDPrefix)
	if !ok || !ValidID(s) {
		return false
	}
	digits, _, _ := strings.Cut(h, "-")
	return len(digits) >= MinIDPrefix && strings.Trim(digits, "0123456789abcdef") == ""
}

// Assignment is an ID wake gives an entry that has no ID line.
type Assignment struct {
	Number int
	ID     string
}

// PlanIDs returns the IDs wake gives, at its next write of the log, the
// entries that have no ID line, in file order, when the writer id of the
// clone writing is writer (see [DeriveID]). known holds the IDs in use
// outside the log (those the ledger records wake writing, which a deleted
// entry must not pass on); an entry's ID is free of them, of the log's
// own and of those given before it. The plan depends on nothing else, so
// a listing shows exactly the IDs the next write gives.
func PlanIDs(log DecisionLog, known IDSet, writer string) []Assignment {
	taken := log.IDs()
	for id := range known {
		taken.Add(id)
	}
	var out []Assignment
	for _, e := range log.Entries {
		if e.HasIDLine() {
			continue
		}
		id := DeriveID(writer, e.Date, e.What, taken.Has)
		taken.Add(id)
		out = append(out, Assignment{Number: e.Number, ID: id})
	}
	return out
}

// id reads the entry's ID lines: the first one counts.
func (p *decisionParser) id(d *Decision) {
	seen := false
	for _, f := range d.Fields {
		if f.Key != KeyID {
			continue
		}
		line := firstLine(p.text[f.Bytes.Start:f.Bytes.End])
		if seen {
			p.malformed(f.Line, line, fmt.Sprintf("entry %d: a second ID line; the first one counts", d.Number))
			continue
		}
		seen = true
		d.ID = p.text[f.First.Start:f.First.End]
		switch {
		case d.ID == "":
			p.malformed(f.Line, line, fmt.Sprintf("entry %d: the ID is empty", d.Number))
		case !ValidID(d.ID) || strings.Contains(f.Value, "\n"):
			p.malformed(f.Line, line, fmt.Sprintf("entry %d: ID %q is not one word of letters, digits, - and _ starting with a letter", d.Number, OneLine(f.Value)))
		}
	}
}

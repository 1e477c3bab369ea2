package tiers

import (
	"bytes"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// HandEdit is an entry of the decision log as wake last wrote it that is no
// longer in the file as it was: deleted or edited by hand (DESIGN section 3,
// rule 2).
type HandEdit struct {
	Entry   int    // its number in wake's last write
	ID      string // its ID in wake's last write; "" when it had none
	Title   string // "[date] what" as wake wrote it
	Deleted bool   // none of its lines is left
	// Removed are its lines that are gone, numbered as in wake's last write.
	Removed []RemovedLine
}

// Name is how messages name the entry: its number in wake's last write,
// and its ID when it had one.
func (h HandEdit) Name() string {
	return Decision{Number: h.Entry, ID: h.ID}.Name()
}

// RemovedLine is a line of wake's last write that the current file lacks.
type RemovedLine struct {
	Line int
	Text string
}

// FindHandEdits compares the decision log wake last wrote with the current
// one, line by line, and returns the entries of the former that lost lines,
// in order. Lines added by hand are not edits of wake's entries and are not
// reported, nor are removed lines outside entries (the template's comment,
// headings). Trailing white space and line endings are ignored, so an
// editor that strips them does not count as an edit.
//
// An entry with an ID the current log holds once is compared with that
// entry, wherever it now stands: a merge that put another branch's entries
// before it moved it, and a diff of the whole log may then take one of its
// lines for removed where another of the same text was (two diffs of one
// length). Its STATUS line changed is no edit when the entry gained the
// annotation that gives the new status (see [annotatedStatus]).
func FindHandEdits(last, current []byte) []HandEdit {
	if bytes.Equal(last, current) {
		return nil // the log as wake last wrote it: nothing to diff
	}
	removed := removedLines(string(last), string(current))
	if len(removed) == 0 {
		return nil
	}
	log, now := ParseDecisions(last), ParseDecisions(current)
	var out []HandEdit
	i := 0
	for _, e := range log.Entries {
		for i < len(removed) && removed[i].Line < e.Line {
			i++
		}
		h := HandEdit{Entry: e.Number, ID: e.ID, Title: e.Title()}
		var inLog []RemovedLine
		for i < len(removed) && removed[i].Line <= e.EndLine {
			inLog = append(inLog, removed[i])
			i++
		}
		h.Removed = inLog
		// Every entry with a counterpart, not only those the diff of the
		// whole log took lines from: it may have taken them from another
		// entry with the same line.
		if n, reID, ok := counterpart(e, now); ok {
			h.Removed = nil
			if e.Raw == n.Raw {
				continue
			}
			for _, r := range removedLines(e.Raw, n.Raw) {
				r.Line += e.Line - 1
				if statusLine(e, r.Line) && annotatedStatus(e, n) || reID && fieldLine(e, KeyID, r.Line) {
					continue
				}
				h.Removed = append(h.Removed, r)
			}
		}
		if len(h.Removed) > 0 {
			h.Deleted = len(h.Removed) == e.EndLine-e.Line+1
			out = append(out, h)
		}
	}
	return out
}

// removedLines diffs the two texts line by line with go-diff and returns
// the lines of a that b does not keep, in order.
func removedLines(a, b string) []RemovedLine {
	al, bl := diffLines(a), diffLines(b)
	ids := map[string]rune{}
	encode := func(lines []string) []rune {
		out := make([]rune, len(lines))
		for i, l := range lines {
			r, ok := ids[l]
			if !ok {
				r = runeFor(len(ids))
				ids[l] = r
			}
			out[i] = r
		}
		return out
	}
	ar, br := encode(al), encode(bl)
	var out []RemovedLine
	n := 0
	for _, d := range diffmatchpatch.New().DiffMainRunes(ar, br, false) {
		k := len([]rune(d.Text))
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			n += k
		case diffmatchpatch.DiffDelete:
			for j := n; j < n+k; j++ {
				out = append(out, RemovedLine{Line: j + 1, Text: al[j]})
			}
			n += k
		}
	}
	return out
}

func diffLines(s string) []string {
	ls := Lines(s)
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strings.TrimRight(l.Text, " \t\r")
	}
	return out
}

// runeFor maps the i-th distinct line to a rune go-diff can carry through a
// string unchanged: it skips 0 and the surrogate range, which a string
// conversion would turn into U+FFFD.
func runeFor(i int) rune {
	r := rune(i + 1)
	if r >= 0xD800 {
		r += 0x800
	}
	return r
}

// statusLine reports whether line is e's STATUS line.
func statusLine(e Decision, line int) bool { return fieldLine(e, KeyStatus, line) }

// fieldLine reports whether line is a one-line field key of e.
func fieldLine(e Decision, key string, line int) bool {
	for _, f := range e.Fields {
		if f.Key == key && f.Line == line && !strings.Contains(f.Value, "\n") {
			return true
		}
	}
	return false
}

// counterpart is the entry of now that e, an entry with an ID, is: the one
// with its ID and DECISION line; or, when the entry with its ID is another
// decision (a merge met two entries with one ID and gave one a new ID,
// which its ledger line names), the one entry with its DECISION line,
// whose ID line then is no edit (reID).
func counterpart(e Decision, now DecisionLog) (n Decision, reID, ok bool) {
	if e.ID == "" {
		return Decision{}, false, false
	}
	same := func(x Decision) bool {
		return strings.TrimRight(firstLine(x.Raw), " \t") == strings.TrimRight(firstLine(e.Raw), " \t")
	}
	ns := now.ByID(e.ID)
	if len(ns) != 1 {
		return Decision{}, false, false
	}
	if same(ns[0]) {
		return ns[0], false, true
	}
	var found []Decision
	for _, x := range now.Entries {
		if same(x) {
			found = append(found, x)
		}
	}
	if len(found) != 1 || found[0].ID == "" {
		return Decision{}, false, false
	}
	return found[0], true, true
}

// annotatedStatus reports whether e's STATUS changed as wake changes it,
// on this clone or on another whose work git brought (a pull, a rebase, a
// checkout, none of which runs the merge driver): n, the entry with e's ID
// now, has e's DECISION line, gained annotations, and has a status its
// annotations give (see [StatusGiven]). A status changed by hand alone
// stays an edit.
func annotatedStatus(e, n Decision) bool {
	return strings.TrimRight(firstLine(n.Raw), " \t") == strings.TrimRight(firstLine(e.Raw), " \t") &&
		annotationCount(n) > annotationCount(e) && StatusGiven(n, n.Status)
}

func annotationCount(e Decision) int {
	n := 0
	for _, f := range e.Fields {
		switch f.Key {
		case KeyReversedBy, KeyObjection, KeyProposed, KeyUpheld:
			n++
		}
	}
	return n
}

// StatusGiven reports whether status is one e's annotations can give it,
// by the rules of the commands that write them and of the merge (DESIGN
// section 12): reversed by a REVERSED_BY; contested by an OBJECTION, or
// by two different REVERSED_BY (a decision reversed differently on two
// branches); active with no annotation against it, or upheld.
func StatusGiven(e Decision, status string) bool {
	reversals := map[string]bool{}
	for _, v := range e.Values(KeyReversedBy) {
		reversals[OneLine(v)] = true
	}
	objected, upheld := len(e.Values(KeyObjection)) > 0, len(e.Values(KeyUpheld)) > 0
	switch strings.ToLower(status) {
	case StatusReversed:
		return len(reversals) > 0
	case StatusContested:
		return objected || len(reversals) > 1
	case StatusActive, "":
		return upheld || (len(reversals) == 0 && !objected)
	}
	return false
}

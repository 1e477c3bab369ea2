package merge

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"time"
)

// ledgerLine is a line of a grow-only log, with what orders it.
type ledgerLine struct {
	text   string // without its line ending
	at     time.Time
	writer string
}

// MergeLedger merges a grow-only log: the union of both sides' lines,
// each once, ordered by time, then writer, then where the line stands
// (ours' lines before theirs' new ones, each side in its own order). A line
// that is not JSON with a readable "at" (a torn line, a hand edit) is
// kept, never dropped, at the time of the line before it on its side. A
// line both sides removed since base stays removed; when theirs added
// nothing, ours is kept byte for byte.
func MergeLedger(base, ours, theirs []byte) []byte {
	inOurs := map[string]bool{}
	ol := ledgerLines(ours)
	for _, l := range ol {
		inOurs[l.text] = true
	}
	var added []ledgerLine
	for _, l := range ledgerLines(theirs) {
		if !inOurs[l.text] {
			inOurs[l.text] = true
			added = append(added, l)
		}
	}
	if len(added) == 0 {
		return ours
	}
	all := append(ol, added...)
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if !a.at.Equal(b.at) {
			return a.at.Before(b.at)
		}
		return a.writer < b.writer
	})
	eol := eolOf(string(ours))
	var out strings.Builder
	for _, l := range all {
		out.WriteString(l.text + eol)
	}
	return []byte(out.String())
}

// ledgerLines reads a log's non-blank lines, each with its time and
// writer.
func ledgerLines(data []byte) []ledgerLine {
	var out []ledgerLine
	var last time.Time
	for _, raw := range bytes.Split(data, []byte("\n")) {
		text := strings.TrimRight(string(raw), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		l := ledgerLine{text: text, at: last}
		var e struct {
			At     time.Time `json:"at"`
			Writer string    `json:"writer"`
		}
		if json.Unmarshal([]byte(text), &e) == nil && !e.At.IsZero() {
			l.at, l.writer = e.At, e.Writer
			last = e.At
		}
		out = append(out, l)
	}
	return out
}

package merge

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// doubleReversal marks the objection a merge writes on a decision
// reversed differently on the two branches, so that a later merge of the
// same two does not write it again.
const doubleReversal = "reversed differently on two branches"

// annotationKeys are the fields that annotate an entry after it was
// written: a union by date when both sides added some.
var annotationKeys = map[string]bool{tiers.KeyReversedBy: true, tiers.KeyObjection: true, tiers.KeyProposed: true, tiers.KeyUpheld: true}

// side is one version of the decision log.
type side struct {
	text string
	log  tiers.DecisionLog
	keys map[string]tiers.Decision // by entryKey
}

func readSide(data []byte) side {
	s := side{text: string(data), log: tiers.ParseDecisions(data), keys: map[string]tiers.Decision{}}
	seen := map[string]int{}
	for _, e := range s.log.Entries {
		k := entryKey(e)
		seen[k]++
		if seen[k] > 1 {
			k = fmt.Sprintf("%s#%d", k, seen[k])
		}
		s.keys[k] = e
	}
	return s
}

// entryKey is what names an entry across branches: its ID, else (an
// entry written by hand, not yet given one) its first line.
func entryKey(e tiers.Decision) string {
	if e.ID != "" {
		return "id:" + strings.ToLower(e.ID)
	}
	return "head:" + normal(firstLineOf(e.Raw))
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return strings.TrimRight(l, "\r")
}

// preamble is the text before the first entry: front matter and intro.
func (s side) preamble() string {
	if len(s.log.Entries) == 0 {
		return s.text
	}
	return s.text[:s.log.Entries[0].Bytes.Start]
}

// MergeDecisions merges the decision log by entry, three-way. Every entry
// on either side is kept, in ours' order, then theirs' new ones; an entry
// both sides annotated gets the union of the annotations by date and the
// status they give (reversed over contested over active; an uphold as new
// as the last objection gives active); one reversed differently on the two
// sides is contested, with an objection naming the merge (rule 4). Two
// different entries with one ID are both kept, one of them re-identified
// (see [findTwins]), which the result names.
// An entry one side removed and the other left as it was is removed: wake
// compact moved it to its archive. The text before the first entry is
// ours, or a three-way merge of it when both sides changed it. Entries
// the merge does not change keep their bytes.
func MergeDecisions(o Options, base, ours, theirs []byte) (Result, error) {
	if string(theirs) == string(base) || string(ours) == string(theirs) {
		return Result{Data: ours}, nil
	}
	if string(ours) == string(base) {
		return Result{Data: theirs}, nil
	}
	b, us, them := readSide(base), readSide(ours), readSide(theirs)
	var res Result
	pre, err := mergePreamble(o, b.preamble(), us.preamble(), them.preamble(), &res)
	if err != nil {
		return res, err
	}
	eol := eolOf(us.text)
	var out strings.Builder
	out.WriteString(pre)
	pos := len(us.preamble())
	tw := findTwins(o, b, us, them)
	res.Notes, res.Reidentified = append(res.Notes, tw.notes...), tw.reIDs
	merged := map[string]bool{} // the keys of theirs merged into an entry of ours
	for _, ke := range orderedKeys(us) {
		k, e := ke.key, ke.Decision
		out.WriteString(us.text[pos:e.Bytes.Start])
		pos = e.Bytes.End
		tk := k // the key of theirs this entry is
		if id, ok := tw.oursNew[k]; ok {
			e, tk = reparsed(withID(e, id)), "id:"+strings.ToLower(id)
		} else if a, ok := tw.alias[k]; ok {
			tk = a
		} else if _, ok := tw.theirsNew[k]; ok || tw.aliased[k] {
			// Theirs' entry with this ID is another decision: theirs has
			// not this one, and never removed it.
			out.WriteString(e.Raw)
			continue
		}
		t, inTheirs := them.keys[tk]
		if inTheirs {
			merged[tk] = true
		}
		if !inTheirs {
			// Kept: an entry they removed was one ours has changed, or
			// one they never had.
			if be, inBase := b.keys[k]; inBase && be.Raw == e.Raw {
				continue // compacted on their side, as it was
			}
			out.WriteString(e.Raw)
			continue
		}
		out.WriteString(mergeEntry(o, b.keys[tk], e, t, &res))
	}
	out.WriteString(us.text[pos:])
	for _, k := range orderedKeys(them) {
		t := them.keys[k.key]
		if id, ok := tw.theirsNew[k.key]; ok {
			appendEntry(&out, withID(t, id), eol)
			continue
		}
		if merged[k.key] {
			continue
		}
		if _, ok := us.keys[k.key]; ok && sameText(firstLineOf(us.keys[k.key].Raw), firstLineOf(t.Raw)) {
			continue
		}
		if be, inBase := b.keys[k.key]; inBase && be.Raw == t.Raw {
			if _, ok := us.keys[k.key]; !ok {
				continue // compacted on our side, as it was
			}
		}
		appendEntry(&out, t.Raw, eol)
	}
	if lines := newLooseLines(b, us, them); len(lines) > 0 {
		appendEntry(&out, strings.Join(lines, "\n"), eol)
	}
	res.Data = []byte(out.String())
	return res, nil
}

// looseLines are a side's non-blank lines after its first entry that are
// in no entry: a heading, a note, a malformed line, written by hand.
func (s side) looseLines() []string {
	var out []string
	es := s.log.Entries
	for i, e := range es {
		end := len(s.text)
		if i+1 < len(es) {
			end = es[i+1].Bytes.Start
		}
		for _, l := range strings.Split(s.text[e.Bytes.End:end], "\n") {
			if l = strings.TrimRight(l, " \t\r"); strings.TrimSpace(l) != "" {
				out = append(out, l)
			}
		}
	}
	return out
}

// newLooseLines are the loose lines theirs added since base that ours
// does not have: kept, at the end, as nothing is lost in a merge.
func newLooseLines(base, ours, theirs side) []string {
	known := map[string]bool{}
	for _, l := range append(base.looseLines(), ours.looseLines()...) {
		known[l] = true
	}
	var out []string
	for _, l := range theirs.looseLines() {
		if !known[l] {
			known[l] = true
			out = append(out, l)
		}
	}
	return out
}

type keyed struct {
	key string
	tiers.Decision
}

// orderedKeys lists a side's entries with their keys, in file order.
func orderedKeys(s side) []keyed {
	out := make([]keyed, 0, len(s.keys))
	for k, e := range s.keys {
		out = append(out, keyed{k, e})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out
}

// appendEntry adds an entry at the end of the log, after a blank line, in
// the log's line ending.
func appendEntry(out *strings.Builder, raw, eol string) {
	cur := out.String()
	switch {
	case cur == "":
	case strings.HasSuffix(cur, eol+eol) || strings.HasSuffix(cur, "\n\n"):
	case strings.HasSuffix(cur, "\n"):
		out.WriteString(eol)
	default:
		out.WriteString(eol + eol)
	}
	out.WriteString(withEOL(raw, eol))
}

func mergePreamble(o Options, base, ours, theirs string, res *Result) (string, error) {
	if sameText(theirs, base) || sameText(theirs, ours) {
		return ours, nil // theirs differs at most in line endings
	}
	r, err := prose(o, []byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		return "", err
	}
	res.Conflict = res.Conflict || r.Conflict
	return string(r.Data), nil
}

// reparsed is an entry's bytes read as an entry of their own.
func reparsed(raw string) tiers.Decision {
	return tiers.ParseDecisions([]byte(raw)).Entries[0]
}

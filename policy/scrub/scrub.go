// Package scrub finds secret-looking strings (keys, tokens, passwords) in
// a text and replaces each with [redacted:<kind>]: the engine behind
// [policy.Scrub], apart from the policy so that packages the policy
// depends on (the ledger's writer in handoff) scrub what they write too.
// See package policy for what is replaced and why.
package scrub

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/wakeproto/wake/budget"
)

// Hit is a secret-looking string found in a text: its line (from 1)
// and kind, never its value.
type Hit struct {
	Line int
	Kind string
}

// Redactions counts by kind the secrets [Text] replaced.
type Redactions map[string]int

// Total is the number of secrets replaced.
func (r Redactions) Total() int {
	n := 0
	for _, c := range r {
		n += c
	}
	return n
}

// Kinds lists the kinds replaced, the most frequent first.
func (r Redactions) Kinds() []string {
	kinds := make([]string, 0, len(r))
	for k, c := range r {
		if c > 0 {
			kinds = append(kinds, k)
		}
	}
	slices.SortFunc(kinds, func(a, b string) int {
		return cmp.Or(cmp.Compare(r[b], r[a]), cmp.Compare(a, b))
	})
	return kinds
}

// Merge is the sum of r and o, for an output made of several texts.
func (r Redactions) Merge(o Redactions) Redactions {
	out := make(Redactions, len(r)+len(o))
	for k, c := range r {
		out[k] += c
	}
	for k, c := range o {
		out[k] += c
	}
	return out
}

// Line says what was redacted, for an output's held-back line: "2 secrets
// redacted (github-token, aws-access-key)", or "" when nothing was.
func (r Redactions) Line() string {
	n := r.Total()
	if n == 0 {
		return ""
	}
	return budget.Plural(n, "secret") + " redacted (" + strings.Join(r.Kinds(), ", ") + ")"
}

// Text returns text with every secret-looking string replaced by
// [redacted:<kind>] and the count of what was replaced. Scrubbing twice
// gives what scrubbing once gives.
func Text(text string) (string, Redactions) {
	return replace(text, scrubber().find(text))
}

// Find lists the secret-looking strings in text, for a check that
// must say where they are without showing them.
func Find(text string) []Hit { return hitsOf(text, scrubber().find(text)) }

// TextFind is [Text] and [Find] in one search of text: for the
// session start, which shows a document scrubbed and warns where it held
// secrets.
func TextFind(text string) (string, Redactions, []Hit) {
	spans := scrubber().find(text)
	out, red := replace(text, spans)
	return out, red, hitsOf(text, spans)
}

// replace writes text with each span replaced by its marker, keeping the
// line breaks it covered, and counts them by kind.
func replace(text string, spans []span) (string, Redactions) {
	if len(spans) == 0 {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text) + 16*len(spans))
	red := Redactions{}
	last := 0
	for _, s := range spans {
		kind := scrubRules[s.rule].kind
		b.WriteString(text[last:s.start])
		b.WriteString(marker + kind + "]")
		for i := s.start; i < s.end; i++ {
			if c := text[i]; c == '\n' || c == '\r' {
				b.WriteByte(c)
			}
		}
		red[kind]++
		last = s.end
	}
	b.WriteString(text[last:])
	return b.String(), red
}

// hitsOf is where spans lie in text: line and kind.
func hitsOf(text string, spans []span) []Hit {
	if len(spans) == 0 {
		return nil
	}
	hits := make([]Hit, len(spans))
	line, at := 1, 0
	for i, s := range spans {
		line += strings.Count(text[at:s.start], "\n")
		at = s.start
		hits[i] = Hit{Line: line, Kind: scrubRules[s.rule].kind}
	}
	return hits
}

// marker opens what [Text] writes; no rule may find a secret in it.
const marker = "[redacted:"

// span is a secret found by a rule, as byte offsets into the text.
type span struct{ start, end, rule int }

// engine holds the rules and the keyword index built from them. It is
// built once and only read.
type engine struct {
	rules []rule
	kw    keywords
}

// scrubber is built on first use, not at every process start.
var scrubber = sync.OnceValue(func() *engine { return newEngine(scrubRules) })

func newEngine(rules []rule) *engine {
	e := &engine{rules: rules}
	for i, r := range rules {
		for _, k := range r.keywords {
			e.kw.add(k, i)
		}
	}
	return e
}

// find returns the secrets in text, in order and not overlapping. The
// rules are tried in turn, and a secret found stands, for every try after
// it, for the marker that will replace it: the text read stops where the
// marker would begin, a name is not read back into it, and a word ends at
// its edges. A secret found can so reveal one next to it (a token whose
// run of letters a later token continued), so the rules are tried again
// until they find nothing more: what one scrub leaves, a second leaves
// alone. Clean text takes one round.
func (e *engine) find(text string) []span {
	at := e.kw.scan(text, len(e.rules))
	var kept []span // by position
	for more := at != nil; more; {
		more = false
		for ri := range e.rules {
			if e.round(text, ri, at[ri], &kept) {
				more = true
			}
		}
	}
	return kept
}

// round tries rule ri at the keywords found for it, adding what it finds
// to kept, and reports whether it found anything.
func (e *engine) round(text string, ri int, at []int, kept *[]span) bool {
	r, found, last := &e.rules[ri], false, -1
	for _, pos := range at {
		i, _ := slices.BinarySearchFunc(*kept, pos, func(k span, p int) int { return cmp.Compare(k.start, p) })
		b := bounds{lo: 0, hi: len(text)}
		if i > 0 {
			if (*kept)[i-1].end > pos {
				continue // inside a secret: a marker has no keywords
			}
			b.lo = (*kept)[i-1].end
		}
		if i < len(*kept) {
			if (*kept)[i].start == pos {
				continue
			}
			b.hi = (*kept)[i].start
		}
		start, ok := r.start(text, pos, b)
		if !ok || start == last {
			continue
		}
		last = start
		if s, ok := r.match(text, start, b); ok {
			s.rule = ri
			*kept = slices.Insert(*kept, i, s)
			found = true
		}
	}
	return found
}

// bounds are the edges of the text between the secrets found so far: lo
// is where the one before ends, hi where the one after starts.
type bounds struct{ lo, hi int }

// wordAt reports whether the byte at i is part of a word, a secret found
// counting as none.
func wordAt(text string, i int, b bounds) bool {
	return i >= b.lo && i < b.hi && i < len(text) && wordBytes[text[i]]
}

// start is where a match of r may start, given a keyword at pos.
func (r *rule) start(text string, pos int, b bounds) (int, bool) {
	start := pos
	if r.back != nil {
		const longest = 64
		for start > b.lo && pos-start < longest && r.back[text[start-1]] {
			start--
		}
		if start > b.lo && r.back[text[start-1]] {
			return 0, false // a name this long is not a name
		}
	}
	if r.bounded && wordAt(text, start-1, b) {
		return 0, false
	}
	return start, true
}

// maxBody is the most a rule's body function reads: a 4096-bit RSA key
// is 3 KiB, a PGP key block with subkeys rarely over 10.
const maxBody = 64 << 10

// match tries r at start and returns the secret it finds there.
func (r *rule) match(text string, start int, b bounds) (span, bool) {
	reach := start + cmp.Or(r.reach, 1<<10)
	end := len(text)
	if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
		end = start + i
	}
	line, cut := read(text, start, end, reach, b)
	if r.pre != nil && !r.pre(line) {
		return span{}, false
	}
	loc := r.re.FindStringSubmatchIndex(line)
	if loc == nil || cut && loc[1] == len(line) {
		return span{}, false // none, or one the reach may have cut short
	}
	match := line[:loc[1]]
	if r.body != nil {
		if start+loc[1] > b.hi {
			return span{}, false
		}
		rest, _ := read(text, start+loc[1], len(text), start+loc[1]+maxBody, b)
		n, ok := r.body(rest)
		if !ok || start+loc[1]+n > b.hi {
			return span{}, false
		}
		loc[1] += n
		match = text[start : start+loc[1]]
	}
	s, e := loc[0], loc[1]
	for g := 2; g < len(loc); g += 2 {
		if loc[g] >= 0 {
			s, e = loc[g], loc[g+1]
			break
		}
	}
	// The match may read into the marker that stands for the next secret
	// (a URL's host after its password), the secret may not.
	if start+e > b.hi || !r.accept(match, text[start+s:start+e], wordAt(text, start+e, b)) {
		return span{}, false
	}
	return span{start: start + s, end: start + e}, true
}

// read returns text from from to end, or to limit if that comes first, as
// a second scrub would read it: cut at the next secret found, where the
// marker replacing it will begin. cut reports that limit cut it short.
func read(text string, from, end, limit int, b bounds) (s string, cut bool) {
	switch {
	case b.hi < min(end, limit):
		return text[from:b.hi] + marker, false
	case limit < end:
		return text[from:limit], true
	}
	return text[from:end], false
}

// accept judges a secret r's regexp found in match: it must be no marker,
// end at a word's end if r asks, and pass r's entropy, checks and
// allow-list. wordAfter reports that a word goes on after the secret.
func (r *rule) accept(match, secret string, wordAfter bool) bool {
	switch {
	case secret == "" || strings.Contains(secret, marker):
		return false
	case r.bounded && wordAfter:
		return false
	case r.entropy > 0 && entropy(secret) < r.entropy:
		return false
	case r.valid != nil && !r.valid(match, secret):
		return false
	}
	if len(r.allow) > 0 {
		low := strings.ToLower(secret)
		for _, a := range r.allow {
			if strings.Contains(low, a) {
				return false
			}
		}
	}
	return true
}

package checks

import (
	"slices"
	"strings"
	"unicode"
)

// A statement in other words than the decision's: the word-by-word
// comparison ([comparer.contradicts]) finds "Use YAML for config" against
// "Use TOML for config", but not "We use YAML for config." or "Config is
// written in YAML.". For rule 3 a cold statement is also stale when, with
// no model, it
//   - names a choice: a word written as a name (capitalised past the
//     sentence's first word, or in capitals) right after a choice marker
//     ("use", "in", "as", "with", …; articles skipped),
//   - where the decision names another and the statement does not name
//     the decision's,
//   - about the decision's subject: at least two thirds of the decision's
//     other words of substance (all of one or two), plurals aside,
//   - without a negation (which would agree: "We no longer use YAML").

// choiceClaim is a decision read for its named choices and its subject.
type choiceClaim struct {
	choices map[string]bool // lower case
	subject []string        // stems of the other words of substance
}

// claimOf reads text's named choices and subject; ok is false when it
// names no choice or has no subject.
func claimOf(text string) (choiceClaim, bool) {
	c := choiceClaim{choices: namedChoices(text)}
	if len(c.choices) == 0 {
		return c, false
	}
	for _, w := range words(text) {
		if c.choices[w] || choiceMarkers[w] || stopwords[w] || negations[w] || auxiliaries[w] {
			continue
		}
		c.subject = append(c.subject, stem([]string{w}))
	}
	return c, len(c.subject) > 0
}

// otherChoice reports whether statement names another choice than claim
// about claim's subject, and which.
func otherChoice(statement string, claim choiceClaim) (string, bool) {
	ws := words(statement)
	for _, w := range ws {
		if negations[w] {
			return "", false
		}
	}
	named := namedChoices(statement)
	if len(named) == 0 {
		return "", false
	}
	for w := range named {
		if claim.choices[w] {
			return "", false
		}
	}
	have := map[string]bool{}
	for _, w := range ws {
		have[stem([]string{w})] = true
	}
	hits := 0
	for _, s := range claim.subject {
		if have[s] {
			hits++
		}
	}
	need := len(claim.subject)
	if need > 2 {
		need = (2*need + 2) / 3
	}
	if hits < need {
		return "", false
	}
	// The first named choice in the statement's order, for the reason.
	for _, w := range ws {
		if named[w] {
			return w, true
		}
	}
	return "", false
}

// namedChoices are the words of text written as names (capitalised but
// for the sentence's first word, or in capitals) that follow a choice
// marker, articles skipped, lower-cased.
func namedChoices(text string) map[string]bool {
	out := map[string]bool{}
	raw := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("'-+#./_", r)
	})
	prev := ""
	for i, w := range raw {
		w = strings.Trim(w, "'-./_")
		if w == "" {
			continue
		}
		low := strings.ToLower(w)
		if choiceMarkers[prev] && isName(w, i == 0) {
			out[low] = true
		}
		if !articles[low] {
			prev = low
		}
	}
	return out
}

// isName reports a word written as a name: in capitals (two letters or
// more), or capitalised where a sentence does not start.
func isName(w string, first bool) bool {
	r := []rune(w)
	if !unicode.IsUpper(r[0]) {
		return false
	}
	if !first {
		return true
	}
	upper := 0
	for _, c := range r {
		if unicode.IsUpper(c) {
			upper++
		}
	}
	return upper >= 2
}

// names quotes a set of choices in order.
func names(set map[string]bool) string {
	var out []string
	for w := range set {
		out = append(out, `"`+w+`"`)
	}
	slices.Sort(out)
	return strings.Join(out, " and ")
}

package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// clauseSplit ends a clause: a sentence's end, a colon or a semicolon
// followed by a space.
var clauseSplit = regexp.MustCompile(`[.!?]\s+|:\s+|;\s+`)

// listMark is what opens a Markdown line without being its text.
var listMark = regexp.MustCompile(`^\s*(?:[-*>]|\d+\.|#+)\s*`)

// wakeClauses are the clauses of wake's text (a boot context, a hook's
// output) long enough to be facts: five words or more, each once.
func wakeClauses(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "|") {
			continue // a heading or a table row names, it does not state
		}
		line = listMark.ReplaceAllString(line, "")
		for _, c := range clauseSplit.Split(line, -1) {
			c = strings.TrimRight(strings.TrimSpace(c), ".!?")
			if len(strings.Fields(c)) >= 5 && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// repeatedClauses are the clauses of wake's text that a model request
// holds more than once: a fact said twice.
func repeatedClauses(request, wakeText string) []string {
	var out []string
	for _, c := range wakeClauses(wakeText) {
		if strings.Count(request, c) > 1 {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// assertEachFactOnce fails on every clause of wake's text a request holds
// twice.
func assertEachFactOnce(t *testing.T, which, request, wakeText string) {
	t.Helper()
	for _, c := range repeatedClauses(request, wakeText) {
		t.Errorf("%s: %q is in the request %d times", which, c, strings.Count(request, c))
	}
}

// TestRepeatedClauses checks the checker: a fact said twice, in another
// frame, is found; distinct facts are not.
func TestRepeatedClauses(t *testing.T) {
	t.Parallel()
	wakeText := "- 2026-11-21 17:40Z: Finished the Sparkasse CSV importer today. Next: fix the VAT rounding per invoice.\n## Open threads\n- Ben's nit on the pull request remains open.\n"
	request := wakeText + "\nResumed. Last session: Finished the Sparkasse CSV importer today.\n"
	if got := repeatedClauses(request, wakeText); !slices.Equal(got, []string{"Finished the Sparkasse CSV importer today"}) {
		t.Errorf("found %q", got)
	}
	if got := repeatedClauses(wakeText, wakeText); len(got) != 0 {
		t.Errorf("found %q in a text with no repeat", got)
	}
}

package skill

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Seed 001's "What to Exclude" beyond transcripts and tool output
// ([excluded]), as far as wake can tell without a model:
//
//   - Debugging details that were resolved: an item of Last Session's
//     What happened or Open threads that says it was debugging (a stack
//     trace, a panic, bisecting, reproducing, …) and that it was resolved
//     (fixed, root cause, turned out, …), or an open thread marked done
//     ("[x]", "resolved", "✅", struck through). The outcome worth keeping
//     is the decision or the change, which Decisions made and What changed
//     carry.
//   - Information already captured in protocols: an item of Last Session
//     that says what a line of How We Work (a standing directive or a
//     decision in force) says, its reason aside.
var (
	debugging = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(debug(?:ged|ging)?|stack ?trace|traceback|panic(?:ked|s)?|segfault|bisect(?:ed|ing)?|repro(?:duced|duce|ducing)?|breakpoints?|printf|core dump|race detector|flak(?:y|iness))\b`)
	})
	resolved = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(fixed|resolved|solved|root cause|turned out|was caused by|works now|no longer (?:fails|happens|reproduces))\b`)
	})
	doneThread = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:\[x\]|✅|~~.*~~$|\(?resolved\)?[:.]|\(?done\)?[:.])`)
	})
)

// resolvedDebugging reports an item that is debugging detail resolved
// since, or a thread marked done.
func resolvedDebugging(text string) bool {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "- "))
	if doneThread().MatchString(t) {
		return true
	}
	return debugging().MatchString(t) && resolved().MatchString(t)
}

// excludeRepeats marks the items of recent that say what a line of
// protocols says, and counts them as excluded.
func excludeRepeats(recent, protocols *Section) {
	known := map[string]bool{}
	for _, it := range protocols.Items {
		if k := claim(it.Text); k != "" {
			known[k] = true
		}
	}
	kept := recent.Items[:0]
	for _, it := range recent.Items {
		if it.Group != "" && known[claim(it.Text)] {
			recent.Excluded++
			continue
		}
		kept = append(kept, it)
	}
	recent.Items = kept
}

// decidedPrefix is How We Work's "Decided 2026-11-20: " before a decision.
var decidedPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^decided \d{4}-\d{2}-\d{2}:\s*`) })

// claim is what a line says, for comparing: list marker, "Decided
// <date>:", its reason ("because …", "(because …)") and a "(see decision
// N)" aside, lower case, words only. "" for a line too short to be a
// claim of its own (fewer than three words).
func claim(text string) string {
	t := strings.TrimSpace(text)
	t = strings.TrimSpace(strings.TrimLeft(t, "-*+"))
	t = decidedPrefix().ReplaceAllString(t, "")
	low := strings.ToLower(t)
	for _, cut := range []string{" (because ", " because ", " (see ", " (decision "} {
		if i := strings.Index(low, cut); i >= 0 {
			low = low[:i]
		}
	}
	ws := strings.FieldsFunc(low, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(ws) < 3 {
		return ""
	}
	return strings.Join(ws, " ")
}

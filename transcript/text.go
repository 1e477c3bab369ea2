package transcript

import (
	"strings"
	"unicode"

	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// The texts kept (prompts, commands, the last message) are kept as
// recorded, each a window of at most its limit plus scrubWindow bytes,
// and made one line only when the summary is done: scrubbed of secrets
// first, so that a secret is never cut (a private key's END line past
// the limit, a token across it) and its head kept. The window bounds
// what is held and scrubbed; no secret is longer.
const scrubWindow = 64 << 10

func window(text string, limit int) string {
	if n := limit + scrubWindow; len(text) > n {
		return text[:n]
	}
	return text
}

func clean(texts []string, max int) []string {
	for i, t := range texts {
		texts[i] = cleanText(t, max)
	}
	return texts
}

// cleanText makes a text one line of at most max bytes, scrubbed of
// secrets before it is cut: whole, as recorded (a private key is told by
// its lines), and again once one line (what flattening brought together,
// "password:" and its value on the next line).
func cleanText(text string, max int) string {
	text, _ = policy.Scrub(text)
	text, _ = policy.Scrub(flatten(text, 0))
	return Shorten(text, max)
}

// oneLine makes text one line of at most max bytes (0: any): see
// [flatten] and [Shorten].
func oneLine(text string, max int) string {
	return Shorten(flatten(text, max), max)
}

// flatten makes text one line: invalid UTF-8 becomes U+FFFD, control
// characters and runs of white space one space. With max > 0 it stops
// past max bytes, which is all that a cut to max needs.
func flatten(text string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range text {
		if max > 0 && b.Len() > max {
			break
		}
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r) // an invalid byte comes as U+FFFD
	}
	return b.String()
}

// redactedMarker opens what the policy package puts in place of a secret.
const redactedMarker = "[redacted:"

// Shorten cuts a one-line text to at most max bytes and ends it in "…":
// at a character's start, and before a redaction marker ([redacted:kind])
// that the cut would fall in.
func Shorten(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	cut := len(tiers.CutBytes(s, max))
	// A marker holds no "[": the last one before the cut opens the
	// marker the cut falls in, if any.
	if i := strings.LastIndexByte(s[:cut], '['); i >= 0 && strings.HasPrefix(s[i:], redactedMarker) && !strings.Contains(s[i:cut], "]") {
		cut = i
	}
	return strings.TrimRight(s[:cut], " ") + "…"
}

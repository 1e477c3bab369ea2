package boot

import (
	"github.com/spf13/afero"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
)

// Markdown renders the boot context as the agent reads it.
func Markdown(c *Context) string {
	return markdownHead(c) + outputLine(c)
}

// RedactLedger applies the sensitivity policy (DESIGN section 7) to ledger
// entries an agent will see, reading each document's sensitivity from the
// head of the file as it is now: see [policy.RedactLedger].
func RedactLedger(fsys afero.Fs, root string, entries []store.Entry) ([]store.Entry, int) {
	out, held, _ := policy.RedactLedger(entries, func(p string) string { return policy.OfPath(fsys, root, p) })
	return out, held
}

// HookLen is the length of s as Claude Code measures it: JavaScript string
// length, in UTF-16 code units.
func HookLen(s string) int { return ClaudeCode.Len(s) }

// cutUTF16 shortens s to at most n UTF-16 code units, on a character
// boundary, marking the cut with an ellipsis.
func cutUTF16(s string, n int) string { return ClaudeCode.cut(s, n) }

package boot

import (
	"fmt"
	"strings"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// admitFile applies the sensitivity policy to a tier file, once, for every
// output built from the context: a secret document is not shown at all, a
// confidential one by its one-line summary only, and the context counts
// both. The file's document stays whole for the checks, whose findings are
// redacted instead.
func (c *Context) admitFile(f *File, counter budget.Counter) {
	lvl, err := policy.OfDoc(f.doc)
	switch lvl {
	case tiers.Secret:
		c.HeldBack.Secret++
		f.Held, f.Content = tiers.Secret, ""
		if err != nil {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: held back because its front matter cannot be read, so its sensitivity is unknown (not because it is secret): %v", f.Path, err))
		}
	case tiers.Confidential:
		c.HeldBack.Confidential++
		f.Held = tiers.Confidential
		f.Content = fmt.Sprintf("Summary: %s\n", tiers.OneLine(f.doc.Meta.Summary))
	}
	// Pasted credentials never leave: what is shown is scrubbed, and
	// counted, before it is fitted and counted. A file shown whole is its
	// document as read, so the same search says where the secrets are,
	// for the checks' warning.
	var r policy.Redactions
	var hits []policy.SecretHit
	f.Content, r, hits = policy.ScrubFind(f.Content)
	if f.Held == "" {
		f.secrets = hits
	}
	c.HeldBack.Redacted = c.HeldBack.Redacted.Merge(r)
	f.Tokens = counter.Count(f.Content)
	f.scrubbed = f.Content
	// The front matter is the file's index card (its summary, the
	// session it records), which the boot context says elsewhere: the
	// file is shown from its body.
	if f.Held == "" {
		if _, body, ok := tiers.SplitFrontMatter([]byte(f.Content)); ok {
			f.Content = strings.TrimLeft(string(body), "\r\n")
		}
		// So are its comments, notes to whoever edits it by hand (how to
		// append an entry), which Claude Code leaves out of an import too.
		f.Content = stripComments(f.Content)
	}
	f.full = f.Content
	f.bodyTokens = counter.Count(f.Content)
	f.ShownTokens = f.bodyTokens
}

// stripComments leaves out of Markdown text its HTML comments that stand
// on lines of their own: from a line opening with "<!--" (indented at
// most three spaces) to the line that closes it with "-->" and nothing
// after. What is code stays whole: a fenced block's lines, a line
// indented four spaces or a tab, and a "comment" that a fence marker
// would interrupt (the fence may hold the text) or that never closes.
func stripComments(text string) string {
	if !strings.Contains(text, "<!--") {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	fence := "" // the open fence's marker, "" outside one
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if m := fenceMarker(trimmed); m != "" && indent <= 3 {
			switch {
			case fence == "":
				fence = m
			case strings.HasPrefix(m, fence[:1]) && len(m) >= len(fence) && strings.TrimSpace(trimmed[len(m):]) == "":
				fence = ""
			}
		}
		if fence != "" || indent > 3 || strings.HasPrefix(trimmed, "\t") || !strings.HasPrefix(trimmed, "<!--") {
			b.WriteString(line)
			continue
		}
		end, ok := commentEnd(lines, i)
		if !ok {
			b.WriteString(line)
			continue
		}
		i = end
	}
	return b.String()
}

// commentEnd is the index of the line closing the comment opened on line
// i, with nothing but blanks after its "-->"; false when a fence marker
// comes first, text follows the close, or it never closes.
func commentEnd(lines []string, i int) (int, bool) {
	for j := i; j < len(lines); j++ {
		line := lines[j]
		if j == i {
			line = line[strings.Index(line, "<!--")+len("<!--"):]
		} else if fenceMarker(strings.TrimLeft(line, " ")) != "" {
			return 0, false
		}
		if k := strings.Index(line, "-->"); k >= 0 {
			return j, strings.TrimSpace(line[k+len("-->"):]) == ""
		}
	}
	return 0, false
}

// fenceMarker is the code fence marker a line (its indentation trimmed)
// opens with: three or more backticks or tildes; "" when none.
func fenceMarker(line string) string {
	for _, c := range []string{"`", "~"} {
		n := len(line) - len(strings.TrimLeft(line, c))
		if n >= 3 {
			return line[:n]
		}
	}
	return ""
}

// held maps the paths of held-back tier files to their level.
func (c *Context) held() map[string]string {
	out := map[string]string{}
	for _, f := range c.Files() {
		switch {
		case f.Held != "" && f.doc.MetaErr != nil:
			out[f.Path] = policy.Unreadable
		case f.Held != "":
			out[f.Path] = f.Held
		}
	}
	return out
}

// Admitted is a tier file as the context's sensitivity policy lets it
// appear: what a builder outside the pipeline (skill.md, the wake-up
// packet) may take from it.
type Admitted struct {
	Doc     tiers.Doc // the document as read; only what Whole or Summary allow may appear
	Whole   bool      // its content may appear
	Summary string    // a confidential document: the one line that may appear
}

// Admitted returns how the tier file at path may appear: the zero Admitted
// for a file that is missing, unreadable, secret or not a tier file.
func (c *Context) Admitted(path string) Admitted {
	for _, f := range c.Files() {
		if f.Path != path {
			continue
		}
		switch {
		case !f.doc.Readable() || f.Held == policy.Secret:
			return Admitted{}
		case f.Held == policy.Confidential:
			return Admitted{Doc: f.doc, Summary: strings.TrimSuffix(strings.TrimPrefix(f.full, "Summary: "), "\n")}
		}
		// The document as shown: scrubbed of secret-looking strings.
		d := f.doc
		d.Content = []byte(f.scrubbed)
		d.Meta.Summary, _ = policy.Scrub(d.Meta.Summary)
		return Admitted{Doc: d, Whole: true}
	}
	return Admitted{}
}

package capsule

import (
	"net/url"
	"path"
	"regexp"
	"strings"
	"sync"
)

// scanBody reads the body's sections, list items and references; first is
// the line number of the body's first line. Fenced code blocks and HTML
// comments are skipped: a heading or a path shown in an example is not
// one the capsule makes.
func (s *Scanned) scanBody(first int) {
	fence, comment := "", false
	var cur *Heading
	for n, raw := range strings.SplitAfter(s.Body, "\n") {
		no, t := first+n, strings.TrimRight(raw, "\r\n")
		if fence != "" {
			if f := fenceOf(strings.TrimSpace(t)); f != "" && f[0] == fence[0] && len(f) >= len(fence) {
				fence = ""
			}
			continue
		}
		t, comment = stripComments(t, comment)
		trimmed := strings.TrimSpace(t)
		if f := fenceOf(trimmed); f != "" {
			fence = f
			if cur != nil {
				cur.Empty = false
			}
			continue
		}
		if title, ok := strings.CutPrefix(t, "# "); ok {
			title = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(title), "#"))
			s.Headings = append(s.Headings, Heading{Title: title, Line: no, Empty: true})
			cur = &s.Headings[len(s.Headings)-1]
			continue
		}
		if trimmed == "" {
			continue
		}
		if cur != nil {
			cur.Empty = false
		}
		if cur != nil && bulletRe().MatchString(t) {
			cur.Bullets = append(cur.Bullets, Bullet{Text: trimmed, Line: no})
		}
		s.Refs = append(s.Refs, refsIn(t, no)...)
	}
}

// bulletRe is a top-level list item: at the margin, "-", "*", "+" or a
// number with "." or ")".
var bulletRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[-*+]|\d{1,3}[.)])[ \t]`) })

// stripComments removes HTML comments from t; open says whether t starts
// inside one, and the second result whether it ends inside one.
func stripComments(t string, open bool) (string, bool) {
	var b strings.Builder
	for {
		if open {
			i := strings.Index(t, "-->")
			if i < 0 {
				return b.String(), true
			}
			t, open = t[i+3:], false
			continue
		}
		i := strings.Index(t, "<!--")
		if i < 0 {
			b.WriteString(t)
			return b.String(), false
		}
		b.WriteString(t[:i])
		t, open = t[i+4:], true
	}
}

var (
	codeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`]+)`") })
	linkRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`) })
	// A path written in backticks: no blanks, no shell or glob characters,
	// and a slash or a file extension.
	pathRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.@+~/-]+(?::\d+(?:-\d+)?)?$`) })
	extRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\.[a-z][a-z0-9]{0,4}$`) })
	lineSfx = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`:\d+(?:-\d+)?$`) })
)

// refsIn lists the artifacts line t names, as [Scanned] documents.
func refsIn(t string, no int) []Ref {
	var out []Ref
	for _, m := range linkRe().FindAllStringSubmatch(t, -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		target, _, _ = strings.Cut(target, "#")
		// A link writes a blank in a file's name as %20: the file has
		// the blank. A "%" that escapes nothing is the name's own.
		if u, err := url.PathUnescape(target); err == nil {
			target = u
		}
		if p, ok := cleanPath(target); ok {
			out = append(out, Ref{Kind: RefPath, Value: p, Line: no})
		}
	}
	for _, m := range codeRe().FindAllStringSubmatch(t, -1) {
		c := strings.TrimSpace(m[1])
		if p, _, ok := strings.Cut(c, "#"); ok && p != "" {
			c = p // a file's anchor (warm/decisions.md#d-4994): the file
		}
		switch {
		case isHash(c):
			// Backticked, a hash of digits alone is taken for a commit too.
			out = append(out, Ref{Kind: RefCommit, Value: c, Line: no})
		case looksLikePath(c):
			if p, ok := cleanPath(lineSfx().ReplaceAllString(c, "")); ok {
				out = append(out, Ref{Kind: RefPath, Value: p, Line: no})
			}
		}
	}
	bare := codeRe().ReplaceAllString(linkRe().ReplaceAllString(t, "]"), " ")
	for _, w := range strings.FieldsFunc(bare, notWord) {
		if w = strings.TrimRight(w, ".:"); isCommit(w) {
			out = append(out, Ref{Kind: RefCommit, Value: w, Line: no})
		}
	}
	return out
}

// notWord separates the words of a line where a bare commit is looked
// for: a hash inside a path or a longer word is not one.
func notWord(r rune) bool {
	return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || strings.ContainsRune("_/.-", r))
}

// isCommit: a commit is 7 to 40 lowercase hex digits with at least one
// digit and one letter, so that a date or a word is not taken for one.
func isCommit(c string) bool {
	return isHash(c) && strings.ContainsAny(c, "0123456789") && strings.ContainsAny(c, "abcdef")
}

// isHash: 7 to 40 lowercase hex digits.
func isHash(c string) bool {
	return len(c) >= 7 && len(c) <= 40 && strings.Trim(c, "0123456789abcdef") == ""
}

func looksLikePath(c string) bool {
	if !pathRe().MatchString(c) || strings.HasPrefix(c, "-") || strings.Contains(c, "...") {
		return false
	}
	bare := lineSfx().ReplaceAllString(c, "")
	return strings.Contains(bare, "/") || extRe().MatchString(bare)
}

// cleanPath is p slash-cleaned; false for what names no file (".", "/").
func cleanPath(p string) (string, bool) {
	if p == "" {
		return "", false
	}
	c := path.Clean(p)
	if c == "." || c == "/" {
		return "", false
	}
	return c, true
}

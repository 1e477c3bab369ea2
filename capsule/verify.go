package capsule

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/wakeproto/wake/policy"
)

// The kinds of a [Finding] of `wake capsule verify`.
const (
	FindFrontMatter = "front-matter" // a key missing, unknown, empty or of the wrong type
	FindOutline     = "outline"      // a section missing, unknown, repeated, out of order, or text before the first
	FindEmpty       = "empty"        // a section with nothing in it
	FindHighlights  = "highlights"   // Transcript Highlights: more than five, or one citing no time or commit
	FindBudget      = "budget"       // the body over token_budget or capsule.max_tokens
	FindSecret      = "secret"       // a secret-looking string
	FindPath        = "path"         // a named file that does not exist, or lies outside the project and root
	FindCommit      = "commit"       // a named commit git does not know
	FindDrift       = "drift"        // a recorded file changed or gone since the first verify
)

// Finding is one problem `wake capsule verify` found in a capsule.
type Finding struct {
	Kind    string
	Line    int    // 0 when it concerns the file as a whole
	Subject string // the key, section, path or commit concerned
	Message string
}

// CheckOptions is what [Check] judges a capsule against.
type CheckOptions struct {
	MaxTokens int              // capsule.max_tokens
	Count     func(string) int // exact token count
}

// Check judges what a scan read: the front matter, the outline, the
// highlights, the body's size and its secrets. The artifacts the capsule
// names are the caller's to look up (they need the file system and git).
// The body's token count comes back with the findings.
func Check(s *Scanned, o CheckOptions) ([]Finding, int) {
	var out []Finding
	for _, p := range s.Problems {
		kind := FindOutline
		if strings.Contains(p.Msg, "front matter") {
			kind = FindFrontMatter
		}
		out = append(out, Finding{Kind: kind, Line: p.Line, Message: p.Msg})
	}
	if v := s.Capsule.Front.Version; v != "" && v != Version {
		out = append(out, Finding{Kind: FindFrontMatter, Line: s.KeyLines[KeyVersion], Subject: KeyVersion,
			Message: fmt.Sprintf("version %q: wake reads capsules of version %s", clip(v), Version)})
	}
	out = append(out, checkEmpty(s)...)
	out = append(out, checkHighlights(s)...)
	tokens := o.Count(s.Body)
	if b := s.Capsule.Front.TokenBudget; b > 0 && tokens > b {
		out = append(out, Finding{Kind: FindBudget, Line: s.KeyLines[KeyTokenBudget], Subject: KeyTokenBudget,
			Message: fmt.Sprintf("the body is %d tokens, over its token_budget of %d", tokens, b)})
	}
	if o.MaxTokens > 0 && tokens > o.MaxTokens {
		out = append(out, Finding{Kind: FindBudget, Subject: "capsule.max_tokens",
			Message: fmt.Sprintf("the body is %d tokens, over capsule.max_tokens (%d)", tokens, o.MaxTokens)})
	}
	// The front matter is handed on with the body (its objective, its
	// session): a secret there is one too.
	for _, h := range policy.FindSecrets(s.Front) {
		out = append(out, Finding{Kind: FindSecret, Line: h.Line, Subject: h.Kind,
			Message: fmt.Sprintf("a secret-looking string (%s) in the front matter: take it out and say where the secret is kept instead", h.Kind)})
	}
	for _, h := range policy.FindSecrets(s.Body) {
		out = append(out, Finding{Kind: FindSecret, Line: s.CloseLine + h.Line, Subject: h.Kind,
			Message: fmt.Sprintf("a secret-looking string (%s): take it out and say where the secret is kept instead", h.Kind)})
	}
	return out, tokens
}

// checkEmpty finds the outline's sections with nothing in them.
func checkEmpty(s *Scanned) []Finding {
	var out []Finding
	seen := map[string]bool{}
	for _, h := range s.Headings {
		if !h.Empty || seen[h.Title] || !slices.Contains(Outline, h.Title) {
			continue
		}
		seen[h.Title] = true
		out = append(out, Finding{Kind: FindEmpty, Line: h.Line, Subject: h.Title,
			Message: fmt.Sprintf("section %q is empty; write %s when nothing applies", h.Title, Empty)})
	}
	return out
}

// citeRe is what a highlight cites: a date (with or without its time) or
// a commit.
var citeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d{4}-\d{2}-\d{2}|\d{8}T\d{6}Z|\b[0-9a-f]{7,40}\b`) })

func checkHighlights(s *Scanned) []Finding {
	var out []Finding
	for _, h := range s.Headings {
		if h.Title != "Transcript Highlights" {
			continue
		}
		if n := len(h.Bullets); n > MaxHighlights {
			out = append(out, Finding{Kind: FindHighlights, Line: h.Bullets[MaxHighlights].Line, Subject: h.Title,
				Message: fmt.Sprintf("%d highlights, at most %d: keep the pivotal ones", n, MaxHighlights)})
		}
		for _, b := range h.Bullets {
			if !cites(b.Text) {
				out = append(out, Finding{Kind: FindHighlights, Line: b.Line, Subject: h.Title,
					Message: "a highlight citing no time (such as 2026-11-22T22:30Z) or commit"})
			}
		}
	}
	return out
}

func cites(t string) bool {
	for _, m := range citeRe().FindAllString(t, -1) {
		if strings.Contains(m, "-") || strings.HasSuffix(m, "Z") || isCommit(m) {
			return true
		}
	}
	return false
}

// WithFiles is the capsule data, which s scanned, with its front matter
// rewritten to record files (sorted by path): the body, every byte of it,
// as it was. s must have no Problems, so that the front matter it read is
// whole.
func WithFiles(data []byte, s *Scanned, files []FileHash) []byte {
	fm := s.Capsule.Front
	fm.Files = slices.Clone(files)
	sort.Slice(fm.Files, func(i, j int) bool { return fm.Files[i].Path < fm.Files[j].Path })
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(RenderFront(fm))
	b.WriteString("---\n")
	b.Write(data[s.FrontEnd:])
	return b.Bytes()
}

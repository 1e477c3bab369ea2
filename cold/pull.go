package cold

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// ColdPath turns a `wake cold` argument into a root-relative path inside
// cold/: "cold/2025/a.md" and "2025/a.md" both name cold/2025/a.md. An
// absolute path, or one that leaves cold/ ("../main.md"), is refused before
// anything is read.
func ColdPath(arg string) (string, error) {
	slashed := filepath.ToSlash(arg)
	switch {
	case strings.TrimSpace(arg) == "":
		return "", fmt.Errorf("empty path: give a path inside %s/", tiers.ColdDir)
	case filepath.IsAbs(arg) || strings.HasPrefix(slashed, "/"):
		return "", fmt.Errorf("%s: absolute paths are refused; give a path inside %s/ as the table of contents shows it", arg, tiers.ColdDir)
	}
	p := path.Clean(slashed)
	if !strings.HasPrefix(slashed, tiers.ColdDir+"/") {
		p = path.Clean(tiers.ColdDir + "/" + slashed)
	}
	if !strings.HasPrefix(p, tiers.ColdDir+"/") {
		return "", fmt.Errorf("%s: outside %s/ (it resolves to %s); wake cold prints cold documents only", arg, tiers.ColdDir, p)
	}
	return p, nil
}

// Pull is what `wake cold PATH` prints for one cold document.
type Pull struct {
	Path         string
	Text         string // what to print
	Tokens       int    // exact count of Text: what the pull spends
	DocTokens    int    // the whole document (its head when Huge)
	Whole        bool   // Text is the document itself
	Confidential bool   // Text is the document's summary only
	Huge         bool
	Left         int    // tokens left for pulls after this one
	Cap          string // the cap that binds: "budget.cold" or "budget.memory_max"
}

// PullError is a pull wake refuses: the document is secret, unreadable, not
// a cold file, or not even its summary fits what is left.
type PullError struct {
	Path   string
	Reason string
	Advice string // what the user can do about it, or ""
}

func (e *PullError) Error() string { return e.Path + ": " + e.Reason }

// Hint is what the user can do about it, or "".
func (e *PullError) Hint() string { return e.Advice }

// PullCold decides what `wake cold` prints for the cold document at rel
// (from [ColdPath]) given the session's pulls so far. The whole document
// when it fits both caps: budget.cold for the session's pulls, and the
// memory maximum for the last load plus the pulls. Otherwise an extractive
// summary cut to what is left, which says so; never the whole file.
func PullCold(o Options, rel string, s store.ColdSession) (Pull, error) {
	o.Counter = budget.Whole(o.Counter)
	p := Pull{Path: rel}
	p.Left, p.Cap = pullRoom(o.Config, s)
	d, err := tiers.ReadDoc(o.FS, o.Root, rel)
	if err != nil {
		return p, err
	}
	if perr := pullable(d); perr != nil {
		return p, perr
	}
	h := tiers.ParseColdHead(d.Content, !d.Huge)
	switch {
	case h.MetaErr != "":
		return p, &PullError{rel, fmt.Sprintf("its front matter cannot be read (%s), so its sensitivity is unknown; not printed", h.MetaErr), "fix the front matter, then pull it again"}
	case policy.Level(d.Meta.Sensitivity, nil) == policy.Secret:
		return p, &PullError{rel, "marked sensitivity: secret; wake never prints it", ""}
	case policy.Level(d.Meta.Sensitivity, nil) == policy.Confidential:
		return pullConfidential(o, p, d)
	}
	p.DocTokens, p.Huge = o.Counter.Count(string(d.Content)), d.Huge
	if !d.Huge && p.DocTokens <= p.Left {
		p.Text, p.Tokens, p.Whole = string(d.Content), p.DocTokens, true
		p.Left -= p.Tokens
		return p, nil
	}
	return pullSummary(o, p, string(d.Content))
}

// pullRoom is what a pull may spend, and the cap that sets it.
func pullRoom(cfg tiers.Config, s store.ColdSession) (int, string) {
	cold := cfg.Budget.Cold - s.Pulled
	limit := min(cfg.Budget.MemoryMax, cfg.ContextWindow-cfg.Budget.WorkMin)
	mem := limit - s.LoadTokens - s.Pulled
	if mem < cold {
		return max(0, mem), "budget.memory_max"
	}
	return max(0, cold), "budget.cold"
}

func pullable(d tiers.Doc) error {
	hint := "run 'wake cold' to list the cold documents"
	switch {
	case d.Missing:
		return &PullError{d.Path, "no such cold document", hint}
	case d.Skipped == "is a directory":
		return &PullError{d.Path, "a directory, not a document", hint}
	case d.Skipped != "":
		return &PullError{d.Path, "refused: " + d.Skipped, ""}
	}
	return nil
}

func pullConfidential(o Options, p Pull, d tiers.Doc) (Pull, error) {
	summary := strings.Join(strings.Fields(d.Meta.Summary), " ")
	if summary == "" {
		summary = "(it has none)"
	}
	p.Confidential = true
	p.Text = fmt.Sprintf("[wake: %s is confidential: only its summary is shown]\n\nSummary: %s\n", p.Path, summary)
	p.Tokens = o.Counter.Count(p.Text)
	if p.Tokens > p.Left {
		return p, roomError(p, "its summary")
	}
	p.Left -= p.Tokens
	return p, nil
}

// pullSummary prints the document's extractive summary, cut from the
// bottom up to what is left, under a line that says it is not the file.
func pullSummary(o Options, p Pull, content string) (Pull, error) {
	size := budget.Thousands(p.DocTokens) + " tokens"
	if p.Huge {
		size = fmt.Sprintf("over %d MiB", tiers.MaxDocBytes>>20)
	}
	head := fmt.Sprintf("[wake: %s is %s, more than the %s tokens left (%s); this is an extractive summary of it (its summary, headings and the first sentence under each), not the file]\n\n",
		p.Path, size, budget.Thousands(p.Left), p.Cap)
	ext := budget.Extract(content)
	blocks := len(budget.Blocks(ext))
	room := p.Left - o.Counter.Count(head)
	for range 8 {
		if ext == "" || room <= 0 {
			break
		}
		r := budget.Fit(ext, room, o.Counter, p.Path, nil)
		if r.Over || r.DroppedBlocks >= blocks {
			break
		}
		text := head + r.Text
		n := o.Counter.Count(text)
		if n <= p.Left {
			p.Text, p.Tokens = text, n
			p.Left -= n
			return p, nil
		}
		room -= n - p.Left
	}
	return p, roomError(p, "its summary")
}

func roomError(p Pull, what string) error {
	return &PullError{p.Path, fmt.Sprintf("not even %s fits: %s tokens left this session (%s)", what, budget.Thousands(p.Left), p.Cap),
		"the cold budget starts afresh with the next session ('wake handoff', then 'wake load')"}
}

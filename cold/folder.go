package cold

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// Folder is one folder of cold/ as `wake cold [FOLDER]` lists it: one
// line a subfolder (its documents, recursively, their tokens and its
// newest document's date), then the documents directly in it. A month of
// session records that the table of contents groups as one line
// ("cold/sessions/2026-09-*") is a folder too.
type Folder struct {
	Path      string        `json:"path"`      // "cold/", "cold/2022/01/", "cold/sessions/2026-09-*"
	Documents int           `json:"documents"` // listed below it, recursively
	Tokens    int           `json:"tokens"`
	Newest    time.Time     `json:"newest,omitzero"`
	Entries   []FolderEntry `json:"entries"`
	// HeldBack says what the tier's listing leaves out, over the whole
	// tier (secret, confidential, unreadable and binary documents); only
	// cold/ itself carries it.
	HeldBack string `json:"held_back,omitempty"`
}

// FolderEntry is one line of a [Folder]: a subfolder or a document.
type FolderEntry struct {
	Path         string    `json:"path,omitempty"` // none for a confidential document
	Dir          bool      `json:"dir,omitempty"`
	Title        string    `json:"title,omitempty"`
	Documents    int       `json:"documents,omitempty"` // folders: all below
	Tokens       int       `json:"tokens"`
	Newest       time.Time `json:"newest,omitzero"` // folders: the newest document's; documents: its own
	Confidential bool      `json:"confidential,omitempty"`
	Huge         bool      `json:"huge,omitempty"`
}

// FolderPath turns a `wake cold` argument naming a folder into the
// listing's name for it: "", ".", "cold", "cold/" and "/"-less or
// slashed forms ("2022/01", "cold/2022/01/") alike give "cold/..." with a
// trailing slash; a month of session records keeps its "-*". A path
// outside cold/ is refused as [ColdPath] refuses it.
func FolderPath(arg string) (string, error) {
	s := strings.TrimSpace(arg)
	if s == "" || s == "." || path.Clean(s) == tiers.ColdDir {
		return tiers.ColdDir + "/", nil
	}
	rel, err := ColdPath(arg)
	if err != nil {
		return "", err
	}
	if strings.HasSuffix(rel, "-*") {
		return rel, nil
	}
	return rel + "/", nil
}

// IsMonth reports whether p (from [FolderPath] or [ColdPath]) names a
// month of session records as the listing groups them.
func IsMonth(p string) bool {
	return strings.HasPrefix(p, tiers.SessionsDir+"/") && strings.HasSuffix(p, "-*")
}

// Folder lists the folder at p (from [FolderPath]); false when the
// listing has no such folder: it does not exist, or nothing under it is
// listed (its documents are all secret, unreadable or binary).
func (t *TOC) Folder(p string) (*Folder, bool) {
	d := t.dirs[p]
	if d == nil {
		return nil, false
	}
	f := &Folder{Path: d.path, Documents: d.ndocs, Tokens: d.tokens, Newest: d.newest}
	if d == t.root {
		f.HeldBack = t.heldBack()
	}
	// Folders newest first, by their newest document, then by name; the
	// months of session records after them, newest first, as the table
	// of contents has them.
	dirs := slices.Clone(d.dirs)
	slices.SortStableFunc(dirs, func(a, b *tocDir) int {
		if a.month != "" || b.month != "" {
			return 0
		}
		if c := b.newest.Compare(a.newest); c != 0 {
			return c
		}
		return strings.Compare(a.path, b.path)
	})
	for _, c := range dirs {
		f.Entries = append(f.Entries, FolderEntry{Path: c.path, Dir: true, Documents: c.ndocs, Tokens: c.tokens, Newest: c.newest})
	}
	// Documents as the table of contents sorts them: newest first,
	// session records by their names.
	for _, doc := range d.docs {
		e := FolderEntry{Path: doc.path, Title: doc.title, Tokens: doc.tokens, Newest: doc.mtime, Confidential: doc.conf, Huge: doc.huge}
		if doc.conf {
			e.Path = ""
		}
		f.Entries = append(f.Entries, e)
	}
	return f, true
}

// Header is the folder's first line: its path and what it holds.
func (f *Folder) Header() string {
	if f.Documents == 0 {
		return f.Path + " — no documents listed (a secret, unreadable or binary one is only counted, on cold/)\n"
	}
	h := f.Path + " — " + budget.Plural(f.Documents, "document") + ", " + budget.Thousands(f.Tokens) + " tokens" + newestText(f.Newest)
	if IsMonth(f.Path) {
		// Its documents are in cold/sessions/ itself.
		h += "; the documents are in " + path.Dir(f.Path) + "/"
	}
	return h + "\n"
}

// Lines renders the folder's entries one line each, in order, then what
// was held back: the lines a page of `wake cold` is cut from.
func (f *Folder) Lines() []string {
	lines := make([]string, 0, len(f.Entries)+1)
	for _, e := range f.Entries {
		lines = append(lines, e.line())
	}
	if f.HeldBack != "" {
		lines = append(lines, "- "+f.HeldBack+"\n")
	}
	return lines
}

// line is the entry's line: a folder by its path, a document by its
// name in the folder.
func (e FolderEntry) line() string {
	var b strings.Builder
	b.WriteString("- ")
	switch {
	case e.Dir:
		// A folder by its whole path, as `wake cold FOLDER` takes it.
		fmt.Fprintf(&b, "%s — %s, %s tokens%s\n", e.Path, budget.Plural(e.Documents, "document"), budget.Thousands(e.Tokens), newestText(e.Newest))
		return b.String()
	case e.Confidential:
		title := e.Title
		if title == "" {
			title = "no summary"
		}
		b.WriteString("(confidential) " + title)
	default:
		b.WriteString(path.Base(e.Path))
		if e.Title != "" {
			b.WriteString(" — " + e.Title)
		}
	}
	if e.Huge {
		fmt.Fprintf(&b, " (over %d MiB; %s+ tokens)\n", tiers.MaxDocBytes>>20, budget.Thousands(e.Tokens))
		return b.String()
	}
	fmt.Fprintf(&b, " (%s tokens)\n", budget.Thousands(e.Tokens))
	return b.String()
}

func newestText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return ", newest " + t.UTC().Format("2006-01-02")
}

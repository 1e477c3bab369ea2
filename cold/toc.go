package cold

import (
	"cmp"
	"fmt"
	"path"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// NoFold asks [BuildTOC] for the whole tree, with no budget: `wake cold`.
const NoFold = -1

// maxTitleRunes bounds one document's title in the listing, so that one
// runaway summary cannot crowd out the rest of the tree.

// TOC is the cold tier's table of contents (DESIGN section 5, phase 4): a
// tree of cold/ by directory, one line a document, folded to fit a budget.
// Secret documents are counted, not listed; confidential ones appear as
// their summary only.
type TOC struct {
	sessionsElsewhere int       // see [Options.SessionsElsewhere]
	records           []*tocDoc // the session records listed by summary, for [TOC.NameRecords]
	Budget            int       // NoFold for the whole tree
	ColdBudget        int       // what `wake cold PATH` may pull a session
	Tokens            int       // exact count of Text()
	Documents         int
	DocTokens         int
	Secret            int  // held back: not listed
	Confidential      int  // listed by their summary only
	Unreadable        int  // front matter unreadable: not listed
	Binary            int  // not documents: skipped
	Folded            int  // directories shown as one line
	Omitted           bool // not even cold/ as one line fits
	Squeezed          bool // folded further to keep the context under memory_max
	Lines             []TOCLine

	// Redacted counts the secret-looking strings scrubbed from the
	// summaries and headings of the documents listed (folded ones too).
	Redacted policy.Redactions

	root  *tocDir
	order []*tocDir // fold order: deepest, largest, stalest first; cold/ last
	folds int       // how many of order are folded
	dirs  map[string]*tocDir
	last  *tocDir  // where the previous document went: files come in path order
	slab  []tocDoc // where add allocates the documents, a chunk at a time
	index *Index   // what the scan knows of every cold document

	fitter *budget.Fitter // the last fit, for the record
	cuts   []budget.Cut   // the record, once asked for
}

// TOCLine is one line of the listing: a directory or a document.
type TOCLine struct {
	Depth        int
	Path         string // "" for a confidential document
	Dir          bool
	Folded       bool
	Title        string
	Documents    int // directories: all below
	Tokens       int
	Confidential bool
	Huge         bool // over the read limit: Tokens counts the head
}

type tocDir struct {
	month   string // a month of session records folded as one: "2026-09"
	path    string // "cold/2025/"; "cold/sessions/2026-09-*" for a month
	depth   int
	parent  *tocDir
	dirs    []*tocDir
	docs    []*tocDoc
	ndocs   int
	tokens  int
	newest  time.Time
	visible int // lines the directory takes with the current folding
	pos     int // place in the fold order
}

type tocDoc struct {
	path   string
	title  string
	tokens int
	mtime  time.Time
	conf   bool
	huge   bool
	// rec is what the name says when it is a session record's (isRec):
	// read once, for the months and the sort.
	rec   recordName
	isRec bool
}

// BuildTOC lists cold/ and fits the listing to limit tokens, or lists it
// whole when limit is NoFold. Documents the index does not know (new or
// changed) are read whole and counted; the others are not opened. The
// warnings name what was skipped and why: nothing under cold/, not even
// cold/ itself, stops a session start.
func BuildTOC(o Options, limit int) (*TOC, []string, error) {
	t, warns := ListTOC(o, limit)
	t.fit(limit, o.Counter)
	return t, warns, nil
}

// ListTOC is [BuildTOC] short of the fitting: the tree listed, its
// counts and the index's documents known, but no line laid out yet.
// [TOC.FitNamed] fits it, once: the boot context names the records its
// trajectory lists only once that is built, and fitting before as well
// rendered and counted a long history's listing twice at every build.
func ListTOC(o Options, limit int) (*TOC, []string) {
	idx := o.Index
	if idx == nil {
		idx = NewIndex(o.Config.Encoding, nil)
	}
	t := &TOC{Budget: limit, ColdBudget: o.Config.Budget.Cold, root: &tocDir{path: tiers.ColdDir + "/"}, index: idx, sessionsElsewhere: o.SessionsElsewhere}
	dirs := map[string]*tocDir{t.root.path: t.root}
	t.dirs = dirs
	warns := scan(o, idx, func(f tiers.ColdFile, e Entry) string {
		switch {
		case e.Binary:
			t.Binary++
		case e.MetaErr != "":
			t.Unreadable++
			return fmt.Sprintf("%s: not listed in the table of contents: %s", f.Path, e.MetaErr)
		case policy.Level(e.Sens, nil) == policy.Secret:
			t.Secret++
		default:
			t.add(f, e)
		}
		return ""
	})
	t.prepare()
	return t, warns
}

// Scan walks cold/ through the index as [BuildTOC] does, reading only the
// documents the index does not know, without building a listing: what
// [Index.Documents] of o.Index then returns is the tier as it is now (with
// a nil o.Index the scan is lost). The warnings name what was skipped and
// why.
func Scan(o Options) []string {
	idx := o.Index
	if idx == nil {
		idx = NewIndex(o.Config.Encoding, nil)
	}
	return scan(o, idx, func(tiers.ColdFile, Entry) string { return "" })
}

// scan walks cold/, looks each file up in idx, reads those it does not
// know, and calls found with each document it could read, in walk order;
// found may return a warning. The documents to read are read, parsed and
// counted on all cores (see [readWorkers]); what they give is taken in
// walk order, so that the index, the listing and the warnings are those a
// read one at a time gives.
func scan(o Options, idx *Index, found func(tiers.ColdFile, Entry) string) []string {
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	files, warns, err := tiers.ScanColdKnown(o.FS, o.Root, idx.known(now()))
	if err != nil {
		warns = append(warns, fmt.Sprintf("%s/: skipped: %v", tiers.ColdDir, err))
	}
	idx.scanned = true
	// What the index knows is taken where it lies; only the documents
	// to read get an entry of their own (see readEntries): a scan of a
	// long history that reads nothing allocates a pointer a document.
	known := make([]*Entry, len(files))
	var todo []int
	for i, f := range files {
		if _, ok := idx.lookup(f); ok {
			known[i] = idx.entries[f.Path]
		} else {
			todo = append(todo, i)
		}
	}
	read := make([]Entry, len(todo))
	var versions []store.DocVersion
	if idx.versions != nil {
		versions = make([]store.DocVersion, len(todo))
	}
	errs := readEntries(o, files, todo, read, versions, now)
	k := 0
	for i, f := range files {
		var e Entry
		if known[i] != nil {
			e = *known[i]
		} else {
			e = read[k]
			if err := errs[i]; err != nil {
				k++
				warns = append(warns, err.Error())
				continue
			}
			e = idx.put(f, e, now())
			if versions != nil && e.version {
				idx.versions[f.Path] = versions[k]
			}
			k++
		}
		if w := found(f, e); w != "" {
			warns = append(warns, w)
		}
	}
	return warns
}

// readWorkers is how many documents a scan reads at once: one a core, for
// reading is mostly parsing and counting.
var readWorkers = func() int { return runtime.GOMAXPROCS(0) }

// readEntries reads the documents files[todo[k]] for each k into
// entries[k], and their versions into versions[k] when versions is not
// nil, on up to [readWorkers] goroutines, and returns the error of each
// document that could not be read, by the same index.
func readEntries(o Options, files []tiers.ColdFile, todo []int, entries []Entry, versions []store.DocVersion, now func() time.Time) map[int]error {
	errs := map[int]error{}
	if len(todo) == 0 {
		return errs
	}
	r, err := tiers.NewColdReader(o.FS, o.Root)
	if err != nil {
		for _, i := range todo {
			errs[i] = fmt.Errorf("%s: skipped: %v", files[i].Path, err)
		}
		return errs
	}
	defer r.Close()
	var (
		mu   sync.Mutex
		next atomic.Int64
		wg   sync.WaitGroup
		done int // documents read, under mu
	)
	progress := func() {}
	if o.Progress != nil {
		o.Progress(0, len(todo))
		progress = func() {
			mu.Lock()
			done++
			o.Progress(done, len(todo))
			mu.Unlock()
		}
	}
	// The clock is read here, not by the workers: a caller's clock need
	// not be safe for concurrent use.
	t := now()
	for range max(1, min(readWorkers(), len(todo))) {
		wg.Go(func() {
			var buf []byte // what each document is read into
			for {
				k := int(next.Add(1)) - 1
				if k >= len(todo) {
					return
				}
				i := todo[k]
				f := files[i]
				// Only a count the index will keep may skip the content cache.
				keep := o.Index != nil && !isRacy(f, t)
				var v *store.DocVersion
				if versions != nil {
					v = &versions[k]
				}
				var e Entry
				var err error
				e, buf, err = readColdEntry(o, r, f, keep, v, buf)
				progress()
				if err != nil {
					mu.Lock()
					errs[i] = err
					mu.Unlock()
					continue
				}
				e.todo = true
				entries[k] = e
			}
		})
	}
	wg.Wait()
	return errs
}

// readColdEntry reads a document the index does not know: whole, to count
// it, with the listing taken from its head only. When v is not nil, it
// also takes the document's version for the look at edits that follows
// (see [Index.KeepVersions]), when it read the whole document.
//
// The document is read into buf, which nothing read from it keeps (every
// text taken from it is copied); it returns the buffer to read the next
// document into.
func readColdEntry(o Options, r *tiers.ColdReader, f tiers.ColdFile, indexKeeps bool, v *store.DocVersion, buf []byte) (Entry, []byte, error) {
	d, buf, err := r.ReadInto(f.Path, buf)
	switch {
	case err != nil:
		return Entry{}, buf, err
	case d.Missing:
		return Entry{}, buf, fmt.Errorf("%s: skipped: removed while being listed", f.Path)
	case strings.HasPrefix(d.Skipped, "binary"):
		return Entry{Binary: true}, buf, nil
	case d.Skipped != "":
		return Entry{}, buf, fmt.Errorf("%s: skipped: %s", f.Path, d.Skipped)
	}
	h := tiers.ParseColdHead(d.Content, !d.Huge)
	version := v != nil && !d.Huge
	if version {
		head := &h
		if len(d.Content) > tiers.ColdHeadBytes {
			head = nil // parsed from its head only
		}
		*v = store.VersionOf(d.Content, head)
	}
	// Titles are kept as single lines, so that listing a known document
	// needs no more work.
	count := budget.Whole(o.Counter).Count
	if indexKeeps {
		count = budget.Transient(o.Counter)
	}
	return Entry{
		Tokens: count(string(d.Content)), Huge: d.Huge, Sens: h.Meta.Sensitivity,
		Summary: tiers.ShortLine(h.Meta.Summary), Heading: tiers.ShortLine(h.Heading), MetaErr: h.MetaErr,
		Session:    tiers.ShortLine(h.Meta.Session),
		MemoryType: tiers.ShortLine(h.Meta.MemoryType), ProjectID: tiers.ShortLine(h.Meta.ProjectID),
		SourceOfTruth: h.Meta.SourceOfTruth != nil && *h.Meta.SourceOfTruth,
		Next:          tiers.ShortLine(h.Meta.NextPriority), Risk: tiers.ShortLine(h.Meta.OpenRisk),
		version: version,
	}, buf, nil
}

// level is the sensitivity of the cold document at p as the listing found
// it; false when the listing did not read or know it.
func (t *TOC) Level(p string) (string, bool) {
	if t == nil || t.index == nil {
		return "", false
	}
	return t.index.Level(p)
}

// add files a listed document under its directory, creating the
// directories on the way.
func (t *TOC) add(f tiers.ColdFile, e Entry) {
	dirs := t.dirs
	dirPath := f.Path[:strings.LastIndexByte(f.Path, '/')+1]
	d := t.last
	if d == nil || d.path != dirPath {
		d = dirs[dirPath]
	}
	if d == nil {
		var chain []string
		for p := dirPath; dirs[p] == nil; p = path.Dir(strings.TrimSuffix(p, "/")) + "/" {
			chain = append(chain, p)
		}
		for i := len(chain) - 1; i >= 0; i-- {
			parent := dirs[path.Dir(strings.TrimSuffix(chain[i], "/"))+"/"]
			nd := &tocDir{path: chain[i], depth: parent.depth + 1, parent: parent}
			parent.dirs = append(parent.dirs, nd)
			dirs[chain[i]] = nd
		}
		d = dirs[dirPath]
	}
	if len(t.slab) == cap(t.slab) {
		// The documents are allocated a chunk at a time, not one each: a
		// long history lists thousands at every start.
		t.slab = make([]tocDoc, 0, 256)
	}
	t.slab = append(t.slab, tocDoc{path: f.Path, tokens: e.Tokens, mtime: f.ModTime, huge: e.Huge})
	doc := &t.slab[len(t.slab)-1]
	doc.rec, doc.isRec = parseRecordName(f.Path[len(dirPath):])
	if policy.Level(e.Sens, nil) == policy.Confidential {
		t.Confidential++
		doc.conf, doc.title = true, tiers.ShortLine(e.Summary)
	} else {
		doc.title = docTitle(path.Base(f.Path), e)
	}
	if doc.isRec && !doc.conf && strings.HasPrefix(f.Path, tiers.SessionsDir+"/") {
		t.records = append(t.records, doc)
	}
	if strings.Contains(doc.title, "[redacted:") {
		// The index keeps summaries scrubbed; the listing counts what the
		// scrubbing took out.
		for _, m := range redactedMarker().FindAllStringSubmatch(doc.title, -1) {
			if t.Redacted == nil {
				t.Redacted = policy.Redactions{}
			}
			t.Redacted[m[1]]++
		}
	}
	d.docs = append(d.docs, doc)
	t.last = d
	t.Documents++
	t.DocTokens += e.Tokens
}

// NameRecords lists the n newest session records, which the reader has
// a line of elsewhere (the boot context's trajectory, built after the
// listing), by their names alone, and fits the listing to its budget
// again; older records keep their summaries.
func (t *TOC) NameRecords(n int, c budget.Counter) {
	if n <= 0 || len(t.records) == 0 {
		return
	}
	t.nameRecords(n)
	t.fit(t.Budget, c)
}

// FitNamed fits a listing [ListTOC] made to its budget, the n newest
// session records listed by their names alone first: the listing
// [BuildTOC] then [TOC.NameRecords] give, fitted once.
func (t *TOC) FitNamed(n int, c budget.Counter) {
	t.nameRecords(n)
	t.fit(t.Budget, c)
}

// nameRecords lists the n newest session records by their names alone:
// their summaries, and what the scrubbing took out of them, are not shown
// here.
func (t *TOC) nameRecords(n int) {
	if n <= 0 {
		return
	}
	slices.SortFunc(t.records, func(a, b *tocDoc) int { return compareRecordNames(a.rec, b.rec) })
	for _, doc := range t.records[:min(len(t.records), n)] {
		for _, m := range redactedMarker().FindAllStringSubmatch(doc.title, -1) {
			if t.Redacted[m[1]]--; t.Redacted[m[1]] <= 0 {
				delete(t.Redacted, m[1])
			}
		}
		doc.title = "session record (its line is in the Trajectory)"
	}
	t.records = t.records[min(len(t.records), n):]
}

// docTitle is the document's summary, else its first heading, else "" (the
// file name alone is shown).
func docTitle(name string, e Entry) string {
	for _, s := range []string{e.Summary, e.Heading} {
		if s = tiers.ShortLine(s); s != "" && s != name {
			return s
		}
	}
	return ""
}

// groupMonths gives the session records of cold/sessions/ older than its
// newest month a line of their own a month, which folding turns into a
// count: the newest records stay listed one by one (DESIGN section 11),
// the oldest months fold first. Files not named as a hand-off names its
// records stay with the newest.
func (t *TOC) groupMonths() {
	d := t.dirs[tiers.SessionsDir+"/"]
	if d == nil {
		return
	}
	newest := ""
	for _, doc := range d.docs {
		if doc.isRec {
			newest = max(newest, doc.rec.month())
		}
	}
	months := map[string]*tocDir{}
	keep := d.docs[:0]
	for _, doc := range d.docs {
		if !doc.isRec || doc.rec.month() == newest {
			keep = append(keep, doc)
			continue
		}
		m := doc.rec.month()
		md := months[m]
		if md == nil {
			md = &tocDir{month: m, path: d.path + m + "-*", depth: d.depth + 1, parent: d}
			months[m] = md
			d.dirs = append(d.dirs, md)
			t.dirs[md.path] = md
		}
		md.docs = append(md.docs, doc)
	}
	d.docs = keep
}

// prepare sorts the tree, sums each directory and fixes the fold order.
func (t *TOC) prepare() {
	t.nameRecords(t.sessionsElsewhere)
	t.groupMonths()
	var all []*tocDir
	var walk func(d *tocDir)
	walk = func(d *tocDir) {
		slices.SortFunc(d.docs, func(a, b *tocDoc) int {
			// Records by their names: a checkout sets every time alike.
			if a.isRec && b.isRec {
				return compareRecordNames(a.rec, b.rec)
			}
			if c := b.mtime.Compare(a.mtime); c != 0 {
				return c
			}
			return strings.Compare(a.path, b.path)
		})
		// Directories by name; months of records after them, newest first.
		slices.SortFunc(d.dirs, func(a, b *tocDir) int {
			if (a.month == "") != (b.month == "") {
				return cmp.Compare(a.month, b.month)
			}
			if a.month != "" {
				return strings.Compare(b.month, a.month)
			}
			return strings.Compare(a.path, b.path)
		})
		d.ndocs, d.tokens = len(d.docs), 0
		for _, doc := range d.docs {
			d.tokens += doc.tokens
			if doc.mtime.After(d.newest) {
				d.newest = doc.mtime
			}
		}
		for _, c := range d.dirs {
			walk(c)
			d.ndocs += c.ndocs
			d.tokens += c.tokens
			if c.newest.After(d.newest) {
				d.newest = c.newest
			}
		}
		if d != t.root {
			all = append(all, d)
		}
	}
	walk(t.root)
	// Months of session records first, the oldest first; cold/sessions/
	// itself last, so that its newest records are the last listed. Then
	// deepest first, then the most documents; among equals the directory
	// whose newest document is oldest, so that recent work stays listed.
	sessions := tiers.SessionsDir + "/"
	slices.SortStableFunc(all, func(a, b *tocDir) int {
		switch {
		case (a.month == "") != (b.month == ""):
			if a.month != "" {
				return -1
			}
			return 1
		case a.month != "":
			return strings.Compare(a.month, b.month)
		case (a.path == sessions) != (b.path == sessions):
			if a.path == sessions {
				return 1
			}
			return -1
		case a.depth != b.depth:
			return b.depth - a.depth
		case a.ndocs != b.ndocs:
			return b.ndocs - a.ndocs
		case !a.newest.Equal(b.newest):
			return a.newest.Compare(b.newest)
		case a.tokens != b.tokens:
			return b.tokens - a.tokens
		}
		return strings.Compare(a.path, b.path)
	})
	t.order = append(all, t.root)
	for i, d := range t.order {
		d.pos = i
	}
}

// Index is the cold index the table of contents was built with, nil
// without one.
func (t *TOC) Index() *Index { return t.index }

// redactedMarker is what [policy.Scrub] leaves in place of a secret.
var redactedMarker = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[redacted:([a-z0-9-]+)\]`) })

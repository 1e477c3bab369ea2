package store

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/tiers"
)

// SeenFile is wake's record, in the state directory, of the tier files
// as it last saw them (a line a file) and of the cold index as it was when
// it last looked at the cold documents: a few lines that a session start
// reads whole without noticing.
const SeenFile = "seen.tsv"

// SeenColdFile is wake's record of the cold documents, a line a document.
// A start reads it only when the cold index says a document changed (or
// another command saved the index since): the cold tier may hold
// thousands of documents, and a warm start parses none of their records.
const SeenColdFile = "seen-cold.tsv"

// SeenDir holds the line signatures of the versions [SeenFile] records,
// inside the state directory, by their content hash (so that a file
// moved, as the hand-off's rotation does, keeps its signature), in
// [sigBuckets] files by the hash's first bits: a baseline of a large
// archive writes that many files, not one a document, and a change
// rewrites one small file.
const SeenDir = "seen"

// The headers of the two records; the number after seenHeader is the
// ledger's size when the last whole look was taken.
const (
	seenHeader     = "wake seen v1 "
	seenColdHeader = "wake seen cold v1\n"
)

// Two records of SeenFile are stamps, not files: warm/ itself, whose
// modification time tells whether a file was added to it or removed
// without listing it, and the cold index, whose content sum tells
// whether a cold document changed without comparing each with its
// record.
const (
	warmDirKey    = tiers.WarmDir + "/"
	coldIndexKey  = tiers.ColdDir + "/"
	coldDocPrefix = tiers.ColdDir + "/"
)

// isColdDoc reports whether the record of p lives in SeenColdFile.
func isColdDoc(p string) bool { return p != coldIndexKey && strings.HasPrefix(p, coldDocPrefix) }

// A seenRecord is one file as wake last saw it.
type seenRecord struct {
	Size  int64
	MTime int64  // UnixNano
	CTime int64  // UnixNano; 0 when unknown (a record an older wake wrote, a stat without one)
	Hash  string // of the whole content, hex; "" for warm/
	Lines int
	Level string // confidential or secret; "" for any other
	Sig   bool   // a line signature is kept in SeenDir
	// Racy is a record taken so soon after the file's modification that
	// it may change again without its size or time changing: its content
	// is compared at the next look whatever its stat says.
	Racy bool
	// Mark is the ledger's size when the record was taken: a ledger entry
	// past it that names the file is a write of wake's own.
	Mark int64
}

// seen is the parsed record.
type seen struct {
	files  map[string]seenRecord
	mark   int64
	loaded bool // SeenFile was read: a baseline exists
	// coldRead: SeenColdFile was read (or there was nothing to read);
	// coldOK: it held a baseline of the cold documents.
	coldRead, coldOK bool
	dirty, coldDirty bool
	// coldGen is the generation of the record of the cold documents as
	// read or last written whole ("" when it has none), coldBase its
	// lines then, and coldChanged the cold documents whose records
	// changed since (see [seen.saveCold]).
	coldGen     string
	coldBase    int
	coldChanged map[string]bool
	refs        map[string]int     // records using each signature
	sigs        map[string][]byte  // signatures to write, by hash
	unused      map[string]bool    // signatures no record uses any more
	packs       map[string]sigPack // the buckets read so far, by name
}

func newSeen() *seen {
	return &seen{files: map[string]seenRecord{}, refs: map[string]int{}, sigs: map[string][]byte{}, unused: map[string]bool{},
		packs: map[string]sigPack{}, coldChanged: map[string]bool{}}
}

// loadSeen reads the record of the tier files; a missing or unreadable
// one is empty, not an error: the next look takes a new baseline.
func loadSeen(fsys afero.Fs, root string) *seen {
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+SeenFile)
	if err == nil {
		if s, ok := parseSeen(data); ok {
			return s
		}
	}
	s := newSeen()
	s.coldRead = true // no baseline at all: the cold one is taken afresh too
	return s
}

func parseSeen(data []byte) (*seen, bool) {
	first, rest, ok := bytes.Cut(data, []byte("\n"))
	mark, found := strings.CutPrefix(string(first), seenHeader)
	if !ok || !found {
		return nil, false
	}
	s := newSeen()
	var err error
	if s.mark, err = strconv.ParseInt(mark, 10, 64); err != nil || s.mark < 0 {
		return nil, false
	}
	if !s.parseRecords(rest, false) {
		return nil, false
	}
	s.loaded = true
	return s, true
}

// parseRecords adds the records of text, a line each: cold documents'
// when cold is set, the others' when not.
func (s *seen) parseRecords(text []byte, cold bool) bool {
	for line := range strings.Lines(string(text)) {
		p, r, ok := parseSeenLine(strings.TrimSuffix(line, "\n"))
		if _, dup := s.files[p]; !ok || dup || isColdDoc(p) != cold {
			return false
		}
		s.files[p] = r
		if r.Sig {
			s.refs[r.Hash]++
		}
	}
	return true
}

// readCold reads the record of the cold documents, once. One missing or
// unreadable while the tier files have a baseline leaves the cold
// documents without one: the next look at them takes it, recording
// nothing, rather than taking every document for new.
func (s *seen) readCold(fsys afero.Fs, root string) {
	if s.coldRead {
		return
	}
	s.coldRead = true
	changes := readColdChanges(fsys, root) // first: see readColdChanges
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+SeenColdFile)
	text, gen, ok := coldText(data)
	if err != nil || !ok {
		return
	}
	// A record a cold document: the maps are made to size once, and the
	// tier files' few records join them, not the other way round (a
	// hand-off reads it twice, and a long life makes it thousands of
	// lines).
	n := bytes.Count(text, []byte("\n")) + len(s.files)
	cold := &seen{files: make(map[string]seenRecord, n), refs: make(map[string]int, n), coldChanged: map[string]bool{}}
	if !cold.parseRecords(text, true) {
		return
	}
	base := len(cold.files)
	if !cold.applyColdChanges(coldChangesOf(changes, gen)) {
		return
	}
	for p, r := range s.files {
		cold.files[p] = r
	}
	for h, n := range s.refs {
		cold.refs[h] += n
	}
	s.files, s.refs = cold.files, cold.refs
	for p := range s.coldChanged {
		cold.coldChanged[p] = true
	}
	s.coldGen, s.coldBase, s.coldChanged = gen, base, cold.coldChanged
	s.coldOK = true
}

// coldSigs returns the hashes of the signatures the records of the cold
// documents use, of those in the named buckets: what [seen.readCold]
// would add to the references, without keeping a record. A save that
// rewrites a bucket (a tier file's new version: every decision) needs no
// more of a record a line a cold document, which a long life makes
// thousands of lines. A record [seen.readCold] would refuse gives none,
// as it would.
func (s *seen) coldSigs(fsys afero.Fs, root string, buckets map[string]bool) map[string]bool {
	allChanges := readColdChanges(fsys, root) // first: see readColdChanges
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+SeenColdFile)
	text, gen, ok := coldText(data)
	if err != nil || !ok {
		return nil
	}
	// The records the changes replace are counted too: a signature kept
	// a little longer than used costs a few bytes, one dropped while used
	// an edit's line counts.
	changes := coldChangesOf(allChanges, gen)
	used := map[string]bool{}
	for line := range strings.Lines(string(text) + string(changes)) {
		p, r, ok := parseSeenLine(strings.TrimSuffix(line, "\n"))
		if !ok {
			if _, dash, _ := strings.Cut(line, "\t"); dash == "-\n" || dash == "-" {
				continue // a document forgotten
			}
			return nil
		}
		if !isColdDoc(p) {
			return nil
		}
		if r.Sig && buckets[bucketOf(r.Hash)] {
			used[r.Hash] = true
		}
	}
	return used
}

// parseSeenLine reads a record: seven fields, the change time in the
// flags (see fsrecord.WithChangeTime; a line an older wake wrote has
// none: 0).
func parseSeenLine(line string) (string, seenRecord, bool) {
	var f [7]string
	for i := range 6 {
		var ok bool
		if f[i], line, ok = strings.Cut(line, "\t"); !ok {
			return "", seenRecord{}, false
		}
	}
	if f[6] = line; strings.Contains(line, "\t") {
		return "", seenRecord{}, false
	}
	var r seenRecord
	var errs [4]error
	flags, ctime, ok := fsrecord.SplitChangeTime(f[6])
	if !ok {
		return "", seenRecord{}, false
	}
	r.CTime = ctime
	r.Size, errs[0] = strconv.ParseInt(f[1], 10, 64)
	r.MTime, errs[1] = strconv.ParseInt(f[2], 10, 64)
	r.Hash = f[3]
	r.Lines, errs[2] = strconv.Atoi(f[4])
	r.Mark, errs[3] = strconv.ParseInt(f[5], 10, 64)
	if errors.Join(errs[:]...) != nil || strings.Trim(r.Hash, "0123456789abcdef") != "" {
		return "", seenRecord{}, false
	}
	r.Racy, r.Sig = strings.Contains(flags, "r"), strings.Contains(flags, "l")
	switch {
	case strings.Contains(flags, "s"):
		r.Level = tiers.Secret
	case strings.Contains(flags, "c"):
		r.Level = tiers.Confidential
	}
	p := unescTab(f[0])
	if r.Sig && (r.Hash == "" || r.Level == tiers.Secret) {
		return "", seenRecord{}, false
	}
	return p, r, p != ""
}

// marshal encodes the records of the tier files and the stamps, or of
// the cold documents (with no generation), a line each in path order.
func (s *seen) marshal(cold bool) []byte {
	if cold {
		return s.marshalCold("")
	}
	b := append([]byte(seenHeader), strconv.AppendInt(nil, s.mark, 10)...)
	return s.appendRecords(append(b, '\n'), false)
}

// marshalCold encodes the record of the cold documents whole, of
// generation gen ("" for none).
func (s *seen) marshalCold(gen string) []byte {
	b := []byte(seenColdHeader)
	if gen != "" {
		b = []byte(seenColdHeaderGen + gen + "\n")
	}
	return s.appendRecords(b, true)
}

// appendRecords appends the records of the cold documents, or of the
// others, a line each in path order.
func (s *seen) appendRecords(b []byte, cold bool) []byte {
	var paths []string
	for p := range s.files {
		if isColdDoc(p) == cold {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	// Appended field by field, not formatted: the record of the cold
	// documents has a line a document.
	b = slices.Grow(b, len(paths)*128)
	for _, p := range paths {
		b = appendSeenLine(b, p, s.files[p])
	}
	return b
}

// appendSeenLine appends the record r of p as a line.
func appendSeenLine(b []byte, p string, r seenRecord) []byte {
	b = append(append(b, escTab(p)...), '\t')
	b = append(strconv.AppendInt(b, r.Size, 10), '\t')
	b = append(strconv.AppendInt(b, r.MTime, 10), '\t')
	b = append(append(b, r.Hash...), '\t')
	b = append(strconv.AppendInt(b, int64(r.Lines), 10), '\t')
	b = append(strconv.AppendInt(b, r.Mark, 10), '\t')
	if r.Racy {
		b = append(b, 'r')
	}
	if r.Sig {
		b = append(b, 'l')
	}
	switch r.Level {
	case tiers.Secret:
		b = append(b, 's')
	case tiers.Confidential:
		b = append(b, 'c')
	}
	if r.CTime != 0 {
		b = append(b, '@')
		b = strconv.AppendInt(b, r.CTime, 10)
	}
	return append(b, '\n')
}

// set records rel as sig describes it (sig nil when none is kept), or
// forgets it when r is nil.
func (s *seen) set(rel string, r *seenRecord, sig []byte) {
	old, had := s.files[rel]
	switch {
	case r == nil && !had:
		return
	case r != nil && had && old == *r:
		return
	}
	if isColdDoc(rel) {
		s.coldDirty = true
		s.coldChanged[rel] = true
	} else {
		s.dirty = true
	}
	if had && r != nil && old.Sig == r.Sig && old.Hash == r.Hash {
		// The same version: only its stat or mark moved.
		s.files[rel] = *r
		return
	}
	if had && old.Sig {
		s.refs[old.Hash]--
		if s.refs[old.Hash] <= 0 {
			delete(s.refs, old.Hash)
			s.unused[old.Hash] = true
		}
	}
	if r == nil {
		delete(s.files, rel)
		return
	}
	if r.Sig {
		if s.refs[r.Hash] == 0 && sig != nil {
			s.sigs[r.Hash] = sig
		}
		s.refs[r.Hash]++
		delete(s.unused, r.Hash)
	}
	s.files[rel] = *r
}

// save writes the buckets of the signatures added or dropped first and
// the records last, each atomically, so that a record never names a
// signature that is not on disk. A bucket rewritten keeps only the
// signatures a record uses (which takes every record, the cold ones
// read); should a record then fail to be written, the one on disk may
// name a signature dropped, which costs that file's next edit its line
// counts, nothing more.
//
// The buckets are written without syncing ([WriteStateUnsynced]): a first
// start writes one for each tier file, and syncing each (file and
// directory) was most of what a first start spent beyond counting. A
// signature is only ever used to count the lines an edit added and
// removed, and a record naming one that is missing already costs just
// that; a bucket a crash left empty, old or damaged fails its trailer
// (see [parsePack]) and reads as empty. The records, which decide what is
// recorded as an edit at all, are still synced.
func (s *seen) save(fsys afero.Fs, root string) error {
	if !s.dirty && !s.coldDirty {
		return nil
	}
	buckets := map[string]bool{}
	added := map[string][]string{} // the hashes of s.sigs, by bucket
	for h := range s.sigs {
		b := bucketOf(h)
		buckets[b] = true
		added[b] = append(added[b], h)
	}
	for h := range s.unused {
		buckets[bucketOf(h)] = true
	}
	// A signature only a cold document's record uses stays: the records
	// of the cold documents, when this run has not read them, are looked
	// through for the hashes of the buckets rewritten alone (see
	// [seen.coldSigs]), not read into the record to be written again.
	var coldUse map[string]bool
	if len(buckets) > 0 && !s.coldRead {
		coldUse = s.coldSigs(fsys, root, buckets)
	}
	for _, b := range slices.Sorted(maps.Keys(buckets)) {
		p := s.pack(fsys, root, b)
		for h := range p {
			if s.refs[h] == 0 && !coldUse[h] {
				delete(p, h)
			}
		}
		for _, h := range added[b] {
			p[h] = s.sigs[h]
		}
		if err := WriteStateUnsynced(fsys, root, SeenDir+"/"+b, p.marshal()); err != nil {
			return err
		}
	}
	if s.coldDirty {
		if err := s.saveCold(fsys, root); err != nil {
			return err
		}
	}
	if err := WriteState(fsys, root, SeenFile, s.marshal(false)); err != nil {
		return err
	}
	s.sigs, s.unused, s.dirty, s.coldDirty = map[string][]byte{}, map[string]bool{}, false, false
	return nil
}

// pack returns the bucket named b, read on first use; a missing or
// unreadable one is empty.
func (s *seen) pack(fsys afero.Fs, root, b string) sigPack {
	p, ok := s.packs[b]
	if !ok {
		data, _ := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+SeenDir+"/"+b)
		p = parsePack(data)
		s.packs[b] = p
	}
	return p
}

// sig reads the line signature of the version hash; false when it is
// not kept or cannot be read.
func (s *seen) sig(fsys afero.Fs, root, hash string) (signature, bool) {
	body, ok := s.pack(fsys, root, bucketOf(hash))[hash]
	if !ok {
		return signature{}, false
	}
	return parseSignature(body)
}

var (
	tabEscaper   = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)
	tabUnescaper = strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\n`, "\n", `\r`, "\r")
)

func escTab(s string) string {
	if !strings.ContainsAny(s, "\\\t\n\r") {
		return s
	}
	return tabEscaper.Replace(s)
}

func unescTab(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return tabUnescaper.Replace(s)
}

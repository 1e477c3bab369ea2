package wake

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// The names of the cold tier's stamped directories, kept for the cached
// start's rotation, with what the recorded start knew of each document.
//
// A start served from the cache lstats the next few settled documents in
// path order (see [Memory.trustedColdUnchanged]). Finding them by listing
// the directories costs what the directories hold at every start:
// cold/sessions/ gains a record a session, and at a thousand sessions its
// listing was a third of a cached start. A recorded start keeps the names
// in path order in .state/start-names instead, tied to the stamps of the
// directories it listed: while the key's stamps hold, the names are the
// directories' (a document added, removed or renamed over changes its
// directory's stamp, which makes the start a miss before the names are
// looked at), so a cached start finds its few by a binary search in one
// file's bytes and lists no directory.
//
// Each name carries the document's size and times as the recorded start's
// cold scan knew them: that scan vouches for a settled document from the
// cold index, as every trusting scan does, without an lstat of it (which
// was a millisecond or more of every recording, a hand-off's priming
// included, at a thousand documents), so what its output says of the
// document is what the index knew. A cached start compares the documents
// it looks at with those: one edited in place since the index looked at
// it, before the recording or after, is a miss, and the build that
// follows reads it again. The start cache's entry holds the sum of the
// names it was recorded with, so that an entry is never checked against
// names another view's recording kept. A missing, damaged or other file
// makes the start a miss.

// namesFile is the file in .state/ that keeps the names.
const namesFile = "start-names"

// namesHead opens the file; the tie and the names' sum follow on a line
// of their own.
const namesHead = "wake start names 3\n"

// stampedDirs are the root-relative paths of the stamped directories key
// holds, the ones whose documents the cached start's rotation covers,
// their key entries, and the tie that names them with their stamps.
func (m *Memory) stampedDirs(key []fsrecord.Entry) (dirs []string, entries map[string]fsrecord.Entry, tie string) {
	entries = map[string]fsrecord.Entry{}
	for _, e := range key {
		if !e.Dir || !e.Listed || e.CTime == 0 || !m.coldStamped(e.Path) {
			continue
		}
		rel, err := filepath.Rel(m.root, e.Path)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		dirs = append(dirs, rel)
		entries[rel] = e
	}
	// In the order of their paths' prefixes with "/", which pick's
	// breaks rely on: "cold/a-b/" sorts before "cold/a/".
	slices.SortFunc(dirs, func(a, b string) int { return strings.Compare(a+"/", b+"/") })
	h := sha256.New()
	for _, d := range dirs {
		// The stamp without Hash: a racy directory's names are dropped
		// from its key entry once they settle, its stamp unchanged.
		fmt.Fprintf(h, "%s\x00%s\n", d, stampText(entries[d].Identity))
	}
	return dirs, entries, hex.EncodeToString(h.Sum(nil))
}

// stampText is a stamped directory's stamp, its names left out.
func stampText(id fsrecord.Identity) string {
	return fmt.Sprintf("%d %d %d %d %d", id.Inode, id.Dev, id.MTime, id.CTime, id.Mode)
}

// namesBody lists key's stamped directories for the cached starts that
// key serves: each name, escaped (see [appendName]), a tab, and the
// size and times idx knows the document by ("-" for a name that is no
// document the scan listed). The names are listed after the key was
// taken: each directory is stamped again after its listing, and the
// names are kept only when every stamp (and a racy directory's names) is
// the key's. ok is false when there is nothing to keep (no stamped
// directory), or nothing may be kept (no index to say what the scan knew,
// a directory that cannot be listed, or one changed since).
func (m *Memory) namesBody(key []fsrecord.Entry, idx *cold.Index) (body []byte, tie string, ok bool) {
	dirs, entries, tie := m.stampedDirs(key)
	if len(dirs) == 0 {
		return nil, "", false
	}
	if idx == nil {
		// Without what the scan knew of each document a name could say
		// only what changed since the recording began, which no longer
		// covers the documents it took from the index unseen.
		return nil, tie, false
	}
	paths, ok := namesOf(m.o.FS, m.root, dirs, func(d string, names []string) bool {
		e := entries[d]
		st := fsrecord.Stamp(m.o.FS, e.Path)
		if stampText(st) != stampText(e.Identity) {
			return false
		}
		return e.Hash == "" || fsrecord.NamesHash(slices.Clone(names)) == e.Hash
	})
	if !ok {
		return nil, tie, false
	}
	b := make([]byte, 0, len(paths)*72)
	for _, p := range paths {
		b = appendName(b, p)
		b = append(b, '\t')
		size, mtime, ctime, known := idx.Known(p)
		if !known {
			b = append(b, '-')
		} else {
			b = strconv.AppendInt(b, size, 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, mtime, 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, ctime, 10)
		}
		b = append(b, '\n')
	}
	return b, tie, true
}

// saveNames writes body, tied to tie, for the cached starts, when ok.
// Otherwise it leaves the file as it is: an entry is checked against the
// names it was recorded with only (their sum), and only once its key
// holds, a racy directory's names included, so names kept for other
// stamps or other names are never taken for it.
func (m *Memory) saveNames(body []byte, tie string, ok bool) {
	if !ok {
		return
	}
	b := []byte(fmt.Sprintf("%s%s %s\n", namesHead, tie, bodySum(body)))
	_ = store.WriteStateUnsynced(m.o.FS, m.root, namesFile, append(b, body...))
}

// bodySum is the names' length and CRC-32C: the file is written without
// syncing, and a crash may leave it cut or zeroed in part.
func bodySum(body []byte) string {
	return fmt.Sprintf("%d-%08x", len(body), crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
}

// namesOf lists the directories dirs (root-relative) and returns the
// root-relative paths of their names in path order, dot files left out as
// the rotation leaves them; false when one cannot be listed, or when check
// (nil: none) refuses a directory's listing.
func namesOf(fsys afero.Fs, root string, dirs []string, check func(dir string, names []string) bool) ([]string, bool) {
	var paths []string
	for _, d := range dirs {
		names, ok := listNames(fsys, filepath.Join(root, filepath.FromSlash(d)))
		if !ok || check != nil && !check(d, names) {
			return nil, false
		}
		for _, n := range names {
			if !strings.HasPrefix(n, ".") {
				paths = append(paths, d+"/"+n)
			}
		}
	}
	slices.Sort(paths)
	return paths, true
}

// listNames lists the directory dir's names.
func listNames(fsys afero.Fs, dir string) ([]string, bool) {
	d, err := fsys.Open(dir)
	if err != nil {
		return nil, false
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	return names, err == nil
}

// appendName appends p with a backslash, a tab and a newline escaped
// (\\, \t, \n), so that it keeps to its line and its field.
func appendName(b []byte, p string) []byte {
	if !strings.ContainsAny(p, "\\\t\n") {
		return append(b, p...)
	}
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			b = append(b, '\\', '\\')
		case '\t':
			b = append(b, '\\', 't')
		case '\n':
			b = append(b, '\\', 'n')
		default:
			b = append(b, c)
		}
	}
	return b
}

// nameOf is the path a line's name field holds (see [appendName]).
func nameOf(field []byte) string {
	if bytes.IndexByte(field, '\\') < 0 {
		return string(field)
	}
	b := make([]byte, 0, len(field))
	for i := 0; i < len(field); i++ {
		c := field[i]
		if c == '\\' && i+1 < len(field) {
			i++
			switch field[i] {
			case 't':
				c = '\t'
			case 'n':
				c = '\n'
			default:
				c = field[i]
			}
		}
		b = append(b, c)
	}
	return string(b)
}

// A kept name: the document's path and, when the recorded start's scan
// listed it as a document, its size and times as that scan knew them.
type keptName struct {
	path               string
	known              bool
	size, mtime, ctime int64
}

// parseKept reads one line of the names (without its newline). It
// allocates the path alone: a cached start parses a line for each
// document its rotation picks.
func parseKept(line []byte) keptName {
	field, rest, _ := bytes.Cut(line, []byte{'\t'})
	k := keptName{path: nameOf(field)}
	size, rest, _ := bytes.Cut(rest, []byte{' '})
	mtime, ctime, _ := bytes.Cut(rest, []byte{' '})
	var err [3]error
	// Converted where they are parsed, the fields are not copied.
	k.size, err[0] = strconv.ParseInt(string(size), 10, 64)
	k.mtime, err[1] = strconv.ParseInt(string(mtime), 10, 64)
	k.ctime, err[2] = strconv.ParseInt(string(ctime), 10, 64)
	k.known = err[0] == nil && err[1] == nil && err[2] == nil
	return k
}

// readNames returns the kept names, one a line in path order, when the
// file is tied to tie, whole, and the names whose sum is sum.
func readNames(fsys afero.Fs, root, tie, sum string) ([]byte, bool) {
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+namesFile)
	if err != nil {
		return nil, false
	}
	rest, ok := bytes.CutPrefix(data, []byte(namesHead))
	if !ok {
		return nil, false
	}
	line, body, ok := bytes.Cut(rest, []byte{'\n'})
	got, kept, _ := strings.Cut(string(line), " ")
	if !ok || got != tie || kept != bodySum(body) || kept != sum {
		return nil, false
	}
	if len(body) > 0 && body[len(body)-1] != '\n' {
		// Not one that namesBody wrote (its sum made to match): the
		// rotation's search takes each line to end in a newline.
		return nil, false
	}
	return body, true
}

// pickNames returns the k names (sorted, one a line) that come next after
// after, going round to the first after the last, leaving out those
// keyed: the rotation over the documents the key leaves out.
func pickNames(names []byte, after string, k int, keyed map[string]bool) []keptName {
	var got []keptName
	take := func(from, upto int, stop func(path string) bool) {
		for i := from; i < upto && len(got) < k; {
			j := i + bytes.IndexByte(names[i:], '\n')
			kn := parseKept(names[i:j])
			if stop != nil && stop(kn.path) {
				return
			}
			if !keyed[kn.path] {
				got = append(got, kn)
			}
			i = j + 1
		}
	}
	first := firstLineAfter(names, after)
	take(first, len(names), nil)
	if after != "" {
		// Round to the first: the paths up to after, after itself too.
		take(0, first, func(path string) bool { return path > after })
	}
	return got
}

// firstLineAfter is the offset of the first line of names, sorted by
// path, whose path is greater than after (len(names) when none is), by a
// binary search over the lines' offsets.
func firstLineAfter(names []byte, after string) int {
	lo, hi := 0, len(names) // line starts: lines before lo are <= after, from hi on > after
	for lo < hi {
		mid := lo + (hi-lo)/2
		start := bytes.LastIndexByte(names[:mid], '\n') + 1
		start = max(start, lo)
		end := start + bytes.IndexByte(names[start:], '\n')
		field, _, _ := bytes.Cut(names[start:end], []byte{'\t'})
		if lineAtMost(field, after) {
			lo = end + 1
		} else {
			hi = start
		}
	}
	return lo
}

// lineAtMost reports whether the path a line's name field holds is at
// most after, without a copy of a field that holds no escape.
func lineAtMost(field []byte, after string) bool {
	if bytes.IndexByte(field, '\\') < 0 {
		return string(field) <= after
	}
	return nameOf(field) <= after
}

package wake

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// The names of the cold tier's stamped directories, kept for the cached
// start's rotation.
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
// file's bytes and lists no directory. A file whose tie does not match,
// missing or damaged, leaves the start to list the directories as before.

// namesFile is the file in .state/ that keeps the names.
const namesFile = "start-names"

// namesHead opens the file; the tie and the names' sum follow on a line
// of their own.
const namesHead = "wake start names 2\n"

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

// saveNames keeps the names of key's stamped directories for the
// cached starts that key serves. The names are listed after the key was
// taken: each directory is stamped again after its listing, and the
// names are kept only when every stamp (and a racy directory's names) is
// the key's. A directory that cannot be listed, or one changed since,
// leaves a file no start takes: the starts list the directories.
func (m *Memory) saveNames(key []fsrecord.Entry) {
	dirs, entries, tie := m.stampedDirs(key)
	if len(dirs) == 0 {
		return
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
		// The names kept may be tied to these very stamps (a racy
		// directory's stamp is the same through a change within one
		// tick; its names are not in the tie): they are not these
		// directories' names, and no start may take them.
		_ = store.WriteStateUnsynced(m.o.FS, m.root, namesFile, []byte(namesHead+"-\n"))
		return
	}
	var body bytes.Buffer
	body.Grow(len(paths) * 48)
	for _, p := range paths {
		body.WriteString(p + "\n")
	}
	b := []byte(fmt.Sprintf("%s%s %s\n", namesHead, tie, bodySum(body.Bytes())))
	_ = store.WriteStateUnsynced(m.o.FS, m.root, namesFile, append(b, body.Bytes()...))
}

// bodySum is the names' length and CRC-32C: the file is written without
// syncing, and a crash may leave it cut or zeroed in part.
func bodySum(body []byte) string {
	return fmt.Sprintf("%d-%08x", len(body), crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
}

// namesOf lists the directories dirs (root-relative) and returns the
// root-relative paths of their names in path order, dot files left out as
// the rotation leaves them; false when one cannot be listed, when check
// (nil: none) refuses a directory's listing, or when a name holds a
// newline, which a line a name cannot keep (the starts then list the
// directories, where the rotation sees it).
func namesOf(fsys afero.Fs, root string, dirs []string, check func(dir string, names []string) bool) ([]string, bool) {
	var paths []string
	for _, d := range dirs {
		names, ok := listNames(fsys, filepath.Join(root, filepath.FromSlash(d)))
		if !ok || check != nil && !check(d, names) {
			return nil, false
		}
		for _, n := range names {
			if strings.Contains(n, "\n") {
				return nil, false
			}
			if !strings.HasPrefix(n, ".") {
				paths = append(paths, d+"/"+n)
			}
		}
	}
	slices.Sort(paths)
	return paths, true
}

// readNames returns the kept names, one a line in path order, when the
// file is tied to tie and whole.
func readNames(fsys afero.Fs, root, tie string) ([]byte, bool) {
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+namesFile)
	if err != nil {
		return nil, false
	}
	rest, ok := bytes.CutPrefix(data, []byte(namesHead))
	if !ok {
		return nil, false
	}
	line, body, ok := bytes.Cut(rest, []byte{'\n'})
	got, sum, _ := strings.Cut(string(line), " ")
	if !ok || got != tie || sum != bodySum(body) {
		return nil, false
	}
	return body, true
}

// pickNames returns the k paths of names (sorted, one a line) that come
// next after after, going round to the first after the last, leaving out
// those keyed: what [trustedDocs.pick] finds by listing the directories.
func pickNames(names []byte, after string, k int, keyed map[string]bool) []string {
	var got []string
	take := func(from, upto int, stop func(line []byte) bool) {
		for i := from; i < upto && len(got) < k; {
			j := i + bytes.IndexByte(names[i:], '\n')
			line := names[i:j]
			if stop != nil && stop(line) {
				return
			}
			if p := string(line); !keyed[p] {
				got = append(got, p)
			}
			i = j + 1
		}
	}
	first := firstLineAfter(names, after)
	take(first, len(names), nil)
	if after != "" {
		// Round to the first: the paths up to after, after itself too.
		take(0, first, func(line []byte) bool { return string(line) > after })
	}
	return got
}

// firstLineAfter is the offset of the first line of names, sorted, that
// is greater than after (len(names) when none is), by a binary search
// over the lines' offsets.
func firstLineAfter(names []byte, after string) int {
	lo, hi := 0, len(names) // line starts: lines before lo are <= after, from hi on > after
	for lo < hi {
		mid := lo + (hi-lo)/2
		start := bytes.LastIndexByte(names[:mid], '\n') + 1
		start = max(start, lo)
		end := start + bytes.IndexByte(names[start:], '\n')
		if string(names[start:end]) <= after {
			lo = end + 1
		} else {
			hi = start
		}
	}
	return lo
}

package wake

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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

// namesHead opens the file; the tie follows on its own line.
const namesHead = "wake start names 1\n"

// stampedDirs are the root-relative paths of the stamped directories key
// holds, the ones whose documents the cached start's rotation covers,
// and the tie that names them with their stamps.
func (m *Memory) stampedDirs(key []fsrecord.Entry) (dirs []string, tie string) {
	stamps := map[string]string{}
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
		// The stamp without Hash: a racy directory's names are dropped
		// from its key entry once they settle, its stamp unchanged.
		stamps[rel] = fmt.Sprintf("%d %d %d %d %d", e.Inode, e.Dev, e.MTime, e.CTime, e.Mode)
	}
	// In the order of their paths' prefixes with "/", which pick's
	// breaks rely on: "cold/a-b/" sorts before "cold/a/".
	slices.SortFunc(dirs, func(a, b string) int { return strings.Compare(a+"/", b+"/") })
	h := sha256.New()
	for _, d := range dirs {
		fmt.Fprintf(h, "%s\x00%s\n", d, stamps[d])
	}
	return dirs, hex.EncodeToString(h.Sum(nil))
}

// saveNames keeps the names of key's stamped directories for the
// cached starts that key serves. A directory that cannot be listed now
// leaves the file as it is: those starts list the directories.
func (m *Memory) saveNames(key []fsrecord.Entry) {
	dirs, tie := m.stampedDirs(key)
	if len(dirs) == 0 {
		return
	}
	paths, ok := namesOf(m.o.FS, m.root, dirs)
	if !ok {
		return
	}
	var b bytes.Buffer
	b.Grow(len(namesHead) + len(tie) + 1 + len(paths)*48)
	b.WriteString(namesHead)
	b.WriteString(tie + "\n")
	for _, p := range paths {
		b.WriteString(p + "\n")
	}
	_ = store.WriteStateUnsynced(m.o.FS, m.root, namesFile, b.Bytes())
}

// namesOf lists the directories dirs (root-relative) and returns the
// root-relative paths of their names in path order, dot files left out as
// the rotation leaves them; false when one cannot be listed.
func namesOf(fsys afero.Fs, root string, dirs []string) ([]string, bool) {
	var paths []string
	for _, d := range dirs {
		names, ok := listNames(fsys, filepath.Join(root, filepath.FromSlash(d)))
		if !ok {
			return nil, false
		}
		for _, n := range names {
			if !strings.HasPrefix(n, ".") && !strings.Contains(n, "\n") {
				paths = append(paths, d+"/"+n)
			}
		}
	}
	slices.Sort(paths)
	return paths, true
}

// readNames returns the kept names, one a line in path order, when the
// file is tied to tie.
func readNames(fsys afero.Fs, root, tie string) ([]byte, bool) {
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+namesFile)
	if err != nil {
		return nil, false
	}
	rest, ok := bytes.CutPrefix(data, []byte(namesHead))
	if !ok {
		return nil, false
	}
	got, body, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok || string(got) != tie || len(body) > 0 && body[len(body)-1] != '\n' {
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

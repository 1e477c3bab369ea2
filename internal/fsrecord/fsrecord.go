// Package fsrecord wraps a file system to learn what a run read: every
// path it opened for reading, stat'ed or listed, with the file's identity
// when the run first touched it. The session start's cache keys its result
// on that set, so that an input added to the build later (a new tier file,
// a new state file) is covered without a list kept by hand.
package fsrecord

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// RacyWindow: a file modified this close to the moment its identity is
// taken may change again without its size or modification time changing
// (coarse file-system clocks), so its content is hashed as well.
const RacyWindow = 2 * time.Second

// Identity is what a key holds of one path.
type Identity struct {
	Exists bool
	Dir    bool
	Link   bool // a symbolic link: not keyed by its target, so never cached
	Size   int64
	MTime  int64 // Unix nanoseconds
	// CTime is the inode's change time, Unix nanoseconds: unlike MTime no
	// one can set it, so a file rewritten in place with its size and
	// modification time put back (touch -d) still reads as changed.
	CTime int64
	Mode  uint32
	Inode uint64
	Dev   uint64
	// Hash is a racy file's content, or a listed directory's names (a
	// stamped one's only while its times are racy: see [FS.Stamped]).
	Hash   string
	Listed bool // a directory the run listed: Hash is its names
}

// Entry is one path touched, with its identity.
type Entry struct {
	Path string
	Identity
}

// FS records the paths read through it. Writes pass through unrecorded.
type FS struct {
	afero.Fs
	// Skip reports a path whose content does not shape the result (a
	// cache of counts, say): it is not recorded.
	Skip func(name string) bool
	// Stamped reports a directory whose listing is keyed by its own
	// modification and change times and inode besides its names, so that
	// a file renamed over one of its names (another inode, the same
	// names) changes the key too. The files of a stamped directory may
	// then be vouched for by the caller without a stat, through the
	// directory's descriptor (see [ListingFile]); a stamped directory
	// must be one nothing writes to while the key holds (its temporary
	// files would change its times).
	Stamped func(name string) bool

	mu      sync.Mutex
	touched map[string]*touch
}

type touch struct {
	first  Identity // as the run first touched it
	listed bool
	racy   *reads // a racy file's reads (see pieces.go); nil for any other
}

// New wraps fsys.
func New(fsys afero.Fs, skip func(string) bool) *FS {
	return &FS{Fs: fsys, Skip: skip, touched: map[string]*touch{}}
}

func (f *FS) note(name string, listed bool) {
	name = filepath.Clean(name)
	if f.Skip != nil && f.Skip(name) {
		return
	}
	f.mu.Lock()
	t := f.touched[name]
	f.mu.Unlock()
	if t != nil && (t.listed || !listed) {
		return
	}
	id := observe(f.Fs, name, listed, listed && f.stamped(name), true)
	var racy *reads
	if os.FileMode(id.Mode).IsRegular() && !id.Link && byContent(id.MTime, time.Now()) {
		// A file that may change with no mark on its identity (see
		// RacyWindow) is keyed by what the run reads of it, hashed as it
		// is read: Key reads the same again, and a change between the
		// two, the run having read either side of it, keeps nothing.
		racy = &reads{}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch t = f.touched[name]; {
	case t == nil:
		f.touched[name] = &touch{first: id, listed: listed, racy: racy}
	case listed && !t.listed:
		// A directory stat'ed before it was listed: its identity then
		// was no more than that it was one.
		t.first, t.listed = id, true
	}
}

func (f *FS) stamped(name string) bool { return f.Stamped != nil && f.Stamped(name) }

func isWrite(flag int) bool {
	return flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_APPEND|os.O_TRUNC) != 0
}

// Open notes name before it opens it: a file renamed over name between
// the two (an editor's atomic save) then reads as changed when the key is
// taken, whichever file the run read. Noted after the open, the identity
// could be the new file's while the content read was the old one's.
func (f *FS) Open(name string) (afero.File, error) {
	f.note(name, false)
	file, err := f.Fs.Open(name)
	return f.opened(name, file, err)
}

func (f *FS) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if isWrite(flag) {
		return f.Fs.OpenFile(name, flag, perm)
	}
	f.note(name, false)
	file, err := f.Fs.OpenFile(name, flag, perm)
	return f.opened(name, file, err)
}

// OpenWith opens name with open, a way of opening it the file system
// underneath does not offer (a caller's openat2(2) relative to a
// directory it holds), and records it as [FS.Open] does: the path noted
// before the open, a racy file's reads hashed as they are read.
func (f *FS) OpenWith(name string, open func() (afero.File, error)) (afero.File, error) {
	f.note(name, false)
	file, err := open()
	return f.opened(name, file, err)
}

// opened notes a directory opened as listed, and hides its descriptor.
func (f *FS) opened(name string, file afero.File, err error) (afero.File, error) {
	dir := err == nil && isDir(file)
	if dir {
		f.note(name, true)
	}
	if dir && f.stamped(filepath.Clean(name)) {
		return stampedDir{dirFile{file}}, err
	}
	if err == nil && !dir {
		f.mu.Lock()
		t := f.touched[filepath.Clean(name)]
		f.mu.Unlock()
		if t != nil && t.racy != nil {
			return &readTracker{File: file, r: t.racy}, nil
		}
	}
	return hide(file, dir), err
}

// dirFile is a directory the run opened, its *os.File hidden: a caller
// that stats the entries through the directory's descriptor when it has
// one (the cold walk does, see tiers.ScanCold) would leave them out of
// the record, and an entry edited later would not be seen. Without the
// descriptor it stats them through this FS, which records them.
type dirFile struct{ afero.File }

// stampedDir is a stamped directory the run opened (see [FS.Stamped]):
// its descriptor is hidden as any directory's, but given for listing it.
type stampedDir struct{ dirFile }

// ListingFile is the directory's own file, for listing it with its
// entries' inode numbers: a file the caller takes without a stat on the
// strength of its inode number is left out of the record, which the
// directory's stamp (its times change when a name in it is added,
// removed or renamed over) stands in for. An entry the caller does stat
// must be stat'ed through the FS, to be recorded.
func (d stampedDir) ListingFile() afero.File { return d.File }

// ListingFile is the operating-system file to list dir by, when dir is a
// stamped directory opened through an [FS] (see [stampedDir]) or not
// opened through one at all; nil for a directory an FS recorded
// unstamped, whose entries must each be stat'ed through it.
func ListingFile(dir afero.File) afero.File {
	switch d := dir.(type) {
	case stampedDir:
		return d.File
	case dirFile:
		return nil
	}
	return dir
}

func hide(file afero.File, dir bool) afero.File {
	if dir {
		return dirFile{file}
	}
	return file
}

func isDir(file afero.File) bool {
	fi, err := file.Stat()
	return err == nil && fi.IsDir()
}

func (f *FS) Stat(name string) (os.FileInfo, error) {
	f.note(name, false)
	return f.Fs.Stat(name)
}

// LstatIfPossible keeps the symlink checks of the file system underneath.
func (f *FS) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	f.note(name, false)
	if l, ok := f.Fs.(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := f.Fs.Stat(name)
	return fi, false, err
}

// ReadlinkIfPossible keeps the link reading of the file system underneath.
func (f *FS) ReadlinkIfPossible(name string) (string, error) {
	f.note(name, false)
	if r, ok := f.Fs.(afero.LinkReader); ok {
		return r.ReadlinkIfPossible(name)
	}
	return "", &os.PathError{Op: "readlink", Path: name, Err: afero.ErrNoReadlink}
}

// Key returns every path touched with its identity now, and whether the
// result may be kept: false when a path changed since the run first
// touched it (the run itself wrote it, or another process did), or is a
// symbolic link. now is the clock the files' modification times are
// stamped by.
func (f *FS) Key(now time.Time) ([]Entry, bool) {
	f.mu.Lock()
	names := make([]string, 0, len(f.touched))
	for n := range f.touched {
		names = append(names, n)
	}
	f.mu.Unlock()
	slices.Sort(names)
	out := make([]Entry, 0, len(names))
	ok := true
	for _, n := range names {
		t := f.touched[n]
		e, err := take(f.Fs, n, t.listed, t.listed && f.stamped(n), now, t.racy)
		if err == nil && t.racy != nil {
			// What the run read of a file racy when it first looked must
			// read the same now, whether or not its window has closed
			// since (a change in the same tick shows in no stat); it is
			// keyed by it while still racy.
			field, many := t.racy.field()
			if !many || !samePieces(f.Fs, n, field) {
				ok = false
			}
			if e.Hash != "" {
				e.Hash = field
			}
		}
		if err != nil || e.Link || !sameStat(t.first, e.Identity) || changedContent(t.first, e.Identity) {
			ok = false
		}
		if stamped(e.Identity) && !isRacy(e.MTime, now) && !isRacy(e.CTime, now) {
			// Its stamp tells a change of its names from now on.
			e.Hash = ""
		}
		out = append(out, e)
	}
	return out, ok
}

// Take is the entry of name for a key: its identity, with its content
// hashed when it is a regular file modified within [RacyWindow] of now
// (a named pipe is never opened).
func Take(fsys afero.Fs, name string, listed bool, now time.Time) (Entry, error) {
	return take(fsys, name, listed, false, now, nil)
}

// take is [Take], a directory stamped when stamped; a racy file whose
// reads the run tracked (racy) is not hashed whole, but marked for the
// caller to key by those reads.
func take(fsys afero.Fs, name string, listed, stamped bool, now time.Time, racy *reads) (Entry, error) {
	id := observe(fsys, name, listed, stamped, true)
	if os.FileMode(id.Mode).IsRegular() && byContent(id.MTime, now) {
		if racy != nil {
			id.Hash = piecesPrefix
			return Entry{Path: name, Identity: id}, nil
		}
		h, err := hashFile(fsys, name)
		if err != nil {
			return Entry{}, err
		}
		id.Hash = h
	}
	return Entry{Path: name, Identity: id}, nil
}

// Observe takes the identity of name; listed adds a directory's names.
func Observe(fsys afero.Fs, name string, listed bool) Identity {
	return observe(fsys, name, listed, false, true)
}

// observe is [Observe], with a listed directory's times and inode when
// stamped (see [FS.Stamped]) and its stat has them; a stamped
// directory's names are read only when names is set.
func observe(fsys afero.Fs, name string, listed, stamp, names bool) Identity {
	var fi os.FileInfo
	var err error
	if l, ok := fsys.(afero.Lstater); ok {
		fi, _, err = l.LstatIfPossible(name)
	} else {
		fi, err = fsys.Stat(name)
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return Identity{}
		}
		// Unreadable: an identity no later look can match.
		return Identity{Link: true}
	}
	id := Identity{Exists: true, Dir: fi.IsDir(), Link: fi.Mode()&os.ModeSymlink != 0, Mode: uint32(fi.Mode())}
	if id.Dir {
		if listed {
			id.Listed = true
			if stamp {
				id.Inode, id.Dev, id.CTime = sysIdentity(fi)
				if id.CTime != 0 {
					id.MTime = fi.ModTime().UnixNano()
				}
			}
			if names || !stamped(id) {
				id.Hash = listHash(fsys, name)
			}
		}
		return id
	}
	id.Size, id.MTime = fi.Size(), fi.ModTime().UnixNano()
	id.Inode, id.Dev, id.CTime = sysIdentity(fi)
	return id
}

// changedContent reports a regular file hashed when the run first touched
// it and again for the key, with two hashes.
func changedContent(first, now Identity) bool {
	return !first.Dir && first.Hash != "" && now.Hash != "" && first.Hash != now.Hash
}

// stamped reports a directory keyed by its stamp (see [FS.Stamped]): a
// change time where the stat has one.
func stamped(id Identity) bool { return id.Dir && id.Listed && id.CTime != 0 }

// sameStat compares two identities without a file's hash of content,
// which only Key takes; a directory's names count.
func sameStat(a, b Identity) bool {
	if !a.Dir {
		a.Hash, b.Hash = "", ""
	}
	return a == b
}

// Unchanged reports whether every entry still has its identity: stat
// alone, the content hashed only for the racy ones. Every entry's stat
// is compared before any content or names are read: a key whose files
// changed (the start after a hand-off asks of the entry before it) is
// refused without listing a directory of a thousand names the hand-off
// made racy, or hashing a file it just wrote.
func Unchanged(fsys afero.Fs, key []Entry) bool {
	dirs := dirCursor{fsys: fsys}
	defer dirs.close()
	var deep []Entry // entries whose content or names are compared after
	for _, e := range key {
		id, ok := Identity{}, false
		if os.FileMode(e.Mode).IsRegular() && e.Exists && !e.Dir {
			// A regular file, as the run saw it: stat it relative to its
			// open directory (a key holds each directory's files together).
			if d := dirs.open(filepath.Dir(e.Path)); d != nil {
				id, ok = observeAt(d, filepath.Base(e.Path))
			}
		}
		want := e.Identity
		if !ok {
			// A stamped directory's names are looked at, after, while its
			// stamp was racy when the key was taken.
			names := e.Hash != "" && !(e.Dir && stamped(e.Identity))
			id = observe(fsys, e.Path, e.Listed, stamped(e.Identity), names)
			if e.Dir && e.Hash != "" && !names && stamped(id) {
				want.Hash = ""
				deep = append(deep, e)
			}
		}
		if id.Link || !sameStat(want, id) {
			return false
		}
		if os.FileMode(e.Mode).IsRegular() && e.Hash != "" {
			deep = append(deep, e)
		}
	}
	for _, e := range deep {
		switch {
		case e.Dir:
			if listHash(fsys, e.Path) != e.Hash {
				return false
			}
		case strings.HasPrefix(e.Hash, piecesPrefix):
			if !samePieces(fsys, e.Path, e.Hash) {
				return false
			}
		default:
			if h, err := hashFile(fsys, e.Path); err != nil || h != e.Hash {
				return false
			}
		}
	}
	return true
}

// dirCursor keeps the directory of the last file looked at open, for the
// next files of the same directory.
type dirCursor struct {
	fsys afero.Fs
	name string
	dir  afero.File
}

// open returns the directory name opened through the afero.Fs, nil when
// it cannot be opened (the caller then looks at the path itself).
func (c *dirCursor) open(name string) afero.File {
	if name == c.name && c.dir != nil {
		return c.dir
	}
	c.close()
	c.name = name
	if d, err := c.fsys.Open(name); err == nil {
		c.dir = d
	}
	return c.dir
}

func (c *dirCursor) close() {
	if c.dir != nil {
		c.dir.Close()
		c.dir = nil
	}
}

// Settle returns key without the content hashes of the regular files
// that are no longer racy at now, and whether it dropped any. Call it
// only on a key [Unchanged] has just confirmed: a file whose content
// matched its hash after its racy window closed is told apart from then
// on by its size and modification time alone (a change now stamps a
// later time), so a later look need not read it again.
func Settle(key []Entry, now time.Time) ([]Entry, bool) {
	var out []Entry
	for i, e := range key {
		switch {
		case e.Hash == "":
			continue
		case stamped(e.Identity):
			if isRacy(e.MTime, now) || isRacy(e.CTime, now) {
				continue
			}
		case !os.FileMode(e.Mode).IsRegular() || byContent(e.MTime, now):
			continue
		}
		if out == nil {
			out = slices.Clone(key)
		}
		out[i].Hash = ""
	}
	return out, out != nil
}

// byContent reports whether a regular file modified at mtime is kept by
// its content's hash at now: while it is racy, and always where a stat
// has no change time (see haveCTime).
func byContent(mtime int64, now time.Time) bool { return !haveCTime || isRacy(mtime, now) }

func isRacy(mtime int64, now time.Time) bool {
	d := now.Sub(time.Unix(0, mtime))
	return d < RacyWindow && d > -RacyWindow
}

func hashFile(fsys afero.Fs, name string) (string, error) {
	file, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer file.Close()
	h := sha256.New()
	if _, err := io.Copy(h, file); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// listHash is a directory's names, sorted, hashed; wake's own temporary
// files are left out.
func listHash(fsys afero.Fs, dir string) string {
	d, err := fsys.Open(dir)
	if err != nil {
		return "unreadable"
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return "unreadable"
	}
	return NamesHash(names)
}

// NamesHash is the hash of a directory's names that a key entry of a
// listed directory holds, from the names as a listing gave them (which
// it sorts): for a caller that listed the directory itself to tell its
// listing is the one keyed.
func NamesHash(names []string) string {
	slices.Sort(names)
	h := sha256.New()
	for _, n := range names {
		if strings.HasPrefix(n, ".") && strings.Contains(n, ".tmp-") {
			continue
		}
		io.WriteString(h, n)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Stamp is the identity of the directory dir as a stamped directory's key
// entry holds it, its names left out (see [FS.Stamped]): for a caller
// that listed it to tell the listing is of the stamp keyed.
func Stamp(fsys afero.Fs, dir string) Identity { return observe(fsys, dir, true, true, false) }

// AppendKey encodes a key, a line an entry: path, flags (e exists, d
// directory, l link, n listed), size, modification time, mode, inode,
// device, change time and hash, tab-separated; a path holding a tab, a newline, a
// quote or a backslash is quoted as Go quotes it. A key of many thousand
// entries (a large cold tier) reads back far faster than as JSON.
func AppendKey(dst []byte, key []Entry) []byte {
	for _, e := range key {
		if strings.ContainsAny(e.Path, "\t\n\r\"\\") {
			dst = strconv.AppendQuote(dst, e.Path)
		} else {
			dst = append(dst, e.Path...)
		}
		dst = append(dst, '\t')
		for _, f := range []struct {
			on bool
			c  byte
		}{{e.Exists, 'e'}, {e.Dir, 'd'}, {e.Link, 'l'}, {e.Listed, 'n'}} {
			if f.on {
				dst = append(dst, f.c)
			}
		}
		dst = append(dst, '\t')
		dst = strconv.AppendInt(dst, e.Size, 10)
		dst = append(dst, '\t')
		dst = strconv.AppendInt(dst, e.MTime, 10)
		dst = append(dst, '\t')
		dst = strconv.AppendUint(dst, uint64(e.Mode), 10)
		dst = append(dst, '\t')
		dst = strconv.AppendUint(dst, e.Inode, 10)
		dst = append(dst, '\t')
		dst = strconv.AppendUint(dst, e.Dev, 10)
		dst = append(dst, '\t')
		dst = strconv.AppendInt(dst, e.CTime, 10)
		dst = append(dst, '\t')
		dst = append(dst, e.Hash...)
		dst = append(dst, '\n')
	}
	return dst
}

// ParseKey reads what [AppendKey] wrote; anything else is an error.
func ParseKey(data []byte) ([]Entry, error) {
	bad := errors.New("not a key")
	out := make([]Entry, 0, bytes.Count(data, []byte{'\n'}))
	for len(data) > 0 {
		line, rest, ok := bytes.Cut(data, []byte{'\n'})
		if !ok {
			return nil, bad
		}
		data = rest
		var f [9][]byte
		for i := range 8 {
			var ok bool
			if f[i], line, ok = bytes.Cut(line, []byte{'\t'}); !ok {
				return nil, bad
			}
		}
		f[8] = line
		e := Entry{Path: string(f[0])}
		if strings.HasPrefix(e.Path, `"`) {
			p, err := strconv.Unquote(e.Path)
			if err != nil {
				return nil, bad
			}
			e.Path = p
		}
		for _, c := range f[1] {
			switch c {
			case 'e':
				e.Exists = true
			case 'd':
				e.Dir = true
			case 'l':
				e.Link = true
			case 'n':
				e.Listed = true
			default:
				return nil, bad
			}
		}
		var err [6]error
		var mode uint64
		e.Size, err[0] = strconv.ParseInt(string(f[2]), 10, 64)
		e.MTime, err[1] = strconv.ParseInt(string(f[3]), 10, 64)
		mode, err[2] = strconv.ParseUint(string(f[4]), 10, 32)
		e.Inode, err[3] = strconv.ParseUint(string(f[5]), 10, 64)
		e.Dev, err[4] = strconv.ParseUint(string(f[6]), 10, 64)
		e.CTime, err[5] = strconv.ParseInt(string(f[7]), 10, 64)
		if errors.Join(err[:]...) != nil {
			return nil, bad
		}
		e.Mode, e.Hash = uint32(mode), string(f[8])
		out = append(out, e)
	}
	return out, nil
}

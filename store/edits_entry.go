package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/tiers"
)

// entry is the ledger entry of a change made outside wake. A secret
// document's names only its path: no count, no heading.
func (sc *EditScan) entry(c change) Entry {
	level := ""
	if c.old != nil {
		level = c.old.Level
	}
	if c.cur != nil && (level == "" || c.cur.rec.Level == tiers.Secret) {
		level = c.cur.rec.Level
	}
	e := Entry{At: sc.now, Op: OpEdit, Paths: []string{c.path}, Sensitivity: level}
	switch {
	case c.cur == nil:
		e.ChangeSummary = "deleted by hand"
		if level != tiers.Secret && c.old.Lines > 0 {
			e.ChangeSummary += ": " + lineCount(c.old.Lines)
		}
	case c.old == nil:
		e.ChangeSummary = "added by hand"
		if level != tiers.Secret && c.cur.rec.Lines > 0 {
			e.ChangeSummary += ": " + lineCount(c.cur.rec.Lines)
		}
	case level == tiers.Secret:
		e.ChangeSummary = "edited by hand"
	default:
		e.ChangeSummary = "edited by hand" + sc.diffSummary(c)
	}
	if level == tiers.Secret {
		e.ChangeSummary += " (a secret document: no details kept)"
	}
	return e
}

// diffSummary says what a line diff of the two versions found: lines
// added and removed, and the heading of the first change. "" when either
// version has no signature (binary, huge, secret before, or the
// signature is gone from the state directory).
func (sc *EditScan) diffSummary(c change) string {
	if !c.old.Sig || c.cur.sig == nil {
		return ""
	}
	old, ok := sc.seen.sig(sc.fsys, sc.root, c.old.Hash)
	if !ok {
		return ""
	}
	d, ok := diffLines(old, *c.cur.sig)
	switch {
	case !ok:
		return ""
	case d.added == 0 && d.removed == 0:
		return ": line endings only"
	}
	s := fmt.Sprintf(": +%d -%d lines", d.added, d.removed)
	if d.heading != "" {
		s += fmt.Sprintf(" under %q", d.heading)
	}
	return s
}

func lineCount(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

// readVersion reads rel as a document: nil, false when it is missing;
// nil, true when it exists but is not a document wake reads (a symlink
// out of the root, a directory, a device).
func readVersion(fsys afero.Fs, root, rel string, now time.Time) (*version, bool, error) {
	reason, err := tiers.Inside(fsys, root, rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("reading %s: %w", rel, err)
	case reason != "":
		return nil, true, nil
	}
	f, fi, why, err := tiers.OpenRegular(fsys, filepath.Join(root, filepath.FromSlash(rel)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("reading %s: %w", rel, err)
	case why != "":
		return nil, true, nil
	}
	defer f.Close()
	h := sha256.New()
	data, err := io.ReadAll(io.LimitReader(f, tiers.MaxDocBytes+1))
	h.Write(data)
	huge := len(data) > tiers.MaxDocBytes
	if err == nil && huge {
		_, err = io.Copy(h, f)
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", rel, err)
	}
	v := newVersion(data, h.Sum(nil), huge, nil)
	v.rec.Size, v.rec.MTime, v.rec.CTime, v.rec.Racy = fi.Size(), fi.ModTime().UnixNano(), fsrecord.ChangeTime(fi), isSeenRacy(fi.ModTime(), now)
	return v, true, nil
}

// newVersion is the version of a document: data is its content (its first
// MaxDocBytes when huge) and sum the SHA-256 of all of it. head, when not
// nil, is its front matter already parsed from data whole.
func newVersion(data, sum []byte, huge bool, head *tiers.ColdHead) *version {
	v := &version{rec: seenRecord{Hash: hex.EncodeToString(sum[:8])}}
	if bytes.IndexByte(data, 0) >= 0 {
		return v // binary: no lines, no level
	}
	var meta tiers.FrontMatter
	var ferr error
	if head != nil {
		meta = head.Meta
		if head.MetaErr != "" {
			ferr = errors.New(head.MetaErr)
		}
	} else {
		meta, _, ferr = tiers.ParseFrontMatter(data)
	}
	switch {
	case ferr != nil || meta.Level() == tiers.Secret:
		// A front matter that cannot be read counts as secret, as the
		// sensitivity policy has it.
		v.rec.Level = tiers.Secret
		return v
	case meta.Level() == tiers.Confidential:
		v.rec.Level = tiers.Confidential
	}
	if huge {
		return v
	}
	g := makeSignature(string(data))
	v.sig, v.rec.Sig, v.rec.Lines = &g, true, len(g.lines)
	return v
}

// DocVersion is what a look at a document records of its content, taken
// by a reader that had the whole of it anyway (the scan of cold/ on a
// first start), so that the look does not read the document again.
type DocVersion struct{ v *version }

// VersionOf is the version of a document whose whole content is data
// (at most [tiers.MaxDocBytes]). head, when not nil, is its front matter
// as [tiers.ParseColdHead] parsed it from data whole, which spares
// parsing it again.
func VersionOf(data []byte, head *tiers.ColdHead) DocVersion {
	sum := sha256.Sum256(data)
	return DocVersion{newVersion(data, sum[:], false, head)}
}

func isSeenRacy(mtime, now time.Time) bool {
	d := now.Sub(mtime)
	return d < seenRacyWindow && d > -seenRacyWindow
}

package wake

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wakeproto/wake/capsule"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// OpCapsuleVerify is the ledger op of a verify that recorded the hashes
// of the files a capsule names.
const OpCapsuleVerify = "capsule-verify"

// maxCapsuleBytes bounds the file verify reads: a capsule is a few
// thousand tokens, far below it.
const maxCapsuleBytes = 1 << 20

// The states of a [CapsuleFile].
const (
	FileRecorded   = "recorded"   // this verify recorded its hash
	FileUnchanged  = "unchanged"  // as recorded
	FileChanged    = "changed"    // its content differs from the record
	FileMissing    = "missing"    // recorded, and gone
	FileUnrecorded = "unrecorded" // named, not recorded: the capsule has findings
)

// CapsuleFile is a file a capsule names, or its record names.
type CapsuleFile struct {
	Path   string // as the capsule writes it
	SHA256 string // its content's now; "" when missing
	State  string // FileRecorded, FileUnchanged...
}

// CapsuleVerification is what [Memory.VerifyCapsule] found.
type CapsuleVerification struct {
	Path      string // the capsule, relative to the memory root
	Tokens    int    // the body's exact size
	Budget    int    // its token_budget
	MaxTokens int    // capsule.max_tokens
	Findings  []capsule.Finding
	Files     []CapsuleFile
	Commits   []string // the commits it names, each found in git
	Recorded  bool     // this verify wrote the files' hashes into the front matter
	Notes     []string // what could not be checked, and why
}

// OK reports a capsule without findings.
func (v CapsuleVerification) OK() bool { return len(v.Findings) == 0 }

// CapsuleMalformedError is a capsule file wake cannot read as one.
type CapsuleMalformedError struct {
	Path string
	Line int
	Msg  string
}

func (e *CapsuleMalformedError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
}

// Hint says what to do about it.
func (e *CapsuleMalformedError) Hint() string {
	return "'wake capsule prompt --stub' writes a skeleton to start from"
}

// VerifyCapsule checks the capsule at file (an absolute path to a .md
// file under the memory root's cold/): its front matter and outline, its
// size against its token_budget and capsule.max_tokens, secrets, and the
// files and commits it names. Paths are read relative to the project
// (the git work tree holding the root, else the directory holding it),
// then to the memory root; neither may be left. The first verify without
// findings records the sha256 of each named file in the front matter
// (files:), atomically under the lock with a ledger line (op
// capsule-verify), the body untouched; a later one reports each recorded
// file changed or missing since.
func (m *Memory) VerifyCapsule(ctx context.Context, file string) (CapsuleVerification, error) {
	rel, err := m.capsuleRel(file)
	if err != nil {
		return CapsuleVerification{}, err
	}
	data, err := m.readCapsuleFile(file, rel)
	if err != nil {
		return CapsuleVerification{}, err
	}
	s, err := capsule.Scan(data)
	var me *capsule.MalformedError
	if errors.As(err, &me) {
		return CapsuleVerification{}, &CapsuleMalformedError{Path: m.shown(rel), Line: me.Line, Msg: me.Msg}
	} else if err != nil {
		return CapsuleVerification{}, err
	}
	v := CapsuleVerification{Path: rel, Budget: s.Capsule.Front.TokenBudget, MaxTokens: m.cfg.Capsule.MaxTokens}
	v.Findings, v.Tokens = capsule.Check(s, capsule.CheckOptions{MaxTokens: v.MaxTokens, Count: m.counter().CountTransient})
	fresh := m.checkFiles(s, &v)
	m.checkCommits(ctx, s, &v)
	if len(fresh) > 0 && v.OK() {
		if err := m.recordFiles(ctx, rel, data, s, fresh); err != nil {
			return v, err
		}
		v.Recorded = true
	}
	for _, f := range fresh {
		st := CapsuleFile{Path: f.Path, SHA256: f.SHA256, State: FileRecorded}
		if !v.Recorded {
			st.State = FileUnrecorded
		}
		v.Files = append(v.Files, st)
	}
	// In file order; what concerns the file as a whole last.
	slices.SortStableFunc(v.Findings, func(a, b capsule.Finding) int {
		return cmp.Compare(lineKey(a.Line), lineKey(b.Line))
	})
	for i := range v.Findings {
		v.Findings[i].Message, _ = policy.Scrub(v.Findings[i].Message)
		v.Findings[i].Subject, _ = policy.Scrub(v.Findings[i].Subject)
	}
	return v, nil
}

func lineKey(l int) int {
	if l == 0 {
		return math.MaxInt
	}
	return l
}

// checkFiles looks up every path the capsule names and compares its
// record, adding findings and files to v. It returns the hashes to record:
// those named and not recorded yet.
func (m *Memory) checkFiles(s *capsule.Scanned, v *CapsuleVerification) []capsule.FileHash {
	recorded := map[string]bool{}
	for _, f := range s.Capsule.Front.Files {
		recorded[f.Path] = true
		sum, ok, _ := m.hashRef(f.Path)
		st := CapsuleFile{Path: f.Path, SHA256: sum, State: FileUnchanged}
		switch {
		case !ok:
			st.State = FileMissing
			v.Findings = append(v.Findings, capsule.Finding{Kind: capsule.FindDrift, Line: s.KeyLines[capsule.KeyFiles], Subject: f.Path,
				Message: fmt.Sprintf("%s is missing: it was there when the capsule was first verified", f.Path)})
		case sum != f.SHA256:
			st.State = FileChanged
			v.Findings = append(v.Findings, capsule.Finding{Kind: capsule.FindDrift, Line: s.KeyLines[capsule.KeyFiles], Subject: f.Path,
				Message: fmt.Sprintf("%s changed since the capsule was first verified", f.Path)})
		}
		v.Files = append(v.Files, st)
	}
	var fresh []capsule.FileHash
	for _, r := range s.Refs {
		if r.Kind != capsule.RefPath || recorded[r.Value] {
			continue
		}
		recorded[r.Value] = true
		sum, ok, outside := m.hashRef(r.Value)
		switch {
		case outside:
			v.Findings = append(v.Findings, capsule.Finding{Kind: capsule.FindPath, Line: r.Line, Subject: r.Value,
				Message: fmt.Sprintf("%s lies outside the project and the memory root", r.Value)})
		case !ok:
			v.Findings = append(v.Findings, capsule.Finding{Kind: capsule.FindPath, Line: r.Line, Subject: r.Value,
				Message: fmt.Sprintf("%s does not exist (paths are read from the project, then the memory root)", r.Value)})
		case sum != "":
			fresh = append(fresh, capsule.FileHash{Path: r.Value, SHA256: sum})
		}
	}
	return fresh
}

// hashRef finds the file a capsule names, relative to the project then
// the memory root (or absolute, inside either), and hashes it. ok is
// false when it does not exist; sum is "" for a directory.
func (m *Memory) hashRef(p string) (sum string, ok, outside bool) {
	bases := []string{m.projectTop(), m.root}
	var cands []string
	if filepath.IsAbs(p) {
		cands = []string{filepath.Clean(p)}
	} else {
		for _, b := range bases {
			cands = append(cands, filepath.Join(b, filepath.FromSlash(p)))
		}
	}
	// Outside when no candidate lies in a base by its text, or one that
	// does leads out of it through a symlink and none is found inside.
	outside = true
	led := false
	for _, c := range cands {
		switch in, out := m.inside(bases, c); {
		case out:
			led = true
			continue
		case !in:
			continue
		}
		outside = false
		fi, err := m.o.FS.Stat(c)
		switch {
		case err != nil:
			continue
		case fi.IsDir():
			return "", true, false
		case !fi.Mode().IsRegular():
			continue
		}
		if sum, err := m.sha256(c); err == nil {
			return sum, true, false
		}
	}
	return "", false, outside || led
}

// inside reports whether c lies in one of bases once every symlink on
// its way is resolved; out, whether c, in a base by its text, leads out
// of it through a symlink. A path inside the project by its text may
// lead out of it, and verify must not hash what lies there. A path with
// a missing component is inside: nothing is there to read.
func (m *Memory) inside(bases []string, c string) (in, out bool) {
	for _, b := range bases {
		if !within(b, c) {
			continue
		}
		rel, err := filepath.Rel(b, c)
		if err != nil {
			continue
		}
		switch why, err := tiers.Inside(m.o.FS, b, rel); {
		case err == nil && why == "", errors.Is(err, fs.ErrNotExist):
			return true, false
		case err == nil:
			out = true
		}
	}
	return false, out
}

func within(base, p string) bool {
	r, err := filepath.Rel(base, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

func (m *Memory) sha256(name string) (string, error) {
	// Checked again as opened: the stat that judged the file came first.
	f, _, err := tiers.OpenInput(m.o.FS, name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkCommits asks git for every commit the capsule names.
func (m *Memory) checkCommits(ctx context.Context, s *capsule.Scanned, v *CapsuleVerification) {
	seen := map[string]bool{}
	var refs []capsule.Ref
	for _, r := range s.Refs {
		if r.Kind == capsule.RefCommit && !seen[r.Value] {
			seen[r.Value] = true
			refs = append(refs, r)
		}
	}
	if len(refs) == 0 {
		return
	}
	if _, err := exec.LookPath("git"); err != nil {
		v.Notes = append(v.Notes, "git was not found, so the commits the capsule names were not checked")
		return
	}
	if _, err := m.git(ctx, m.root, "rev-parse", "--git-dir"); err != nil {
		v.Notes = append(v.Notes, fmt.Sprintf("the commits the capsule names were not checked: %v", err))
		return
	}
	for _, r := range refs {
		if _, err := m.git(ctx, m.root, "cat-file", "-e", r.Value+"^{commit}"); err != nil {
			v.Findings = append(v.Findings, capsule.Finding{Kind: capsule.FindCommit, Line: r.Line, Subject: r.Value,
				Message: fmt.Sprintf("commit %s is not in the repository", r.Value)})
			continue
		}
		v.Commits = append(v.Commits, r.Value)
	}
}

// recordFiles adds fresh to the capsule's files: record, under the lock,
// provided the file is still what was verified.
func (m *Memory) recordFiles(ctx context.Context, rel string, data []byte, s *capsule.Scanned, fresh []capsule.FileHash) error {
	return m.Store().Mutate(ctx, func() (store.Entry, error) {
		// Read as verify read it: the lock is held meanwhile.
		now, err := m.readCapsuleFile(rel, rel)
		if err != nil {
			return store.Entry{}, err
		}
		if !bytes.Equal(now, data) {
			return store.Entry{}, fmt.Errorf("capsule %s changed while it was verified; run verify again", rel)
		}
		all := append(append([]capsule.FileHash(nil), s.Capsule.Front.Files...), fresh...)
		if err := m.Store().Write(rel, capsule.WithFiles(data, s, all)); err != nil {
			return store.Entry{}, err
		}
		return store.Entry{Op: OpCapsuleVerify, Paths: []string{rel},
			ChangeSummary: fmt.Sprintf("recorded the sha256 of %d file(s) capsule %s names", len(fresh), rel)}, nil
	})
}

// readCapsuleFile reads the capsule a verify was given, a regular file
// of at most maxCapsuleBytes only, opened without waiting on it.
func (m *Memory) readCapsuleFile(file, rel string) ([]byte, error) {
	f, fi, err := tiers.OpenInput(m.o.FS, m.path(rel))
	var nr *tiers.NotRegularError
	switch {
	case errors.As(err, &nr):
		return nil, &CapsulePathError{file, nr.Why}
	case err != nil:
		return nil, fmt.Errorf("reading capsule %s: %w", rel, err)
	}
	defer f.Close()
	if fi.Size() > maxCapsuleBytes {
		return nil, &CapsulePathError{file, fmt.Sprintf("%d bytes, too large for a capsule (at most %d)", fi.Size(), maxCapsuleBytes)}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxCapsuleBytes+1))
	if err == nil && len(data) > maxCapsuleBytes {
		return nil, &CapsulePathError{file, fmt.Sprintf("over %d bytes, too large for a capsule", maxCapsuleBytes)}
	}
	if err != nil {
		return nil, fmt.Errorf("reading capsule %s: %w", rel, err)
	}
	return data, nil
}

package capsule

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
	"time"
)

// Where capsules live in the memory root (slash-separated, relative).
const (
	// Dir holds the capsules, one directory a branch.
	Dir = "cold/capsules"
	// ArchiveDir holds the capsules `wake capsule prune` moved away.
	ArchiveDir = Dir + "/archive"
	// archive is the first component of [ArchiveDir] under [Dir]: a
	// branch whose first component it is gets "archive-".
	archive = "archive"
)

// Branch names for a memory whose project has no branch to name.
const (
	// Detached is the branch of a detached HEAD.
	Detached = "detached"
	// NoBranch is the branch of a project outside git.
	NoBranch = "no-branch"
)

// StampLayout is the time layout of a capsule's file name, in UTC.
const StampLayout = "20060102T150405Z"

// BranchDir turns a git branch into a safe relative directory: each
// slash-separated component keeps [A-Za-z0-9._-] and has any other
// character as "-", a leading dot as "-"; empty components and "." go,
// ".." becomes "--". A first component "archive", in any case, gets a
// "-" so that no branch lands in [ArchiveDir]; "" is [NoBranch]. When
// the components lost or changed a character, the last one ends in "-"
// and eight hex digits of the branch name's SHA-256, so that two branches
// never share a directory ("fix/bug#1" and "fix/bug-1"), whose newest
// capsule a subagent of the other would be given.
func BranchDir(branch string) string {
	var parts []string
	for _, c := range strings.Split(branch, "/") {
		if c == "" || c == "." {
			continue
		}
		var sb strings.Builder
		for _, r := range c {
			ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
				r == '.' || r == '_' || r == '-'
			if !ok {
				r = '-'
			}
			sb.WriteRune(r)
		}
		s := sb.String()
		if s == ".." {
			s = "--"
		}
		if s[0] == '.' {
			s = "-" + s[1:]
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return NoBranch
	}
	if strings.Join(parts, "/") != branch {
		sum := sha256.Sum256([]byte(branch))
		parts[len(parts)-1] += "-" + hex.EncodeToString(sum[:4])
	}
	// In any case: on a file system that ignores case (macOS, Windows)
	// "Archive" is the archive's directory.
	if strings.EqualFold(parts[0], archive) {
		parts[0] += "-"
	}
	return strings.Join(parts, "/")
}

// Stamp is the file name stem of a capsule created at t, the n-th of its
// second (n from 1: the first has no suffix, the second "-2").
func Stamp(t time.Time, n int) string {
	s := t.UTC().Format(StampLayout)
	if n > 1 {
		s += fmt.Sprintf("-%d", n)
	}
	return s
}

// ID is a capsule's id: its path under [Dir] without ".md"
// ("main/20261122T223000Z"). An archived capsule keeps the id it had.
func ID(branchDir, stamp string) string {
	return branchDir + "/" + stamp
}

// PathOf is the root-relative path of the capsule with id, before any
// prune.
func PathOf(id string) string {
	return Dir + "/" + id + ".md"
}

// ArchivePathOf is the root-relative path the capsule with id has once
// pruned.
func ArchivePathOf(id string) string {
	return ArchiveDir + "/" + id + ".md"
}

// ParseStamp reads the time of a capsule file name's stem ("20261122T223000Z"
// or "20261122T223000Z-2"); ok is false for another name.
func ParseStamp(stem string) (time.Time, bool) {
	base, _, _ := strings.Cut(stem, "-")
	t, err := time.Parse(StampLayout, base)
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// IDOfPath gives the id of a capsule from its root-relative path, in
// [Dir] or [ArchiveDir]; ok is false for a path that is neither.
func IDOfPath(p string) (string, bool) {
	p = path.Clean(p)
	if !strings.HasSuffix(p, ".md") {
		return "", false
	}
	rest, ok := strings.CutPrefix(p, ArchiveDir+"/")
	if !ok {
		if rest, ok = strings.CutPrefix(p, Dir+"/"); !ok {
			return "", false
		}
	}
	id := strings.TrimSuffix(rest, ".md")
	dir, stem := path.Split(id)
	if dir == "" {
		return "", false
	}
	if _, ok := ParseStamp(stem); !ok {
		return "", false
	}
	return id, true
}

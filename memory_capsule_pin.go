package wake

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wakeproto/wake/capsule"
	"github.com/wakeproto/wake/store"
)

// CapsulePinError is a capsule that cannot be pinned: no capsule has the
// id or path given, or the one there cannot be read.
type CapsulePinError struct {
	Ref    string
	Reason string
}

func (e *CapsulePinError) Error() string {
	return fmt.Sprintf("capsule %s: %s", e.Ref, e.Reason)
}

// Hint says what to do about it.
func (e *CapsulePinError) Hint() string {
	return "name a capsule by the id 'wake capsule list --archived' shows (main/20261122T223000Z) or by its path"
}

// Pinned is the capsule pinned to a branch, as [Memory.PinnedCapsule]
// finds it.
type Pinned struct {
	Branch string // the branch, as git names it
	ID     string // the capsule's id; "" when none is pinned
	Pin    store.CapsulePin
}

// PinCapsule pins the capsule ref (an id such as "main/20261122T223000Z",
// or its path: absolute, or relative to the memory root) to branch (""
// the current one): the SubagentStart hook then gives that branch's
// subagents this capsule, whatever is newer, until [Memory.UnpinCapsule].
// The capsule must be one wake can read and give. The pin is a line of
// the registry (subagents.jsonl) with a ledger line (op capsule-pin).
func (m *Memory) PinCapsule(ctx context.Context, ref, branch string) (capsule.Found, Pinned, error) {
	if branch == "" {
		branch = m.Branch(ctx)
	}
	id, ok := m.capsuleIDOf(ref)
	if !ok {
		return capsule.Found{}, Pinned{}, &CapsulePinError{ref, "is neither a capsule id nor the path of a capsule under " + capsule.Dir}
	}
	f, err := m.capsuleByID(id)
	if err != nil {
		return capsule.Found{}, Pinned{}, &CapsulePinError{ref, err.Error()}
	}
	p := store.CapsulePin{At: m.o.Now(), Op: store.OpCapsulePin, Branch: branch, Capsule: f.ID}
	if err := m.Store().RecordCapsulePin(ctx, p); err != nil {
		return f, Pinned{}, err
	}
	return f, Pinned{Branch: branch, ID: f.ID, Pin: p}, nil
}

// UnpinCapsule takes the pin off branch ("" the current one), with a
// registry line and a ledger line (op capsule-unpin); a branch with no
// pin writes nothing. It returns the pin there was.
func (m *Memory) UnpinCapsule(ctx context.Context, branch string) (Pinned, error) {
	p, err := m.PinnedCapsule(ctx, branch)
	if err != nil || p.ID == "" {
		return p, err
	}
	err = m.Store().RecordCapsulePin(ctx, store.CapsulePin{At: m.o.Now(), Op: store.OpCapsuleUnpin, Branch: p.Branch})
	return p, err
}

// PinnedCapsule is the capsule pinned to branch ("" the current one):
// the newest pin or unpin line of the registry for it, by time (the
// later in the file among equals); ID is "" when none is pinned.
// Branches are compared as their capsule directories are.
func (m *Memory) PinnedCapsule(ctx context.Context, branch string) (Pinned, error) {
	if branch == "" {
		branch = m.Branch(ctx)
	}
	out := Pinned{Branch: branch}
	pins, err := store.ReadCapsulePins(m.o.FS, m.root)
	if err != nil {
		return out, err
	}
	dir := capsule.BranchDir(branch)
	var last *store.CapsulePin
	for i, p := range pins {
		if capsule.BranchDir(p.Branch) == dir && (last == nil || !p.At.Before(last.At)) {
			last = &pins[i]
		}
	}
	if last != nil && last.Op == store.OpCapsulePin {
		out.ID, out.Pin = last.Capsule, *last
	}
	return out, nil
}

// pinsInForce maps each pinned capsule's id to the branches it is
// pinned to, sorted; a registry wake cannot read pins nothing here (the
// hook warns of it).
func (m *Memory) pinsInForce() map[string][]string {
	pins, err := store.ReadCapsulePins(m.o.FS, m.root)
	if err != nil {
		return nil
	}
	last := map[string]store.CapsulePin{}
	for _, p := range pins {
		dir := capsule.BranchDir(p.Branch)
		if l, ok := last[dir]; !ok || !p.At.Before(l.At) {
			last[dir] = p
		}
	}
	out := map[string][]string{}
	for _, p := range last {
		if p.Op == store.OpCapsulePin {
			out[p.Capsule] = append(out[p.Capsule], p.Branch)
		}
	}
	for _, bs := range out {
		slices.Sort(bs)
	}
	return out
}

// capsuleIDOf reads ref as a capsule's id or path.
func (m *Memory) capsuleIDOf(ref string) (string, bool) {
	ref = strings.TrimSpace(ref)
	if filepath.IsAbs(ref) {
		rel, err := filepath.Rel(m.root, filepath.Clean(ref))
		if err != nil {
			return "", false
		}
		ref = filepath.ToSlash(rel)
	}
	if id, ok := capsule.IDOfPath(ref); ok {
		return id, true
	}
	return capsule.IDOfPath(capsule.PathOf(strings.TrimSuffix(ref, ".md")))
}

// capsuleByID reads the capsule id where it is: among the capsules, else
// in the archive a prune moved it to.
func (m *Memory) capsuleByID(id string) (capsule.Found, error) {
	rel := capsule.PathOf(id)
	if !m.exists(rel) && m.exists(capsule.ArchivePathOf(id)) {
		rel = capsule.ArchivePathOf(id)
	}
	return m.readCapsule(id, rel)
}

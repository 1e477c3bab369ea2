package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/afero"
)

// The ledger ops, and the registry's op field, of a capsule pinned to a
// branch and unpinned.
const (
	OpCapsulePin   = "capsule-pin"
	OpCapsuleUnpin = "capsule-unpin"
)

// CapsulePin is a line of the registry ([SubagentsPath]) that pins a
// capsule to a branch, or unpins it: the SubagentStart hook gives that
// branch's subagents the pinned capsule instead of the branch's newest.
// The registry only grows (a merge takes the union of its lines), so the
// pin in force for a branch is its newest line by time.
type CapsulePin struct {
	At     time.Time `json:"at"`
	Op     string    `json:"op"`     // OpCapsulePin or OpCapsuleUnpin
	Branch string    `json:"branch"` // the git branch, as git names it
	// Capsule is the pinned capsule's id ("main/20261122T223000Z"); ""
	// on an unpin line.
	Capsule string `json:"capsule,omitempty"`
}

// isPinLine reports whether a registry line is a [CapsulePin].
func isPinLine(line []byte) bool {
	var p struct {
		Op string `json:"op"`
	}
	return json.Unmarshal(line, &p) == nil && (p.Op == OpCapsulePin || p.Op == OpCapsuleUnpin)
}

// RecordCapsulePin appends p to the registry with its ledger line, under
// the root's lock.
func (s *Store) RecordCapsulePin(ctx context.Context, p CapsulePin) error {
	if p.At.IsZero() {
		p.At = s.Now()
	}
	p.At = p.At.UTC().Truncate(time.Second)
	if p.Op != OpCapsulePin && p.Op != OpCapsuleUnpin {
		return fmt.Errorf("capsule pin: op %q is neither %s nor %s", p.Op, OpCapsulePin, OpCapsuleUnpin)
	}
	texts := []string{"branch", p.Branch}
	if p.Op == OpCapsulePin {
		texts = append(texts, "capsule id", p.Capsule)
	}
	if err := oneLineTexts(texts...); err != nil {
		return err
	}
	return s.Mutate(ctx, func() (Entry, error) {
		line, err := json.Marshal(p)
		if err != nil {
			return Entry{}, err
		}
		if err := CheckLedgerWritable(s.FS, s.Root); err != nil {
			return Entry{}, err
		}
		if err := appendLine(s.FS, s.Root, SubagentsPath, line); err != nil {
			return Entry{}, err
		}
		sum := fmt.Sprintf("capsule %s pinned to branch %s: its subagents get it instead of the newest", p.Capsule, p.Branch)
		if p.Op == OpCapsuleUnpin {
			sum = fmt.Sprintf("branch %s unpinned: its subagents get its newest capsule again", p.Branch)
		}
		return Entry{At: p.At, Op: p.Op, Paths: []string{SubagentsPath}, ChangeSummary: sum}, nil
	})
}

// ReadCapsulePins reads the registry's pin and unpin lines, in file
// order; a missing registry has none. Lines that are not JSON are
// [ReadSubagents]' to report.
func ReadCapsulePins(fsys afero.Fs, root string) ([]CapsulePin, error) {
	f, err := openJSONL(fsys, root, SubagentsPath, false)
	if err != nil || f == nil {
		return nil, err
	}
	defer f.Close()
	var out []CapsulePin
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if !isPinLine(line) {
			continue
		}
		var p CapsulePin
		if json.Unmarshal(line, &p) == nil {
			out = append(out, p)
		}
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("reading %s: %w", SubagentsPath, err)
	}
	return out, nil
}

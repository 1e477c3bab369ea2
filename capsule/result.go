package capsule

import (
	"time"

	"github.com/wakeproto/wake/budget"
)

// Written is what building (and, unless a dry run, writing) a capsule gave.
type Written struct {
	ID      string // e.g. "main/20261122T223000Z"
	Path    string // relative to the memory root, slash-separated
	Capsule Capsule
	Data    []byte // the file as written (or as it would be)
	Tokens  int    // the body's exact size in tokens
	Budget  int    // capsule.max_tokens
	Cuts    []budget.Cut
	// Consumed are the numbers of the inbox reminders the capsule took in
	// and marked consumed (none on a dry run).
	Consumed []int
	Warnings []string
	DryRun   bool // nothing was written
}

// Found is a stored capsule, as [wake.Memory.NewestCapsule] finds it.
type Found struct {
	ID       string
	Path     string // relative to the memory root, slash-separated
	Created  time.Time
	Archived bool // it lies in ArchiveDir
	Capsule  Capsule
	// Body is the whole file as stored, front matter included, scrubbed
	// of secrets.
	Body string
}

// Listed is a stored capsule as `wake capsule list` shows it.
type Listed struct {
	ID       string
	Path     string    // relative to the memory root
	Branch   string    // the branch's directory ([BranchDir])
	Created  time.Time // the time its name stamps
	Archived bool
	// Objective is its primary_objective, scrubbed; "" when the policy
	// holds the capsule back or it has none.
	Objective string
	Bytes     int64
	// PinnedTo are the branches it is pinned to (`wake capsule pin`), as
	// git names them; none when it is not.
	PinnedTo []string
}

// Move is a capsule `wake capsule prune` moved (or would move).
type Move struct {
	ID       string
	From, To string // relative to the memory root
	Created  time.Time
	// Merged is the branch, merged into the default branch, whose
	// capsule it is, when that is why it moved; "" when its age is.
	Merged string
}

// Pruned is what `wake capsule prune` did.
type Pruned struct {
	// Before: capsules created before it were moved; zero when no age
	// was given.
	Before time.Time
	// Into is the default branch, when the capsules of the branches
	// merged into it were moved; Merged are those branches that have
	// capsules, as git names them.
	Into   string
	Merged []string
	Moves  []Move
	DryRun bool // nothing was moved
}

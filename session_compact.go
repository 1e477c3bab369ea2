package wake

import (
	"context"
	"fmt"
	"strings"

	"github.com/wakeproto/wake/store"
)

// AutoCompaction is what a hand-off compacted of its own accord
// (wake.toml handoff.auto_compact): the warm files the boot context had
// to cut to fit their share, and what wake compact moved out of them.
type AutoCompaction struct {
	// Over lists the warm files over their share that wake compact
	// archives from, moved from or not.
	Over []string `json:"over,omitempty"`
	store.Compaction
	// Problem says why the compaction failed; "" when it did not. The
	// hand-off is written all the same.
	Problem string `json:"problem,omitempty"`
}

// autoCompact runs wake compact, once the hand-off is written, on the
// warm files the boot context has to cut to fit their share, when the
// setting allows it. Only those files: one under its share keeps what is
// finished in it until the user runs wake compact. The compaction is its
// own operation, under the lock, with its own ledger line, and writes
// nothing when it has nothing to move; its failure is a warning, never
// the hand-off's. The context is built unlocked, as the precount that
// comes before the boot files are regenerated; counted says whether its
// counts still hold, nothing having moved.
func (m *Memory) autoCompact(ctx context.Context) (ac AutoCompaction, counted bool) {
	if !m.cfg.Handoff.AutoCompact {
		return ac, false
	}
	c, _, err := m.BootContext(false)
	if err != nil {
		// It fails again under the lock, where it is reported.
		return ac, true
	}
	if ac.Over = c.OverShare(); len(ac.Over) == 0 {
		return ac, true
	}
	ac.Compaction, err = m.Store().CompactFiles(ctx, false, ac.Over)
	if err != nil {
		ac.Compaction = store.Compaction{}
		ac.Problem = fmt.Sprintf("compacting %s, over %s share, failed: %v; the hand-off is written, and `wake compact` moves what is finished once that is settled",
			strings.Join(ac.Over, ", "), their(len(ac.Over)), m.quotable(err))
		m.warn(ac.Problem)
		return ac, false
	}
	return ac, ac.Empty()
}

func their(n int) string {
	if n == 1 {
		return "its"
	}
	return "their"
}

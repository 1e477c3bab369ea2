// Package cold is the cold tier (DESIGN sections 4 and 5): its table of
// contents within a token budget, the index that lets a warm start list
// cold/ without opening a document, and pulls of one document under the
// session's caps. It is apart from the boot pipeline because `wake cold`,
// skill.md's History and the boot context each use it, and a cold tier of
// 100,000 documents is a concern of its own.
package cold

import (
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// Options is what the cold tier reads with.
type Options struct {
	FS     afero.Fs
	Root   string
	Config tiers.Config
	// Counter is normally a *budget.Cache. It must be safe for
	// concurrent use: a scan counts new documents on all cores (budget's
	// Cache and Encoder are; `go test -race ./cold -run Workers` checks).
	Counter budget.Counter
	Now     func() time.Time
	// Index remembers cold documents between runs so that a warm start
	// opens none of them; nil reads every cold document.
	Index *Index
	// SessionsElsewhere is how many of the newest session records the
	// listing's reader has a line of already (the boot context's
	// trajectory): those are listed by their names, not their summaries
	// again; older ones by their summaries.
	SessionsElsewhere int
	// Progress, when not nil, hears how the reading of the documents the
	// index does not know goes (a first scan reads them all): done of
	// total read, 0 first, then after each document, last with done ==
	// total; never when there is nothing to read. It is called from one
	// goroutine at a time, the scan waiting on it: it must be quick. The
	// library prints nothing: the caller renders it (see cmd/wake).
	Progress func(done, total int)
}

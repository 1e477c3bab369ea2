package handoff

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// DecisionsSnapshot is where wake keeps the exact decision log it last
// wrote, inside the state directory, so that entries deleted or edited by
// hand since can be found.
const DecisionsSnapshot = "decisions.last.md"

// NewDecision is a decision to append to the log.
type NewDecision struct {
	What  string
	Why   string
	Topic string // optional
}

// Validate checks that both texts are present and every field is one line.
func (d NewDecision) Validate() error {
	switch {
	case strings.TrimSpace(d.What) == "":
		return errors.New("the decision text is empty")
	case strings.TrimSpace(d.Why) == "":
		return errors.New("the reason (because) is empty")
	case strings.ContainsAny(d.What+d.Why+d.Topic, "\r\n"):
		return errors.New("decision, reason and topic must each be one line")
	}
	return nil
}

// Render formats the entry as wake writes it, ending in a newline.
func (d NewDecision) Render(day time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] DECISION: %s BECAUSE: %s\nSTATUS: active\n", day.UTC().Format("2006-01-02"),
		strings.TrimSpace(d.What), strings.TrimSpace(d.Why))
	if t := strings.TrimSpace(d.Topic); t != "" {
		fmt.Fprintf(&b, "TOPIC: %s\n", t)
	}
	return b.String()
}

// AppendDecisionsLocked appends each decision as an active entry to
// warm/decisions.md, one blank line after the previous entry, writes the
// file atomically and records the snapshot. The caller must hold the root's
// lock (it runs inside [Store.Mutate]) and writes the ledger line.
func (s *Store) AppendDecisionsLocked(ds []NewDecision) error {
	for _, d := range ds {
		if err := d.Validate(); err != nil {
			return err
		}
	}
	cur, err := afero.ReadFile(s.FS, s.Path(tiers.DecisionsPath))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("reading %s: %w", tiers.DecisionsPath, err)
	}
	text := string(cur)
	for _, d := range ds {
		text = appendEntry(text, d.Render(s.Now()))
	}
	return s.WriteDecisionsLocked([]byte(text))
}

// WriteDecisionsLocked replaces warm/decisions.md and records the snapshot.
func (s *Store) WriteDecisionsLocked(data []byte) error {
	if err := s.Write(tiers.DecisionsPath, data); err != nil {
		return err
	}
	return WriteFile(s.FS, filepath.Join(s.Root, tiers.StateDir, DecisionsSnapshot), data, 0o644)
}

// appendEntry adds entry after text, separated by exactly one blank line.
func appendEntry(text, entry string) string {
	switch {
	case text == "":
	case strings.HasSuffix(text, "\n\n"):
	case strings.HasSuffix(text, "\n"):
		text += "\n"
	default:
		text += "\n\n"
	}
	return text + entry
}

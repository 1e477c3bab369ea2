package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// Repro 11 of issue 23: an entry numbered 9223372036854775807 left no
// number for the next, and every later remember failed with "would not
// read back as written". It is refused naming the entry's file and line;
// numbers too large for an integer do not stop a remember.
func TestRememberAfterHugeNumbers(t *testing.T) {
	t.Parallel()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	ctx := context.Background()
	past := "## 2 · 2026-11-01\n- reminder: small\n\n## 99999999999999999999 · 2026-11-01\n- reminder: too large to read\n"
	if err := s.Write(tiers.InboxPath, []byte(past)); err != nil {
		t.Fatal(err)
	}
	r, err := s.Remember(ctx, NewReminder{Text: "next"})
	if err != nil || r.N != 3 {
		t.Fatalf("after a number past the integer limit: %+v %v", r, err)
	}
	full := "# Mine\n\n## 9223372036854775807 · 2026-11-01\n- reminder: at the limit\n"
	if err := s.Write(tiers.InboxPath, []byte(full)); err != nil {
		t.Fatal(err)
	}
	_, err = s.Remember(ctx, NewReminder{Text: "one more"})
	var fe *InboxFullError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), tiers.InboxPath+":3: ") || !strings.Contains(err.Error(), "9223372036854775807") ||
		strings.Contains(err.Error(), "read back") || fe.Hint() == "" {
		t.Fatalf("err = %v", err)
	}
	if got := hoRead(t, s, tiers.InboxPath); got != full {
		t.Fatalf("the inbox was changed: %q", got)
	}
	// Closing the entry at the limit still works.
	if _, err := s.CloseReminder(ctx, 9223372036854775807, "done"); err != nil {
		t.Fatal(err)
	}
}

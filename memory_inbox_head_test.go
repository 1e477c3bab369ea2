package wake_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/report"
	"github.com/wakeproto/wake/tiers"
)

// Repro 6 of issue 23, for `wake remember list` and capsules: an inbox
// over the read limit is read by its head only (the head's last entry,
// which may be closed past it, left out), saying so.
func TestInboxOverReadLimitReadsHead(t *testing.T) {
	t.Parallel()
	m, fsys := inboxMemory(t)
	head := "# Remember later\n\n## 1 · 2026-11-20\n- reminder: in the head\n\n## 2 · 2026-11-20\n- reminder: cut with the head\n"
	text := head + strings.Repeat(strings.Repeat("y", 1023)+"\n", tiers.MaxDocBytes/1024+1) + "## 3 · 2026-11-21\n- reminder: past the head\n"
	if err := afero.WriteFile(fsys, "/p/.wake/"+tiers.InboxPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := m.Inbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if in.Bytes != int64(len(text)) || in.Total != 1 || in.Open != 1 || len(in.Reminders) != 1 || in.Reminders[0].N != 1 {
		t.Fatalf("%+v", in)
	}
	var b bytes.Buffer
	report.RemindersText(&b, in, true)
	if !strings.Contains(b.String(), "Only the first 64 KiB of warm/inbox.md (") {
		t.Fatalf("the list does not say only the head was read:\n%s", b.String())
	}
}

package boot

import (
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/tiers"
)

// hugeInbox is an inbox over the read limit: open reminders 1 and 3 and a
// closed 2 in its head, then prose past the head, then an open 99 (and
// reminder 4, open, whose closing line lies past the head).
func hugeInbox() string {
	head := "# Remember later\n\n## 1 · 2026-11-20T09:00:00Z\n- reminder: First in the head\n\n" +
		"## 2 · 2026-11-20T10:00:00Z\n- reminder: Closed in the head\n- done: yes at 2026-11-20T11:00:00Z\n\n" +
		"## 3 · 2026-11-20T12:00:00Z\n- reminder: Third in the head\n\n## 4 · 2026-11-20T13:00:00Z\n- reminder: Closed past the head\n"
	filler := strings.Repeat(strings.Repeat("x", 1023)+"\n", tiers.MaxDocBytes/1024+1)
	return head + filler + "- done: late at 2026-11-21T00:00:00Z\n\n## 99 · 2026-11-21T09:00:00Z\n- reminder: Past the head\n"
}

// countingFs counts the bytes read from files named by a path ending in
// suffix.
type countingFs struct {
	afero.Fs
	suffix string
	n      *atomic.Int64
}

func (c countingFs) Open(name string) (afero.File, error) {
	f, err := c.Fs.Open(name)
	if err != nil || !strings.HasSuffix(name, c.suffix) {
		return f, err
	}
	return countingFile{f, c.n}, nil
}

func (c countingFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	f, err := c.Fs.OpenFile(name, flag, perm)
	if err != nil || !strings.HasSuffix(name, c.suffix) {
		return f, err
	}
	return countingFile{f, c.n}, nil
}

type countingFile struct {
	afero.File
	n *atomic.Int64
}

func (f countingFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.n.Add(int64(n))
	return n, err
}

// Repro 6 of issue 23: warm/inbox.md was read whole at every start, with
// no cap (a 32 MB inbox: 6-12 s, 1 GB). Over the read limit only its head
// is read, as a tier file's is: its open reminders are listed, none past
// it (nor the last entry of the head, which may be closed past it), and
// the instance is told to compress it.
func TestLoadReadsHeadOfHugeInbox(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	cfg := demo.Config(t, fsys)
	inbox := hugeInbox()
	afero.WriteFile(fsys, "/demo/"+tiers.InboxPath, []byte(inbox), 0o644)
	var read atomic.Int64
	ctx, md := build(t, countingFs{fsys, tiers.InboxPath, &read}, cfg, encoder(t))
	if n := read.Load(); n > 2*tiers.HeadBytes {
		t.Errorf("%d bytes of the %d-byte inbox read, over twice the head's %d", n, len(inbox), tiers.HeadBytes)
	}
	r := ctx.Reminders
	if r == nil || r.Open != 2 || len(r.Entries) != 2 || r.Entries[0].N != 3 || r.Entries[1].N != 1 || r.Bytes != int64(len(inbox)) {
		t.Fatalf("%+v", r)
	}
	// A hand-off compacts it, as the directive asks.
	if got := ctx.OverShare(); !slices.Contains(got, tiers.InboxPath) {
		t.Errorf("over their share: %q", got)
	}
	for _, s := range []string{"Past the head", "Closed past the head"} {
		if strings.Contains(md, s) {
			t.Errorf("the context lists %q", s)
		}
	}
	if !strings.Contains(md, "- only the first 64 KiB of warm/inbox.md (") {
		t.Errorf("the reminders do not say only the head was read:\n%s", md)
	}
	want := "warm/inbox.md (" + budget.Thousands(len(inbox)) + " bytes, over the 4 MiB read limit; only its head is read): run `wake compact`, then compress what is left by hand."
	if len(ctx.Directives) != 1 || ctx.Directives[0] != "First task: "+want || !strings.Contains(md, want) {
		t.Fatalf("directives %q", ctx.Directives)
	}
}

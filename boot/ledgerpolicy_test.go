package boot

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/coldtree"
	"github.com/wakeproto/wake/store"
)

func TestRedactLedger(t *testing.T) {
	t.Parallel()
	fsys := coldtree.FS(t, []coldtree.File{
		{Path: "cold/keys.md", Data: "---\nsensitivity: secret\n---\nsk-1\n", Age: time.Hour},
		{Path: "cold/pay.md", Data: "---\nsummary: Salary bands\nsensitivity: confidential\n---\n", Age: time.Hour},
		{Path: "cold/broken.md", Data: "---\nsummary: [x\n---\n", Age: time.Hour},
		{Path: "cold/open.md", Data: "---\nsensitivity: public\n---\n", Age: time.Hour},
		{Path: "warm/decisions.md", Data: "[2026-01-01] DECISION: x BECAUSE: y\n", Age: time.Hour},
	})
	// A secret file outside the root that a hand-edited ledger points at:
	// were it read, the entry naming it would be held back.
	afero.WriteFile(fsys, "/outside/x.md", []byte("---\nsensitivity: secret\n---\n"), 0o644)
	e := func(sum, summary string, paths ...string) store.Entry {
		return store.Entry{At: tocT0, Op: "remember", Paths: paths, ChangeSummary: sum, Summary: summary}
	}
	in := []store.Entry{
		e("stored the keys", "", "cold/keys.md"),
		e("moved keys and notes", "", "cold/open.md", "cold/keys.md"),
		e("raised Ben's band", "Salary bands", "cold/pay.md", "warm/decisions.md"),
		e("raised Ann's band", "", "cold/pay.md"),
		e("edited the broken one", "", "cold/broken.md"),
		e("decided", "", "warm/decisions.md", "recent/", "cold/gone.md", "../outside/x.md", "/etc/passwd"),
	}
	out, held := RedactLedger(fsys, "/r", in)
	if held != 3 || len(out) != 3 {
		t.Fatalf("held %d, shown %d: %+v", held, len(out), out)
	}
	if got := strings.Join(out[0].Paths, ","); got != "(confidential),warm/decisions.md" || out[0].ChangeSummary != "changed a confidential document: Salary bands" {
		t.Errorf("confidential with a summary: %+v", out[0])
	}
	if out[1].ChangeSummary != "changed a confidential document" || strings.Contains(strings.Join(out[1].Paths, ","), "pay") {
		t.Errorf("confidential without a summary: %+v", out[1])
	}
	if got := strings.Join(out[2].Paths, ","); got != "warm/decisions.md,recent/,cold/gone.md,../outside/x.md,/etc/passwd" || out[2].ChangeSummary != "decided" {
		t.Errorf("plain entry: %+v", out[2])
	}
	if in[2].ChangeSummary != "raised Ben's band" || in[2].Paths[0] != "cold/pay.md" {
		t.Fatal("the input entries were changed")
	}
}

// TestDigestHoldsBackSecret proves the digest never lists a change to a
// secret document and says how many it held back.
func TestDigestHoldsBackSecret(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	fsys := coldtree.FS(t, []coldtree.File{{Path: "cold/keys.md", Data: "---\nsensitivity: secret\n---\nsk-1\n", Age: time.Hour}})
	for i, p := range []string{"cold/keys.md", "warm/decisions.md"} {
		store.AppendLedger(fsys, "/r", store.Entry{At: tocT0.Add(-time.Duration(i+1) * time.Hour), Op: "remember", Paths: []string{p}, ChangeSummary: "changed " + p})
	}
	d, _, err := BuildDigest(tocOptions(fsys, enc))
	if err != nil {
		t.Fatal(err)
	}
	if d.HeldBack != 1 || d.Total != 1 || strings.Contains(d.Text(), "keys") || !strings.Contains(d.Text(), "- Held back: 1 change to secret documents.\n") {
		t.Fatalf("held %d total %d:\n%s", d.HeldBack, d.Total, d.Text())
	}
}

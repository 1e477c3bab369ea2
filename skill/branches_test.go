package skill

import (
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/gitwork"
	"github.com/wakeproto/wake/internal/demo"
)

// Seed 001's Active Work lists the branches in flight: name, status and
// what is in them; they are never cut, as Active Work is not.
func TestSkillBranchesInFlight(t *testing.T) {
	t.Parallel()
	fsys, enc := demo.FS(t), demo.Encoder(t)
	o := boot.Options{FS: fsys, Root: "/demo", Config: demoConfig(t, fsys), Counter: enc, Now: func() time.Time { return demo.Time }}
	o.Branches = []gitwork.Branch{
		{Name: "vat-fix", Current: true, Base: "main", Ahead: 2, Behind: 0, Last: "Round VAT per invoice", LastDate: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)},
		{Name: "csv-export", Base: "main", Ahead: 1, Behind: 3, Upstream: "ahead 1", Last: "Export reports as CSV"},
	}
	ctx, err := boot.Build(o)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Build(o, ctx)
	if err != nil {
		t.Fatal(err)
	}
	text := Render(s)
	active := text[strings.Index(text, "## Active Work"):strings.Index(text, "## How We Work")]
	for _, want := range []string{
		"Branches in flight:",
		"- vat-fix (current): 2 ahead of main, 0 behind; last: Round VAT per invoice (2026-11-21)",
		"- csv-export: 1 ahead of main, 3 behind; upstream ahead 1; last: Export reports as CSV",
	} {
		if !strings.Contains(active, want) {
			t.Errorf("Active Work lacks %q:\n%s", want, active)
		}
	}
}

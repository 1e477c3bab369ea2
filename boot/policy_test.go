package boot

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestSensitivityPolicy: secret tier files never appear in any output,
// confidential ones only by their summary, and every output counts them.
func TestSensitivityPolicy(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	afero.WriteFile(fsys, "/demo/warm/open_questions.md", []byte("---\nsensitivity: secret\nsummary: keys\n---\n- The root password is hunter2.\n"), 0o644)
	afero.WriteFile(fsys, "/demo/warm/decisions.md", []byte("---\nsensitivity: confidential\nsummary: Decisions about pricing\n---\n"+
		"[2026-01-01] DECISION: Use margin 40 percent for bread BECAUSE: costs\nSTATUS: active\nTOPIC: margin\n\n"+
		"[2026-01-02] DECISION: Use margin 25 percent for bread BECAUSE: competition\nSTATUS: active\nTOPIC: margin\n"), 0o644)
	afero.WriteFile(fsys, "/demo/recent/previous.md", []byte("---\nsummary: [broken\n---\nPrivate notes about a supplier.\n"), 0o644)
	cfg, _ := tiers.LoadConfig(fsys, "/demo")
	enc := encoder(t)
	ctx, md := build(t, fsys, cfg, enc)
	data, err := JSON(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := BuildSkill(Options{FS: fsys, Root: "/demo", Config: cfg, Counter: enc, Now: func() time.Time { return demoTime }}, ctx)
	if err != nil {
		t.Fatal(err)
	}
	hook := Hook(ctx, HookTarget{}, HookLimit)
	outputs := map[string]string{"markdown": md, "json": string(data), "skill": RenderSkill(sk), "hook": hook}
	for name, out := range outputs {
		for _, leak := range []string{"hunter2", "40 percent", "25 percent", "supplier"} {
			if strings.Contains(out, leak) {
				t.Errorf("%s output shows held-back text %q", name, leak)
			}
		}
	}
	if ctx.HeldBack.Secret != 2 || ctx.HeldBack.Confidential != 1 {
		t.Fatalf("held back %+v, want 2 secret (one by unreadable front matter), 1 confidential", ctx.HeldBack)
	}
	for _, want := range []string{
		"### warm/open_questions.md (held back: sensitivity secret)",
		"### warm/decisions.md (confidential: summary only,",
		"Summary: Decisions about pricing",
		"Held back: 2 secret documents (not shown); 1 confidential document (summary only).",
		"recent/previous.md: held back as secret: malformed front matter",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	if !strings.Contains(hook, "Held back: 2 secret documents") {
		t.Error("hook does not say what was held back")
	}
	// The checks still judge the whole log: the contradiction is found,
	// its particulars withheld.
	if !strings.Contains(ctx.Announcement, "Decisions contradict each other") || !strings.Contains(md, "held back (warm/decisions.md is confidential)") {
		t.Errorf("contradiction in a confidential log not reported plainly:\n%s", ctx.Announcement)
	}
}

// TestSensitivityReadsParsedMeta: the level comes from the front matter
// ReadDoc parsed, and its error, never from parsing the content again.
func TestSensitivityReadsParsedMeta(t *testing.T) {
	t.Parallel()
	broken := errors.New("front matter: bad")
	for _, tc := range []struct {
		name string
		doc  tiers.Doc
		want string
		err  bool
	}{
		{"parsed secret, content without front matter", tiers.Doc{Content: []byte("# x\n"), Meta: tiers.FrontMatter{Sensitivity: tiers.Secret}}, tiers.Secret, false},
		{"parsed internal, content claiming confidential", tiers.Doc{Content: []byte("---\nsensitivity: confidential\n---\n")}, tiers.Internal, false},
		{"unreadable front matter", tiers.Doc{MetaErr: broken}, tiers.Secret, true},
	} {
		got, err := Sensitivity(tc.doc)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	fsys := afero.NewMemMapFs()
	afero.WriteFile(fsys, "/r/a.md", []byte("---\nsummary: [broken\n---\n# A\n"), 0o644)
	d, err := tiers.ReadDoc(fsys, "/r", "a.md")
	if err != nil || d.MetaErr == nil {
		t.Fatalf("ReadDoc kept no front-matter error: %v", err)
	}
	if lvl, err := Sensitivity(d); lvl != tiers.Secret || err != d.MetaErr {
		t.Fatalf("%q, %v", lvl, err)
	}
}

package boot

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/demo"
)

func TestSectionsAreTheText(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	c, text := build(t, fsys, demo.Config(t, fsys), encoder(t))
	var b strings.Builder
	titles := map[string]bool{}
	for _, s := range c.Sections() {
		b.WriteString(s.Text)
		titles[s.Title] = true
	}
	if b.String() != text {
		t.Fatal("the sections do not make up the text")
	}
	for _, want := range []string{"Announcement", "Boot context", "Protocol", "Phase 1: orient", "main.md", "recent/latest.md", "Phase 4: cold", "Budget"} {
		if !titles[want] {
			t.Errorf("no section %q in %v", want, titles)
		}
	}
}

// TestHookDeltaSaysEachSectionOnce: after edits of every kind since the
// copy the import read, the session holds each section of the boot
// context exactly once, in the copy or in the hook's text, never both.
func TestHookDeltaSaysEachSectionOnce(t *testing.T) {
	t.Parallel()
	edits := map[string]func(fs afero.Fs){
		"decision added": func(fs afero.Fs) {
			appendFile(t, fs, "/demo/warm/decisions.md", "\n[2026-11-21] DECISION: Print receipts BECAUSE: the bakery asked\nSTATUS: active\n")
		},
		"line removed": func(fs afero.Fs) {
			data, _ := afero.ReadFile(fs, "/demo/warm/open_questions.md")
			lines := strings.Split(string(data), "\n")
			afero.WriteFile(fs, "/demo/warm/open_questions.md", []byte(strings.Join(lines[:len(lines)-2], "\n")+"\n"), 0o644)
		},
		"file gone": func(fs afero.Fs) { fs.Remove("/demo/recent/previous.md") },
		"nothing":   func(afero.Fs) {},
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fsys := demoFS(t)
			cfg := demo.Config(t, fsys)
			_, before := build(t, fsys, cfg, encoder(t))
			edit(fsys)
			c, after := build(t, fsys, cfg, encoder(t))
			out := HookFor(c, HookTarget{BootPath: "/demo/boot.md", Before: before, BeforeRead: true}, ClaudeCode)
			if HookLen(out) > HookLimit {
				t.Fatalf("%d characters", HookLen(out))
			}
			if before == after {
				if !strings.Contains(out, "is current") || strings.Contains(out, "# Boot context") {
					t.Fatalf("nothing changed, yet:\n%s", out)
				}
				return
			}
			sent := 0
			for _, s := range c.Sections() {
				held, said := heldWhole(before, s.Text), strings.Contains(out, s.Text)
				if held == said {
					t.Errorf("section %q: in the imported copy %v, in the hook's text %v", s.Title, held, said)
				}
				if said {
					sent++
				}
			}
			if sent == 0 || sent == len(c.Sections()) {
				t.Errorf("%d of %d sections sent:\n%s", sent, len(c.Sections()), out)
			}
		})
	}
}

// TestHookDeltaPointsWhenTooBig: changes that do not fit become a pointer
// to the file, naming what changed, within the limit.
func TestHookDeltaPointsWhenTooBig(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	cfg := demo.Config(t, fsys)
	_, before := build(t, fsys, cfg, encoder(t))
	appendFile(t, fsys, "/demo/warm/decisions.md", "\n[2026-11-21] DECISION: Print receipts BECAUSE: the bakery asked\nSTATUS: active\n")
	c, _ := build(t, fsys, cfg, encoder(t))
	h := ClaudeCode
	h.Limit = 600
	out := HookFor(c, HookTarget{BootPath: "/demo/boot.md", Before: before, BeforeRead: true}, h)
	if HookLen(out) > h.Limit || !strings.Contains(out, "do not fit in this hook's output: read that file") || !strings.Contains(out, "warm/decisions.md") {
		t.Fatalf("%d characters:\n%s", HookLen(out), out)
	}
}

// TestHookForCodexCountsBytes: Codex's limit is in bytes, and text of
// many-byte characters is cut to it.
func TestHookForCodexCountsBytes(t *testing.T) {
	t.Parallel()
	c := &Context{Root: "/p/.wake"}
	for range 20 {
		c.Warnings = append(c.Warnings, strings.Repeat("漢字😀", 100))
	}
	for _, limit := range []int{10000, 2500, 1000} {
		h := Codex
		h.Limit = limit
		out := HookFor(c, HookTarget{BootPath: "/p/.wake/boot.md"}, h)
		if len(out) > limit || !strings.Contains(out, "/p/.wake/boot.md") {
			t.Fatalf("limit %d: %d bytes:\n%s", limit, len(out), out)
		}
		if limit == 10000 && !strings.Contains(out, "within Codex's 10,000-byte hook limit") {
			t.Errorf("no note of the lines left out:\n%s", out)
		}
	}
	if got := Codex.Len("é😀"); got != 6 {
		t.Errorf("Codex.Len = %d, want 6 bytes", got)
	}
	if got := budget.UTF16Len("é😀"); got != ClaudeCode.Len("é😀") {
		t.Errorf("ClaudeCode.Len = %d", ClaudeCode.Len("é😀"))
	}
}

func appendFile(t *testing.T, fs afero.Fs, name, s string) {
	t.Helper()
	data, err := afero.ReadFile(fs, name)
	if err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(fs, name, append(data, s...), 0o644); err != nil {
		t.Fatal(err)
	}
}

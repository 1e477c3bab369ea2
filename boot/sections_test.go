package boot

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/policy"
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

// TestHookDeltaSaysEachSectionOnce: after changes of every kind since the
// copy the import read, the hook sends exactly the sections whose text
// differs from the copy's section of that title, and names those gone.
// The copy's sections come from rendering it, not from the code under
// test.
func TestHookDeltaSaysEachSectionOnce(t *testing.T) {
	t.Parallel()
	changes := map[string]func(c *Context){
		"nothing":          func(*Context) {},
		"warning dropped":  func(c *Context) { c.Warnings = c.Warnings[:1] },
		"warnings gone":    func(c *Context) { c.Warnings = nil },
		"held back gone":   func(c *Context) { c.HeldBack = policy.HeldBack{} },
		"directive gone":   func(c *Context) { c.Directives = nil },
		"checks gone":      func(c *Context) { c.Findings = nil },
		"file's tail gone": func(c *Context) { f := c.Phases[2].Files[0]; f.Content = strings.TrimSuffix(f.Content, "\nzz\n") },
		"file's line added": func(c *Context) {
			f := c.Phases[1].Files[0]
			f.Content += "- one more line\n"
		},
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fsys := demoFS(t)
			c, _ := build(t, fsys, demo.Config(t, fsys), encoder(t))
			c.Warnings = []string{"cold/a.md: unreadable", "cold/b.md: unreadable"}
			c.Directives = []string{"Then: compress warm/decisions.md"}
			c.HeldBack = policy.HeldBack{Secret: 1}
			c.Phases[2].Files[0].Content += "\nzz\n"
			c.text = c.Measure(encoder(t))
			before := c.text
			old := map[string]string{}
			for _, s := range c.Sections() {
				old[s.Title] = s.Text
			}
			change(c)
			c.text = c.Measure(encoder(t))
			after := c.text
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
			now := map[string]bool{}
			for _, s := range c.Sections() {
				now[s.Title] = true
				assertDeltaSection(t, before, out, old[s.Title], s)
			}
			for title := range old {
				if !now[title] && !strings.Contains(out, "No longer in it (disregard them in the imported copy): ") || !now[title] && !strings.Contains(out, title) {
					t.Errorf("section %q is gone and not named:\n%s", title, out)
				}
			}
		})
	}
}

// TestHookDeltaFromFiles: the same, through files edited between two
// builds.
func TestHookDeltaFromFiles(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	cfg := demo.Config(t, fsys)
	c0, before := build(t, fsys, cfg, encoder(t))
	old := map[string]string{}
	for _, s := range c0.Sections() {
		old[s.Title] = s.Text
	}
	appendFile(t, fsys, "/demo/warm/decisions.md", "\n[2026-11-21] DECISION: Print receipts BECAUSE: the bakery asked\nSTATUS: active\n")
	c, _ := build(t, fsys, cfg, encoder(t))
	out := HookFor(c, HookTarget{BootPath: "/demo/boot.md", Before: before, BeforeRead: true}, ClaudeCode)
	for _, s := range c.Sections() {
		assertDeltaSection(t, before, out, old[s.Title], s)
	}
	if !strings.Contains(out, "DECISION: Print receipts BECAUSE: the bakery asked") || strings.Count(out, "DECISION:") != 1 {
		t.Errorf("the new decision is not sent alone:\n%s", out)
	}
}

// assertDeltaSection checks what the hook's delta out says of section s,
// given the imported copy before (where s was was): nothing of an
// unchanged section; of a changed one (the budget's counts aside), its
// heading and every item the copy lacks, and no item the copy holds, so
// that the two together hold the section and nothing twice.
func assertDeltaSection(t *testing.T, before, out, was string, s Section) {
	t.Helper()
	if was == s.Text || s.Title == "Budget" {
		if s.Title != "Budget" && len(strings.TrimSpace(s.Text)) > 0 && strings.Contains(out, s.Text) && !strings.Contains(before, s.Text) {
			t.Errorf("section %q unchanged, yet sent", s.Title)
		}
		return
	}
	if s.Title == announcement {
		for _, item := range sectionItems(strings.TrimLeft(s.Text, "\n")) {
			if !strings.Contains(before, item) && !strings.Contains(out, item) {
				t.Errorf("the announcement's new line %q is not sent", item)
			}
		}
		return
	}
	if !strings.Contains(before, strings.SplitN(strings.TrimLeft(s.Text, "\n"), "\n", 2)[0]+"\n") && !strings.HasPrefix(strings.TrimLeft(s.Text, "\n"), "### ") {
		if !strings.Contains(out, s.Text) {
			t.Errorf("section %q is new and not sent whole", s.Title)
		}
		return
	}
	head, body, _ := strings.Cut(strings.TrimLeft(s.Text, "\n"), "\n")
	if !strings.Contains(out, head+"\n") {
		t.Errorf("section %q changed and its heading is not sent", s.Title)
	}
	for _, item := range sectionItems(body) {
		inBefore, inOut := strings.Contains(before, item), strings.Contains(out, item)
		switch {
		case !inBefore && !inOut:
			t.Errorf("section %q: the new item %q is not sent", s.Title, item)
		case inBefore && inOut && len(strings.Fields(item)) >= 5:
			t.Errorf("section %q: the item %q the copy holds is sent again", s.Title, item)
		}
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
	whole := HookFor(c, HookTarget{BootPath: "/demo/boot.md", Before: before, BeforeRead: true}, h)
	h.Limit = HookLen(whole) - 1
	out := HookFor(c, HookTarget{BootPath: "/demo/boot.md", Before: before, BeforeRead: true}, h)
	if HookLen(out) > h.Limit || !strings.Contains(out, "do not fit in this hook's output: read that file") || !strings.Contains(out, "warm/decisions.md") {
		t.Fatalf("%d characters:\n%s", HookLen(out), out)
	}
	// boot.md left as the import read it: the pointer is to wake load,
	// never to the file, which does not hold the changes.
	out = HookFor(c, HookTarget{BootPath: "/demo/boot.md", Before: before, BeforeRead: true, Kept: true}, h)
	if HookLen(out) > h.Limit || !strings.Contains(out, "run `wake load` before you start") || strings.Contains(out, "read that file") || !strings.Contains(out, "warm/decisions.md") {
		t.Fatalf("kept: %d characters:\n%s", HookLen(out), out)
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

// TestHookDeltaOnlyGone: when the only change is a section that went,
// the hook names it and sends nothing else.
func TestHookDeltaOnlyGone(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	c, text := build(t, fsys, demo.Config(t, fsys), encoder(t))
	i := strings.Index(text, "\n## Budget\n")
	before := text[:i] + "\n## Warnings\n\n- cold/x.md: unreadable\n" + text[i:]
	out := HookFor(c, HookTarget{BootPath: "/demo/boot.md", Before: before, BeforeRead: true}, ClaudeCode)
	if !strings.Contains(out, "only by what it no longer holds") || !strings.Contains(out, "disregard them in the imported copy): Warnings.") || strings.Contains(out, "## Budget") {
		t.Fatalf("%s", out)
	}
}

package skill

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/internal/golden"
	"github.com/wakeproto/wake/internal/touchfs"
	"github.com/wakeproto/wake/tiers"
)

func demoConfig(t *testing.T, fsys afero.Fs) tiers.Config {
	t.Helper()
	cfg := demo.Config(t, fsys)
	return cfg
}

func buildSkill(t *testing.T, fsys afero.Fs, root string, cfg tiers.Config, c budget.Counter) *File {
	t.Helper()
	o := boot.Options{FS: fsys, Root: root, Config: cfg, Counter: c, Now: func() time.Time { return demo.Time }}
	ctx, err := boot.Build(o)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Build(o, ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func dropped(s *File) int {
	n := 0
	for _, sec := range s.Sections {
		n += sec.Dropped
	}
	return n
}

func TestSkillDemoGolden(t *testing.T) {
	t.Parallel()
	fsys, enc := demo.FS(t), demo.Encoder(t)
	s := buildSkill(t, fsys, "/demo", demoConfig(t, fsys), enc)
	text := Render(s)
	golden.Check(t, "demo.skill.md", text)
	if s.Tokens != enc.Count(text) || s.Tokens > s.Budget || dropped(s) != 0 || s.Over {
		t.Fatalf("tokens %d (exact %d), budget %d, dropped %d, over %v", s.Tokens, enc.Count(text), s.Budget, dropped(s), s.Over)
	}
	if !HasMarker([]byte(text)) || HasMarker([]byte("# Memory — Ava\n")) || HasMarker([]byte("<!-- wake skill.mdx -->")) {
		t.Fatal("IsSkillFile does not recognise wake's own file alone")
	}
}

// TestSkillFitsUnchanged is the idempotence case: a memory that fits is
// not changed, whether the budget has room or exactly its size; one token
// less and it is cut, to the budget.
func TestSkillFitsUnchanged(t *testing.T) {
	t.Parallel()
	fsys, enc := demo.FS(t), demo.Encoder(t)
	cfg := demoConfig(t, fsys)
	whole := Render(buildSkill(t, fsys, "/demo", cfg, enc))
	n := enc.Count(whole)
	for _, b := range []int{n, n + 1, 4000} {
		cfg.Skill.Budget = b
		s := buildSkill(t, fsys, "/demo", cfg, enc)
		if got := Render(s); got != whole || dropped(s) != 0 {
			t.Fatalf("budget %d (size %d): the memory was changed", b, n)
		}
	}
	cfg.Skill.Budget = n - 1
	s := buildSkill(t, fsys, "/demo", cfg, enc)
	if dropped(s) == 0 || enc.Count(Render(s)) > n-1 {
		t.Fatalf("budget %d: dropped %d, %d tokens", n-1, dropped(s), enc.Count(Render(s)))
	}
	if !strings.Contains(Render(s), "(1 older session left out to fit the skill budget; see recent/previous.md and cold/sessions/)") {
		t.Fatalf("the oldest history line was not the first cut:\n%s", Render(s))
	}
}

// TestSkillCutOrder checks, budget by budget, that what is cut is always a
// prefix of the order the issue fixes: History from its oldest line, Last
// Session from its last bullet, How We Work from its last line; Who I Am
// and Active Work never. The demo's files are the same at every budget,
// so a count cache in front of the encoder counts each of them once.
func TestSkillCutOrder(t *testing.T) {
	t.Parallel()
	fsys, enc := demo.FS(t), budget.NewCache(tiers.EncodingCL100K, demo.Encoder(t), nil)
	cfg := demoConfig(t, fsys)
	ref := buildSkill(t, fsys, "/demo", cfg, enc)
	for b := ref.Tokens; b >= 0; b -= 7 {
		cfg.Skill.Budget = b
		s := buildSkill(t, fsys, "/demo", cfg, enc)
		order := s.cutOrder()
		k := 0
		for _, c := range order {
			if c.sec.Items[c.i].Dropped {
				k++
			}
		}
		for i, c := range order {
			if got := s.section(c.sec.Title).Items[c.i].Dropped; got != (i < k) {
				t.Fatalf("budget %d: %d dropped, but %s item %d dropped=%v", b, k, c.sec.Title, c.i, got)
			}
		}
		for _, title := range []string{SkillIdentity, SkillActive} {
			if s.section(title).Dropped != 0 {
				t.Fatalf("budget %d: %s was cut", b, title)
			}
		}
		if got := enc.Count(Render(s)); got > b && !s.Over {
			t.Fatalf("budget %d: %d tokens and not over", b, got)
		}
	}
}

// TestSkillExcluded: transcript lines and tool output are left out of
// skill.md whatever the budget (seed 001's "What to Exclude"), with a note
// saying so; what is around them stays.
func TestSkillExcluded(t *testing.T) {
	t.Parallel()
	fsys := demo.FS(t)
	latest, _ := afero.ReadFile(fsys, "/demo/recent/latest.md")
	extra := strings.Replace(string(latest), "## Open threads\n", "## Open threads\n- User: can you paste the whole log?\n", 1) +
		"\n```\n$ go test ./report\nok  \ttallybook/report\t0.01s\n```\n"
	afero.WriteFile(fsys, "/demo/recent/latest.md", []byte(extra), 0o644)
	enc := demo.Encoder(t)
	cfg := demoConfig(t, fsys)
	cfg.Skill.Budget, cfg.Skill.Recent = 100000, 100000
	text := Render(buildSkill(t, fsys, "/demo", cfg, enc))
	if strings.Contains(text, "go test ./report") || strings.Contains(text, "User: can you paste") {
		t.Fatalf("a transcript line or tool output reached skill.md:\n%s", text)
	}
	if !strings.Contains(text, "regenerate them deliberately") || !strings.Contains(text, "2 blocks of transcript, tool output, code, resolved debugging or what How We Work says already left out") {
		t.Fatalf("the rest of Last Session, or the note, is missing:\n%s", text)
	}
}

// writeMemory generates a memory root at /r: n sessions in cold/sessions,
// lists of m items, some documents confidential or secret. It returns the
// markers that must never appear in skill.md.
func writeMemory(t *testing.T, r *rand.Rand, fsys afero.Fs, n, m int) []string {
	t.Helper()
	w := func(rel, text string) {
		if err := afero.WriteFile(fsys, filepath.Join("/r", rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	words := strings.Fields("ledger invoice rounding importer golden review bakery cents report export branch test 😀 Überweisung 漢字")
	sentence := func() string {
		var b []string
		for range 3 + r.IntN(12) {
			b = append(b, words[r.IntN(len(words))])
		}
		return strings.Join(b, " ")
	}
	list := func(k int) string {
		var b strings.Builder
		for range k {
			b.WriteString("- " + sentence() + "\n")
		}
		return b.String()
	}
	var secret []string
	sens := func(i int) string {
		switch r.IntN(6) {
		case 0:
			mark := fmt.Sprintf("SECRET-%d-%d", i, r.Int())
			secret = append(secret, mark)
			return "sensitivity: secret\n"
		case 1:
			return "sensitivity: confidential\n"
		}
		return ""
	}
	session := func(i int, at time.Time) string {
		head := sens(i)
		body := fmt.Sprintf("BODY-%d", i)
		if strings.Contains(head, "secret") {
			body = secret[len(secret)-1]
		} else if strings.Contains(head, "confidential") {
			body = fmt.Sprintf("CONFIDENTIAL-%d-%d", i, r.Int())
			secret = append(secret, body)
		}
		return fmt.Sprintf("---\nsummary: session %d %s\nsession: %s\n%s---\n# Session\n\n## What happened\n- %s %s\n%s\n## Open threads\n%s\n```\n$ make\n```\n\n## For my successor\nUser: %s\n",
			i, sentence(), at.Format(time.RFC3339), head, body, sentence(), list(m), list(m/2), sentence())
	}
	w("main.md", fmt.Sprintf("# p\n\n## Identity\nAgent: Ava. %s\n\n## Purpose\n%s.\n\n## Standing Directives\n%s\n## HANDOFF\nupdated: 2026-11-21T17:40:00Z\nsession_summary: %s\nnext_priority: %s\nopen_risk: %s\n",
		sentence(), sentence(), list(m), sentence(), sentence(), sentence()))
	w("warm/active_tasks.md", "# Active tasks\n\n## In progress\n- [ ] "+sentence()+"\n\n## Blocked\n- [ ] "+sentence()+"\n")
	var dec strings.Builder
	for i := range m {
		fmt.Fprintf(&dec, "[2026-01-%02d] DECISION: %s BECAUSE: %s\n\n", 1+i%28, sentence(), sentence())
	}
	w("warm/decisions.md", dec.String())
	base := time.Date(2026, 11, 21, 17, 40, 0, 0, time.UTC)
	w("recent/latest.md", session(0, base))
	w("recent/previous.md", session(1, base.Add(-24*time.Hour)))
	for i := range n {
		at := base.Add(-time.Duration(i+2) * 24 * time.Hour)
		w("cold/sessions/"+at.Format("2006-01-02T15-04-05Z")+".md", session(i+2, at))
	}
	return secret
}

// wordCounter is a cheap, deterministic [budget.Counter] for the property
// loops, whose subject is fitting, not tokenizing: a token a word, and one
// for every two line breaks. Like BPE it is not additive (two texts joined
// need not count what the two count apart), so fitting that trusted its
// per-item estimates instead of counting the whole again is still caught.
// Each loop also runs a size or two with the real encoder; exact counts
// are checked against tiktoken in package budget.
type wordCounter struct{}

func (wordCounter) Count(s string) int { return len(strings.Fields(s)) + strings.Count(s, "\n")/2 }

// memorySize is the shape of a generated memory: sessions in
// cold/sessions and items in each list.
type memorySize struct{ sessions, items int }

// TestSkillProperty runs generated memories of many sizes against many
// budgets: the result, counted again, is within budget unless Who I Am
// and Active Work alone exceed it, and nothing secret ever appears. The
// grid counts with wordCounter, two sizes with the real encoder.
func TestSkillProperty(t *testing.T) {
	t.Parallel()
	t.Run("words", func(t *testing.T) {
		t.Parallel()
		skillProperty(t, wordCounter{}, []memorySize{{0, 0}, {1, 1}, {3, 4}, {12, 10}, {60, 25}, {400, 40}})
	})
	t.Run("cl100k_base", func(t *testing.T) {
		t.Parallel()
		skillProperty(t, demo.Encoder(t), []memorySize{{3, 4}, {12, 10}})
	})
}

func skillProperty(t *testing.T, counter budget.Counter, sizes []memorySize) {
	cache := budget.NewCache("", counter, nil)
	r := rand.New(rand.NewPCG(7, 11))
	var whole, cut, over int
	defer func() {
		// The sizes and budgets must exercise every outcome.
		if whole == 0 || cut == 0 || over == 0 {
			t.Errorf("outcomes: %d whole, %d cut, %d over", whole, cut, over)
		}
	}()
	for _, size := range sizes {
		fsys := afero.NewMemMapFs()
		never := writeMemory(t, r, fsys, size.sessions, size.items)
		for _, b := range []int{4000, 1500, 600, 250, 120, 40, 0} {
			cfg := tiers.DefaultConfig()
			cfg.Agent, cfg.Skill.Budget = "Ava", b
			s := buildSkill(t, fsys, "/r", cfg, cache)
			text := Render(s)
			n := counter.Count(text)
			if n != s.Tokens {
				t.Fatalf("size %+v budget %d: Tokens %d, counted again %d", size, b, s.Tokens, n)
			}
			if n > b && !s.Over {
				t.Fatalf("size %+v budget %d: %d tokens", size, b, n)
			}
			switch {
			case s.Over:
				over++
			case dropped(s) > 0:
				cut++
			default:
				whole++
			}
			if s.Over {
				for _, c := range s.cutOrder() {
					if !c.sec.Items[c.i].Dropped {
						t.Fatalf("size %+v budget %d: over budget with %s item %d still kept", size, b, c.sec.Title, c.i)
					}
				}
				if len(s.Warnings) == 0 || !strings.Contains(s.Warnings[len(s.Warnings)-1], "are never cut") {
					t.Fatalf("over budget without a warning: %v", s.Warnings)
				}
			}
			for _, m := range never {
				if strings.Contains(text, m) {
					t.Fatalf("size %+v budget %d: %s appears in skill.md", size, b, m)
				}
			}
			if again := Render(buildSkill(t, fsys, "/r", cfg, cache)); again != text {
				t.Fatalf("size %+v budget %d: two builds differ", size, b)
			}
		}
	}
}

func TestSkillSensitivity(t *testing.T) {
	t.Parallel()
	fsys := demo.FS(t)
	set := func(rel, level string) {
		data, _ := afero.ReadFile(fsys, "/demo/"+rel)
		afero.WriteFile(fsys, "/demo/"+rel, []byte(strings.Replace(string(data), "---\n", "---\nsensitivity: "+level+"\n", 1)), 0o644)
	}
	set("recent/previous.md", tiers.Secret)
	set("recent/latest.md", tiers.Confidential)
	set("warm/decisions.md", tiers.Confidential)
	afero.WriteFile(fsys, "/demo/cold/sessions/2026-11-10T09-00-00Z.md", []byte("---\nsummary: [broken\n---\n# Session\n\n## What happened\n- leaked?\n"), 0o644)
	enc := demo.Encoder(t)
	s := buildSkill(t, fsys, "/demo", demoConfig(t, fsys), enc)
	text := Render(s)
	for _, gone := range []string{"Set up the project skeleton", "Wrote the Sparkasse CSV importer", "leaked?", "Represent money as int64"} {
		if strings.Contains(text, gone) {
			t.Errorf("%q appears:\n%s", gone, text)
		}
	}
	for _, want := range []string{
		"2026-11-21 (confidential): Finished the Sparkasse CSV importer",
		"warm/decisions.md (confidential): ",
		"Held back: 2 secret documents (not shown); 2 confidential documents (summary only).",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q:\n%s", want, text)
		}
	}
	if s.Held.Secret != 2 || s.Held.Confidential != 2 || s.Held.Redacted.Total() != 0 || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "sensitivity is unknown") {
		t.Fatalf("held %+v, warnings %v", s.Held, s.Warnings)
	}
}

func TestSkillProtectedOver(t *testing.T) {
	t.Parallel()
	fsys := demo.FS(t)
	data, _ := afero.ReadFile(fsys, "/demo/main.md")
	long := strings.Repeat("Ava keeps the books balanced to the cent. ", 400)
	afero.WriteFile(fsys, "/demo/main.md", []byte(strings.Replace(string(data), "## Identity\n", "## Identity\n"+long+"\n", 1)), 0o644)
	enc := demo.Encoder(t)
	cfg := demoConfig(t, fsys)
	cfg.Skill.Budget = 1000
	s := buildSkill(t, fsys, "/demo", cfg, enc)
	text := Render(s)
	if !s.Over || !strings.Contains(text, strings.TrimSpace(long)) || !strings.Contains(text, "Volksbank CSV importer") {
		t.Fatalf("over=%v; Who I Am or Active Work was cut", s.Over)
	}
	for _, title := range []string{SkillProtocols, SkillRecent, SkillHistory} {
		if sec := s.section(title); sec.Dropped != len(sec.Items)-sec.mustKeep() {
			t.Fatalf("%s keeps %d of %d items", title, len(sec.Items)-sec.Dropped, len(sec.Items))
		}
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "identity budget 200") {
		t.Fatalf("warnings: %v", s.Warnings)
	}
}

// TestSkillHistoryOrder: cold sessions are listed newest first by their
// session time (front matter, else the time in the name), then by the
// number wake adds to a name already taken: -10 after -2, not before.
func TestSkillHistoryOrder(t *testing.T) {
	t.Parallel()
	fsys := demo.FS(t)
	write := func(name, session, summary string) {
		fm := "summary: " + summary + "\n"
		if session != "" {
			fm += "session: " + session + "\n"
		}
		text := "---\n" + fm + "---\n# Session\n\n## What happened\n- " + summary + "\n"
		if err := afero.WriteFile(fsys, "/demo/cold/sessions/"+name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("2026-11-18T09-00-22Z.md", "2026-11-18T09:00:22Z", "same second, first")
	write("2026-11-18T09-00-22Z-2.md", "2026-11-18T09:00:22Z", "same second, second")
	write("2026-11-18T09-00-22Z-10.md", "2026-11-18T09:00:22Z", "same second, tenth")
	write("2026-11-18T09-00-22Z-9.md", "", "same second, ninth, by its name")
	write("imported-notes.md", "2026-11-18T12:00:00Z", "named otherwise, timed by its front matter")
	write("2026-11-01T08-00-00Z.md", "2026-11-18T10:00:00Z", "renamed, timed by its front matter")
	enc := demo.Encoder(t)
	text := Render(buildSkill(t, fsys, "/demo", demoConfig(t, fsys), enc))
	want := []string{
		"Set up the project skeleton",                // recent/previous.md first
		"named otherwise, timed by its front matter", // 12:00
		"renamed, timed by its front matter",         // 10:00
		"same second, tenth",
		"same second, ninth, by its name",
		"same second, second",
		"same second, first",
		"Met the owner", // 2026-11-17
	}
	at := -1
	for _, w := range want {
		i := strings.Index(text, w)
		if i < 0 || i < at {
			t.Fatalf("%q is missing or out of order:\n%s", w, text)
		}
		at = i
	}
}

// TestSkillSectionBudgets: How We Work and Last Session are each cut to
// their own [skill] budget, from the bottom, whatever the total leaves;
// History takes what is left of the total; Who I Am and Active Work are
// never cut, and going over their budgets is only a warning. The grid
// counts with wordCounter, one size with the real encoder.
func TestSkillSectionBudgets(t *testing.T) {
	t.Parallel()
	t.Run("words", func(t *testing.T) {
		t.Parallel()
		skillSectionBudgets(t, wordCounter{}, []memorySize{{2, 3}, {12, 10}, {60, 25}, {200, 60}})
	})
	t.Run("cl100k_base", func(t *testing.T) {
		t.Parallel()
		skillSectionBudgets(t, demo.Encoder(t), []memorySize{{12, 10}})
	})
}

func skillSectionBudgets(t *testing.T, counter budget.Counter, sizes []memorySize) {
	cache := budget.NewCache("", counter, nil)
	r := rand.New(rand.NewPCG(3, 5))
	cuts := 0
	for _, size := range sizes {
		fsys := afero.NewMemMapFs()
		writeMemory(t, r, fsys, size.sessions, size.items)
		for _, b := range []struct{ total, protocols, recent int }{{4000, 300, 1000}, {100000, 300, 1000}, {4000, 50, 120}, {2000, 0, 0}, {4000, 1000, 300}} {
			cfg := tiers.DefaultConfig()
			cfg.Agent, cfg.Skill.Budget, cfg.Skill.Protocols, cfg.Skill.Recent = "Ava", b.total, b.protocols, b.recent
			s := buildSkill(t, fsys, "/r", cfg, cache)
			for _, title := range []string{SkillProtocols, SkillRecent} {
				sec := s.section(title)
				n := counter.Count(renderSection(sec))
				if n > sec.Budget && sec.Dropped < len(sec.Items)-sec.mustKeep() {
					t.Fatalf("size %+v budgets %+v: %s is %d tokens, over its budget %d, with %d of %d items kept",
						size, b, title, n, sec.Budget, len(sec.Items)-sec.Dropped, len(sec.Items))
				}
				for i, it := range bottomUp(sec) {
					if sec.Items[it].Dropped != (i < sec.Dropped) {
						t.Fatalf("size %+v budgets %+v: %s: %d cut, but item %d dropped=%v: not cut from the bottom, what the spec excludes first",
							size, b, title, sec.Dropped, it, sec.Items[it].Dropped)
					}
				}
				if sec.Dropped > 0 {
					cuts++
				}
			}
			if got := counter.Count(Render(s)); got > b.total && !s.Over {
				t.Fatalf("size %+v budgets %+v: %d tokens, over the total", size, b, got)
			}
			for _, title := range []string{SkillIdentity, SkillActive} {
				if s.section(title).Dropped != 0 {
					t.Fatalf("%s was cut", title)
				}
			}
		}
	}
	if cuts == 0 {
		t.Fatal("no section was ever cut to its own budget")
	}
}

// bottomUp is the order a section is cut in: what the spec excludes, last
// first, then the rest, last first.
func bottomUp(sec *Section) []int {
	var ex, rest []int
	for i := len(sec.Items) - 1; i >= 0; i-- {
		if sec.Items[i].Excluded {
			ex = append(ex, i)
		} else {
			rest = append(rest, i)
		}
	}
	return append(ex, rest...)
}

// TestSkillProtectedBudgets: Who I Am and Active Work over their own
// budgets are kept whole and, while the file is within its total, say
// nothing (they only leave History less room: issue 24, point 8); over
// the total, the one warning names both.
func TestSkillProtectedBudgets(t *testing.T) {
	t.Parallel()
	fsys, enc := demo.FS(t), demo.Encoder(t)
	cfg := demoConfig(t, fsys)
	whole := Render(buildSkill(t, fsys, "/demo", cfg, enc))
	cfg.Skill.Identity, cfg.Skill.Active = 20, 30
	s := buildSkill(t, fsys, "/demo", cfg, enc)
	if Render(s) != whole || s.Over || len(s.Warnings) != 0 {
		t.Fatalf("over=%v, warnings %q; the file changed or warned", s.Over, s.Warnings)
	}
	cfg.Skill.Budget = 40
	s = buildSkill(t, fsys, "/demo", cfg, enc)
	if !s.Over || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "Who I Am (") || !strings.Contains(s.Warnings[0], "Active Work (") {
		t.Fatalf("over=%v, warnings %q", s.Over, s.Warnings)
	}
}

// TestSkillWarmOpensNoSession: History comes from the cold index, so a
// second skill.md of an unchanged root, from a context built whole or only
// read, opens no archived session.
func TestSkillWarmOpensNoSession(t *testing.T) {
	t.Parallel()
	mem := demo.FS(t)
	fsys := touchfs.New(mem)
	enc, cfg := demo.Encoder(t), demoConfig(t, mem)
	// An hour ahead, so that no file is too fresh for the index to keep.
	now := func() time.Time { return time.Now().Add(time.Hour) }
	build := func(data []byte, read func(boot.Options) (*boot.Context, error)) ([]byte, string) {
		t.Helper()
		idx := cold.NewIndex(cfg.Encoding, data)
		o := boot.Options{FS: fsys, Root: "/demo", Config: cfg, Counter: enc, Now: now, ColdIndex: idx}
		ctx, err := read(o)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Build(o, ctx)
		if err != nil {
			t.Fatal(err)
		}
		return idx.Marshal(), Render(s)
	}
	sessions := func() map[string]int {
		defer fsys.Reset()
		return fsys.FilesUnder("/" + tiers.SessionsDir + "/")
	}
	data, first := build(nil, boot.Build)
	if len(sessions()) == 0 || !strings.Contains(first, "Met the owner") {
		t.Fatalf("a cold start read no session, so this proves nothing:\n%s", first)
	}
	for name, read := range map[string]func(boot.Options) (*boot.Context, error){"Build": boot.Build, "Read": boot.Read} {
		_, warm := build(data, read)
		if got := sessions(); len(got) != 0 {
			t.Fatalf("%s: a warm skill.md opened %v", name, got)
		}
		if warm != first {
			t.Fatalf("%s: the warm skill.md differs:\n%s\nwant:\n%s", name, warm, first)
		}
	}
}

// TestSkillTakesContextPolicy: the tier files appear as the context's
// policy judged them, counted once, not judged again.
func TestSkillTakesContextPolicy(t *testing.T) {
	t.Parallel()
	fsys, enc := demo.FS(t), demo.Encoder(t)
	cfg := demoConfig(t, fsys)
	o := boot.Options{FS: fsys, Root: "/demo", Config: cfg, Counter: enc, Now: func() time.Time { return demo.Time }}
	ctx, err := boot.Read(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ctx.Files() {
		if f.Path == tiers.LatestPath {
			f.Held = tiers.Secret
			ctx.HeldBack.Secret++
		}
	}
	s, err := Build(o, ctx)
	if err != nil {
		t.Fatal(err)
	}
	text := Render(s)
	if strings.Contains(text, "Wrote the Sparkasse CSV importer") || !reflect.DeepEqual(s.Held, ctx.HeldBack) {
		t.Fatalf("held %+v, context %+v; the context's judgement was not taken:\n%s", s.Held, ctx.HeldBack, text)
	}
}

func build(t *testing.T, fsys afero.Fs, cfg tiers.Config, c budget.Counter) (*boot.Context, string) {
	t.Helper()
	ctx, err := boot.Build(boot.Options{FS: fsys, Root: "/demo", Config: cfg, Counter: c, Now: func() time.Time { return demo.Time }})
	if err != nil {
		t.Fatal(err)
	}
	return ctx, ctx.Measure(c)
}

// TestSensitivityPolicy: secret tier files never appear in any output of
// the pipeline (the context, the hook, skill.md; the JSON in package report),
// confidential ones only by their summary, and every output counts them.
func TestSensitivityPolicy(t *testing.T) {
	t.Parallel()
	fsys := demo.FS(t)
	afero.WriteFile(fsys, "/demo/warm/open_questions.md", []byte("---\nsensitivity: secret\nsummary: keys\n---\n- The root password is hunter2.\n"), 0o644)
	afero.WriteFile(fsys, "/demo/warm/decisions.md", []byte("---\nsensitivity: confidential\nsummary: Decisions about pricing\n---\n"+
		"[2026-01-01] DECISION: Use margin 40 percent for bread BECAUSE: costs\nSTATUS: active\nTOPIC: margin\n\n"+
		"[2026-01-02] DECISION: Use margin 25 percent for bread BECAUSE: competition\nSTATUS: active\nTOPIC: margin\n"), 0o644)
	afero.WriteFile(fsys, "/demo/recent/previous.md", []byte("---\nsummary: [broken\n---\nPrivate notes about a supplier.\n"), 0o644)
	cfg := demo.Config(t, fsys)
	enc := demo.Encoder(t)
	ctx, md := build(t, fsys, cfg, enc)
	sk, err := Build(boot.Options{FS: fsys, Root: "/demo", Config: cfg, Counter: enc, Now: func() time.Time { return demo.Time }}, ctx)
	if err != nil {
		t.Fatal(err)
	}
	hook := boot.Hook(ctx, boot.HookTarget{}, boot.HookLimit)
	outputs := map[string]string{"markdown": md, "skill": Render(sk), "hook": hook}
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
		"recent/previous.md: held back because its front matter cannot be read, so its sensitivity is unknown (not because it is secret): malformed front matter",
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

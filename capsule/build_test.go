package capsule

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

var (
	encOnce sync.Once
	enc     *budget.Encoder
	encErr  error
)

// encoder is a cl100k_base encoder, made once: making one reads its tables.
func encoder(t testing.TB) *budget.Encoder {
	t.Helper()
	encOnce.Do(func() { enc, encErr = budget.NewEncoder(tiers.EncodingCL100K) })
	if encErr != nil {
		t.Fatal(encErr)
	}
	return enc
}

func someSources() Sources {
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	src := Sources{
		Handoff:   Handoff{Updated: "2026-11-21T17:40:00Z", Summary: "did things", Next: "do more", Risk: "it may break"},
		Decisions: []Decision{{Date: "2026-01-01", What: "old", Why: "then"}, {Date: "2026-02-01", What: "new", Why: "now", Contested: true, Objection: "no"}},
		Tasks:     []Task{{Text: "open one"}, {Text: "stuck one", Blocked: true}},
		Reminders: []Reminder{{N: 1, At: at, Text: "first"}, {N: 2, At: at.Add(time.Hour), Text: "second", Tags: []string{"a"}}},
	}
	for i := range 8 {
		src.Highlights = append(src.Highlights, Highlight{At: at.Add(time.Duration(i) * time.Minute), Who: "user", Text: fmt.Sprintf("prompt %d", i)})
	}
	return src
}

func opts(t testing.TB, budget int) Options {
	return Options{Front: FrontMatter{Branch: "main", CreatedAt: time.Date(2026, 11, 22, 22, 30, 0, 0, time.UTC),
		PrimaryObjective: "do more", TokenBudget: budget, Version: Version}, Path: "cold/capsules/main/x.md", Ceiling: 5000, Counter: encoder(t)}
}

// TestBuildDeterministic: the same sources give the same bytes, which
// parse; the newest decision and the blocked task come first; only the
// last five highlights are kept.
func TestBuildDeterministic(t *testing.T) {
	a := Build(someSources(), opts(t, 1200))
	b := Build(someSources(), opts(t, 1200))
	if !bytes.Equal(a.Data, b.Data) {
		t.Fatalf("two builds differ:\n%s\n---\n%s", a.Data, b.Data)
	}
	c, err := Parse(a.Data)
	if err != nil {
		t.Fatalf("%v\n%s", err, a.Data)
	}
	if d := c.Section(KeyDecisions); strings.Index(d, "new") > strings.Index(d, "old") {
		t.Errorf("decisions not newest first:\n%s", d)
	}
	if p := c.Section(PendingActions); !strings.HasPrefix(p, "- [ ] **Blocked:** stuck one") {
		t.Errorf("pending actions do not start with the blocked task:\n%s", p)
	}
	h := c.Section(TranscriptHighlights)
	if strings.Count(h, "\n")+1 != MaxHighlights || strings.Contains(h, "prompt 2") || !strings.Contains(h, "prompt 7") {
		t.Errorf("highlights are not the last %d:\n%s", MaxHighlights, h)
	}
	if !strings.Contains(c.Section(Risks), "**Contested decision:** new **Objection:** no") {
		t.Errorf("the contested decision is not a risk:\n%s", c.Section(Risks))
	}
	if len(a.Consumed) != 2 || len(a.Cuts) != 0 || a.Tokens != encoder(t).Count(string(a.Data[bytes.Index(a.Data, []byte("# Mission")):])) {
		t.Errorf("consumed %v, cuts %v, tokens %d", a.Consumed, a.Cuts, a.Tokens)
	}
}

// TestBuildTight: under a budget too small for the reminders, the newer
// one stays longer, and only what stays is consumed.
func TestBuildTight(t *testing.T) {
	full := Build(someSources(), opts(t, 1200))
	sawOne := false
	for limit := full.Tokens; limit > 150; limit -= 9 {
		b := Build(someSources(), opts(t, limit))
		if b.Tokens > limit {
			t.Fatalf("limit %d: %d tokens", limit, b.Tokens)
		}
		body := string(b.Data)
		first, second := strings.Contains(body, "- first [inbox 1,"), strings.Contains(body, "- second (tags: a) [inbox 2,")
		if first && !second {
			t.Errorf("limit %d: the older reminder outlived the newer", limit)
		}
		want := 0
		for _, kept := range []bool{first, second} {
			if kept {
				want++
			}
		}
		sawOne = sawOne || want == 1
		if len(b.Consumed) != want {
			t.Errorf("limit %d: consumed %v with %d reminders shown", limit, b.Consumed, want)
		}
		if strings.Contains(body, "prompt 7") && !strings.Contains(body, "stuck one") {
			t.Errorf("limit %d: a highlight outlived the blocked task", limit)
		}
	}
	if !sawOne {
		t.Errorf("no budget kept one reminder of two")
	}
}

// TestBuildNoControlCharacters: a hand-edited memory may hold terminal
// escapes; none reach the capsule, which a subagent reads as its context
// and `wake capsule --dry-run` prints.
func TestBuildNoControlCharacters(t *testing.T) {
	src := someSources()
	src.Reminders[0].Text = "evil \x1b]0;pwned\x07 \x1b[31mred\x1b[0m"
	src.Reminders[0].Topic = "\x1b[2Jclear"
	src.Decisions[0].What = "decided \x1b[31mred"
	src.Tasks[0].Text = "task \x9b31m"
	src.Commits = []string{"abc1234 \x1b[1mbold"}
	b := Build(src, opts(t, 1200))
	for i, r := range string(b.Data) {
		if r != '\n' && r != '\t' && (r < ' ' || r >= 0x7f && r <= 0x9f) {
			t.Fatalf("control character %U at %d in the capsule:\n%q", r, i, b.Data)
		}
	}
	if !strings.Contains(string(b.Data), "evil") || !strings.Contains(string(b.Data), "decided") {
		t.Fatalf("the texts are gone:\n%s", b.Data)
	}
}

// TestBuildReminderWithoutTime: a hand-written entry whose time wake
// cannot read shows its number alone, not the zero time.
func TestBuildReminderWithoutTime(t *testing.T) {
	src := someSources()
	src.Reminders = append(src.Reminders, Reminder{N: 3, Text: "undated"})
	b := Build(src, opts(t, 1200))
	if strings.Contains(string(b.Data), "0001-01-01") || !strings.Contains(string(b.Data), "- undated [inbox 3]") {
		t.Fatalf("the undated reminder:\n%s", b.Data)
	}
}

// TestBuildCommentOpener: a text holding "<!--" (a decision about HTML
// comments, say) does not open a comment in the capsule, which would hide
// the rest of it from a Markdown viewer and from verify: every section
// and every reference after it stays visible.
func TestBuildCommentOpener(t *testing.T) {
	src := someSources()
	src.Handoff.Summary = "kept the <!-- marker"
	src.Decisions[1].Ref = "warm/decisions.md#d-0001"
	b := Build(src, opts(t, 1200))
	s, err := Scan(b.Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Headings) != len(Outline) {
		t.Fatalf("verify sees %d of the %d sections:\n%s", len(s.Headings), len(Outline), b.Data)
	}
	found := false
	for _, r := range s.Refs {
		found = found || r.Value == "warm/decisions.md"
	}
	if !found {
		t.Fatalf("the decision's reference is hidden:\n%s", b.Data)
	}
}

// TestBuildBoundsObjective: an objective of any length keeps at most
// maxItem characters, in the front matter and the body, so that a
// capsule still fits its budget.
func TestBuildBoundsObjective(t *testing.T) {
	long := strings.Repeat("ship the invoice export ", 200)
	b := Build(Sources{}, Options{Front: FrontMatter{PrimaryObjective: long, TokenBudget: 400, Version: Version}, Path: "cold/capsules/main/x.md", Ceiling: 5000, Counter: encoder(t)})
	if n := len([]rune(b.Capsule.Front.PrimaryObjective)); n > maxItem {
		t.Errorf("primary_objective kept %d characters", n)
	}
	if b.Tokens > 400 {
		t.Errorf("the body is %d tokens, over the budget of 400", b.Tokens)
	}
}

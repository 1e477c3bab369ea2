package store

import (
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/tiers"
)

func TestReplaceBlock(t *testing.T) {
	t.Parallel()
	b := Block{Updated: time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC), SessionSummary: "s", NextPriority: "n"}
	keys := "updated: 2026-11-22T03:24:20Z\nsession_summary: s\nnext_priority: n\nopen_risk:\nemotional_register:\n"
	tests := []struct {
		name, in, want string
		appended       bool
	}{{
		name: "skeleton block, text after it kept",
		in:   "# P\n\n## HANDOFF\nupdated:\nsession_summary:\nnext_priority:\nopen_risk:\nemotional_register:\n\n## After\nx\n",
		want: "# P\n\n## HANDOFF\n" + keys + "\n## After\nx\n",
	}, {
		name: "other lines in the block stay; missing keys follow the last key",
		in:   "## HANDOFF\n<!-- mine -->\nsession_summary: old\nowner: me\n  next_priority: old\n### notes\nkeep\n",
		want: "## HANDOFF\n<!-- mine -->\nsession_summary: s\nowner: me\nnext_priority: n\nupdated: 2026-11-22T03:24:20Z\nopen_risk:\nemotional_register:\n### notes\nkeep\n",
	}, {
		name: "keys are found as tiers.ParseMain finds them, fenced or not",
		in:   "## HANDOFF\n```\nupdated: x\n```\n",
		want: "## HANDOFF\n```\nupdated: 2026-11-22T03:24:20Z\nsession_summary: s\nnext_priority: n\nopen_risk:\nemotional_register:\n```\n",
	}, {
		name: "heading at the end of the file without a newline",
		in:   "intro\n## handoff",
		want: "intro\n## handoff\n" + keys,
	}, {
		name: "CRLF file",
		in:   "## HANDOFF\r\nupdated: x\r\n",
		want: "## HANDOFF\r\nupdated: 2026-11-22T03:24:20Z\r\nsession_summary: s\r\nnext_priority: n\r\nopen_risk:\r\nemotional_register:\r\n",
	}, {
		name: "last line without newline",
		in:   "## HANDOFF\nopen_risk: r",
		want: "## HANDOFF\nopen_risk:\nupdated: 2026-11-22T03:24:20Z\nsession_summary: s\nnext_priority: n\nemotional_register:\n",
	}, {
		name:     "no block: appended after a blank line",
		in:       "# P\nno newline",
		want:     "# P\nno newline\n\n## HANDOFF\n" + keys,
		appended: true,
	}, {
		// Seed 001 reads the identity first and the hand-off with it: a
		// hand-written main.md gets the block after its Identity.
		name:     "no block: after the Identity section",
		in:       "# P\n\n## Identity\nI am Ava.\n\n## Purpose\nBooks.\n\n## Standing Directives\n- test first\n",
		want:     "# P\n\n## Identity\nI am Ava.\n\n## HANDOFF\n" + keys + "\n## Purpose\nBooks.\n\n## Standing Directives\n- test first\n",
		appended: true,
	}, {
		name:     "no block and no Identity: after the title's opening",
		in:       "# P\nI am Ava, the bookkeeper.\n## Notes\nx\n",
		want:     "# P\nI am Ava, the bookkeeper.\n\n## HANDOFF\n" + keys + "\n## Notes\nx\n",
		appended: true,
	}, {
		name:     "no block, Identity last: appended",
		in:       "# P\n\n## Identity\nI am Ava.\n",
		want:     "# P\n\n## Identity\nI am Ava.\n\n## HANDOFF\n" + keys,
		appended: true,
	}, {
		name:     "empty main.md",
		in:       "",
		want:     "## HANDOFF\n" + keys,
		appended: true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, appended, err := ReplaceBlock([]byte(tt.in), b)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want || appended != tt.appended {
				t.Fatalf("got %q (appended %v)\nwant %q", out, appended, tt.want)
			}
			if !b.In(out) {
				t.Fatal("the block does not read back")
			}
			again, _, _ := ReplaceBlock(out, b)
			if string(again) != string(out) {
				t.Fatalf("not idempotent: %q", again)
			}
		})
	}
}

func TestReplaceBlockErrors(t *testing.T) {
	t.Parallel()
	b := Block{SessionSummary: "s"}
	// A fence never closed hides no heading (tiers.HeadingLines), so the
	// block appended below it reads back and the hand-off is not refused.
	if out, appended, err := ReplaceBlock([]byte("# P\n```\nopen fence\n"), b); err != nil || !appended || !b.In(out) || !strings.HasPrefix(string(out), "# P\n```\nopen fence\n") {
		t.Fatalf("open fence: %q %v %v", out, appended, err)
	}
	b.NextPriority = "a\nb"
	if _, _, err := ReplaceBlock([]byte("## HANDOFF\n"), b); err == nil || !strings.Contains(err.Error(), "next_priority must be one line") {
		t.Fatalf("two lines: %v", err)
	}
}

// FuzzReplaceBlock checks that every byte outside the HANDOFF block is kept
// and that the block reads back.
func FuzzReplaceBlock(f *testing.F) {
	for _, s := range []string{"", "## HANDOFF\n", "# x\n## HANDOFF\nupdated: y\n## Next\nz", "```\n## HANDOFF\n", "## HANDOFF\r\n\r\n"} {
		f.Add(s, "summary")
	}
	f.Fuzz(func(t *testing.T, main, summary string) {
		if strings.ContainsAny(summary, "\r\n") {
			return
		}
		b := Block{SessionSummary: strings.TrimSpace(summary)}
		out, appended, err := ReplaceBlock([]byte(main), b)
		if err != nil {
			return
		}
		if !b.In(out) {
			t.Fatalf("block does not read back: %q", out)
		}
		if appended {
			// Without the block it added, out is main, blank lines aside.
			sec := tiers.ParseMain(out).Handoff.Section
			rest := string(out[:sec.Start]) + string(out[sec.End:])
			if nonBlank(rest) != nonBlank(main) {
				t.Fatalf("adding the block changed the text around it: %q", out)
			}
		}
		if sec := tiers.ParseMain([]byte(main)).Handoff.Section; !appended {
			if !strings.HasPrefix(string(out), main[:sec.BodyStart]) || !strings.HasSuffix(string(out), main[sec.End:]) {
				t.Fatalf("text outside the block changed: %q", out)
			}
		}
	})
}

// nonBlank is text's lines without the blank ones.
func nonBlank(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimRight(l, "\r"); strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

package tiers

import (
	"strings"
	"testing"
)

const sampleMain = `---
summary: s
---
# Project

## Identity
Agent: Ava

## Purpose
<!-- template guidance -->
Keep billing correct.

` + "```md\n## HANDOFF\nupdated: fake\n```\n" + `
## HANDOFF
updated: 2026-11-22T03:24:20Z
session_summary: Wired phase loading.
next_priority: coherence checks
open_risk: none
emotional_register: focused: calm
### Not a key
`

func TestParseMain(t *testing.T) {
	t.Parallel()
	m := ParseMain([]byte(sampleMain))
	if !m.Handoff.Present {
		t.Fatal("HANDOFF not found")
	}
	for k, want := range map[string]string{
		KeyUpdated: "2026-11-22T03:24:20Z", KeySessionSummary: "Wired phase loading.",
		KeyNextPriority: "coherence checks", KeyOpenRisk: "none", KeyEmotionalRegister: "focused: calm",
	} {
		if got := m.Handoff.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if got := m.Handoff.Section.Body(m.Text); strings.Contains(got, "fake") {
		t.Errorf("HANDOFF matched inside a code fence: %q", got)
	}
	if p, ok := m.Section(SectionPurpose); !ok || p != "Keep billing correct.\n\n```md\n## HANDOFF\nupdated: fake\n```" {
		t.Errorf("Purpose = %q, %v", p, ok)
	}
	if _, ok := m.Section(SectionGoals); ok {
		t.Error("found a Goals section that is not there")
	}
	if m := ParseMain([]byte("# x\n## Purpose\ny\n")); m.Handoff.Present {
		t.Error("HANDOFF found in a file without one")
	}
}

func TestSectionsAndHeadings(t *testing.T) {
	t.Parallel()
	text := "# T\nintro\n## A\na\n### A1\na1\n## B\nb\n#nothashtag\n    ## indented code\n"
	s := Sections(text, 2)
	if len(s) != 2 || s[0].Title != "A" || s[0].Body(text) != "a\n### A1\na1\n" || s[1].Body(text) != "b\n#nothashtag\n    ## indented code\n" {
		t.Fatalf("sections: %+v", s)
	}
	if FirstHeading("```\n# no\n```\n## Yes ##\n") != "Yes" {
		t.Error("FirstHeading")
	}
	if StripComments("a<!-- b -->c<!-- d") != "ac" {
		t.Error("StripComments")
	}
}

func FuzzParseMain(f *testing.F) {
	f.Add(sampleMain)
	f.Add("## HANDOFF\n")
	f.Add("```\n## HANDOFF\n")
	f.Fuzz(func(t *testing.T, s string) {
		m := ParseMain([]byte(s))
		if m.Handoff.Present {
			sec := m.Handoff.Section
			if sec.Start > sec.BodyStart || sec.BodyStart > sec.End || sec.End > len(s) {
				t.Fatalf("bad offsets %+v for %q", sec, s)
			}
		}
		for _, l := range Lines(s) {
			if l.Start > l.End || l.End > len(s) {
				t.Fatalf("bad line %+v", l)
			}
		}
	})
}

// TestHeadingLinesUnclosedFence proves a fence never closed hides no
// heading from HeadingLines, while Lines keeps CommonMark's reading, and
// UnclosedFences names the line of each such fence.
func TestHeadingLinesUnclosedFence(t *testing.T) {
	t.Parallel()
	text := "```go\n# in a closed fence\n```\n# T\n## Goals\n```\n- goal\n## HANDOFF\nupdated: x\n~~~\n## After\n"
	// Line 6 ``` is never closed, and the ~~~ on line 10, inside it for
	// CommonMark, is never closed either.
	if got := UnclosedFences(text); len(got) != 2 || got[0] != 6 || got[1] != 10 {
		t.Fatalf("UnclosedFences = %v, want [6 10]", got)
	}
	var titles []string
	for _, s := range Sections(text, 2) {
		titles = append(titles, s.Title)
	}
	if strings.Join(titles, ",") != "Goals,HANDOFF,After" {
		t.Fatalf("sections %v", titles)
	}
	hl := HeadingLines(text)
	if hl[5].InFence || hl[7].InFence || hl[9].InFence || !hl[1].InFence {
		t.Fatalf("HeadingLines fencing: %+v", hl)
	}
	if l := Lines(text); !l[7].InFence {
		t.Fatal("Lines no longer runs an unclosed fence to the end")
	}
	if m := ParseMain([]byte(text)); !m.Handoff.Present || m.Handoff.Get(KeyUpdated) != "x" {
		t.Fatalf("HANDOFF below an unclosed fence: %+v", m.Handoff)
	}
	if got := UnclosedFences("```\ncode\n```\n"); got != nil {
		t.Fatalf("closed fence reported: %v", got)
	}
}

func FuzzHeadingLines(f *testing.F) {
	for _, s := range []string{"```\n# a\n", "~~~\n```\n~~~\n# b\n", "# x\n```go\n```\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ls := HeadingLines(text)
		if len(ls) != len(Lines(text)) {
			t.Fatal("HeadingLines and Lines split differently")
		}
		if UnclosedFences(text) == nil {
			for i, l := range Lines(text) {
				if l != ls[i] {
					t.Fatalf("line %d differs with every fence closed", i+1)
				}
			}
		}
	})
}

func TestPrintable(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain text, tab\tand newline\n": "plain text, tab\tand newline\n",
		"\x1b[31mred\x1b[0m":             "\uFFFD[31mred\uFFFD[0m",
		"bell\a nul\x00 del\x7f cr\r":    "bell\uFFFD nul\uFFFD del\uFFFD cr\uFFFD",
		"csi \u009b6n, nbsp \u00a0, é":   "csi \uFFFD6n, nbsp \u00a0, é",
		"":                               "",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

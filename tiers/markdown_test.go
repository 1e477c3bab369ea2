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

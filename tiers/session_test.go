package tiers

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var sessionAt = time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC)

func TestRenderSession(t *testing.T) {
	t.Parallel()
	s := Session{
		Summary:   "Moved config to TOML: the loader and its tests",
		At:        sessionAt,
		Happened:  List{Items: []string{"wrote the loader", "ported the tests"}},
		Decisions: List{Items: []string{"Use TOML because YAML indentation broke parsing"}},
		Changed:   List{Note: "Outside git: no files listed."},
		Successor: "Check the Windows paths first.\n\nThey were flaky.",
		Extra:     []Extra{{Title: "Notes #", Body: "kept"}},
	}
	want := `---
summary: 'Moved config to TOML: the loader and its tests'
session: 2026-11-22T03:24:20Z
memory_type: session
---
# Session 2026-11-22

## What happened
- wrote the loader
- ported the tests

## Decisions made
- Use TOML because YAML indentation broke parsing

## What changed (files)
Outside git: no files listed.

## Open threads
None.

## For my successor
Check the Windows paths first.

They were flaky.

## Notes # #
kept
`
	got := string(s.Render())
	if got != want {
		t.Fatalf("Render:\n%s\nwant:\n%s", got, want)
	}
	back, err := ParseSession([]byte(got))
	if err != nil {
		t.Fatal(err)
	}
	back.Title = ""
	if !reflect.DeepEqual(back, s) {
		t.Fatalf("round trip:\n got %#v\nwant %#v", back, s)
	}
}

func TestParseSession(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want Session
		err  string
	}{{
		name: "the design's template",
		in:   "---\nsummary: did things\nsession: 2026-11-22T03:24:20Z\n---\n# Session 2026-11-22\n\n## What happened\n## Decisions made\n## What changed (files)\n## Open threads\n## For my successor\n",
		want: Session{Summary: "did things", At: sessionAt, Title: "Session 2026-11-22"},
	}, {
		name: "hand-off fields, aliases, numbered and continued items, CRLF",
		in: "---\r\nsummary: s\r\nnext_priority: ship it\r\nopen_risk: flaky CI\r\nemotional_register: calm\r\n---\r\n" +
			"# Notes\r\nintro\r\n## what  HAPPENED\r\n1. one\r\n2) two\r\n   continued\r\n\r\n  - nested\r\n## What changed\r\n- a.go: new\r\n## Decisions\r\n* X because Y\r\n",
		want: Session{Summary: "s", NextPriority: "ship it", OpenRisk: "flaky CI", EmotionalRegister: "calm", Title: "Notes", Preamble: "intro",
			Happened: List{Items: []string{"one", "two continued", "nested"}}, Changed: List{Items: []string{"a.go: new"}},
			Decisions: List{Items: []string{"X because Y"}}},
	}, {
		name: "notes, fences, headings and None",
		in: "## Open threads\n- t1\n\nafter a blank\n### sub\n```\n- not an item\n## not a section\n```\n- t2\n" +
			"## For my successor\nNone.\n## Extra\n```go\nunclosed\n",
		want: Session{Threads: List{Items: []string{"t1", "t2"}, Note: "after a blank\n### sub\n```\n- not an item\n## not a section\n```"},
			Extra: []Extra{{Title: "Extra", Body: "```go\nunclosed\n```"}}},
	}, {
		name: "a repeated section continues the first",
		in:   "## What happened\n- a\n## Other\nx\n## What happened\n- b\n",
		want: Session{Happened: List{Items: []string{"a", "b"}}, Extra: []Extra{{Title: "Other", Body: "x"}}},
	}, {
		name: "an unparseable session is reported and the rest kept",
		in:   "---\nsummary: kept\nsession: last tuesday\n---\n## What happened\n- a\n",
		want: Session{Summary: "kept", Happened: List{Items: []string{"a"}}},
		err:  `front matter: session is not an RFC 3339 time: "last tuesday"`,
	}, {
		name: "malformed front matter",
		in:   "---\nsummary: [a\n---\n## Open threads\n- t\n",
		want: Session{Threads: List{Items: []string{"t"}}},
		err:  "malformed front matter",
	}, {
		name: "a YAML error names the line of the file",
		in:   "---\nsummary: ok\nnext_priority: a: b\n---\n",
		want: Session{},
		err:  "malformed front matter: line 3: mapping values are not allowed in this context",
	}, {
		name: "a YAML type error names the line of the file",
		in:   "---\nsummary: ok\nsession: [a]\n---\n",
		want: Session{Summary: "ok"},
		err:  "malformed front matter: line 3: session: expected a single value",
	}, {
		name: "a byte-order mark does not hide the front matter",
		in:   "\ufeff---\nsummary: kept\n---\n## Open threads\n- t\n",
		want: Session{Summary: "kept", Threads: List{Items: []string{"t"}}},
	}, {
		name: "an offset time is stored in UTC",
		in:   "---\nsession: 2026-11-22T05:24:20.9+02:00\n---\n",
		want: Session{At: sessionAt},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSession([]byte(tt.in))
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one containing %q", err, tt.err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestParseSessionTimeError(t *testing.T) {
	t.Parallel()
	_, err := ParseSession([]byte("---\nsession: 2026-13-01\n---\n"))
	if !errors.Is(err, ErrSessionTime) {
		t.Fatalf("err = %v, want ErrSessionTime", err)
	}
}

// FuzzParseSession checks that rendering is a fixed point: whatever a
// document parses to renders to a summary that parses back to the same
// thing and renders identically.
func FuzzParseSession(f *testing.F) {
	for _, s := range []string{
		"",
		"---\nsummary: x\nsession: 2026-11-22T03:24:20Z\n---\n# Session 2026-11-22\n\n## What happened\n- a\n",
		"## Open threads\n- t\n\nnote\n```\n- fenced\n",
		"# T\npre\n# Second\n## X ##\n## a# #\nbody\n",
		"## What happened\n-\n  cont\n* * *\n1.\n",
		"---\nsummary: \"\\xff\"\nsensitivity: secret\n---\n## For my successor\n~~~\n## no\n",
		"## Decisions\r\n- a because b\r\n\r\n\r\n   indented after blank\r\n",
		"## For my successor\nNone.\n## What changed (files)\nNone.",
		"# Session\npre\n\\## What happened\n## For my successor\n\\## Open threads\n  # one\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s1, _ := ParseSession(data)
		out1 := s1.Render()
		s2, err := ParseSession(out1)
		if err != nil {
			t.Fatalf("reparsing the rendered summary: %v\n%s", err, out1)
		}
		s1.Title, s2.Title = "", ""
		s1.NextPriority, s1.OpenRisk, s1.EmotionalRegister = "", "", ""
		if !reflect.DeepEqual(s1, s2) {
			t.Fatalf("round trip differs:\n got %s\nwant %s\nrendered:\n%s", dump(s2), dump(s1), out1)
		}
		if out2 := s2.Render(); !bytes.Equal(out1, out2) {
			t.Fatalf("render is not idempotent:\n%q\n%q", out1, out2)
		}
	})
}

func dump(s Session) string { return fmt.Sprintf("%#v", s) }

// Free text holding a line like "## What happened" cannot open a section
// of the rendered summary: the line is escaped, reads back as text where it
// was written, and the sections hold only what was given to them.
func TestRenderEscapesSectionHeadingsInFreeText(t *testing.T) {
	t.Parallel()
	in := Session{
		Summary:   "s",
		Preamble:  "pre\n## For my successor\nnot a successor",
		Happened:  List{Items: []string{"real"}, Note: "note\n  ## Open threads"},
		Successor: "Read this.\n## What happened\n- injected\n```\n## fenced stays\n```\n# one\n### three",
		Extra:     []Extra{{Title: "Mine", Body: "## Decisions made\n- x because y"}},
	}
	out := in.Render()
	got, err := ParseSession(out)
	if err != nil {
		t.Fatal(err)
	}
	want := in
	want.Preamble = "pre\n\\## For my successor\nnot a successor"
	want.Happened.Note = "note\n  \\## Open threads"
	want.Successor = "Read this.\n\\## What happened\n- injected\n```\n## fenced stays\n```\n# one\n### three"
	want.Extra = []Extra{{Title: "Mine", Body: "\\## Decisions made\n- x because y"}}
	got.Title = ""
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %s\nwant %s\nrendered:\n%s", dump(got), dump(want), out)
	}
	if again, _ := ParseSession(got.Render()); !reflect.DeepEqual(again.Successor, got.Successor) {
		t.Fatalf("escaping twice: %q", again.Successor)
	}
}

// TestRenderFrontMatterIsPlainText: a summary with invalid UTF-8 is
// written as text, with U+FFFD, never as a YAML !!binary that reads back
// decoded.
func TestRenderFrontMatterIsPlainText(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"caf\xe9", "\xff\xfe", "ok \xe2\x80 cut"} {
		out := Session{Summary: v, Sensitivity: "secret\xff", At: sessionAt}.Render()
		if bytes.Contains(out, []byte("!!")) || !utf8.Valid(out) {
			t.Errorf("%q rendered as\n%s", v, out)
		}
		// The level is no level, so only the summary is read back.
		s, err := ParseSession(Session{Summary: v, Sensitivity: "secret", At: sessionAt}.Render())
		if err != nil || s.Summary != strings.ToValidUTF8(v, "\uFFFD") {
			t.Errorf("%q read back as %q (%v)", v, s.Summary, err)
		}
	}
}

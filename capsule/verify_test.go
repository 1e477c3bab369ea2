package capsule

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// goodCapsule is a capsule verify passes; each case of TestCheckFindings
// breaks one thing of it.
const goodCapsule = `---
branch: feature/capsules
source_session: s-1
created_at: 2026-11-22T22:30:00Z
primary_objective: "Ship capsule verify"
token_budget: 1200
version: "1"
---
# Mission Snapshot
- The user wants ` + "`wake capsule verify`" + ` to guard capsules.

# Key Decisions & Rationale
1. Paths resolve against the project, then the root (decision 2026-11-22).

# Active Workstreams
- Verify: see ` + "`capsule/verify.go`" + `.

# Pending Actions
- [ ] Wire the command into [the parent](cmd/wake/capsule.go).

# Knowledge Base
- Commit ` + "`a1b2c3d`" + ` holds the format.

# Risks & Watchpoints
_Nothing recorded._

# Transcript Highlights
- 2026-11-22T22:10Z: the user asked for drift detection.
- a1b2c3d4: the format landed.

# Exploratory Threads & User Preferences
- Topic: hashing; next step: measure on a large repository.
`

func count(s string) int { return utf8.RuneCountInString(s) / 4 }

func check(t *testing.T, text string, max int) []Finding {
	t.Helper()
	s, err := Scan([]byte(text))
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	f, _ := Check(s, CheckOptions{MaxTokens: max, Count: count})
	return f
}

func TestCheckGood(t *testing.T) {
	if f := check(t, goodCapsule, 1200); len(f) != 0 {
		t.Fatalf("findings on a good capsule: %+v", f)
	}
}

func TestCheckFindings(t *testing.T) {
	highlights := "# Transcript Highlights\n"
	for i := range 6 {
		highlights += "- 2026-11-22T22:1" + string(rune('0'+i)) + "Z: moment\n"
	}
	cases := []struct {
		name, old, new string
		kind           string
		line           int
	}{
		{"missing key", "source_session: s-1\n", "", FindFrontMatter, 1},
		{"created_at not RFC 3339", "2026-11-22T22:30:00Z", "yesterday", FindFrontMatter, 4},
		{"token_budget not an integer", "token_budget: 1200", "token_budget: lots", FindFrontMatter, 6},
		{"unknown version", `version: "1"`, `version: "0.1"`, FindFrontMatter, 7},
		{"unknown key", "version: \"1\"\n", "version: \"1\"\nowner: me\n", FindFrontMatter, 8},
		{"empty objective", `"Ship capsule verify"`, `""`, FindFrontMatter, 5},
		{"missing section", "# Knowledge Base\n", "", FindOutline, 0},
		{"unknown section", "# Risks & Watchpoints\n", "# Risks\n", FindOutline, 24},
		{"out of order", "# Mission Snapshot\n- The user", "# Pending Actions\n- x\n\n# Mission Snapshot\n- The user", FindOutline, 12},
		{"empty section", "_Nothing recorded._\n", "<!-- fill me -->\n", FindEmpty, 24},
		{"too many highlights", "# Transcript Highlights\n", highlights + "\n# Transcript Highlights\n", FindHighlights, 33},
		{"highlight citing nothing", "- a1b2c3d4: the format landed.", "- the format landed.", FindHighlights, 29},
		{"over token_budget", "token_budget: 1200", "token_budget: 10", FindBudget, 6},
		{"secret", "measure on a large repository.", "token ghp_x9Kq2Lm7Rt4Vb8Nz1Pw6Hs3Jd5Fg0Yc2Ue7Ia", FindSecret, 32},
		{"secret in the front matter", `"Ship capsule verify"`, `"rotate ghp_x9Kq2Lm7Rt4Vb8Nz1Pw6Hs3Jd5Fg0Yc2Ue7Ia"`, FindSecret, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(goodCapsule, c.old, c.new, 1)
			if text == goodCapsule {
				t.Fatalf("the case changes nothing")
			}
			found := check(t, text, 1200)
			for _, f := range found {
				if f.Kind == c.kind && (c.line == 0 || f.Line == c.line) {
					return
				}
			}
			t.Fatalf("no %s finding at line %d in %+v", c.kind, c.line, found)
		})
	}
}

func TestCheckMaxTokens(t *testing.T) {
	found := check(t, goodCapsule, 20)
	if len(found) != 1 || found[0].Kind != FindBudget || found[0].Subject != "capsule.max_tokens" {
		t.Fatalf("got %+v, want one capsule.max_tokens finding", found)
	}
}

func TestScanMalformed(t *testing.T) {
	cases := []struct {
		name, text string
		line       int
	}{
		{"no front matter", "# Mission Snapshot\n", 1},
		{"unclosed", "---\nbranch: x\n# Mission Snapshot\n", 3},
		{"not YAML", "---\nbranch: x\n  bad: [\n---\n", 3},
		{"not a mapping", "---\n- a\n- b\n---\n", 2},
		{"not UTF-8", "---\nbranch: \xff\n---\n", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Scan([]byte(c.text))
			var me *MalformedError
			if !errors.As(err, &me) || me.Line != c.line {
				t.Fatalf("Scan: %v, want a malformed error at line %d", err, c.line)
			}
		})
	}
}

func TestRefs(t *testing.T) {
	s, err := Scan([]byte(goodCapsule + "\n```\n`inside/fence.go`\n```\n<!-- `in/comment.go` -->\n- `go test ./...` `x.Y` `budget.inbox` [site](https://example.com) `cmd/a.go:12` deadbeef 20261122 `1234567` `warm/decisions.md#d-4994` `#42`\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range s.Refs {
		got = append(got, r.Kind+":"+r.Value)
	}
	want := "path:wake capsule verify|path:capsule/verify.go|path:cmd/wake/capsule.go|commit:a1b2c3d|commit:a1b2c3d4|path:budget.inbox|path:cmd/a.go|commit:1234567|path:warm/decisions.md"
	// "wake capsule verify" has blanks: not a path.
	want = strings.TrimPrefix(want, "path:wake capsule verify|")
	if g := strings.Join(got, "|"); g != want {
		t.Fatalf("refs\n got %s\nwant %s", g, want)
	}
}

func TestWithFilesKeepsBody(t *testing.T) {
	data := []byte(goodCapsule)
	s, err := Scan(data)
	if err != nil {
		t.Fatal(err)
	}
	files := []FileHash{{Path: "z/b.go", SHA256: strings.Repeat("b", 64)}, {Path: "a: odd.md", SHA256: strings.Repeat("a", 64)}}
	out := WithFiles(data, s, files)
	s2, err := Scan(out)
	if err != nil || len(s2.Problems) > 0 {
		t.Fatalf("rescan: %v %v\n%s", err, s2.Problems, out)
	}
	if !bytes.Equal(out[s2.FrontEnd:], data[s.FrontEnd:]) {
		t.Fatalf("the body changed:\n%s", out)
	}
	got := s2.Capsule.Front.Files
	if len(got) != 2 || got[0].Path != "a: odd.md" || got[1].Path != "z/b.go" {
		t.Fatalf("files read back: %+v", got)
	}
	// Recording again replaces the record rather than adding a second.
	out2 := WithFiles(out, s2, files[:1])
	if s3, err := Scan(out2); err != nil || len(s3.Capsule.Front.Files) != 1 || len(s3.Problems) > 0 {
		t.Fatalf("second record: %v %+v", err, s3)
	}
}

func TestStubAndPrompt(t *testing.T) {
	fm := FrontMatter{Branch: "main", SourceSession: "s-9", CreatedAt: time.Date(2026, 11, 22, 22, 30, 0, 0, time.UTC), TokenBudget: 1200, Version: Version}
	stub := Stub(fm)
	s, err := Scan(stub)
	if err != nil {
		t.Fatal(err)
	}
	found, _ := Check(s, CheckOptions{MaxTokens: 1200, Count: count})
	empty := 0
	for _, f := range found {
		switch f.Kind {
		case FindEmpty:
			empty++
		case FindFrontMatter:
			if !strings.Contains(f.Message, KeyPrimaryObjective) {
				t.Errorf("stub: %+v", f)
			}
		default:
			t.Errorf("stub: %+v", f)
		}
	}
	if empty != len(Outline) {
		t.Errorf("stub: %d empty sections, want %d", empty, len(Outline))
	}
	if len(s.Refs) != 0 {
		t.Errorf("the stub's guidance names artifacts: %+v", s.Refs)
	}
	p := Prompt(PromptInput{Target: ".wake/cold/capsules/main/x.md", Front: fm, Handoff: ".wake/main.md", Tasks: ".wake/warm/active_tasks.md",
		Inbox: ".wake/warm/inbox.md", OpenReminders: 2, Git: GitState{Branch: "main", Changed: 3, LastCommit: "a1b2c3d first"}, Verify: "wake capsule verify .wake/cold/capsules/main/x.md"})
	for _, want := range []string{".wake/cold/capsules/main/x.md", "2 open reminder(s)", "3 changed file(s)", "a1b2c3d first", "1200 tokens", "Session: s-9",
		"\n# " + ExploratoryThreads + "\n", "at most 5 bullets"} {
		if !strings.Contains(p, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, p)
		}
	}
	if !strings.HasSuffix(p, "Then run: wake capsule verify .wake/cold/capsules/main/x.md\n") {
		t.Errorf("the prompt does not end with the verify command:\n%s", p)
	}
	for _, title := range Outline {
		if Guidance[title] == "" {
			t.Errorf("no guidance for %q", title)
		}
	}
}

// FuzzScan: Scan never panics, and recording files in a capsule without
// problems keeps its body byte for byte and scans again.
func FuzzScan(f *testing.F) {
	f.Add([]byte(goodCapsule))
	f.Add(Stub(FrontMatter{Branch: "main", TokenBudget: 1, Version: Version}))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("---\nfiles:\n  a.go: x\n---\n# Mission Snapshot\n```\n# x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Scan(data)
		if err != nil || len(s.Problems) > 0 {
			return
		}
		out := WithFiles(data, s, []FileHash{{Path: "a.go", SHA256: strings.Repeat("0", 64)}})
		s2, err := Scan(out)
		if err != nil {
			t.Fatalf("rescan: %v\n%q", err, out)
		}
		if !bytes.Equal(out[s2.FrontEnd:], data[s.FrontEnd:]) {
			t.Fatalf("body changed:\n%q\n%q", data, out)
		}
	})
}

// TestRefsLinkEscapes: a Markdown link's target is URL-encoded where it
// holds a blank ("my%20notes.md"): the file is "my notes.md".
func TestRefsLinkEscapes(t *testing.T) {
	s, err := Scan([]byte(goodCapsule + "- see [notes](docs/my%20notes.md) and [raw](docs/100%.md)\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range s.Refs {
		if r.Kind == RefPath && strings.HasPrefix(r.Value, "docs/") {
			got = append(got, r.Value)
		}
	}
	if g := strings.Join(got, "|"); g != "docs/my notes.md|docs/100%.md" {
		t.Fatalf("link targets %q", g)
	}
}

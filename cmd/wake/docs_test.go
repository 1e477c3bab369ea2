package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/cobra"
)

// The user's documentation: README.md at the repository's top, the
// reference pages under docs/.
const repoTop = "../.."

// TestCommandDocs: every command 'wake --help' lists has a section of its
// own in docs/commands.md, a heading naming `wake NAME`.
func TestCommandDocs(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoTop, "docs", "commands.md"))
	if err != nil {
		t.Fatal(err)
	}
	var headings []string
	for _, h := range markdownHeadings(string(data)) {
		headings = append(headings, h.text)
	}
	root := (&app{}).rootCmd()
	for _, c := range root.Commands() {
		if !c.IsAvailableCommand() || c.Name() == "help" {
			continue
		}
		if !hasCommandHeading(headings, c) {
			t.Errorf("docs/commands.md has no heading naming `wake %s`", c.Name())
		}
	}
}

func hasCommandHeading(headings []string, c *cobra.Command) bool {
	for _, h := range headings {
		for _, end := range []string{"`", " "} {
			if strings.Contains(h, "`wake "+c.Name()+end) {
				return true
			}
		}
	}
	return false
}

// TestReadme: the README stays a page that teaches, its test command is
// the one CI runs, and the commands it shows are wake's.
func TestReadme(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoTop, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	if n := strings.Count(readme, "\n"); n >= 400 {
		t.Errorf("README.md is %d lines: keep it under 400, and move reference into docs/", n)
	}
	for _, want := range []string{
		"go run ./cmd/wake load --root testdata/demo",
		"go install github.com/wakeproto/wake/cmd/wake@latest",
		"wake init", "wake install claude", "wake install codex", "wake install opencode",
	} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not show %q", want)
		}
	}
	testCmd := regexp.MustCompile("(?m)^(go test [^#\n]*?)\\s*#").FindStringSubmatch(readme)
	if testCmd == nil {
		t.Fatal("README.md shows no go test command")
	}
	ci, err := os.ReadFile(filepath.Join(repoTop, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^(\w+=\S+ )*` + regexp.QuoteMeta(testCmd[1]) + `$`).Match(ci) {
		t.Errorf(".ci/run does not run the README's test command %q", testCmd[1])
	}
	names := map[string]bool{"help": true, "completion": true}
	for _, c := range (&app{}).rootCmd().Commands() {
		names[c.Name()] = true
	}
	for _, m := range regexp.MustCompile("(?m)^wake ([a-z][a-z-]*)").FindAllStringSubmatch(readme, -1) {
		if !names[m[1]] {
			t.Errorf("README.md shows 'wake %s', which is no command", m[1])
		}
	}
}

// TestDocLinks: every relative link of the README and the docs leads to a
// file that exists, and every #fragment to a heading of that file.
func TestDocLinks(t *testing.T) {
	t.Parallel()
	pages, _ := filepath.Glob(filepath.Join(repoTop, "docs", "*.md"))
	pages = append(pages, filepath.Join(repoTop, "README.md"))
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		a := map[string]bool{}
		for _, h := range markdownHeadings(string(data)) {
			a[h.anchor] = true
		}
		anchors[path] = a
		return a
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(stripFences(string(data)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: link %s: no such file", page, target)
					continue
				}
			}
			if frag != "" && strings.HasSuffix(path, ".md") && !anchorsOf(path)[frag] {
				t.Errorf("%s: link %s: no heading with that anchor in %s", page, target, path)
			}
		}
	}
}

type heading struct{ text, anchor string }

// markdownHeadings are a Markdown text's ATX headings outside fenced code,
// each with the anchor GitHub gives it.
func markdownHeadings(text string) []heading {
	var hs []heading
	seen := map[string]int{}
	for _, l := range strings.Split(stripFences(text), "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		a := githubAnchor(h)
		if n := seen[a]; n > 0 {
			seen[a]++
			a = fmt.Sprintf("%s-%d", a, n)
		} else {
			seen[a] = 1
		}
		hs = append(hs, heading{h, a})
	}
	return hs
}

// githubAnchor is the fragment GitHub links a heading by: lower case,
// punctuation dropped but for hyphens and underscores, spaces as hyphens.
func githubAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// stripFences blanks the lines of fenced code blocks, which hold no
// headings or links.
func stripFences(text string) string {
	lines := strings.Split(text, "\n")
	in := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
			lines[i] = ""
			continue
		}
		if in {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// TestClientReleasesDocumented: the table of tested releases in
// docs/clients.md gives each client the range the end-to-end tests run.
func TestClientReleasesDocumented(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoTop, "docs", "clients.md"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{"claude": "Claude Code", "codex": "Codex CLI", "opencode": "OpenCode"}
	for client, r := range clientReleases {
		want := "| " + names[client] + " | " + r[1] + " to " + r[0] + " |"
		if r[0] == r[1] {
			want = "| " + names[client] + " | " + r[0] + " |"
		}
		if !strings.Contains(string(data), want) {
			t.Errorf("docs/clients.md does not hold the row %q", want)
		}
	}
}

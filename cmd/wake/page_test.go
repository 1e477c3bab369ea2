package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/report"
)

// TestListingsAnswerWithinAPage: on a long history (400 decisions, a
// fifth reversed, 3,000 ledger lines and 600 cold notes), wake decisions
// --all, wake log and wake cold print at most a page of about 4,000
// tokens, the first two newest first, with the
// command for the next page; every page together lists every entry once,
// and --format json lists them all (issue 24, point 6).
func TestListingsAnswerWithinAPage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, errOut := runApp(t, dir, "init", "--agent", "Ava"); code != 0 {
		t.Fatal(errOut)
	}
	root := filepath.Join(dir, ".wake")
	var log, ledger strings.Builder
	log.WriteString("# Decisions\n\n")
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&log, "[2026-01-01] DECISION: Adopt practice number %d for the build BECAUSE: reason %d\nID: d-%04x\n", i, i, i)
		if i%5 == 0 {
			fmt.Fprintf(&log, "STATUS: reversed\nREVERSED_BY: [2026-01-02] practice %d replaced it\n\n", i+1)
		} else {
			log.WriteString("STATUS: active\n\n")
		}
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3000 {
		fmt.Fprintf(&ledger, `{"at":%q,"op":"remember","paths":["warm/inbox.md"],"change_summary":"reminder number %d"}`+"\n", at.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), i)
	}
	os.MkdirAll(filepath.Join(root, "cold", "notes"), 0o755)
	for i := range 600 {
		os.WriteFile(filepath.Join(root, "cold", "notes", fmt.Sprintf("n%04d.md", i)), []byte(fmt.Sprintf("---\nsummary: cold note number %d\n---\n# Note\n", i)), 0o644)
	}
	os.WriteFile(filepath.Join(root, "warm", "decisions.md"), []byte(log.String()), 0o644)
	os.WriteFile(filepath.Join(root, "ledger.jsonl"), []byte(ledger.String()), 0o644)
	enc, err := sharedEncoder("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		item  *regexp.Regexp
		total int
		first string
	}{
		{[]string{"decisions", "--all"}, regexp.MustCompile(`(?m)^#(\d+) `), 400, "#400 "},
		{[]string{"log"}, regexp.MustCompile(`reminder number (\d+)  \[`), 3000, "reminder number 2999"},
		{[]string{"cold", "cold/notes/"}, regexp.MustCompile(`cold note number (\d+)`), 600, "Cold tier of"},
	} {
		seen := map[string]int{}
		pages := 0
		for page := 1; ; page++ {
			code, out, errOut := runApp(t, dir, append(tc.args, "--page", fmt.Sprint(page))...)
			if code != 0 {
				t.Fatalf("%v page %d: exit %d %s", tc.args, page, code, errOut)
			}
			if n := enc.Count(out); n > report.PageTokens+200 {
				t.Errorf("%v page %d: %d tokens", tc.args, page, n)
			}
			if page == 1 && !strings.Contains(out[:200], tc.first) {
				t.Errorf("%v: page 1 does not start with the newest:\n%.300s", tc.args, out)
			}
			for _, m := range tc.item.FindAllStringSubmatch(out, -1) {
				seen[m[1]]++
			}
			pages++
			if !strings.Contains(out, fmt.Sprintf("Next: wake %s --page %d", strings.Join(tc.args, " "), page+1)) {
				if !strings.Contains(out, fmt.Sprintf("Page %d of %d:", page, page)) {
					t.Fatalf("%v page %d: no next page and not the last:\n%s", tc.args, page, out[max(0, len(out)-400):])
				}
				break
			}
		}
		if len(seen) != tc.total || pages < 2 {
			t.Errorf("%v: %d pages list %d entries, want %d", tc.args, pages, len(seen), tc.total)
		}
		for k, n := range seen {
			if n != 1 {
				t.Errorf("%v: %s listed %d times", tc.args, k, n)
			}
		}
	}
	code, out, _ := runApp(t, dir, "log", "--format", "json")
	var l struct{ Entries []json.RawMessage }
	if code != 0 || json.Unmarshal([]byte(out), &l) != nil || len(l.Entries) < 3000 {
		t.Errorf("log json: %d entries", len(l.Entries))
	}
	code, out, _ = runApp(t, dir, "decisions", "d-0001", "#2")
	if code != 0 || !strings.HasPrefix(out, "#1   active    d-0001  [2026-01-01] Adopt practice number 1 for the build\n     because: reason 1\n#2 ") {
		t.Errorf("decisions by id:\n%s", out)
	}
}

// runApp runs one wake command in-process from dir.
func runApp(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	a, out, errOut := newTestApp(t, dir)
	code := a.run(args)
	return code, out.String(), errOut.String()
}

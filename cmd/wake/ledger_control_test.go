package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLedgerControlCharacters proves terminal escapes and other control
// characters in a hand-edited ledger reach neither wake log's text nor the
// boot context's digest, while the rest of the entry still shows.
func TestLedgerControlCharacters(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"init", "--agent", "Ava"}); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	line := `{"at":"2026-11-22T03:00:00Z","op":"decide\u001b[2J","paths":["warm/decisions.md\u0007"],` +
		`"change_summary":"evil \u001b[31mred\u001b[0m \u009b6n done\u007f","summary":"s\u0000"}` + "\n"
	f, err := os.OpenFile(filepath.Join(dir, ".wake", "ledger.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line)
	f.Close()
	bad := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return r != '\n' && r != '\t' && (r < ' ' || r >= 0x7f && r <= 0x9f) })
	}
	for _, args := range [][]string{{"log"}, {"load", "--no-skill"}} {
		a, out, errOut := newTestApp(t, dir)
		if code := a.run(args); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if bad(out.String()) || bad(errOut.String()) {
			t.Errorf("%v printed control characters:\n%q", args, out)
		}
		if !strings.Contains(out.String(), "evil \uFFFD[31mred\uFFFD[0m \uFFFD6n done\uFFFD") {
			t.Errorf("%v lost the entry:\n%s", args, out)
		}
	}
}

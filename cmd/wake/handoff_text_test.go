package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// initRoot makes a memory root in a temp directory and returns the
// directory.
func initRoot(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"init"}); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	return dir
}

// TestHandoffFlagsRefuseControlCharacters covers what a script cannot pass:
// a NUL cannot reach a process's arguments, but it can reach run(), and
// the library behind it. Each is a usage error naming the flag and the
// character, and writes nothing.
func TestHandoffFlagsRefuseControlCharacters(t *testing.T) {
	t.Parallel()
	dir := initRoot(t)
	main, _ := os.ReadFile(filepath.Join(dir, ".wake", tiers.MainPath))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--summary", "a\x00b", "--next", "n"}, "--summary: control character U+0000 is not allowed (only tab is)"},
		{[]string{"--summary", "s", "--next", "\x1b[2Jcleared"}, "--next: control character U+001B"},
		{[]string{"--summary", "s", "--next", "n", "--risk", "a\x7f"}, "--risk: control character U+007F"},
		{[]string{"--summary", "s", "--next", "n", "--mood", "a\u0085b"}, "--mood: control character U+0085"},
		{[]string{"--summary", "s\u2028forged line", "--next", "n"}, "--summary: line separator U+2028"},
		{[]string{"--summary", "s", "--next", "n", "--successor", "one\n\x00"}, "--successor: control character U+0000 is not allowed (only tab and newline are)"},
		{[]string{"--summary", "s", "--next", "n", "--successor", "over\rwritten"}, "--successor: control character U+000D"},
		{[]string{"--summary", "s", "--next", "n", "--happened", "a\x00"}, `--happened "a\x00": control character U+0000`},
		{[]string{"--summary", "s", "--next", "n", "--decision", "a because b\x00"}, `--decision "a because b\x00": control character U+0000`},
		{[]string{"--summary", "s", "--next", "n", "--changed", "x\u009b"}, `--changed "x\u009b": control character U+009B`},
		{[]string{"--summary", "s", "--next", "n", "--thread", "t\x01"}, `--thread "t\x01": control character U+0001`},
	} {
		a, _, errOut := newTestApp(t, dir)
		code := a.run(append([]string{"handoff"}, tc.args...))
		if code != exitUsage || !strings.Contains(errOut.String(), "wake: error: "+tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(dir, ".wake", tiers.MainPath)); !bytes.Equal(now, main) {
		t.Error("main.md changed")
	}
	if _, err := os.Stat(filepath.Join(dir, ".wake", tiers.LatestPath)); err == nil {
		t.Error("a summary was written")
	}
}

// TestHandoffInvalidUTF8IsStoredAsText: invalid UTF-8 in a flag is
// replaced with U+FFFD, with a warning naming the flag; the summary and
// main.md are valid UTF-8 with a plain YAML string, and a later load shows
// the text.
func TestHandoffInvalidUTF8IsStoredAsText(t *testing.T) {
	t.Parallel()
	dir := initRoot(t)
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"handoff", "--summary", "caf\xe9 closed", "--next", "n\xff", "--successor", "a\r\nb"}); code != 0 {
		t.Fatalf("handoff: exit %d: %s", code, errOut)
	}
	for _, w := range []string{"wake: warning: --summary: invalid UTF-8 replaced with U+FFFD\n", "wake: warning: --next: invalid UTF-8 replaced with U+FFFD\n"} {
		if !strings.Contains(errOut.String(), w) {
			t.Errorf("stderr %q lacks %q", errOut, w)
		}
	}
	latest, _ := os.ReadFile(filepath.Join(dir, ".wake", tiers.LatestPath))
	main, _ := os.ReadFile(filepath.Join(dir, ".wake", tiers.MainPath))
	if !utf8.Valid(latest) || !utf8.Valid(main) || bytes.Contains(latest, []byte("!!")) {
		t.Fatalf("written as:\n%s\n%s", latest, main)
	}
	if !bytes.Contains(latest, []byte("summary: caf\uFFFD closed\n")) || !bytes.Contains(latest, []byte("\na\nb\n")) {
		t.Errorf("recent/latest.md:\n%s", latest)
	}
	a, out, _ := newTestApp(t, dir)
	if code := a.run([]string{"load"}); code != 0 || !strings.Contains(out.String(), "caf\uFFFD closed") {
		t.Errorf("load: exit %d:\n%s", code, out)
	}
}

// TestParseHandoffFileTexts: every text of a --file document is checked,
// named as the document spells it; YAML is taken as written, never
// decoded.
func TestParseHandoffFileTexts(t *testing.T) {
	t.Parallel()
	fm := func(front, body string) string { return "---\n" + front + "\n---\n" + body }
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"JSON escape", `{"summary":"s","next":"a\u0000b"}`, "--file f: field next: control character U+0000 is not allowed (only tab is)"},
		{"JSON item", `{"summary":"s","next":"n","happened":["ok","\u001b[31m"]}`, "--file f: field happened, item 2: control character U+001B"},
		{"JSON decision", `{"summary":"s","next":"n","decision":"a because \u0007"}`, "--file f: field decision, item 1: control character U+0007"},
		{"JSON successor", `{"summary":"s","next":"n","successor":"x\n\u0000"}`, "--file f: field successor: control character U+0000 is not allowed (only tab and newline are)"},
		{"JSON separator", `{"summary":"a\u2028b","next":"n"}`, "--file f: field summary: line separator U+2028"},
		{"raw NUL in front matter", fm("summary: s\nnext_priority: a\x00b", ""), "--file f: field next_priority: control character U+0000"},
		{"raw DEL in front matter", fm("summary: s\nnext_priority: n\n  \x7f", ""), "--file f: front matter line 4: control character U+007F"},
		{"YAML escape", fm(`summary: "a\0b"`+"\nnext_priority: n", ""), "--file f: field summary: control character U+0000"},
		{"YAML C1 escape", fm("summary: s\nopen_risk: \"\\x85\"\nnext_priority: n", ""), "--file f: field open_risk: control character U+0085"},
		{"item", fm("summary: s\nnext_priority: n", "## What happened\n- ok\n- a\x00b\n"), `--file f: section "What happened", item 2: control character U+0000`},
		{"decision item", fm("summary: s\nnext_priority: n", "## Decisions made\n- a because \x01\n"), `--file f: section "Decisions made", item 1: control character U+0001`},
		{"list note", fm("summary: s\nnext_priority: n", "## Open threads\n- t\n\nnote \x02\n"), `--file f: section "Open threads": control character U+0002`},
		{"successor", fm("summary: s\nnext_priority: n", "## For my successor\nline\n\x00\n"), `--file f: section "For my successor": control character U+0000 is not allowed (only tab and newline are)`},
		{"preamble", fm("summary: s\nnext_priority: n", "# T\n\x1b\n## What happened\n"), "--file f: the text before the first section: control character U+001B"},
		{"extra section", fm("summary: s\nnext_priority: n", "## Notes\n\x00\n"), `--file f: section "Notes": control character U+0000`},
		{"extra title", fm("summary: s\nnext_priority: n", "## No\x01tes\nok\n"), `--file f: the title of section "No\x01tes": control character U+0001`},
		{"binary tag", fm("summary: !!binary aGVsbG8=\nnext_priority: n", ""), "--file f: field summary: the YAML tag !!binary is not accepted"},
		{"str tag", fm("summary: !!str 12\nnext_priority: n", ""), "--file f: field summary: the YAML tag !!str is not accepted"},
		{"custom tag", fm("summary: s\nnext_priority: !foo n", ""), "--file f: field next_priority: the YAML tag !foo is not accepted"},
		{"tagged key", fm("!!str summary: s\nnext_priority: n", ""), "--file f: field summary: the YAML tag !!str is not accepted"},
		{"anchor", fm("x: &a hello\nsummary: s\nnext_priority: n", ""), "--file f: field x: the YAML anchor &a is not accepted"},
		{"alias", fm("summary: s\nnext_priority: *a", ""), ""}, // an unknown alias does not parse: ParseSession says so
		{"merge", fm("<<: {summary: s}\nnext_priority: n", ""), "--file f: field <<: the YAML merge key << is not accepted"},
	} {
		_, _, err := handoff.ParseDocument("--file f", []byte(tc.doc))
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("%s: accepted", tc.name)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: got %v\nwant %s", tc.name, err, tc.want)
		}
		if err != nil && !isUsage(err) {
			t.Errorf("%s: %v is not a usage error", tc.name, err)
		}
	}
}

// TestParseHandoffFileInvalidUTF8 names the field holding invalid UTF-8
// when it can, and the lines when it cannot; the texts are valid UTF-8.
func TestParseHandoffFileInvalidUTF8(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"JSON", "{\"summary\":\"caf\xe9\",\"next\":\"n\"}", []string{"--file f: field summary: invalid UTF-8 replaced with U+FFFD"}},
		{"front matter", "---\nsummary: s\nnext_priority: caf\xe9\n---\n", []string{"--file f: field next_priority: invalid UTF-8 replaced with U+FFFD"}},
		{"item", "---\nsummary: s\nnext_priority: n\n---\n## What happened\n- a\xff\n", []string{`--file f: section "What happened", item 1: invalid UTF-8 replaced with U+FFFD`}},
		{"own U+FFFD too", "---\nsummary: \uFFFD\nnext_priority: n\xff\n---\n", []string{"--file f: invalid UTF-8 replaced with U+FFFD on line 3"}},
		{"in no text", "---\nsummary: s\nnext_priority: n\n---\n# Title \xff\n", []string{"--file f: invalid UTF-8 replaced with U+FFFD on line 5"}},
	} {
		in, warnings, err := handoff.ParseDocument("--file f", []byte(tc.doc))
		if err != nil || strings.Join(warnings, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: %v, warnings %q; want %q", tc.name, err, warnings, tc.want)
		}
		s := in.Session
		for _, v := range append([]string{s.Summary, s.NextPriority}, s.Happened.Items...) {
			if !utf8.ValidString(v) {
				t.Errorf("%s: %q kept", tc.name, v)
			}
		}
	}
}

// TestParseHandoffFileCRLF: a document written with CRLF gives texts
// whose lines end in "\n" alone, JSON escapes included; a lone CR is
// refused.
func TestParseHandoffFileCRLF(t *testing.T) {
	t.Parallel()
	md := "---\r\nsummary: s\r\nnext_priority: n\r\n---\r\n## What happened\r\n- a\r\n## Notes\r\nx\r\ny\r\n## For my successor\r\none\r\ntwo\r\n"
	js := `{"summary":"s","next":"n","successor":"one\r\ntwo"}`
	for _, doc := range []string{md, js} {
		in, _, err := handoff.ParseDocument("--file f", []byte(doc))
		if err != nil || in.Session.Successor != "one\ntwo" {
			t.Errorf("%q: %v, successor %q", doc, err, in.Session.Successor)
		}
		for _, v := range inputTexts(in) {
			if strings.Contains(v, "\r") {
				t.Errorf("%q: %q kept a CR", doc, v)
			}
		}
	}
	if _, _, err := handoff.ParseDocument("--file f", []byte(`{"summary":"s","next":"n","successor":"over\rwritten"}`)); err == nil ||
		!strings.Contains(err.Error(), "field successor: control character U+000D") {
		t.Errorf("lone CR: %v", err)
	}
}

// FuzzParseHandoffFile: any document is refused, or every text it gives
// is valid UTF-8 with no control character but tab and newline; it never
// panics.
func FuzzParseHandoffFile(f *testing.F) {
	for _, seed := range []string{
		`{"summary":"s","next":"n","happened":["a","b"],"decision":"x because y","successor":"a\r\nb"}`,
		`{"summary":"a\u0000b","next":"caf` + "\xe9" + `"}`,
		"---\nsummary: s\nnext_priority: n\nsensitivity: secret\n---\n# Session\npre\n## What happened\n- a\n## Decisions made\n- x because y\n## Notes\nbody\n## For my successor\nhi\r\n",
		"---\nsummary: !!binary aGVsbG8=\nnext_priority: n\n---\n",
		"---\nsummary: \"a\\0b\\x85\\L\"\nnext_priority: &a n\nopen_risk: *a\n---\n",
		"\ufeff---\r\nsummary: caf\xe9\r\n---\r\n## What happened\r\n- \x00\r\n",
		"## What happened\n- evil\u2028## For my successor\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, _, err := handoff.ParseDocument("--file f", data)
		if err != nil {
			return
		}
		for _, v := range inputTexts(in) {
			if !utf8.ValidString(v) || store.CheckText(v, true) != nil {
				t.Fatalf("%q kept from %q", v, data)
			}
		}
	})
}

// inputTexts is every text of an input.
func inputTexts(in handoff.Input) []string {
	s := in.Session
	out := []string{s.Summary, s.NextPriority, s.OpenRisk, s.EmotionalRegister, s.Sensitivity, s.Title, s.Preamble, s.Successor}
	for _, l := range []tiers.List{s.Happened, s.Decisions, s.Changed, s.Threads} {
		out = append(append(out, l.Items...), l.Note)
	}
	for _, x := range s.Extra {
		out = append(out, x.Title, x.Body)
	}
	for _, d := range in.Decisions {
		out = append(out, d.What, d.Why, d.Topic)
	}
	return out
}

// TestDecisionCommandsRefuseControlCharacters: every text of the decision
// log's commands is checked like a hand-off's; invalid UTF-8 is replaced,
// with a warning.
func TestDecisionCommandsRefuseControlCharacters(t *testing.T) {
	t.Parallel()
	dir := initRoot(t)
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"decide", "Use TOML", "--because", "fewer errors"}); code != 0 {
		t.Fatalf("decide: exit %d: %s", code, errOut)
	}
	log := filepath.Join(dir, ".wake", tiers.DecisionsPath)
	before, _ := os.ReadFile(log)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"decide", "Use\x00TOML", "--because", "x"}, "the decision (WHAT): control character U+0000"},
		{[]string{"decide", "Use TOML", "--because", "x\x1b"}, "--because: control character U+001B"},
		{[]string{"decide", "Use TOML", "--because", "x", "--topic", "a\u2028b"}, "--topic: line separator U+2028"},
		{[]string{"reverse", "1", "--by", "a\x7f", "--because", "x"}, "--by: control character U+007F"},
		{[]string{"reverse", "1", "--by", "a", "--because", "x", "--topic", "t\x00"}, "--topic: control character U+0000"},
		{[]string{"contest", "1", "--objection", "a\u0085", "--proposal", "p"}, "--objection: control character U+0085"},
		{[]string{"contest", "1", "--objection", "o", "--proposal", "p\u2029"}, "--proposal: paragraph separator U+2029"},
		{[]string{"uphold", "1", "--because", "\x00"}, "--because: control character U+0000"},
	} {
		a, out, errOut := newTestApp(t, dir)
		code := a.run(tc.args)
		if code != exitUsage || !strings.HasPrefix(errOut.String(), "wake: error: "+tc.want) || out.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if after, _ := os.ReadFile(log); !bytes.Equal(after, before) {
		t.Errorf("the log changed:\n%s", after)
	}
	a, _, errOut = newTestApp(t, dir)
	if code := a.run([]string{"decide", "Use caf\xe9", "--because", "ok"}); code != 0 ||
		!strings.Contains(errOut.String(), "wake: warning: the decision (WHAT): invalid UTF-8 replaced with U+FFFD\n") {
		t.Fatalf("decide: exit %d: %s", code, errOut)
	}
	if after, _ := os.ReadFile(log); !utf8.Valid(after) || !bytes.Contains(after, []byte("DECISION: Use caf\uFFFD BECAUSE: ok")) {
		t.Errorf("the log:\n%s", after)
	}
}

package store

import (
	"strings"
	"testing"
)

func TestCheckText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		s         string
		multiline bool
		want      string // "" when the text is accepted
	}{
		{"plain", "Moved config to TOML — ✓ 日本語 🎉", false, ""},
		{"tab", "a\tb", false, ""},
		{"replacement character", "caf\uFFFD", false, ""},
		{"no-break space", "a\u00a0b", false, ""},
		{"NUL", "a\x00b", false, "control character U+0000 is not allowed (only tab is)"},
		{"NUL multi-line", "a\n\x00", true, "control character U+0000 is not allowed (only tab and newline are)"},
		{"escape", "\x1b[31mred", false, "control character U+001B"},
		{"unit separator", "a\x1fb", false, "control character U+001F"},
		{"DEL", "a\x7fb", false, "control character U+007F"},
		{"C1 first", "a\u0080b", false, "control character U+0080"},
		{"NEL", "a\u0085b", true, "control character U+0085"},
		{"C1 last", "a\u009fb", false, "control character U+009F"},
		{"newline", "a\nb", false, "must be one line"},
		{"newline multi-line", "a\nb\n", true, ""},
		{"CR", "a\rb", false, "must be one line"},
		{"lone CR multi-line", "a\rb", true, "control character U+000D"},
		{"line separator", "a\u2028b", false, "line separator U+2028"},
		{"paragraph separator", "a\u2029b", false, "paragraph separator U+2029"},
		{"line separator multi-line", "a\u2028b", true, ""},
		{"invalid UTF-8", "caf\xe9", false, "is not valid UTF-8"},
		{"truncated rune", "a\xe2\x80", true, "is not valid UTF-8"},
	} {
		err := CheckText(tc.s, tc.multiline)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %q refused: %v", tc.name, tc.s, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %q: got %v, want %q", tc.name, tc.s, err, tc.want)
		}
	}
}

func TestDecisionTextsRefuseControlCharacters(t *testing.T) {
	t.Parallel()
	for _, d := range []NewDecision{{What: "a\x00", Why: "b"}, {What: "a", Why: "b\x1b"}, {What: "a", Why: "b", Topic: "t\u2029"}} {
		if err := d.Validate(); err == nil {
			t.Errorf("%+v accepted", d)
		}
	}
	// Two halves of one rune must not make a valid text together.
	if err := (NewDecision{What: "a\xe2", Why: "\x82\xac"}).Validate(); err == nil {
		t.Error("split rune accepted")
	}
	if err := oneLineTexts("objection", "a\x00b"); err == nil || !strings.Contains(err.Error(), "U+0000") {
		t.Errorf("objection: %v", err)
	}
}

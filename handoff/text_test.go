package handoff

import (
	"errors"
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
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

// TestValidateRefusesControlCharacters proves the library itself never
// writes a control character, whatever the front end checked.
func TestValidateRefusesControlCharacters(t *testing.T) {
	t.Parallel()
	ok := func() Input {
		return Input{Session: tiers.Session{Summary: "s", NextPriority: "n"}}
	}
	for _, tc := range []struct {
		field string
		set   func(in *Input)
	}{
		{FieldSummary, func(in *Input) { in.Session.Summary = "a\x00b" }},
		{FieldNext, func(in *Input) { in.Session.NextPriority = "a\x1bb" }},
		{FieldRisk, func(in *Input) { in.Session.OpenRisk = "a\u0085b" }},
		{FieldMood, func(in *Input) { in.Session.EmotionalRegister = "a\u2028b" }},
		{FieldSuccessor, func(in *Input) { in.Session.Successor = "line\n\x00" }},
		{FieldHappened, func(in *Input) { in.Session.Happened.Items = []string{"ok", "a\x7f"} }},
		{FieldChanged, func(in *Input) { in.Session.Changed.Note = "git said \x00" }},
		{FieldThread, func(in *Input) { in.Session.Threads.Items = []string{"caf\xe9"} }},
		{FieldDecision, func(in *Input) { in.Decisions = []NewDecision{{What: "a\x00", Why: "b"}} }},
		{FieldPreamble, func(in *Input) { in.Session.Preamble = "\x00" }},
		{FieldSection, func(in *Input) { in.Session.Extra = []tiers.Extra{{Title: "Notes", Body: "\x01"}} }},
		{FieldSensitivity, func(in *Input) { in.Session.Sensitivity = "secret\x00" }},
	} {
		in := ok()
		tc.set(&in)
		in.Normalize()
		var fe *FieldError
		if err := in.Validate(); !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: got %v, want a FieldError for it", tc.field, err)
		}
	}
	in := ok()
	in.Session.Successor = "a\r\nb\r\n"
	in.Normalize()
	if err := in.Validate(); err != nil || in.Session.Successor != "a\nb" {
		t.Errorf("CRLF in a multi-line text: %v, %q", err, in.Session.Successor)
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

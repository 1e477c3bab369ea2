package handoff

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

func TestHandoffInputErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		edit  func(*Input)
		field string
	}{
		{"no summary", func(in *Input) { in.Session.Summary = "  " }, store.FieldSummary},
		{"two-line summary", func(in *Input) { in.Session.Summary = "a\nb" }, store.FieldSummary},
		{"no next", func(in *Input) { in.Session.NextPriority = "" }, store.FieldNext},
		{"two-line risk", func(in *Input) { in.Session.OpenRisk = "a\r\nb" }, store.FieldRisk},
		{"two-line mood", func(in *Input) { in.Session.EmotionalRegister = "a\nb" }, store.FieldMood},
		{"two-line thread", func(in *Input) { in.Session.Threads.Items = []string{"ok", "a\nb"} }, store.FieldThread},
		{"a decision without reason", func(in *Input) { in.Decisions = []store.NewDecision{{What: "x"}} }, store.FieldDecision},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := afero.NewMemMapFs()
			s := &store.Store{FS: fsys, Root: "/p/.wake", Now: time.Now, Locker: &memlock.Locker{}}
			in := Input{Session: tiers.Session{Summary: "x", NextPriority: "n"}}
			tt.edit(&in)
			_, err := Handoff(context.Background(), s, in)
			var fe *store.FieldError
			if !errors.As(err, &fe) || fe.Field != tt.field {
				t.Fatalf("err = %v, want a FieldError on %s", err, tt.field)
			}
			if names, _ := afero.ReadDir(fsys, "/p/.wake"); len(names) != 0 {
				t.Fatal("a rejected hand-off wrote something")
			}
		})
	}
}

func TestParseDecision(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, what, why, err string }{
		{"Use TOML because YAML broke", "Use TOML", "YAML broke", ""},
		{"Use TOML because YAML broke because of tabs", "Use TOML", "YAML broke because of tabs", ""},
		{"Cache BECAUSE fast because the disk is slow", "Cache", "fast because the disk is slow", ""},
		{"İstanbul office because it is near", "İstanbul office", "it is near", ""},
		{"no reason", "", "", "WHAT because WHY"},
		{"x because ", "", "", "empty"},
		{" because y", "", "", "empty"},
	}
	for _, tt := range tests {
		d, err := ParseDecision(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || d.What != tt.what || d.Why != tt.why {
			t.Errorf("%q: %+v %v", tt.in, d, err)
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
		{store.FieldSummary, func(in *Input) { in.Session.Summary = "a\x00b" }},
		{store.FieldNext, func(in *Input) { in.Session.NextPriority = "a\x1bb" }},
		{store.FieldRisk, func(in *Input) { in.Session.OpenRisk = "a\u0085b" }},
		{store.FieldMood, func(in *Input) { in.Session.EmotionalRegister = "a\u2028b" }},
		{store.FieldSuccessor, func(in *Input) { in.Session.Successor = "line\n\x00" }},
		{store.FieldHappened, func(in *Input) { in.Session.Happened.Items = []string{"ok", "a\x7f"} }},
		{store.FieldChanged, func(in *Input) { in.Session.Changed.Note = "git said \x00" }},
		{store.FieldThread, func(in *Input) { in.Session.Threads.Items = []string{"caf\xe9"} }},
		{store.FieldDecision, func(in *Input) { in.Decisions = []store.NewDecision{{What: "a\x00", Why: "b"}} }},
		{store.FieldPreamble, func(in *Input) { in.Session.Preamble = "\x00" }},
		{store.FieldSection, func(in *Input) { in.Session.Extra = []tiers.Extra{{Title: "Notes", Body: "\x01"}} }},
		{store.FieldSensitivity, func(in *Input) { in.Session.Sensitivity = "secret\x00" }},
	} {
		in := ok()
		tc.set(&in)
		in.Normalize()
		var fe *store.FieldError
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

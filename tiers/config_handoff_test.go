package tiers

import (
	"strings"
	"testing"
)

// TestHandoffConfig pins handoff.auto_compact: on by default, turned off
// by false, a boolean only, and a misspelling gets a suggestion.
func TestHandoffConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		on        bool
		errLine   int
		errKey    string
		errMsg    string
	}{
		{"default on", "", true, 0, "", ""},
		{"off", "[handoff]\nauto_compact = false\n", false, 0, "", ""},
		{"dotted", "handoff.auto_compact = true\n", true, 0, "", ""},
		{"a string", "[handoff]\nauto_compact = \"no\"\n", false, 2, "handoff.auto_compact", "expected true or false, got a string"},
		{"misspelt", "[handoff]\nautocompact = false\n", false, 2, "handoff.autocompact", "did you mean handoff.auto_compact?"},
		{"wrong table", "[checks]\nauto_compact = false\n", false, 2, "checks.auto_compact", "did you mean handoff.auto_compact?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseConfig("wake.toml", []byte(tc.src))
			if tc.errKey != "" {
				wantConfigError(t, err, tc.errLine, tc.errKey)
				if !strings.Contains(err.Error(), tc.errMsg) {
					t.Fatalf("error %q lacks %q", err, tc.errMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Handoff.AutoCompact != tc.on {
				t.Fatalf("auto_compact %v, want %v", cfg.Handoff.AutoCompact, tc.on)
			}
		})
	}
}

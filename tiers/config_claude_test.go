package tiers

import (
	"strings"
	"testing"

	"github.com/wakeproto/wake/skeleton"
)

func TestClaudeConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		boot      string
		errLine   int
		errKey    string
	}{
		{"default is full", "", BootFull, 0, ""},
		{"skill", "[claude]\nboot = \"skill\"\n", BootSkill, 0, ""},
		{"full", "[claude]\nboot = \"full\"\n", BootFull, 0, ""},
		{"dotted", "claude.boot = \"skill\"\n", BootSkill, 0, ""},
		{"unknown mode", "[claude]\n\nboot = \"both\"\n", "", 3, "claude.boot"},
		{"empty mode", "[claude]\nboot = \"\"\n", "", 2, "claude.boot"},
		{"not a string", "[claude]\nboot = 1\n", "", 2, "claude.boot"},
		{"unknown key", "[claude]\nmode = \"skill\"\n", "", 2, "claude.mode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseConfig("wake.toml", []byte(tc.src))
			if tc.errKey != "" {
				wantConfigError(t, err, tc.errLine, tc.errKey)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Claude.Boot != tc.boot {
				t.Fatalf("boot = %q, want %q", cfg.Claude.Boot, tc.boot)
			}
		})
	}
}

// TestSkeletonNamesClaudeBoot proves init's wake.toml documents the key and
// that uncommenting it gives a valid configuration.
func TestSkeletonNamesClaudeBoot(t *testing.T) {
	t.Parallel()
	files, err := skeleton.Files(skeleton.Params{Project: "p"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Path != ConfigPath {
			continue
		}
		src := string(f.Data)
		const commented = "# boot = \"full\""
		i := strings.Index(src, commented)
		if i < 0 {
			t.Fatalf("skeleton wake.toml lacks %q:\n%s", commented, src)
		}
		cfg, err := ParseConfig(f.Path, []byte(src[:i]+src[i+2:]))
		if err != nil || cfg.Claude.Boot != BootFull {
			t.Fatalf("uncommented: %v %+v", err, cfg.Claude)
		}
		return
	}
	t.Fatal("skeleton has no wake.toml")
}

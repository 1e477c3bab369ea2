package tiers

import (
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/skeleton"
)

func TestDigestConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		window    time.Duration
		budget    int
		errLine   int
		errKey    string
	}{
		{"defaults", "", 24 * time.Hour, 1000, 0, ""},
		{"set", "[digest]\nwindow = \"72h\"\n[budget]\ndigest = 250\n", 72 * time.Hour, 250, 0, ""},
		{"dotted", "digest.window = \"90m\"\n", 90 * time.Minute, 1000, 0, ""},
		{"zero budget lists nothing but is valid", "[budget]\ndigest = 0\n", 24 * time.Hour, 0, 0, ""},
		{"not a duration", "[digest]\n\nwindow = \"a day\"\n", 0, 0, 3, "digest.window"},
		{"negative window", "[digest]\nwindow = \"-1h\"\n", 0, 0, 2, "digest.window"},
		{"negative budget", "[budget]\ndigest = -5\n", 0, 0, 2, "budget.digest"},
		{"unknown key", "[digest]\nwindw = \"1h\"\n", 0, 0, 2, "digest.windw"},
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
			if cfg.Digest.Window != tc.window || cfg.Budget.Digest != tc.budget {
				t.Fatalf("window %v budget %d, want %v %d", cfg.Digest.Window, cfg.Budget.Digest, tc.window, tc.budget)
			}
		})
	}
}

// TestSkeletonConfigHasDigest proves init's commented wake.toml documents
// the digest keys and that uncommenting them gives the defaults.
func TestSkeletonConfigHasDigest(t *testing.T) {
	t.Parallel()
	files, err := skeleton.Files(skeleton.Params{Project: "p"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Path != ConfigPath {
			continue
		}
		text := string(f.Data)
		for _, want := range []string{"\n[digest]\n", "\n# window = \"24h\"", "\n# digest = 1000"} {
			if !strings.Contains(text, want) {
				t.Fatalf("skeleton wake.toml lacks %q", want)
			}
		}
		uncommented := strings.NewReplacer("\n# window =", "\nwindow =", "\n# digest =", "\ndigest =").Replace(text)
		cfg, err := ParseConfig(f.Path, []byte(uncommented))
		if err != nil {
			t.Fatal(err)
		}
		def := DefaultConfig()
		if cfg.Digest != def.Digest || cfg.Budget != def.Budget {
			t.Fatalf("uncommented digest keys give %+v %+v, want the defaults", cfg.Digest, cfg.Budget)
		}
		return
	}
	t.Fatal("no wake.toml in the skeleton")
}

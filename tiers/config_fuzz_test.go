package tiers

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzParseConfig checks that no wake.toml content makes ParseConfig
// panic or hang, that every error is a *ConfigError naming the file (so the CLI
// can point at it), and that an accepted configuration keeps the
// invariants the budgets rely on.
func FuzzParseConfig(f *testing.F) {
	if shipped, err := os.ReadFile(filepath.Join("..", "skeleton", "files", "wake.toml")); err == nil {
		f.Add(shipped)
	}
	for _, s := range []string{
		"", "agent = \"Ava\"\n", "[budget]\nmain = 2000\n", "[budget]\nmemory_max = -1\n",
		"encoding = \"p50k\"\n", "[checks]\nstale_after = \"0s\"\n", "[digest]\nwindow = \"forever\"\n",
		"unknown = 1\n", "[budget\n", "agent = \n", "team = [\"a\", 1]\n", "[claude]\nboot = \"skill\"\n",
		"context_window = 9999999999999999999999\n", "[budget]\nmemory_target = 70000\n",
		"[budget]\nmain = 1\n[budget]\nmain = 2\n", "agent = \"\\u0000\"\n", "[skill]\npath = \"../x\"\n",
	} {
		f.Add([]byte(s))
	}
	const name = "/r/wake.toml"
	f.Fuzz(func(t *testing.T, data []byte) {
		var cfg Config
		var err error
		done := make(chan struct{})
		go func() { defer close(done); cfg, err = ParseConfig(name, data) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("ParseConfig has not returned after 5s on %q", data)
		}
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Path != name || !strings.HasPrefix(err.Error(), name) {
				t.Fatalf("error %T %q does not name %s", err, err, name)
			}
			return
		}
		b := cfg.Budget
		if b.MemoryTarget > b.MemoryMax || b.MemoryMax > cfg.ContextWindow || b.Main < 0 || cfg.Checks.StaleAfter <= 0 || cfg.Digest.Window <= 0 {
			t.Fatalf("accepted an inconsistent configuration: %+v", cfg)
		}
	})
}

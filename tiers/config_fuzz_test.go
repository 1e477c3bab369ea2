package tiers

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// FuzzParseConfig checks that no wake.toml content makes ParseConfig
// panic or hang; that every error is a *ConfigError naming the file (so the
// CLI can point at it), in words without Go type names or control
// characters; and that an accepted configuration lies within every range
// of the table above configKeys, written out again here.
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
		"[budget]\nmain = 9223372036854775807\n", "context_window = 0\n", "context_window = 1000\n",
		"agent = 1\n", "[[budget]]\n", "budget = {main = 1, main = 2}\n", "[budget]\nmain = 1e999\n",
		"[checks]\nstale_after = \"87600h\"\n", "team = [\"\"\"a\nb\"\"\"]\n", "\"x\\u001b\" = 1\n",
		"[capsule]\nmax_tokens = 300\n[capsule.agents]\nExplore = 0\n", "[capsule.agents]\n\"\" = 5\n",
		tiny, roomy("budget.main", "9999000"),
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
			text := err.Error()
			if !errors.As(err, &ce) || ce.Path != name || !strings.HasPrefix(text, name) {
				t.Fatalf("error %T %q does not name %s", err, err, name)
			}
			if goNames.MatchString(text) || strings.IndexFunc(text, unicode.IsControl) >= 0 {
				t.Fatalf("error %q names a Go type or holds a control character", text)
			}
			return
		}
		if msg := outOfRange(cfg); msg != "" {
			t.Fatalf("accepted %s: %+v", msg, cfg)
		}
	})
}

// outOfRange says which documented range cfg breaks, or "".
func outOfRange(cfg Config) string {
	b, s := cfg.Budget, cfg.Skill
	counts := []int{b.MemoryMax, b.MemoryTarget, b.WorkMin, b.Main, b.Recent, b.Warm, b.Cold, b.TOC, b.Digest, b.Inbox,
		s.Budget, s.Identity, s.Active, s.Protocols, s.Recent, s.History}
	parts := []int{b.MemoryTarget, b.Recent, b.Warm, b.Cold, b.TOC, b.Digest, b.Inbox, s.Budget}
	switch {
	case slices.Min(counts) < 0 || slices.Max(counts) > 10_000_000:
		return "a budget outside 0..10000000"
	case cfg.ContextWindow < 1000 || cfg.ContextWindow > 10_000_000:
		return "a context_window outside 1000..10000000"
	case b.MemoryMax > cfg.ContextWindow || b.Main+1000 > b.MemoryMax || b.WorkMin+b.Main+1000 > cfg.ContextWindow:
		return "a memory_max or work_min that does not fit"
	case slices.Max(parts) > b.MemoryMax:
		return "a part over memory_max"
	case max(s.Identity, s.Active, s.Protocols, s.Recent, s.History) > s.Budget:
		return "a skill section over skill.budget"
	case !inDurations(cfg.Checks.StaleAfter) || !inDurations(cfg.Digest.Window):
		return "a duration outside 1m..87600h"
	case cfg.Encoding != EncodingCL100K && cfg.Encoding != EncodingO200K, cfg.Claude.Boot != BootFull && cfg.Claude.Boot != BootSkill:
		return "an unknown encoding or boot mode"
	case !oneLine(cfg.Agent, 100) || !oneLine(cfg.Skill.Path, 4096) || len(cfg.Team) > 32:
		return "a bad agent, skill.path or team"
	}
	if cp := cfg.Capsule; cp.MaxTokens < 200 || cp.MaxTokens > cp.PromptCeiling || cp.PromptCeiling > 10_000_000 ||
		cp.HookBytes < 0 || cp.HookBytes > 10000 {
		return "a capsule budget out of range"
	}
	for typ, n := range cfg.Capsule.Agents {
		if n < 0 || n > 10000 || !oneLine(typ, 100) {
			return "a bad capsule.agents entry"
		}
	}
	for _, m := range cfg.Team {
		if !oneLine(m, 200) || strings.TrimSpace(m) == "" {
			return "a bad team member"
		}
	}
	return ""
}

func inDurations(d time.Duration) bool { return d >= time.Minute && d <= 87600*time.Hour }

func oneLine(s string, most int) bool {
	return utf8.ValidString(s) && utf8.RuneCountInString(s) <= most &&
		strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }) < 0
}

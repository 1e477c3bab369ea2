package tiers

import (
	"errors"
	"strings"
	"testing"
)

func TestConfigCapsuleDefaults(t *testing.T) {
	cfg, err := ParseConfig("wake.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Capsule
	if c.MaxTokens != 1200 || c.PromptCeiling != 5000 || c.HookBytes != 4096 || len(c.Agents) != 0 {
		t.Errorf("defaults = %+v, want 1200, 5000, 4096 and no agents", c)
	}
	if got := c.AgentBytes("Explore"); got != 4096 {
		t.Errorf("AgentBytes(Explore) with no [capsule.agents] = %d, want hook_bytes 4096", got)
	}
}

func TestConfigCapsuleValues(t *testing.T) {
	cfg, err := ParseConfig("wake.toml", []byte(`
[capsule]
max_tokens = 800
prompt_ceiling = 3000
hook_bytes = 2048

[capsule.agents]
Explore = 0
"general-purpose" = 6000
`))
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Capsule
	if c.MaxTokens != 800 || c.PromptCeiling != 3000 || c.HookBytes != 2048 {
		t.Errorf("capsule = %+v", c)
	}
	for typ, want := range map[string]int{"Explore": 0, "explore": 0, "general-purpose": 6000, "Plan": 2048} {
		if got := c.AgentBytes(typ); got != want {
			t.Errorf("AgentBytes(%q) = %d, want %d", typ, got, want)
		}
	}
}

func TestConfigCapsuleErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"[capsule]\nmax_tokens = 100\n", "/r/wake.toml:2: key capsule.max_tokens: 100 is below 200"},
		{"[capsule]\n\nprompt_ceiling = 20000000\n", "/r/wake.toml:3: key capsule.prompt_ceiling: 20000000 is above 10000000"},
		{"[capsule]\nhook_bytes = 10001\n", "/r/wake.toml:2: key capsule.hook_bytes: 10001 is not from 0 to 10000"},
		{"[capsule]\nhook_bytes = \"4k\"\n", "/r/wake.toml:2: key capsule.hook_bytes: expected an integer, got a string"},
		{"[capsule]\nmax_tokens = 6000\n", "/r/wake.toml:2: key capsule.max_tokens: 6000 is above capsule.prompt_ceiling (5000, the default)"},
		{"[capsule]\nprompt_ceiling = 1000\n", "/r/wake.toml:2: key capsule.prompt_ceiling: 1000 is below the default of capsule.max_tokens (1200)"},
		{"[capsule]\nmax_tokns = 1000\n", "/r/wake.toml:2: key capsule.max_tokns is not a wake.toml key; did you mean capsule.max_tokens?"},
		{"[capsule.agents]\nExplore = -1\n", "/r/wake.toml:2: key capsule.agents.Explore: -1 is not from 0 to 10000"},
		{"[capsule.agents]\nExplore = 20000\n", "/r/wake.toml:2: key capsule.agents.Explore: 20000 is not from 0 to 10000"},
		{"[capsule.agents]\nPlan = true\n", "/r/wake.toml:2: key capsule.agents.Plan: expected an integer, got a boolean"},
		{"[capsule.agents.Plan]\nx = 1\n", "/r/wake.toml:1: key capsule.agents.Plan: expected an integer, got a table"},
		{"[capsule]\n\n\nagents = 3\n", "/r/wake.toml:4: key capsule.agents: expected a table, got an integer"},
		{"[capsule.agents]\n\"a\\tb\" = 1\n", "/r/wake.toml:2: key capsule.agents.\"a\\tb\": the subagent type"},
	} {
		_, err := ParseConfig("/r/wake.toml", []byte(tc.src))
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%q: error %v, want a *ConfigError", tc.src, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q:\n got %s\nwant %s...", tc.src, err, tc.want)
		}
	}
}

// TestConfigCapsuleMini: Explore agents get the mini capsule by default,
// within 300 tokens; [capsule] mini_agents and mini_tokens change both,
// and plans names where the plans are.
func TestConfigCapsuleMini(t *testing.T) {
	def, err := ParseConfig("wake.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := def.Capsule; !c.Mini("Explore") || !c.Mini("explore") || c.Mini("general-purpose") || c.MiniTokens != 300 || len(c.Plans) == 0 {
		t.Errorf("defaults: %+v", c)
	}
	cfg, err := ParseConfig("wake.toml", []byte("[capsule]\nmini_agents = [\"Plan\", \"reviewer\"]\nmini_tokens = 120\nplans = [\"notes/{branch}.md\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.Capsule; c.Mini("Explore") || !c.Mini("Plan") || !c.Mini("Reviewer") || c.MiniTokens != 120 || len(c.Plans) != 1 || c.Plans[0] != "notes/{branch}.md" {
		t.Errorf("values: %+v", c)
	}
	for _, tc := range []struct{ src, want string }{
		{"[capsule]\nmini_tokens = 10\n", "/r/wake.toml:2: key capsule.mini_tokens: 10 is below 50"},
		{"[capsule]\nmini_agents = \"Explore\"\n", "/r/wake.toml:2: key capsule.mini_agents: expected an array of strings, got a string"},
		{"[capsule]\nmini_agents = [\"\"]\n", "/r/wake.toml:2: key capsule.mini_agents: entry 1 is empty"},
		{"[capsule]\nplans = [1]\n", "/r/wake.toml:2: key capsule.plans: expected an array of strings; entry 1 is an integer"},
	} {
		_, err := ParseConfig("/r/wake.toml", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s...", tc.src, err, tc.want)
		}
	}
}

package tiers

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/skeleton"
)

func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	if cfg.Budget.MemoryMax != 60000 || cfg.Budget.Warm != 25000 || cfg.Encoding != EncodingCL100K ||
		cfg.Skill.Path != "~/.claude/agentchat.skill.md" || cfg.Checks.StaleAfter != 168*time.Hour {
		t.Fatalf("defaults: %+v", cfg)
	}
}

func TestConfigOverrides(t *testing.T) {
	t.Parallel()
	cfg, err := ParseConfig("wake.toml", []byte(`
agent = "Ava"
team = ["Ben: reviewer"]
encoding = "o200k_base"
[budget]
warm = 30000
[skill]
path = ""
[checks]
stale_after = "24h"
`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Agent != "Ava" || cfg.Team[0] != "Ben: reviewer" || cfg.Encoding != EncodingO200K ||
		cfg.Budget.Warm != 30000 || cfg.Budget.Main != 2000 || cfg.Skill.Path != "" || cfg.Checks.StaleAfter != 24*time.Hour {
		t.Fatalf("overrides: %+v", cfg)
	}
}

// TestSkeletonConfigParses proves the commented wake.toml that init writes
// decodes to the defaults, with and without an agent.
func TestSkeletonConfigParses(t *testing.T) {
	t.Parallel()
	for _, agent := range []string{"", `Ava "the" reviewer`} {
		files, err := skeleton.Files(skeleton.Params{Agent: agent, Project: "p"})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if f.Path != ConfigPath {
				continue
			}
			cfg, err := ParseConfig(f.Path, f.Data)
			if err != nil {
				t.Fatalf("skeleton wake.toml: %v", err)
			}
			want := DefaultConfig()
			want.Agent = agent
			if cfg.Agent != want.Agent || cfg.Budget != want.Budget || cfg.Skill != want.Skill {
				t.Fatalf("skeleton config %+v, want %+v", cfg, want)
			}
		}
	}
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		line      int
		key, msg  string
	}{
		{"unknown key", "agent = \"a\"\n[budget]\nwarmth = 3\n", 3, "budget.warmth", "is not a wake.toml key; did you mean budget.warm?"},
		{"unknown table", "\n[bogus]\nx = 1\n", 2, "bogus", "is not a wake.toml key"},
		{"wrong type", "[budget]\n\nmain = \"lots\"\n", 3, "budget.main", "expected an integer, got a string"},
		{"negative", "[budget]\nmain = 5\nrecent = -1\n", 3, "budget.recent", "negative"},
		{"negative skill", "[skill]\nbudget = -4000\n", 2, "skill.budget", "negative"},
		{"dotted negative", "budget.cold = -3\n", 1, "budget.cold", "negative"},
		{"encoding", "encoding = \"p50k_base\"\n", 1, "encoding", `"p50k_base" is not "cl100k_base" or "o200k_base"`},
		{"duration", "[checks]\nstale_after = \"soon\"\n", 2, "checks.stale_after", "duration"},
		{"target over max", "[budget]\nmemory_target = 70000\n", 2, "budget.memory_target", "70000 is above budget.memory_max (60000, the default)"},
		{"max under floor", "[budget]\nmemory_target = 100\nmemory_max = 300\n", 3, "budget.memory_max", "at least budget.main + 1000 (3000)"},
		{"work_min leaves no room", "context_window = 150000\n[budget]\nwork_min = 148000\n", 3, "budget.work_min", "leaves 2000 tokens of context_window (150000)"},
		{"syntax", "agent = \n", 1, "", "/r/wake.toml:1:9: unexpected character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig("/r/wake.toml", []byte(tc.src))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a ConfigError", err)
			}
			if ce.Line != tc.line || ce.Key != tc.key || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("got line %d key %q (%v), want line %d key %q containing %q", ce.Line, ce.Key, err, tc.line, tc.key, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), "/r/wake.toml:") {
				t.Fatalf("error does not name the file: %v", err)
			}
		})
	}
}

func TestFindRoot(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	fs.MkdirAll("/home/u/proj/.wake", 0o755)
	fs.MkdirAll("/home/u/proj/src/deep", 0o755)
	fs.MkdirAll("/elsewhere/mem/warm", 0o755) // a memory root has at least one of its entries
	afero.WriteFile(fs, "/home/u/file", []byte("x"), 0o644)
	for _, tc := range []struct {
		flag, env, cwd, want, err string
	}{
		{"", "", "/home/u/proj/src/deep", "/home/u/proj/.wake", ""},
		{"", "", "/home/u/proj", "/home/u/proj/.wake", ""},
		{"", "/elsewhere/mem", "/home/u/proj", "/elsewhere/mem", ""},
		{"../../elsewhere/mem", "/nope", "/home/u", "/elsewhere/mem", ""},
		{"", "", "/home/u", "", "no memory root found"},
		{"/missing", "", "/home/u/proj", "", "--root /missing: no memory root found"},
		{"", "/missing", "/home/u/proj", "", "$WAKE_ROOT /missing: no memory root found"},
		{"/home/u/file", "", "/", "", "not a directory"},
	} {
		got, err := FindRoot(fs, tc.flag, tc.env, tc.cwd)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("FindRoot(%q,%q,%q) error %v, want %q", tc.flag, tc.env, tc.cwd, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("FindRoot(%q,%q,%q) = %q, %v; want %q", tc.flag, tc.env, tc.cwd, got, err, tc.want)
		}
	}
}

// wantConfigError fails unless err is a *ConfigError at line and key.
func wantConfigError(t *testing.T, err error, line int, key string) {
	t.Helper()
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Line != line || ce.Key != key {
		t.Fatalf("got %v, want an error at line %d key %s", err, line, key)
	}
}

// TestCheckAgentMatchesParse proves CheckAgent, which wake init runs on
// --agent, refuses exactly the names that would make the wake.toml it
// writes fail to parse.
func TestCheckAgentMatchesParse(t *testing.T) {
	t.Parallel()
	for _, agent := range []string{"Ava", "", `Ava "the" reviewer`, strings.Repeat("a", 100), strings.Repeat("a", 101), "A\tva", "A\x1bva", "Ava\u2028"} {
		files, err := skeleton.Files(skeleton.Params{Agent: agent, Project: "p"})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if f.Path != ConfigPath {
				continue
			}
			_, perr := ParseConfig(f.Path, f.Data)
			if cerr := CheckAgent(agent); (cerr == nil) != (perr == nil) {
				t.Errorf("agent %q: CheckAgent says %v, ParseConfig says %v", agent, cerr, perr)
			}
		}
	}
}

package tiers

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestConfigTypeErrors: a value of the wrong type, an unknown key and bad
// TOML say so in TOML's words, never Go's, with the line (and the column
// where TOML's own syntax is at fault).
func TestConfigTypeErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		line      int
		key, msg  string
	}{
		{"agent an integer", "agent = 1\n", 1, "agent", "key agent: expected a string, got an integer"},
		{"team a string", "\nteam = \"Ben\"\n", 2, "team", "key team: expected an array of strings, got a string"},
		{"team with an integer", "team = [\"Ben\", 1]\n", 1, "team", "key team: expected an array of strings; entry 2 is an integer"},
		{"team of tables", "team = [{name = \"Ben\"}]\n", 1, "team", "entry 1 is a table"},
		{"a table set to an integer", "budget = 3\n", 1, "budget", "key budget: expected a table, got an integer"},
		{"an array of tables", "[[budget]]\nmain = 1\n", 1, "budget", "key budget: expected a table, got an array of tables"},
		{"a string opened as a table", "[agent]\n", 1, "agent", "key agent: expected a string, got a table"},
		{"a string dotted into", "agent.name = \"Ava\"\n", 1, "agent", "key agent: expected a string, got a table"},
		{"a budget a float", "[budget]\nmain = 2000.0\n", 2, "budget.main", "key budget.main: expected an integer, got a float"},
		{"a budget a string", "[budget]\nmain = \"2000\"\n", 2, "budget.main", "expected an integer, got a string"},
		{"a budget a boolean", "[budget]\nmain = true\n", 2, "budget.main", "expected an integer, got a boolean"},
		{"a budget a date", "[budget]\nmain = 2026-01-01\n", 2, "budget.main", "expected an integer, got a date"},
		{"a budget an array", "skill.budget = [4000]\n", 1, "skill.budget", "expected an integer, got an array"},
		{"a budget an inline table", "context_window = {}\n", 1, "context_window", "expected an integer, got a table"},
		{"a duration an integer", "[checks]\nstale_after = 168\n", 2, "checks.stale_after", `expected a duration such as "168h", got an integer`},
		{"a duration a time", "digest.window = 12:00:00\n", 1, "digest.window", "got a time"},
		{"boot a boolean", "[claude]\nboot = true\n", 2, "claude.boot", `expected a string, "full" or "skill", got a boolean`},
		{"encoding an array", "encoding = [\"o200k_base\"]\n", 1, "encoding", "got an array"},
		{"skill.path an integer", "[skill]\npath = 0\n", 2, "skill.path", "expected a string, got an integer"},
		{"unknown key", "[budget]\nfoo = 1\n", 2, "budget.foo", "key budget.foo is not a wake.toml key"},
		{"unknown key, a typo", "[budget]\nwarmth = 1\n", 2, "budget.warmth", "is not a wake.toml key; did you mean budget.warm?"},
		{"unknown key, a swap", "[budget]\nmian = 1\n", 2, "budget.mian", "did you mean budget.main?"},
		{"unknown key, wrong table", "[checks]\nrecent = 1\n", 2, "checks.recent", "did you mean budget.recent or skill.recent?"},
		{"unknown key, top level", "memory_max = 1\n", 1, "memory_max", "did you mean budget.memory_max?"},
		{"unknown key, capitals", "Agent = \"Ava\"\n", 1, "Agent", "did you mean agent?"},
		{"unknown table", "agent = \"Ava\"\n[budgets]\nwarm = 5\n", 2, "budgets", "key budgets is not a wake.toml key; did you mean budget?"},
		{"unknown key under a known one", "[budget.main]\n", 1, "budget.main", "expected an integer, got a table"},
		{"quoted key with a dot", "\"budget.main\" = 1\n", 1, `"budget.main"`, `key "budget.main" is not a wake.toml key`},
		{"key with an escape", "\"x\\u001b\" = 1\n", 1, `"x\x1b"`, "is not a wake.toml key"},
		{"key set twice", "[budget]\nmain = 1\nmain = 2\n", 3, "budget.main", "/r/wake.toml:3:1: key budget.main is already defined, on line 2"},
		{"table opened twice", "[skill]\n\n[skill]\n", 3, "skill", "/r/wake.toml:3:2: key skill is already defined, on line 1"},
		{"integer past int64", "context_window = 99999999999999999999\n", 1, "context_window",
			"/r/wake.toml:1:18: key context_window: decimal number is too large to fit in a 64-bit signed integer; allowed: an integer from 1000 to 10000000"},
		{"float out of range", "[budget]\nmain = 1e999\n", 2, "budget.main", "/r/wake.toml:2:8: key budget.main: unable to parse float: out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig("/r/wake.toml", []byte(tc.src))
			wantKeyError(t, err, tc.line, tc.key, tc.msg)
		})
	}
}

// TestConfigSyntaxErrors: TOML that does not parse names the line and
// the column.
func TestConfigSyntaxErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{"agent = \n", "/r/wake.toml:1:9: unexpected character U+000A at start of value"},
		{"[budget\n", "/r/wake.toml:1:8: expected ']' to close table name"},
		{"agent = \"Ava\"\nteam = [\"Ben\"\n", "/r/wake.toml:2:"},
		{"agent = \"a\nb\"\n", "/r/wake.toml:1:"},
		{"agent\x1b = 1\n", "/r/wake.toml:1:6: "},
	} {
		_, err := ParseConfig("/r/wake.toml", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || goNames.MatchString(err.Error()) || strings.ContainsRune(err.Error(), 0x1b) {
			t.Errorf("%q: got %v, want %q...", tc.src, err, tc.want)
		}
	}
}

// TestConfigStrings runs each string and duration key through its range.
func TestConfigStrings(t *testing.T) {
	t.Parallel()
	long := func(n int) string { return strings.Repeat("é", n) }
	members := func(n int) string { return "[" + strings.Repeat(`"Ben: reviewer", `, n) + "]" }
	for _, tc := range []struct {
		name, src string
		get       func(Config) any
		want      any    // the value stored, when msg is ""
		line      int    // 1 unless the source has more lines
		key, msg  string // the error
	}{
		{"agent", `agent = "Ava"`, getAgent, "Ava", 0, "", ""},
		{"agent empty", `agent = ""`, getAgent, "", 0, "", ""},
		{"agent at most", fmt.Sprintf("agent = %q", long(100)), getAgent, long(100), 0, "", ""},
		{"agent too long", fmt.Sprintf("agent = %q", long(101)), nil, nil, 1, "agent", "is 101 characters long; agent is one line of at most 100 characters"},
		{"agent two lines", "agent = \"\"\"Ava\nthe reviewer\"\"\"", nil, nil, 1, "agent", `"Ava\nthe reviewer" is more than one line`},
		{"agent line separator", `agent = "Ava\u2028x"`, nil, nil, 1, "agent", "is more than one line"},
		{"agent escape", `agent = "Ava\u001b[2J"`, nil, nil, 1, "agent", `"Ava\x1b[2J" has a control character (U+001B)`},
		{"agent NUL", `agent = "\u0000"`, nil, nil, 1, "agent", "has a control character (U+0000)"},
		{"agent tab", `agent = "A	va"`, nil, nil, 1, "agent", "has a control character (U+0009)"},
		{"agent shown cut", fmt.Sprintf("agent = %q", strings.Repeat("x", 500)), nil, nil, 1, "agent", `"` + strings.Repeat("x", 40) + `"… is 500 characters long`},
		{"team", `team = ["Ben: reviewer", "Cy"]`, getTeam, []string{"Ben: reviewer", "Cy"}, 0, "", ""},
		{"team empty", `team = []`, getTeam, []string{}, 0, "", ""},
		{"team at most", "team = " + members(32), getTeam, strings.Split(strings.Repeat("Ben: reviewer,", 32), ",")[:32], 0, "", ""},
		{"team too many", "team = " + members(33), nil, nil, 1, "team", "lists 33 members; team lists at most 32 members"},
		{"team blank entry", `team = ["Ben", " "]`, nil, nil, 1, "team", "entry 2 is empty"},
		{"team member at most", fmt.Sprintf("team = [%q]", long(200)), getTeam, []string{long(200)}, 0, "", ""},
		{"team member too long", fmt.Sprintf("team = [%q]", long(201)), nil, nil, 1, "team", "entry 1: " + `"` + long(40) + `"… is 201 characters long`},
		{"team member two lines", `team = ["Ben\nreviewer"]`, nil, nil, 1, "team", "entry 1: \"Ben\\nreviewer\" is more than one line"},
		{"encoding o200k", `encoding = "o200k_base"`, getEncoding, EncodingO200K, 0, "", ""},
		{"encoding cl100k", `encoding = "cl100k_base"`, getEncoding, EncodingCL100K, 0, "", ""},
		{"encoding other", `encoding = "p50k_base"`, nil, nil, 1, "encoding", `"p50k_base" is not "cl100k_base" or "o200k_base"`},
		{"encoding capitals", `encoding = "CL100K_BASE"`, nil, nil, 1, "encoding", "is not"},
		{"boot skill", "[claude]\nboot = \"skill\"", getBoot, BootSkill, 0, "", ""},
		{"boot other", "[claude]\nboot = \"Full\"", nil, nil, 2, "claude.boot", `"Full" is not "full" or "skill"`},
		{"path off", "[skill]\npath = \"\"", getPath, "", 0, "", ""},
		{"path home", "[skill]\npath = \"~/notes/skill.md\"", getPath, "~/notes/skill.md", 0, "", ""},
		{"path at most", fmt.Sprintf("[skill]\npath = %q", strings.Repeat("a", 4096)), getPath, strings.Repeat("a", 4096), 0, "", ""},
		{"path too long", fmt.Sprintf("[skill]\npath = %q", strings.Repeat("a", 4097)), nil, nil, 2, "skill.path", "is 4097 characters long; skill.path is a path"},
		{"path NUL", "[skill]\npath = \"a\\u0000b\"", nil, nil, 2, "skill.path", `"a\x00b" has a control character (U+0000)`},
		{"path two lines", "[skill]\npath = \"a\\nb\"", nil, nil, 2, "skill.path", "is more than one line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseConfig("/r/wake.toml", []byte(tc.src+"\n"))
			if tc.key != "" {
				wantKeyError(t, err, tc.line, tc.key, tc.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.get(cfg); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func getAgent(c Config) any    { return c.Agent }
func getTeam(c Config) any     { return c.Team }
func getEncoding(c Config) any { return c.Encoding }
func getBoot(c Config) any     { return c.Claude.Boot }
func getPath(c Config) any     { return c.Skill.Path }

// TestConfigDurations runs both durations below, at and above each end.
func TestConfigDurations(t *testing.T) {
	t.Parallel()
	for _, key := range []string{"checks.stale_after", "digest.window"} {
		table, name, _ := strings.Cut(key, ".")
		for _, tc := range []struct {
			value string
			want  time.Duration
			msg   string
		}{
			{"59s", 0, `"59s" is shorter than a minute; durations run from 1m to 87600h (ten years); 30d and 2w count days and weeks`},
			{"0s", 0, "is shorter than a minute"},
			{"-1h", 0, "is shorter than a minute"},
			{"1m", time.Minute, ""},
			{"87600h", 87600 * time.Hour, ""},
			{"87600h1s", 0, `"87600h1s" is longer than ten years`},
			{"99999999h", 0, `"99999999h" is not a duration such as`},
			{"soon", 0, `"soon" is not a duration such as`},
		} {
			t.Run(key+" "+tc.value, func(t *testing.T) {
				cfg, err := ParseConfig("/r/wake.toml", []byte(fmt.Sprintf("[%s]\n%s = %q\n", table, name, tc.value)))
				if tc.msg != "" {
					wantKeyError(t, err, 2, key, tc.msg)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := map[string]time.Duration{"checks": cfg.Checks.StaleAfter, "digest": cfg.Digest.Window}[table]; got != tc.want {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			})
		}
	}
}

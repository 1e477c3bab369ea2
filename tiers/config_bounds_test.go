package tiers

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// goNames matches what a Go type or function name in an error looks like;
// wake.toml's errors speak TOML.
var goNames = regexp.MustCompile(`tiers\.|fileConfig|int64|float64|\[\]string|strconv\.|reflect|map\[|interface ?\{`)

// wantKeyError fails unless err is a *ConfigError at line and key whose
// text starts with the file, the line and the key, contains msg and names
// no Go type.
func wantKeyError(t *testing.T, err error, line int, key, msg string) {
	t.Helper()
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want a ConfigError at line %d key %s", err, line, key)
	}
	text := err.Error()
	prefix := fmt.Sprintf("/r/wake.toml:%d", line)
	if ce.Line != line || ce.Key != key || !strings.HasPrefix(text, prefix) || !strings.Contains(text, "key "+key) {
		t.Fatalf("got %q (line %d key %q), want line %d key %q", text, ce.Line, ce.Key, line, key)
	}
	if !strings.Contains(text, msg) {
		t.Fatalf("got %q, want it to contain %q", text, msg)
	}
	if goNames.MatchString(text) {
		t.Fatalf("error names a Go type: %q", text)
	}
}

// tokenFields reads each token count of a Config by its wake.toml key.
var tokenFields = map[string]func(Config) int{
	"context_window":       func(c Config) int { return c.ContextWindow },
	"budget.memory_max":    func(c Config) int { return c.Budget.MemoryMax },
	"budget.memory_target": func(c Config) int { return c.Budget.MemoryTarget },
	"budget.work_min":      func(c Config) int { return c.Budget.WorkMin },
	"budget.main":          func(c Config) int { return c.Budget.Main },
	"budget.recent":        func(c Config) int { return c.Budget.Recent },
	"budget.warm":          func(c Config) int { return c.Budget.Warm },
	"budget.cold":          func(c Config) int { return c.Budget.Cold },
	"budget.toc":           func(c Config) int { return c.Budget.TOC },
	"budget.digest":        func(c Config) int { return c.Budget.Digest },
	"budget.inbox":         func(c Config) int { return c.Budget.Inbox },
	"skill.budget":         func(c Config) int { return c.Skill.Budget },
	"skill.identity":       func(c Config) int { return c.Skill.Identity },
	"skill.active":         func(c Config) int { return c.Skill.Active },
	"skill.protocols":      func(c Config) int { return c.Skill.Protocols },
	"skill.recent":         func(c Config) int { return c.Skill.Recent },
	"skill.history":        func(c Config) int { return c.Skill.History },
}

// roomy is a wake.toml in which every budget may reach the cap: the keys
// that bound the others are at their largest. key = value is on line 5.
func roomy(key, value string) string {
	var b strings.Builder
	for _, kv := range [][2]string{{"context_window", "10000000"}, {"budget.memory_max", "10000000"}, {"budget.work_min", "0"}, {"skill.budget", "10000000"}} {
		if kv[0] == key {
			b.WriteString("# " + key + " is below\n")
			continue
		}
		fmt.Fprintf(&b, "%s = %s\n", kv[0], kv[1])
	}
	fmt.Fprintf(&b, "%s = %s\n", key, value)
	return b.String()
}

// tiny is the smallest configuration: every budget at the least its
// neighbours allow. Each key is on a line of its own, at the line given.
const tiny = `context_window = 1000
[budget]
memory_max = 1000
memory_target = 1000
work_min = 0
main = 0
recent = 1000
warm = 1000
cold = 1000
toc = 1000
digest = 1000
[skill]
budget = 1000
identity = 1000
active = 1000
protocols = 1000
recent = 1000
history = 1000
`

// TestConfigTokenBounds runs every token count below, at and above each
// end of its range.
func TestConfigTokenBounds(t *testing.T) {
	t.Parallel()
	type row struct {
		name, src string
		key       string
		want      int    // the value stored, when msg is ""
		line      int    // the error's line, when msg is set
		msg       string // what the error says
	}
	var rows []row
	for key := range tokenFields {
		lo, hi := "0", "10000000"
		switch key {
		case "context_window":
			lo = "1000"
		case "budget.memory_max":
			lo = "3000" // budget.main (2000) + the context's own 1000
		case "budget.main":
			hi = "9999000" // memory_max less the context's own 1000
		case "budget.work_min":
			hi = "9997000" // context_window less budget.main and 1000
		}
		switch key {
		case "context_window", "budget.memory_max":
			// Their least is tiny's: every part must shrink with them.
		case "skill.budget":
			rows = append(rows, row{"at least", "[skill]\nbudget = 0\nidentity = 0\nactive = 0\nprotocols = 0\nrecent = 0\nhistory = 0\n", key, 0, 0, ""})
		default:
			rows = append(rows, row{"at least", roomy(key, lo), key, atoi(lo), 0, ""})
		}
		rows = append(rows,
			row{"at most", roomy(key, hi), key, atoi(hi), 0, ""},
			row{"one above the most", roomy(key, fmt.Sprint(atoi(hi)+1)), key, 0, 5, fmt.Sprintf("key %s: %d ", key, atoi(hi)+1)},
			row{"int64 max", roomy(key, "9223372036854775807"), key, 0, 5, "9223372036854775807 is above 10000000"},
			row{"int64 min", roomy(key, "-9223372036854775808"), key, 0, 5, "-9223372036854775808 is "},
			row{"past int64", roomy(key, "9223372036854775808"), key, 0, 5, "; allowed: an integer from "},
		)
		below := fmt.Sprint(atoi(lo) - 1)
		msg := below + " is negative; budgets are token counts of 0 or more"
		switch key {
		case "context_window":
			msg = "999 is below 1000; a context window holds 1000 to 10000000 tokens"
		case "budget.memory_max":
			msg = "2999 leaves no room for main.md and the context itself: it must be at least budget.main + 1000 (3000)"
		}
		rows = append(rows, row{"one below the least", roomy(key, below), key, 0, 5, msg})
	}
	for line, text := range strings.Split(tiny, "\n") {
		if k, v, ok := strings.Cut(text, " = "); ok {
			table := map[bool]string{true: "budget.", false: "skill."}[line < 11]
			if k == "context_window" {
				table = ""
			}
			rows = append(rows, row{"tiny", tiny, table + k, atoi(v), 0, ""})
		}
	}
	rows = append(rows,
		row{"tiny, one below", strings.Replace(tiny, "memory_max = 1000", "memory_max = 999", 1), "budget.memory_max", 0, 3,
			"999 leaves no room for main.md and the context itself: it must be at least budget.main + 1000 (1000)"},
		row{"tiny, main one above", strings.Replace(tiny, "main = 0", "main = 1", 1), "budget.main", 0, 6,
			"1 does not fit in budget.memory_max (1000) with the context itself"},
		row{"tiny, work_min one above", strings.Replace(tiny, "work_min = 0", "work_min = 1", 1), "budget.work_min", 0, 5,
			"1 leaves 999 tokens of context_window (1000) for memory; budget.main + 1000 (1000) is needed, so work_min may be at most 0"},
		row{"tiny, a part one above", strings.Replace(tiny, "toc = 1000", "toc = 1001", 1), "budget.toc", 0, 10,
			"1001 is above budget.memory_max (1000)"},
		row{"tiny, a section one above", strings.Replace(tiny, "active = 1000", "active = 1001", 1), "skill.active", 0, 15,
			"1001 is above skill.budget (1000)"},
	)
	for _, r := range rows {
		t.Run(r.key+" "+r.name, func(t *testing.T) {
			cfg, err := ParseConfig("/r/wake.toml", []byte(r.src))
			if r.msg != "" {
				wantKeyError(t, err, r.line, r.key, r.msg)
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, r.src)
			}
			if got := tokenFields[r.key](cfg); got != r.want {
				t.Fatalf("%s = %d, want %d", r.key, got, r.want)
			}
		})
	}
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// TestConfigRelations covers the keys that bound one another: the error
// names the key the file sets, at its line, and a default by its value.
func TestConfigRelations(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		line      int
		key, msg  string
	}{
		{"window zero", "\ncontext_window = 0\n", 2, "context_window", "0 is below 1000"},
		{"window under the default memory_max", "context_window = 50000\n", 1, "context_window",
			"50000 is below the default of budget.memory_max (60000); set that key too, to 50000 or less"},
		{"window under the default work_min", "context_window = 100000\n", 1, "context_window",
			"100000 leaves nothing for memory once budget.work_min (140000, the default) is kept free for work"},
		{"memory_max over the default window", "[budget]\nmemory_max = 250000\n", 2, "budget.memory_max",
			"250000 is above context_window (200000, the default)"},
		{"memory_max over the window", "context_window = 100000\n[budget]\nwork_min = 0\nmemory_max = 150000\n", 4, "budget.memory_max",
			"150000 is above context_window (100000)"},
		{"memory_max under default parts", "[budget]\nmemory_max = 10000\n", 2, "budget.memory_max",
			"10000 is below the defaults of budget.memory_target (40000), budget.recent (12000), budget.warm (25000) and budget.cold (20000)"},
		{"a tier over memory_max", "[budget]\nrecent = 70000\n", 2, "budget.recent", "70000 is above budget.memory_max (60000, the default)"},
		{"cold over memory_max", "[budget]\nmemory_max = 30000\nmemory_target = 0\nwarm = 0\ncold = 30001\n", 5, "budget.cold",
			"30001 is above budget.memory_max (30000)"},
		{"main over memory_max", "[budget]\nmain = 59001\n", 2, "budget.main",
			"59001 does not fit in budget.memory_max (60000, the default) with the context itself: budget.main may be at most memory_max - 1000 (59000)"},
		{"main over what work_min leaves", "[budget]\nmemory_max = 100000\nmain = 70000\n", 3, "budget.main",
			"budget.main may be at most 59000"},
		{"work_min over the window", "[budget]\nwork_min = 250000\n", 2, "budget.work_min",
			"250000 leaves nothing of context_window (200000, the default) for memory; budget.main + 1000 (3000) is needed, so work_min may be at most 197000"},
		{"skill.budget over memory_max", "[skill]\nbudget = 60001\n", 2, "skill.budget", "60001 is above budget.memory_max (60000, the default)"},
		{"skill.budget under default sections", "[skill]\nbudget = 250\n", 2, "skill.budget",
			"250 is below the defaults of skill.active (500), skill.protocols (300), skill.recent (1000) and skill.history (2000)"},
		{"skill.budget under one default section", "[skill]\nbudget = 1999\n", 2, "skill.budget",
			"1999 is below the default of skill.history (2000)"},
		{"a section over skill.budget", "[skill]\nidentity = 4001\n", 2, "skill.identity", "4001 is above skill.budget (4000, the default)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig("/r/wake.toml", []byte(tc.src))
			wantKeyError(t, err, tc.line, tc.key, tc.msg)
		})
	}
}

// TestDefaultConfigParses proves the defaults keep every rule: spelt out
// in full, they parse back to themselves.
func TestDefaultConfigParses(t *testing.T) {
	t.Parallel()
	def := DefaultConfig()
	var b strings.Builder
	fmt.Fprintf(&b, "encoding = %q\n", def.Encoding)
	for key, get := range tokenFields {
		fmt.Fprintf(&b, "%s = %d\n", key, get(def))
	}
	fmt.Fprintf(&b, "skill.path = %q\nchecks.stale_after = \"168h\"\ndigest.window = \"24h\"\nclaude.boot = %q\n", def.Skill.Path, def.Claude.Boot)
	cfg, err := ParseConfig("/r/wake.toml", []byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if cfg.Budget != def.Budget || cfg.Skill != def.Skill || cfg.ContextWindow != def.ContextWindow ||
		cfg.Checks != def.Checks || cfg.Digest != def.Digest || cfg.Claude != def.Claude || cfg.Encoding != def.Encoding {
		t.Fatalf("got %+v, want %+v", cfg, def)
	}
}

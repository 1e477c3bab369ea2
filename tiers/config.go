package tiers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/afero"
)

// Encodings wake can count with.
const (
	EncodingCL100K = "cl100k_base"
	EncodingO200K  = "o200k_base"
)

// Config is the decoded wake.toml with defaults applied (DESIGN section 6).
type Config struct {
	Agent         string
	Team          []string
	Encoding      string
	ContextWindow int
	Budget        Budget
	Skill         Skill
	Checks        Checks
	Digest        Digest
	Claude        Claude
}

// Budget holds the token budgets of DESIGN section 4.
type Budget struct {
	MemoryMax    int
	MemoryTarget int
	WorkMin      int
	Main         int
	Recent       int
	Warm         int
	Cold         int
	TOC          int
	Digest       int // the recent-changes digest of `wake load`
}

// Skill configures the skill.md boot file.
type Skill struct {
	Path      string
	Budget    int
	Identity  int
	Active    int
	Protocols int
	Recent    int
	History   int
}

// Boot modes of [Claude]: how a Claude Code session gets the context.
const (
	// BootFull writes the whole phased context to boot.md in the memory
	// root at every start, for the project's CLAUDE.md to import.
	BootFull = "full"
	// BootSkill relies on skill.md alone, imported from ~/.claude/CLAUDE.md.
	BootSkill = "skill"
)

// Claude configures the wiring into Claude Code.
type Claude struct {
	Boot string // BootFull or BootSkill
}

// Checks configures the coherence checks.
type Checks struct {
	StaleAfter time.Duration
}

// Digest configures the recent-changes digest of `wake load`: the ledger
// entries of the last Window.
type Digest struct {
	Window time.Duration
}

// DefaultConfig returns the built-in configuration.
func DefaultConfig() Config {
	return Config{
		Encoding:      EncodingCL100K,
		ContextWindow: 200000,
		Budget: Budget{
			MemoryMax: 60000, MemoryTarget: 40000, WorkMin: 140000,
			Main: 2000, Recent: 12000, Warm: 25000, Cold: 20000, TOC: 1500, Digest: 1000,
		},
		Skill: Skill{
			Path: "~/.claude/agentchat.skill.md", Budget: 4000,
			Identity: 200, Active: 500, Protocols: 300, Recent: 1000, History: 2000,
		},
		Checks: Checks{StaleAfter: 168 * time.Hour},
		Digest: Digest{Window: 24 * time.Hour},
		Claude: Claude{Boot: BootFull},
	}
}

// ConfigError reports a problem in wake.toml at a line and key.
type ConfigError struct {
	Path string // the file as given to LoadConfig's caller
	Line int    // 1-based; 0 when unknown
	Key  string // dotted key; "" when the problem is not a key's
	Msg  string
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Key != "" {
		fmt.Fprintf(&b, ": key %s", e.Key)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// fileConfig mirrors wake.toml; decoding into a copy pre-filled with the
// defaults leaves every absent key at its default.
type fileConfig struct {
	Agent         string     `toml:"agent"`
	Team          []string   `toml:"team"`
	Encoding      string     `toml:"encoding"`
	ContextWindow int        `toml:"context_window"`
	Budget        fileBudget `toml:"budget"`
	Skill         fileSkill  `toml:"skill"`
	Checks        fileChecks `toml:"checks"`
	Digest        fileDigest `toml:"digest"`
	Claude        fileClaude `toml:"claude"`
}

type fileBudget struct {
	MemoryMax    int `toml:"memory_max"`
	MemoryTarget int `toml:"memory_target"`
	WorkMin      int `toml:"work_min"`
	Main         int `toml:"main"`
	Recent       int `toml:"recent"`
	Warm         int `toml:"warm"`
	Cold         int `toml:"cold"`
	TOC          int `toml:"toc"`
	Digest       int `toml:"digest"`
}

type fileSkill struct {
	Path      string `toml:"path"`
	Budget    int    `toml:"budget"`
	Identity  int    `toml:"identity"`
	Active    int    `toml:"active"`
	Protocols int    `toml:"protocols"`
	Recent    int    `toml:"recent"`
	History   int    `toml:"history"`
}

type fileChecks struct {
	StaleAfter string `toml:"stale_after"`
}

type fileDigest struct {
	Window string `toml:"window"`
}

type fileClaude struct {
	Boot string `toml:"boot"`
}

// LoadConfig reads <root>/wake.toml. A missing file gives the defaults.
func LoadConfig(fs afero.Fs, root string) (Config, error) {
	name := filepath.Join(root, ConfigPath)
	data, err := afero.ReadFile(fs, name)
	if errors.Is(err, os.ErrNotExist) {
		return DefaultConfig(), nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("reading %s: %w", name, err)
	}
	return ParseConfig(name, data)
}

// ParseConfig decodes wake.toml content; name is used in errors.
func ParseConfig(name string, data []byte) (Config, error) {
	def := DefaultConfig()
	fc := fileConfig{
		Agent: def.Agent, Team: def.Team, Encoding: def.Encoding, ContextWindow: def.ContextWindow,
		Budget: fileBudget(def.Budget),
		Skill:  fileSkill(def.Skill),
		Checks: fileChecks{StaleAfter: def.Checks.StaleAfter.String()},
		Digest: fileDigest{Window: def.Digest.Window.String()},
		Claude: fileClaude(def.Claude),
	}
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&fc); err != nil {
		return Config{}, tomlError(name, err)
	}
	cfg := Config{
		Agent: fc.Agent, Team: fc.Team, Encoding: fc.Encoding, ContextWindow: fc.ContextWindow,
		Budget: Budget(fc.Budget), Skill: Skill(fc.Skill), Claude: Claude(fc.Claude),
	}
	bad := func(table, key, msg string) error {
		full := key
		if table != "" {
			full = table + "." + key
		}
		return &ConfigError{Path: name, Line: keyLine(data, table, key), Key: full, Msg: msg}
	}
	stale, err := time.ParseDuration(fc.Checks.StaleAfter)
	if err != nil || stale <= 0 {
		return Config{}, bad("checks", "stale_after", fmt.Sprintf("%q is not a positive duration such as \"168h\"", fc.Checks.StaleAfter))
	}
	cfg.Checks.StaleAfter = stale
	window, err := time.ParseDuration(fc.Digest.Window)
	if err != nil || window <= 0 {
		return Config{}, bad("digest", "window", fmt.Sprintf("%q is not a positive duration such as \"24h\"", fc.Digest.Window))
	}
	cfg.Digest.Window = window
	if cfg.Claude.Boot != BootFull && cfg.Claude.Boot != BootSkill {
		return Config{}, bad("claude", "boot", fmt.Sprintf("%q is not %q or %q", cfg.Claude.Boot, BootFull, BootSkill))
	}
	if cfg.Encoding != EncodingCL100K && cfg.Encoding != EncodingO200K {
		return Config{}, bad("", "encoding", fmt.Sprintf("%q is not %s or %s", cfg.Encoding, EncodingCL100K, EncodingO200K))
	}
	for _, n := range []struct {
		table, key string
		v          int
	}{
		{"", "context_window", cfg.ContextWindow},
		{"budget", "memory_max", cfg.Budget.MemoryMax}, {"budget", "memory_target", cfg.Budget.MemoryTarget},
		{"budget", "work_min", cfg.Budget.WorkMin}, {"budget", "main", cfg.Budget.Main},
		{"budget", "recent", cfg.Budget.Recent}, {"budget", "warm", cfg.Budget.Warm},
		{"budget", "cold", cfg.Budget.Cold}, {"budget", "toc", cfg.Budget.TOC},
		{"budget", "digest", cfg.Budget.Digest},
		{"skill", "budget", cfg.Skill.Budget}, {"skill", "identity", cfg.Skill.Identity},
		{"skill", "active", cfg.Skill.Active}, {"skill", "protocols", cfg.Skill.Protocols},
		{"skill", "recent", cfg.Skill.Recent}, {"skill", "history", cfg.Skill.History},
	} {
		if n.v < 0 {
			return Config{}, bad(n.table, n.key, fmt.Sprintf("%d is negative; budgets are token counts of 0 or more", n.v))
		}
	}
	if cfg.Budget.MemoryTarget > cfg.Budget.MemoryMax {
		return Config{}, bad("budget", "memory_target", fmt.Sprintf("%d is above memory_max (%d)", cfg.Budget.MemoryTarget, cfg.Budget.MemoryMax))
	}
	if cfg.Budget.MemoryMax > cfg.ContextWindow {
		return Config{}, bad("budget", "memory_max", fmt.Sprintf("%d is above context_window (%d)", cfg.Budget.MemoryMax, cfg.ContextWindow))
	}
	// main.md's HANDOFF block is never dropped and the context has headings
	// and a footer of its own: below this floor memory_max could not hold.
	if floor := cfg.Budget.Main + ContextOverhead; cfg.Budget.MemoryMax < floor {
		return Config{}, bad("budget", "memory_max", fmt.Sprintf("%d leaves no room for main.md and the context itself: it must be at least budget.main + %d (%d)", cfg.Budget.MemoryMax, ContextOverhead, floor))
	} else if left := cfg.ContextWindow - cfg.Budget.WorkMin; left < floor {
		return Config{}, bad("budget", "work_min", fmt.Sprintf("%d leaves %d tokens of context_window for memory; at least budget.main + %d (%d) are needed", cfg.Budget.WorkMin, left, ContextOverhead, floor))
	}
	return cfg, nil
}

// ContextOverhead is the room the boot context needs beyond main.md for its
// announcement, headings, checks and footer.
const ContextOverhead = 1000

func tomlError(name string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		e := strict.Errors[0]
		row, _ := e.Position()
		return &ConfigError{Path: name, Line: row, Key: strings.Join(e.Key(), "."), Msg: "unknown key"}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		return &ConfigError{Path: name, Line: row, Key: strings.Join(de.Key(), "."), Msg: strings.TrimPrefix(de.Error(), "toml: ")}
	}
	return &ConfigError{Path: name, Msg: err.Error()}
}

// keyLine finds the 1-based line where key is set inside [table] ("" for the
// top level), or 0. It is only used to point at a value that decoded fine but
// is out of range, so a plain scan suffices.
func keyLine(data []byte, table, key string) int {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	cur := ""
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			cur = strings.TrimSpace(strings.Trim(line, "[]"))
			continue
		}
		k, _, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k = strings.Trim(strings.TrimSpace(k), `"'`)
		if k == key && cur == table || table != "" && cur == "" && k == table+"."+key {
			return n
		}
	}
	return 0
}

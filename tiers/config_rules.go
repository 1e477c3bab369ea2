package tiers

import (
	"fmt"
	"strings"
)

// checker decodes the keys of one wake.toml into a Config and checks them.
type checker struct {
	name  string
	cfg   *Config
	lines map[string]int // the line of each key set in the file
}

// apply checks one key or table header of the file: every table on its
// path is one wake.toml has, and the value has the key's type and range.
func (c *checker) apply(doc *tomlDoc, k tomlKey) error {
	for i := 1; i <= len(k.path); i++ {
		name := keyName(k.path[:i])
		spec := lookupKey(name)
		if spec == nil && i == 3 && keyName(k.path[:2]) == agentsTable {
			spec = agentKey(name, k.path[2])
		}
		if spec == nil {
			return c.failAt(k.line, name, "is not a wake.toml key"+suggestion(name))
		}
		v := valueAt(doc.values, k.path[:i])
		if spec.table {
			if _, ok := v.(map[string]any); !ok {
				return c.failAt(k.line, name, "expected a table, got "+kindOf(v))
			}
			continue
		}
		// A value key with more path after it, or opened as a table, holds
		// a table, which decode rejects.
		if msg := spec.decode(c.cfg, v); msg != "" {
			return c.failAt(k.line, name, msg)
		}
		c.lines[name] = k.line
		return nil
	}
	return nil
}

func (c *checker) failAt(line int, key, msg string) error {
	return &ConfigError{Path: c.name, Line: line, Key: key, Msg: msg}
}

// fail reports a problem with key at the line where the file sets it.
func (c *checker) fail(key, format string, args ...any) error {
	return c.failAt(c.lines[key], key, fmt.Sprintf(format, args...))
}

func (c *checker) set(key string) bool {
	_, ok := c.lines[key]
	return ok
}

func (c *checker) val(key string) int {
	return *lookupKey(key).tokens(c.cfg)
}

// show writes key and its value for a message, saying when the value is
// the default rather than the file's.
func (c *checker) show(key string) string {
	if c.set(key) {
		return fmt.Sprintf("%s (%d)", key, c.val(key))
	}
	return fmt.Sprintf("%s (%d, the default)", key, c.val(key))
}

// rules checks the keys that bound one another (the last column of the
// table above [configKeys]). Each error names the key the file sets: the
// part when it is set, else the whole it does not fit in.
func (c *checker) rules() error {
	if err := c.atMost("context_window", "budget.memory_max"); err != nil {
		return err
	}
	if err := c.mainFits(); err != nil {
		return err
	}
	if err := c.workFits(); err != nil {
		return err
	}
	if err := c.atMost("budget.memory_max", "budget.memory_target", "budget.recent", "budget.warm",
		"budget.cold", "budget.toc", "budget.digest", "budget.inbox", "budget.trajectory", "skill.budget"); err != nil {
		return err
	}
	if err := c.atMost("skill.budget", "skill.identity", "skill.active", "skill.protocols", "skill.recent", "skill.history"); err != nil {
		return err
	}
	return c.atMost("capsule.prompt_ceiling", "capsule.max_tokens")
}

// atMost checks that no part is larger than whole. A part the file sets
// is blamed first; parts left at their defaults are listed against whole.
func (c *checker) atMost(whole string, parts ...string) error {
	w := c.val(whole)
	var over []string
	for _, p := range parts {
		switch {
		case c.val(p) <= w:
		case c.set(p):
			return c.fail(p, "%d is above %s", c.val(p), c.show(whole))
		default:
			over = append(over, fmt.Sprintf("%s (%d)", p, c.val(p)))
		}
	}
	switch len(over) {
	case 0:
		return nil
	case 1:
		return c.fail(whole, "%d is below the default of %s; set that key too, to %d or less", w, over[0], w)
	}
	list := strings.Join(over[:len(over)-1], ", ") + " and " + over[len(over)-1]
	return c.fail(whole, "%d is below the defaults of %s; set those keys too, to %d or less", w, list, w)
}

// mainFits checks that memory_max holds main.md, whose HANDOFF block is
// never dropped, and the context's own headings and footer. main is
// blamed when it is set and lowering it can help.
func (c *checker) mainFits() error {
	main, most := c.val("budget.main"), c.val("budget.memory_max")
	need := main + ContextOverhead
	switch {
	case most >= need:
		return nil
	case c.set("budget.main") && most >= ContextOverhead:
		return c.fail("budget.main", "%d does not fit in %s with the context itself: budget.main may be at most memory_max - %d (%d)",
			main, c.show("budget.memory_max"), ContextOverhead, most-ContextOverhead)
	}
	return c.fail("budget.memory_max", "%d leaves no room for main.md and the context itself: it must be at least budget.main + %d (%d)",
		most, ContextOverhead, need)
}

// workFits checks that keeping work_min free for work still leaves room
// for main.md and the context itself. It blames the first key the file
// sets that can mend it alone (work_min, main, context_window), else the
// first the file sets.
func (c *checker) workFits() error {
	window, work, main := c.val("context_window"), c.val("budget.work_min"), c.val("budget.main")
	need := main + ContextOverhead
	if window-work >= need {
		return nil
	}
	leaves := "nothing"
	if window > work {
		leaves = fmt.Sprintf("%d tokens", window-work)
	}
	var msg string
	key := "budget.main"
	switch {
	case c.set("budget.work_min") && window >= need:
		key, msg = "budget.work_min", fmt.Sprintf("%d leaves %s of %s for memory; budget.main + %d (%d) is needed, so work_min may be at most %d",
			work, leaves, c.show("context_window"), ContextOverhead, need, window-need)
	case c.set("budget.main") && window-work >= ContextOverhead:
		msg = fmt.Sprintf("%d does not fit in what %s leaves of %s for memory (%s): budget.main may be at most %d",
			main, c.show("budget.work_min"), c.show("context_window"), leaves, window-work-ContextOverhead)
	case c.set("context_window"):
		key, msg = "context_window", fmt.Sprintf("%d leaves %s for memory once %s is kept free for work; budget.main + %d (%d) is needed: raise context_window to %d",
			window, leaves, c.show("budget.work_min"), ContextOverhead, need, work+need)
		if window >= need {
			msg += fmt.Sprintf(" or lower work_min to %d", window-need)
		}
	case c.set("budget.work_min"):
		key, msg = "budget.work_min", fmt.Sprintf("%d leaves %s of %s for memory; budget.main + %d (%d) is needed",
			work, leaves, c.show("context_window"), ContextOverhead, need)
	default:
		msg = fmt.Sprintf("%d does not fit in what %s leaves of %s for memory (%s)",
			main, c.show("budget.work_min"), c.show("context_window"), leaves)
	}
	return c.fail(key, "%s", msg)
}

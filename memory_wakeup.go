package wake

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/tiers"
	"github.com/wakeproto/wake/wakeup"
)

// Wakeup builds the wake-up packet (wakeup.v1) for q: the project
// profile's candidates, read as the sensitivity policy admits them,
// scored against the query and routed to the packet's sections (see
// package wakeup). Cold documents are listed from the cold index, so a
// warm run opens only those with a memory_type it may show. Nothing is
// written but wake's caches. Render the packet with wakeup.JSON,
// wakeup.Markdown or wakeup.Prompt.
func (m *Memory) Wakeup(q wakeup.Query) (wakeup.Packet, error) {
	if err := q.Check(); err != nil {
		return wakeup.Packet{}, err
	}
	idx := cold.OpenIndex(m.o.FS, m.root, m.cfg.Encoding)
	o := m.bootOptions()
	o.ColdIndex = idx
	c, err := boot.Read(o)
	if err != nil {
		return wakeup.Packet{}, err
	}
	m.warnAll(c.Warnings)
	m.warnAll(cold.Scan(m.coldOptions(idx)))
	src, gwarns := wakeup.Gather(wakeup.GatherOptions{FS: m.o.FS, Root: m.root, Context: c, Cold: idx.Documents(), Agent: m.cfg.Agent, Warn: m.warn})
	m.warnAll(gwarns)
	m.SaveCache()
	m.saveIndex(idx)
	if q.Profile == wakeup.ProfileDeveloper {
		roots, err := m.developerRoots()
		if err != nil {
			return wakeup.Packet{}, err
		}
		src, gwarns = wakeup.GatherDeveloper(m.o.FS, roots, src)
		m.warnAll(gwarns)
	}
	return wakeup.Build(src, q, m.cfg.Wakeup, m.o.Now()), nil
}

// developerRoots are the developer roots the user's config.toml names
// (wakeup.developer), "~/" read as the home directory; a root that does
// not exist is a warning.
func (m *Memory) developerRoots() ([]wakeup.DeveloperRoot, error) {
	dir := tiers.UserDir(m.o.Env)
	uc, err := tiers.LoadUserConfig(m.o.FS, dir)
	if err != nil {
		return nil, &ConfigError{err}
	}
	name := filepath.Join(dir, tiers.UserConfigFile)
	if len(uc.Wakeup.Developer) == 0 {
		return nil, hinted{fmt.Errorf("the developer profile reads the developer roots %s names, and it names none", name),
			fmt.Sprintf("add [wakeup] developer = [\"~/.config/wake/developer\"] to %s, or use --profile project", name)}
	}
	var roots []wakeup.DeveloperRoot
	for _, r := range uc.Wakeup.Developer {
		abs := r
		if rest, ok := strings.CutPrefix(r, "~/"); ok && m.home() != "" {
			abs = filepath.Join(m.home(), rest)
		}
		if !filepath.IsAbs(abs) {
			return nil, &ConfigError{fmt.Errorf("%s: key %s: %q is not an absolute path or one under ~/", name, tiers.DeveloperKey, r)}
		}
		fi, err := m.o.FS.Stat(abs)
		switch {
		case err != nil:
			m.warn(fmt.Sprintf("developer root %s (%s): %v; left out", r, tiers.DeveloperKey, tiers.Cause(err)))
			continue
		case !fi.IsDir():
			m.warn(fmt.Sprintf("developer root %s (%s) is not a directory; left out", r, tiers.DeveloperKey))
			continue
		}
		roots = append(roots, wakeup.DeveloperRoot{Dir: abs, Name: strings.TrimSuffix(r, "/")})
	}
	return roots, nil
}

// WakeupPrompt renders the packet as its compact prompt within wake.toml's
// [wakeup] prompt_budget, counted exactly in the root's encoding; it
// returns the text and how many items it cut to fit.
func (m *Memory) WakeupPrompt(p wakeup.Packet) (string, int) {
	text, cut := wakeup.Prompt(p, m.cfg.Wakeup.PromptBudget, m.counter())
	m.SaveCache()
	return text, cut
}

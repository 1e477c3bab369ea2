package wake

import (
	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/cold"
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
	return wakeup.Build(src, q, m.cfg.Wakeup, m.o.Now()), nil
}

// WakeupPrompt renders the packet as its compact prompt within wake.toml's
// [wakeup] prompt_budget, counted exactly in the root's encoding; it
// returns the text and how many items it cut to fit.
func (m *Memory) WakeupPrompt(p wakeup.Packet) (string, int) {
	text, cut := wakeup.Prompt(p, m.cfg.Wakeup.PromptBudget, m.cache)
	m.SaveCache()
	return text, cut
}

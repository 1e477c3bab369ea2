package boot

import (
	"bytes"
	"time"

	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// check runs the four coherence checks on the documents phases 1-3 read,
// whole, as they are on disk (not as fitted), and records the announcement
// and findings for the renderers.
func (c *Context) check(o Options) {
	var m checks.Memory
	for _, f := range c.Files() {
		switch f.Path {
		case tiers.MainPath:
			m.Main = f.doc
		case tiers.LatestPath:
			m.Latest = f.doc
		case tiers.TasksPath:
			m.Tasks = f.doc
		case tiers.DecisionsPath:
			m.Decisions = f.doc
		case tiers.QuestionsPath:
			m.Questions = f.doc
		}
	}
	m.Contradictions = o.Contradictions
	last, err := checks.ReadLastWrite(o.FS, o.Root)
	if err != nil {
		// Without wake's last write only the hand-edit comparison is lost;
		// the rest of the checks still hold.
		c.Warnings = append(c.Warnings, err.Error())
	}
	m.LastWrite = last
	if last == nil && bytes.Contains(m.Decisions.Content, []byte("\nID: ")) {
		// wake wrote the log (its entries carry IDs) but its copy of that
		// write is gone (.state/ deleted): the IDs the ledger says wake
		// wrote still find a deleted entry. Otherwise the copy finds every
		// deletion, and a start does not read the whole ledger twice.
		m.Written, m.WrittenSkipped = checks.ReadWritten(o.FS, o.Root)
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	r := checks.Run(m, checks.Options{StaleAfter: o.Config.Checks.StaleAfter, Now: now, Drift: o.Drift})
	// Where the tier files hold secrets, as admitting them found it: the
	// files wake check looks at (not recent/previous.md).
	for _, f := range c.Files() {
		if f.Path == tiers.PreviousPath {
			continue
		}
		if sf, ok := policy.SecretFinding(f.Path, f.secrets); ok {
			r.Findings = append(r.Findings, sf)
		}
	}
	var docs []tiers.Doc
	for _, f := range c.Files() {
		docs = append(docs, f.doc)
	}
	bad := append(checks.MarkerFindings(docs...), policy.UnreadableFindings(docs...)...)
	if len(bad) > 0 {
		r.Findings = append(r.Findings, bad...)
		r.Announcement = checks.Announce(r)
	}
	r = policy.RedactReport(r, c.held())
	c.Announcement, c.Findings = r.Announcement, r.Findings
}

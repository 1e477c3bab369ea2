package report

import (
	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// Handoff is what `wake handoff --format json` prints: the session the
// hand-off wrote, the files it changed, the boot files it rewrote, and
// what it compacted of its own accord.
type Handoff struct {
	Version   int      `json:"version"`
	Session   string   `json:"session"` // its time, as recent/latest.md names it
	Summary   string   `json:"summary"`
	Paths     []string `json:"paths"` // the files changed, as the ledger line lists them
	Decisions int      `json:"decisions"`
	// Record is the session's record in cold/sessions/, written once;
	// recent/latest.md is its copy.
	Record       string    `json:"record"`
	Demoted      bool      `json:"demoted"`                 // recent/latest.md became recent/previous.md
	LatestRecord string    `json:"latest_record,omitempty"` // where recent/latest.md, no record yet, was copied
	Archived     string    `json:"archived,omitempty"`      // where recent/previous.md, no record's copy, went
	BootFiles    []string  `json:"boot_files"`
	Compacted    Compacted `json:"compacted"`
}

// Compacted is what a hand-off compacted of its own accord: the warm
// files over their share that wake compact archives from, and what it
// moved out of them (handoff.auto_compact).
type Compacted struct {
	Over    []string        `json:"over"`
	Moved   int             `json:"moved"`
	Files   []CompactedFile `json:"files"`
	Problem string          `json:"problem,omitempty"` // why it failed; the hand-off is written
}

// CompactedFile is what one warm file gave its archive.
type CompactedFile struct {
	Path    string   `json:"path"`
	Archive string   `json:"archive"`
	Entries int      `json:"entries"`
	IDs     []string `json:"ids,omitempty"` // the decision IDs moved
}

// AutoHandoff is what `wake handoff --auto --format json` prints.
type AutoHandoff struct {
	Version int      `json:"version"`
	Written bool     `json:"written"`
	Skipped string   `json:"skipped,omitempty"` // why none was written
	Handoff *Handoff `json:"handoff,omitempty"`
}

// NewHandoff is the JSON answer of a hand-off.
func NewHandoff(r wake.HandoffResult) Handoff {
	s, _ := tiers.ParseSession(r.Summary)
	// The summary is the caller's, echoed: scrubbed like every output.
	summary, _ := policy.Scrub(s.Summary)
	h := Handoff{Version: Version, Session: r.At.Format(tiers.SessionTimeLayout), Summary: summary,
		Paths: strs(r.Paths), Decisions: r.Decisions, Record: r.Record, Demoted: r.Demoted, LatestRecord: r.LatestRecord, Archived: r.Archived,
		BootFiles: []string{}}
	for _, p := range []string{r.Boot.BootPath, r.Boot.SkillPath} {
		if p != "" {
			h.BootFiles = append(h.BootFiles, p)
		}
	}
	c := r.Compacted
	h.Compacted = Compacted{Over: strs(c.Over), Moved: c.Total(), Files: []CompactedFile{}, Problem: c.Problem}
	for _, f := range c.Files {
		h.Compacted.Files = append(h.Compacted.Files, CompactedFile{Path: f.Path, Archive: f.Archive, Entries: f.Entries, IDs: f.IDs})
	}
	return h
}

// HandoffJSON renders a hand-off as JSON.
func HandoffJSON(r wake.HandoffResult) ([]byte, error) { return marshal(NewHandoff(r)) }

// AutoHandoffJSON renders an automatic hand-off, or why none was
// written, as JSON.
func AutoHandoffJSON(res wake.AutoResult) ([]byte, error) {
	a := AutoHandoff{Version: Version, Written: res.Written != nil, Skipped: res.Skipped}
	if res.Written != nil {
		h := NewHandoff(*res.Written)
		a.Handoff = &h
	}
	return marshal(a)
}

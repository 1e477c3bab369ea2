package report

import "github.com/wakeproto/wake/boot"

// Status is the JSON of `wake status --format json`: each tier file's
// tokens against its share, each tier's against its budget, and the tier
// files' total against the memory target.
type Status struct {
	Version int          `json:"version"`
	Root    string       `json:"root"`
	Files   []StatusFile `json:"files"`
	Tiers   []StatusTier `json:"tiers"`
	Memory  int          `json:"memory_tokens"` // the tier files only, whole
	Scope   string       `json:"memory_counts"`
	Target  int          `json:"memory_target"`
	Max     int          `json:"memory_max"`
	Window  int          `json:"context_window"`
	Work    int          `json:"work_left"`
	WorkMin int          `json:"work_min"`
}

// StatusFile is one tier file's figures.
type StatusFile struct {
	Path    string `json:"path"`
	Tier    string `json:"tier"`
	Tokens  int    `json:"tokens"`
	Share   int    `json:"share"`
	Percent int    `json:"percent"`
	Bytes   int64  `json:"bytes"`
	Missing bool   `json:"missing,omitempty"`
	Skipped string `json:"skipped,omitempty"`
	// Huge: over the read limit; Tokens counts only the head.
	Huge bool `json:"huge,omitempty"`
}

// StatusTier is one tier's figures.
type StatusTier struct {
	Tier    string `json:"tier"`
	Tokens  int    `json:"tokens"`
	Budget  int    `json:"budget"`
	Percent int    `json:"percent"`
}

// statusScope says what the memory total counts.
const statusScope = "tier files, whole, before compression; without the cold table of contents and the digest"

// StatusJSON renders the status figures of c as JSON.
func StatusJSON(c *boot.Context) ([]byte, error) {
	out := Status{Version: Version, Root: c.Root, Scope: statusScope, Files: []StatusFile{}, Tiers: []StatusTier{}}
	for _, p := range c.Phases {
		n := 0
		for _, f := range p.Files {
			out.Files = append(out.Files, StatusFile{f.Path, f.Tier, f.Tokens, f.Share, percent(f.Tokens, f.Share), f.Bytes, f.Missing, f.Skipped, f.Huge})
			n += f.Tokens
		}
		out.Tiers = append(out.Tiers, StatusTier{p.Tier, n, p.Budget, percent(n, p.Budget)})
		out.Memory += n
	}
	t := c.Totals
	out.Target, out.Max, out.Window, out.WorkMin = t.Target, t.Max, t.ContextWindow, t.WorkMin
	out.Work = t.ContextWindow - out.Memory
	return marshal(out)
}

// percent is used as a whole percentage of of; 0 when of is not positive.
func percent(used, of int) int {
	if of <= 0 {
		return 0
	}
	return used * 100 / of
}

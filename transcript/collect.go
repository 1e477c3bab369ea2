package transcript

import (
	"bytes"
	"hash/maphash"
	"path/filepath"
	"strings"
	"time"

	"github.com/wakeproto/wake/policy"
)

// maxPending bounds the tool calls waiting for their result, and maxMore
// the files past [Limits.Files] told apart (a hash each).
const (
	maxPending = 1024
	maxMore    = 100_000
)

// collector gathers a Summary within its limits.
type collector struct {
	lim      Limits
	scope    Scope
	workOnly bool // only what tells work, no texts
	// now is the time of the line being read; zero when it has none.
	now     time.Time
	s       Summary
	prompts ends[stamped]
	alt     ends[stamped] // prompts read from the model's input, for want of the user's own record
	// lastPrompt is the last prompt noted.
	lastPrompt string
	commands   ends[string]
	// files holds the paths of s.Edits; more the hashes of the paths
	// past them, up to maxMore, so that MoreEdits counts files, not edits.
	files map[string]bool
	more  map[uint64]struct{}
	// outside holds the hashes of the paths outside the project, so
	// that Outside counts files too.
	outside map[uint64]struct{}
	seed    maphash.Seed
	// project is the project's directory, once the working directory is
	// known.
	project string
	// pending holds the work of tool calls whose result has not been
	// read: an edit or a decision counts once its call did not fail.
	pending map[string]*call
	order   []string // pending's keys, oldest first
	// replying: wake's Stop hook asked for the hand-off, and the agent's
	// messages since answer it, not the user ("Understood, no hand-off"):
	// none is the last message of the session's work. A prompt of the
	// user's, or more work, ends the reply.
	replying bool
}

func newCollector(lim Limits, sc Scope, workOnly bool) *collector {
	return &collector{lim: lim, scope: sc, workOnly: workOnly,
		prompts:  ends[stamped]{first: lim.FirstPrompts, last: lim.LastPrompts},
		alt:      ends[stamped]{first: lim.FirstPrompts, last: lim.LastPrompts},
		commands: ends[string]{last: lim.Commands},
		files:    map[string]bool{}, more: map[uint64]struct{}{}, outside: map[uint64]struct{}{}, seed: maphash.MakeSeed(), pending: map[string]*call{}}
}

// at notes the time of the line being read, s (none when it is not
// RFC 3339): the first one is the session's start.
func (c *collector) at(s string) {
	c.now = timeOf(s)
	if c.s.Start.IsZero() {
		c.s.Start = c.now
	}
}

// counts reports whether what the line being read records is in the
// reading's scope.
func (c *collector) counts() bool { return c.scope.in(c.now) }

// before reports whether line, a JSON object, bears a time (its top-level
// member key) before the scope's Since: what it records does not count.
func (c *collector) before(line []byte, key string) bool {
	if c.scope.Since.IsZero() {
		return false
	}
	s, ok := topLevel(line, key)
	return ok && !c.scope.in(timeOf(s))
}

// startAt notes the session's start when it is recorded as such.
func (c *collector) startAt(t time.Time) {
	if c.s.Start.IsZero() || !t.IsZero() && t.Before(c.s.Start) {
		c.s.Start = t
	}
}

func (c *collector) cwd(dir string) {
	if c.s.Cwd == "" && filepath.IsAbs(dir) {
		c.s.Cwd = filepath.Clean(dir)
		c.project = c.s.Cwd
		if c.scope.Project != nil {
			if p := c.scope.Project(c.s.Cwd); filepath.IsAbs(p) {
				c.project = filepath.Clean(p)
			}
		}
	}
}

func (c *collector) session(id string) {
	if c.s.SessionID == "" {
		c.s.SessionID = oneLine(id, 200)
	}
}

// prompt notes a prompt of the user's; the same text recorded twice in a
// row (a client's two records of one message) counts once.
func (c *collector) prompt(text string) {
	if c.workOnly || !c.counts() {
		return
	}
	text = window(text, c.lim.Text)
	if key := oneLine(text, c.lim.Text); key != "" && key != c.lastPrompt {
		c.prompts.add(stamped{text, c.now})
		c.lastPrompt = key
		c.replying = false
	}
}

// altPrompt notes a prompt as the model received it, which counts only
// when the transcript records none of the user's own.
func (c *collector) altPrompt(text string) {
	if c.workOnly || !c.counts() {
		return
	}
	if text = window(text, c.lim.Text); oneLine(text, 0) != "" {
		c.alt.add(stamped{text, c.now})
	}
}

func (c *collector) command(cmd string) {
	if c.workOnly || !c.counts() {
		return
	}
	if cmd = window(cmd, c.lim.Command); oneLine(cmd, 0) != "" {
		c.commands.add(cmd)
	}
}

func (c *collector) message(text string) {
	if c.workOnly || !c.counts() || c.replying {
		return
	}
	if text = window(text, c.lim.Text); oneLine(text, 0) != "" {
		c.s.LastMessage, c.s.LastMessageAt = text, c.now
	}
}

func (c *collector) decision() {
	if c.counts() {
		c.s.Decisions++
		c.replying = false
	}
}

// stopFeedback notes the record of wake's Stop hook's reason
// ([isStopFeedback]): the agent's messages after it answer the hook.
func (c *collector) stopFeedback() { c.replying = true }

// call is the work of a tool call waiting for its result.
type call struct {
	edits     []Edit
	outside   []string // the paths it edits outside the project
	decisions int
}

// ran notes that tool call id ran cmd: a command, and a decision when it
// is one of wake's ([isDecision]), which counts once the call is known
// not to have failed, as an edit does.
func (c *collector) ran(id, cmd string) {
	c.command(cmd)
	if !c.counts() || !isDecision(cmd) {
		return
	}
	if id == "" {
		c.s.Decisions++
		return
	}
	c.pend(id).decisions++
}

// decidedBy notes that tool call id, one of wake's MCP tools, recorded a
// decision ([isDecisionTool]): it counts once the call is known not to
// have failed, as a command's does.
func (c *collector) decidedBy(id string) {
	if !c.counts() {
		return
	}
	if id == "" {
		c.s.Decisions++
		return
	}
	c.pend(id).decisions++
}

// pend is the pending call id, added when new.
func (c *collector) pend(id string) *call {
	p, ok := c.pending[id]
	if !ok {
		if len(c.order) >= maxPending {
			c.settle(c.order[0], false)
		}
		p = &call{}
		c.pending[id] = p
		c.order = append(c.order, id)
	}
	return p
}

// edit notes that tool call id edits path; it counts once the call is
// known not to have failed ([collector.result]), or at the end of the
// transcript when its result is not recorded. An empty id counts at once.
func (c *collector) edit(id, path, tool string) {
	path = strings.TrimSpace(path)
	if path == "" || !c.counts() || c.wakes(path) {
		return
	}
	c.replying = false
	rel, in := c.place(path)
	e := Edit{Path: rel, Tool: oneLine(tool, 60)}
	switch {
	case id == "" && in:
		c.keep(e)
	case id == "":
		c.away(rel)
	case in:
		p := c.pend(id)
		p.edits = append(p.edits, e)
	default:
		p := c.pend(id)
		p.outside = append(p.outside, rel)
	}
}

// result settles tool call id: its edits count unless it failed.
func (c *collector) result(id string, failed bool) {
	if _, ok := c.pending[id]; ok {
		c.settle(id, failed)
	}
}

// waitingIn reports whether line names a tool call whose edits wait for
// its result.
func (c *collector) waitingIn(line []byte) bool {
	for _, id := range c.order {
		// Quoted, as JSON has it: call_1 is not call_10.
		if bytes.Contains(line, []byte(`"`+id+`"`)) {
			return true
		}
	}
	return false
}

func (c *collector) settle(id string, failed bool) {
	p := c.pending[id]
	delete(c.pending, id)
	for i, k := range c.order {
		if k == id {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
	if failed || p == nil {
		return
	}
	for _, e := range p.edits {
		c.keep(e)
	}
	for _, path := range p.outside {
		c.away(path)
	}
	c.s.Decisions += p.decisions
}

func (c *collector) keep(e Edit) {
	switch {
	case c.files[e.Path]:
	case len(c.s.Edits) < c.lim.Files:
		c.files[e.Path] = true
		c.s.Edits = append(c.s.Edits, e)
	case len(c.more) < maxMore:
		h := maphash.String(c.seed, e.Path)
		if _, ok := c.more[h]; !ok {
			c.more[h] = struct{}{}
			c.s.MoreEdits++
		}
	default:
		c.s.MoreEdits++ // past maxMore files, every edit counts as one more
	}
}

// away counts a file edited outside the project.
func (c *collector) away(path string) {
	if len(c.outside) >= maxMore {
		c.s.Outside++ // past maxMore files, every edit counts as one more
		return
	}
	h := maphash.String(c.seed, path)
	if _, ok := c.outside[h]; !ok {
		c.outside[h] = struct{}{}
		c.s.Outside++
	}
}

// wakes reports whether path lies in a memory root of the scope's
// ([Scope.Memory]); a relative path is told once the working directory
// is known.
func (c *collector) wakes(path string) bool {
	if len(c.scope.Memory) == 0 {
		return false
	}
	abs := oneLine(path, 1000)
	if !filepath.IsAbs(abs) {
		if c.s.Cwd == "" {
			return false
		}
		abs = filepath.Join(c.s.Cwd, abs)
	}
	for _, m := range c.scope.Memory {
		if r, err := filepath.Rel(m, abs); err == nil && (r == "." || filepath.IsLocal(r)) {
			return true
		}
	}
	return false
}

// place is where path lies: relative to the project's directory and in,
// when it is under it; as given otherwise. Before the working directory
// is known, a relative path that does not climb out is in, and an
// absolute one too, as nothing tells otherwise.
func (c *collector) place(path string) (string, bool) {
	path = oneLine(path, 1000)
	if c.project == "" {
		return path, filepath.IsAbs(path) || filepath.IsLocal(path)
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(c.s.Cwd, abs)
	}
	if r, err := filepath.Rel(c.project, abs); err == nil && filepath.IsLocal(r) {
		return filepath.ToSlash(r), true
	}
	return path, false
}

// done settles the calls whose result was never recorded (the session
// ended while they ran: they may have written) and returns the summary.
func (c *collector) done() *Summary {
	for len(c.order) > 0 {
		c.settle(c.order[0], false)
	}
	if c.prompts.n == 0 {
		c.prompts = c.alt
	}
	for _, p := range c.prompts.list() {
		c.s.Prompts, c.s.PromptTimes = append(c.s.Prompts, p.text), append(c.s.PromptTimes, p.at)
	}
	c.s.Prompts, c.s.PromptCount = clean(c.s.Prompts, c.lim.Text), c.prompts.n
	if c.s.PromptCount > len(c.s.Prompts) {
		c.s.PromptGap = len(c.prompts.head)
	}
	c.s.Commands, c.s.CommandCount = clean(c.commands.list(), c.lim.Command), c.commands.n
	if c.s.LastMessage != "" {
		// Read whole, before the message is cut: scrubbed first, as
		// every text.
		whole, _ := policy.Scrub(c.s.LastMessage)
		c.s.FollowUps = clean(FollowUps(whole), maxFollowUp)
		c.s.LastMessage = cleanText(c.s.LastMessage, c.lim.Text)
	}
	return &c.s
}

// stamped is a text with the time of the line it was read from (zero
// when that line has none).
type stamped struct {
	text string
	at   time.Time
}

// ends keeps the first few and the last few of a sequence, and counts it.
type ends[T any] struct {
	first, last int
	head        []T
	tail        []T // a ring of the last ones, next at n%last once full
	n           int
}

func (e *ends[T]) add(s T) {
	e.n++
	if len(e.head) < e.first {
		e.head = append(e.head, s)
		return
	}
	if e.last <= 0 {
		return
	}
	if len(e.tail) < e.last {
		e.tail = append(e.tail, s)
		return
	}
	e.tail[(e.n-len(e.head)-1)%e.last] = s
}

// list is what was kept, in order.
func (e *ends[T]) list() []T {
	out := append([]T(nil), e.head...)
	if len(e.tail) < e.last {
		return append(out, e.tail...)
	}
	i := (e.n - len(e.head)) % e.last
	out = append(out, e.tail[i:]...)
	return append(out, e.tail[:i]...)
}

// Package transcript reads what an agent client recorded of a session, and
// returns what can be known of it without a model: when it started, what
// the user asked, which files the agent's tools edited, which commands it
// ran, its last message, and whether it did any work at all. The automatic
// hand-off is built from it (wake handoff --auto), and the Stop hook asks
// it whether a session did work.
//
// It reads three formats: Claude Code's session JSONL, Codex's rollout
// JSONL, and wake's own (for clients that keep no transcript of their own:
// the OpenCode plugin writes it). Each is JSON lines; a line that is not
// JSON, or is longer than [Limits.MaxLine], is skipped and counted, never
// held in memory whole. What is kept is bounded too (the first and the
// last few prompts, a capped set of files, the last commands, texts cut
// short), so that a transcript of any size is read in bounded memory;
// every text is scrubbed of secrets (package policy) before it is cut.
// A [Scope] limits a reading to a session's work not yet handed off:
// what it recorded after a time, in its project.
//
// No existing package reads a client's files of a session: clients/ writes
// wiring, handoff writes the memory root. This one only reads, from an
// [io.Reader], and never touches a file system itself.
package transcript

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Format is a transcript format.
type Format string

// The formats Read knows. Auto sniffs the format from the first JSON line.
const (
	Auto   Format = ""
	Claude Format = "claude"
	Codex  Format = "codex"
	Wake   Format = "wake"
)

// ParseFormat reads a format's name; "" and "auto" are [Auto].
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case Auto, Claude, Codex, Wake:
		return f, nil
	case "auto":
		return Auto, nil
	}
	return "", fmt.Errorf("unknown transcript format %q: want claude, codex or wake", s)
}

// Limits bound what Read keeps.
type Limits struct {
	// MaxLine is the longest line read, in bytes; a longer one is skipped
	// and counted in [Summary.TooLong], without being held whole.
	MaxLine int
	// FirstPrompts and LastPrompts are how many of the user's prompts are
	// kept from each end of the session.
	FirstPrompts, LastPrompts int
	// Text is the most bytes kept of a prompt or of the last message.
	Text int
	// Files is the most edited files kept; more are only counted.
	Files int
	// Commands is how many of the last commands are kept; Command the most
	// bytes kept of each.
	Commands, Command int
}

// DefaultLimits are the limits of the automatic hand-off.
func DefaultLimits() Limits {
	return Limits{MaxLine: 8 << 20, FirstPrompts: 2, LastPrompts: 3, Text: 400, Files: 100, Commands: 12, Command: 160}
}

// Edit is a file an agent's tool changed.
type Edit struct {
	Path string // relative to the project's directory ([Scope.Project]); as the tool named it when that is unknown
	Tool string // the tool: Write, Edit, apply_patch, ...
}

// Summary is what a transcript tells of its session.
type Summary struct {
	Format    Format
	SessionID string
	Cwd       string    // the session's working directory, when recorded
	Start     time.Time // the first time recorded; zero when none is
	// Prompts are the user's prompts, one line each and cut to
	// [Limits.Text]: the first and the last few, in order. PromptCount is
	// how many there were in all.
	Prompts     []string
	PromptCount int
	// PromptTimes are the times of Prompts' records, one a prompt; zero
	// for a record without one.
	PromptTimes []time.Time
	// PromptGap is where in Prompts the prompts left out would go, when
	// some were: Prompts[:PromptGap] are the first, the rest the last.
	PromptGap int
	// Edits are the files of the project the agent's tools changed, each
	// once, in the order first met; MoreEdits counts the files past
	// [Limits.Files], Outside those outside the project ([Scope.Project]),
	// which are not the session's work.
	Edits     []Edit
	MoreEdits int
	Outside   int
	// Commands are the last commands the agent ran, one line each;
	// CommandCount is how many it ran in all.
	Commands     []string
	CommandCount int
	// LastMessage is the agent's last message of the session's work, one
	// line, cut: its answer to wake's Stop hook is not ([isStopFeedback]).
	LastMessage string
	// FollowUps are the sentences of the last message that leave
	// something to do ([FollowUps]), one line each.
	FollowUps []string
	// LastMessageAt is the time of the last message's record; zero when
	// it has none.
	LastMessageAt time.Time
	// Decisions is how many decisions the transcript shows the session
	// making: a wake decide, reverse, contest or uphold that its agent
	// ran and that did not fail ([isDecision]), or in the wake format a
	// "decision" line.
	Decisions int
	// Lines is how many lines were read; Malformed how many of them were
	// not JSON and TooLong how many were over [Limits.MaxLine], both
	// skipped.
	Lines, Malformed, TooLong int
}

// DidWork reports whether the session changed something: a tool edited a
// file, or a decision was recorded.
func (s *Summary) DidWork() bool { return len(s.Edits) > 0 || s.MoreEdits > 0 || s.Decisions > 0 }

// EditedSet is the set of the files the agent's tools edited (as Edits
// names them), and whether it is every one of them: not when files past
// [Limits.Files] were counted, not named.
func (s *Summary) EditedSet() (map[string]bool, bool) {
	set := make(map[string]bool, len(s.Edits))
	for _, e := range s.Edits {
		set[e.Path] = true
	}
	return set, s.MoreEdits == 0
}

// Skipped is how many lines were skipped, malformed or too long.
func (s *Summary) Skipped() int { return s.Malformed + s.TooLong }

// EditedPaths lists the paths of Edits.
func (s *Summary) EditedPaths() []string {
	out := make([]string, len(s.Edits))
	for i, e := range s.Edits {
		out[i] = e.Path
	}
	return out
}

// Scope says which of a transcript's records a reading counts.
type Scope struct {
	// Since, when set, leaves out what was recorded before it: the
	// prompts, edits, commands, messages and decisions of a session's
	// work that a hand-off already covers. A record without a time
	// counts. Start is the first time recorded all the same.
	Since time.Time
	// Project gives the directory of the project of a session in cwd
	// (its git work tree's top, say); "" or a nil Project is cwd itself.
	// An edit counts as the session's work only under it, and is named
	// relative to it: a file elsewhere (a plan in the home directory,
	// another repository) is counted in [Summary.Outside] alone.
	Project func(cwd string) string
	// Memory are the directories of the memory root (absolute): a file
	// under one is wake's own (the ledger or the decision log a wake
	// command the agent ran wrote, the plugin's transcript), never the
	// agent's edit nor its work, wherever the edit is recorded.
	Memory []string
}

// in reports whether a record of time t is in the scope.
func (sc Scope) in(t time.Time) bool {
	return sc.Since.IsZero() || t.IsZero() || !t.Before(sc.Since)
}

// Read reads a whole transcript of format f (Auto: sniffed from its
// first JSON line) within lim, counting what sc holds. Its error is only
// the reader's: what it cannot parse it skips and counts.
func Read(r io.Reader, f Format, lim Limits, sc Scope) (*Summary, error) {
	return read(r, f, lim, sc, full)
}

// ReadWork reads only what says whether the session did work within sc,
// and when it started, and stops as soon as it knows both: the Stop
// hook's reading, which runs at the end of every turn. Prompts, commands
// and messages are left out, and lines that cannot bear on work are
// skipped unparsed.
func ReadWork(r io.Reader, f Format, maxLine int, sc Scope) (*Summary, error) {
	lim := DefaultLimits()
	if maxLine > 0 {
		lim.MaxLine = maxLine
	}
	lim.Files = 1
	return read(r, f, lim, sc, work)
}

// headLines is how many lines Head reads past the start for the
// session's id, when the line that records the start does not have it.
const headLines = 16

// Head reads the opening of a transcript: the session's start, and its
// id and working directory when recorded there. It stops once it knows
// the start and the id, or headLines lines past the start.
func Head(r io.Reader, f Format, maxLine int) (*Summary, error) {
	lim := DefaultLimits()
	if maxLine > 0 {
		lim.MaxLine = maxLine
	}
	return read(r, f, lim, Scope{}, head)
}

// mode is how much of a transcript a reading reads.
type mode int

const (
	full mode = iota // all of it
	work             // until it knows of some work (ReadWork)
	head             // its opening (Head)
)

// parser reads the lines of one format into a collector.
type parser interface {
	// skim reports whether a line must be parsed for what c collects: a
	// line that need not is skipped (and, unless c is work-only, only
	// checked to be JSON). It may take what it needs from the line's
	// bytes itself.
	skim(line []byte, c *collector) bool
	// line parses one line; false when it is not valid JSON.
	line(line []byte, c *collector) bool
}

func read(r io.Reader, f Format, lim Limits, sc Scope, m mode) (*Summary, error) {
	rd := &reading{c: newCollector(lim, sc, m != full), mode: m}
	if f != Auto {
		rd.p = parserOf(f)
		rd.c.s.Format = f
	}
	lr := newLineReader(r, lim.MaxLine)
	var err error
	for {
		var line []byte
		line, err = lr.next()
		if line != nil && rd.take(line) {
			err = nil
			break
		}
		if err != nil {
			break
		}
	}
	s := rd.c.done()
	s.TooLong = lr.tooLong
	if s.Format == Auto {
		s.Format = Claude
	}
	if err == io.EOF {
		err = nil
	}
	return s, err
}

// reading is one transcript being read.
type reading struct {
	c    *collector
	p    parser // nil until the format is known
	mode mode
	past int // lines read past the start, in head mode
}

// take reads one line, and reports whether reading can stop: in work
// mode, once the start and some work are known; in head mode, once the
// start and the session's id are.
func (rd *reading) take(line []byte) bool {
	c := rd.c
	c.s.Lines++
	if rd.p == nil {
		f, ok, valid := sniff(line)
		switch {
		case !valid:
			c.s.Malformed++
			return false
		case !ok:
			return false
		}
		rd.p = parserOf(f)
		c.s.Format = f
	}
	switch {
	case c.s.Start.IsZero() || rd.p.skim(line, c):
		if !rd.p.line(line, c) {
			c.s.Malformed++
		}
	case rd.mode == full && !validJSON(line):
		c.s.Malformed++
	}
	switch {
	case c.s.Start.IsZero():
		return false
	case rd.mode == work:
		return c.s.DidWork()
	case rd.mode == head:
		rd.past++
		return c.s.SessionID != "" || rd.past > headLines
	}
	return false
}

func parserOf(f Format) parser {
	switch f {
	case Codex:
		return codexParser{}
	case Wake:
		return wakeParser{}
	}
	return claudeParser{}
}

// timeOf parses a recorded time; zero when it is not RFC 3339.
func timeOf(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

package wake

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/capsule"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// SubagentStartInput is what a client's SubagentStart hook says of the
// subagent starting, as far as wake reads it.
type SubagentStartInput struct {
	Client    string // "claude" or "codex"
	AgentID   string
	AgentType string // the client's agent type: "general-purpose", "Explore", ...
	// Session is the client's id of the main session, which becomes the
	// source_session of a capsule built for the subagent.
	Session string
	// Transcript is the main session's transcript, in Client's format:
	// a capsule built for the subagent takes its highlights from it. ""
	// when the client gave none.
	Transcript string
	// Known is the boot context the client gives the subagent itself
	// (Claude Code's CLAUDE.md import of boot.md), "" when none: the
	// capsule then carries only what the subagent lacks, none of its
	// lines that the boot context already holds.
	Known string
}

// Injection is what [Memory.SubagentStart] gives a subagent.
type Injection struct {
	// Text is the context to add to the subagent's conversation: the
	// capsule wrapped in the consumption prompt, within Limit bytes. ""
	// when the agent type gets none (Limit 0).
	Text  string
	Limit int // the agent type's byte limit ([capsule] hook_bytes, [capsule.agents])
	// Capsule is the capsule given; Built says it was built for this
	// subagent, there being none of the branch or the memory having
	// changed since the newest; Pinned that it is the capsule pinned to
	// the branch (`wake capsule pin`), given as it is.
	Capsule capsule.Found
	Built   bool
	Pinned  bool
	// Mini says the agent type gets the capsule's miniature ([capsule]
	// mini_agents), Tokens its exact size.
	Mini   bool
	Tokens int
	// Cut is how many of the capsule's lines were left out to fit Limit,
	// and Cuts what they were.
	Cut  int
	Cuts []budget.Cut
}

// CapsuleGap is what a subagent says when its capsule lacks something
// it needs.
const CapsuleGap = "Capsule gap"

// knownFacts are the facts the boot context known states whole: each
// line, and each line's value after a list marker or a "key:" (the
// HANDOFF's "next_priority: FACT"), trailing periods aside. Words inside
// a longer line (one that may say otherwise: "- Do not FACT") are not.
func knownFacts(known string) map[string]bool {
	out := map[string]bool{}
	for kl := range strings.Lines(known) {
		kl = strings.TrimRight(strings.TrimSpace(kl), ". ")
		out[kl] = true
		for _, p := range []string{"- ", "* "} {
			if v, ok := strings.CutPrefix(kl, p); ok {
				out[strings.TrimSpace(v)] = true
			}
		}
		if key, v, ok := strings.Cut(kl, ":"); ok && key != "" && !strings.Contains(key, " ") {
			out[strings.TrimSpace(v)] = true
		}
		// The announcement's sentences ("Resumed. Last session: X.
		// Current focus: Y."), which the HANDOFF view leaves to it.
		if strings.HasPrefix(kl, "Resumed. ") {
			for _, sent := range strings.Split(kl, ". ") {
				if _, v, ok := strings.Cut(sent, ": "); ok {
					out[strings.TrimRight(strings.TrimSpace(v), ". ")] = true
				}
			}
		}
	}
	return out
}

// knownLine reports whether the capsule's line l says what one of the
// boot context's facts ([knownFacts]) says. Short lines (a heading's
// word, "None.") are always kept.
func knownLine(l string, facts map[string]bool) bool {
	t := strings.TrimRight(capsuleFact(l), ". ")
	return len(t) >= 16 && facts[t]
}

// capsuleFact is what a capsule's line says, less its list marker and
// its bold label ("- **Objective:** ...", "**Status** (handed off ...):").
func capsuleFact(l string) string {
	t := strings.TrimSpace(l)
	for _, p := range []string{"- [ ] ", "- [x] ", "- ", "* "} {
		t = strings.TrimPrefix(t, p)
	}
	return strings.TrimSpace(factLabel().ReplaceAllString(t, ""))
}

// factLabel is a capsule line's bold label. Compiled on first use, as
// [plainID] is.
var factLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\*\*[^*]{1,60}\*\*(?: \([^)]{0,80}\))?:?\s+`) })

// consumptionPrompt follows the capsule: the seed's instructions to a
// subagent that starts from one.
const consumptionPrompt = "Treat this capsule as authoritative for current context: it is the main agent's state, which you continue. " +
	"It is a curated snapshot, so verify it against the memory files in %s (the HANDOFF, the active tasks and decisions) and the repository before you rely on a detail, " +
	"and note any discrepancy in your report to the main agent. " +
	"If critical information seems missing, say \"" + CapsuleGap + ": <what is missing>\" in your report, so that the main agent can add it. " +
	"When you finish, report what changed, so that the memory (and the next capsule) stays accurate. " +
	"The main session hands off, not you: do not run `wake handoff`.\n"

// SubagentStart is the SubagentStart hook's work: it gives the subagent
// the capsule pinned to the current branch ([Memory.PinCapsule]) as it
// is, else the branch's newest, building one first when the branch has
// none or the memory changed after the newest was written, wrapped in
// the consumption prompt and cut to the agent type's byte limit
// ([capsule.agents], else [capsule] hook_bytes) bottom-up. An agent type
// of [capsule] mini_agents gets the capsule's miniature ([capsule.Mini])
// within mini_tokens. Each injection is recorded in subagents.jsonl with
// a ledger line (op subagent). An agent type whose limit is 0 gets
// nothing, and nothing is recorded. Reusing a capsule whole counts no
// tokens. The agent's id, type and session are taken as one printable
// line of at most 160 characters each.
func (m *Memory) SubagentStart(ctx context.Context, in SubagentStartInput) (Injection, error) {
	// The client's names go into the registry, the ledger and a capsule's
	// front matter: one printable line each, of at most 160 characters,
	// whatever the hook's input held.
	in.AgentID, in.AgentType, in.Session = tiers.ShortLine(in.AgentID), tiers.ShortLine(in.AgentType), tiers.ShortLine(in.Session)
	inj := Injection{Limit: m.cfg.Capsule.AgentBytes(in.AgentType)}
	if inj.Limit <= 0 {
		inj.Limit = 0
		return inj, nil
	}
	found, pinned := m.pinnedForSubagent(ctx)
	built := false
	if !pinned {
		var err error
		if found, built, err = m.subagentCapsule(ctx, in); err != nil {
			return inj, err
		}
	}
	inj.Capsule, inj.Built, inj.Pinned = found, built, pinned
	give, note := found, ""
	if m.cfg.Capsule.Mini(in.AgentType) {
		mb := capsule.Mini(found.Capsule, m.cfg.Capsule.MiniTokens, m.counter(), found.Path)
		m.SaveCache()
		give.Capsule, inj.Mini, inj.Tokens = mb.Capsule, true, mb.Tokens
		inj.Cuts = mb.Cuts
		note = fmt.Sprintf("This is its miniature, for a lightweight task: the mission, the pending actions and the decisions that bear on them, %s tokens within [capsule] mini_tokens (%s); the whole capsule is the file named.\n",
			budget.Thousands(mb.Tokens), budget.Thousands(m.cfg.Capsule.MiniTokens))
	}
	var cuts []budget.Cut
	inj.Text, inj.Cut, cuts = m.injectionText(give, inj.Limit, in.Known, note)
	inj.Cuts = append(inj.Cuts, cuts...)
	err := m.Store().RecordSubagent(ctx, store.SubagentRecord{At: m.o.Now(), Capsule: found.ID, AgentID: in.AgentID,
		AgentType: in.AgentType, Client: in.Client, Session: in.Session, Bytes: len(inj.Text), Cut: inj.Cut, Pinned: pinned,
		Mini: inj.Mini, Tokens: inj.Tokens})
	if err != nil {
		return inj, fmt.Errorf("capsule %s: recording its injection: %w", found.ID, err)
	}
	return inj, nil
}

// pinnedForSubagent is the capsule pinned to the current branch, when
// one is and it can be read; a pin whose capsule cannot be read (gone,
// held back, no longer a capsule) is a warning, and the subagent gets
// the branch's newest as if there were no pin.
func (m *Memory) pinnedForSubagent(ctx context.Context) (capsule.Found, bool) {
	p, err := m.PinnedCapsule(ctx, "")
	if err != nil {
		m.warn(fmt.Sprintf("reading the capsule pins: %v; the branch's newest capsule is given", err))
		return capsule.Found{}, false
	}
	if p.ID == "" {
		return capsule.Found{}, false
	}
	f, err := m.capsuleByID(p.ID)
	if err != nil {
		m.warn(fmt.Sprintf("the capsule pinned to branch %s cannot be given (%v); the branch's newest is given instead", p.Branch, err))
		return capsule.Found{}, false
	}
	return f, true
}

// subagentLock is the lock file, in the state directory, that makes the
// hooks of subagents starting together take turns finding or building
// the capsule: the first builds it, the others reuse it.
const subagentLock = "subagent.lock"

// subagentCapsule finds the capsule to give: the branch's newest, or one
// built now when there is none or the memory changed since. built says
// which. The transcript is read with no lock held: a long one, or one
// slow to read, must not keep the hooks of other subagents waiting.
func (m *Memory) subagentCapsule(ctx context.Context, in SubagentStartInput) (f capsule.Found, built bool, err error) {
	if _, err := store.MkdirAllIn(m.o.FS, m.root, tiers.StateDir); err != nil {
		return f, false, err
	}
	// Handed to a subagent, the reminders are handed on: consumed.
	o := CapsuleOptions{Session: in.Session, Transcript: in.Transcript, TranscriptFormat: transcriptFormat(in), Consume: true,
		// The client may not have written the session's transcript yet
		// when its first request spawns the subagent.
		TranscriptMayFail: true}
	var hl []capsule.Highlight
	// At most twice round: the second time with the highlights read, in
	// case another hook built a capsule meanwhile.
	for read := o.Transcript == ""; ; read = true {
		unlock, err := m.o.Locker.LockIn(ctx, m.path(tiers.StateDir), subagentLock)
		if err != nil {
			return f, false, fmt.Errorf("waiting for another subagent's capsule: %w", err)
		}
		m.recordTierEdits(ctx)
		f, ok, err := m.NewestCapsule(ctx, m.Branch(ctx))
		if err != nil || ok && !m.changedSince(f) {
			unlock()
			return f, false, err
		}
		if read {
			f, err = m.builtCapsule(ctx, o, hl)
			unlock()
			return f, err == nil, err
		}
		unlock()
		if hl, err = m.capsuleHighlights(o); err != nil {
			return f, false, err
		}
	}
}

// builtCapsule writes a capsule for a subagent, with the highlights hl.
func (m *Memory) builtCapsule(ctx context.Context, o CapsuleOptions, hl []capsule.Highlight) (capsule.Found, error) {
	w, err := m.capsuleWith(ctx, o, hl)
	if err != nil {
		return capsule.Found{}, fmt.Errorf("building a capsule: %w", err)
	}
	body, _ := policy.Scrub(string(w.Data))
	return capsule.Found{ID: w.ID, Path: w.Path, Created: w.Capsule.Front.CreatedAt, Capsule: w.Capsule, Body: body}, nil
}

// recordTierEdits records the edits made to the tier files outside wake
// since a session start last looked, as a start does (see [startEdits]):
// a capsule judged by the ledger alone would be given stale after a
// decision or a task written into the files by hand. Failing to look is
// a warning; the capsule is judged by the ledger as it is.
func (m *Memory) recordTierEdits(ctx context.Context) {
	unlock, err := m.o.Locker.RLock(ctx, m.root)
	if err != nil {
		m.warn(fmt.Sprintf("looking for edits made outside wake: %v", err))
		return
	}
	e := m.startEdits(unlock, false)
	e.tiers(ctx)
	e.unlock()
}

// transcriptFormat is the format of the transcript the hook named: the
// client's own, or "" (sniffed) when wake does not know the client.
func transcriptFormat(in SubagentStartInput) string {
	if in.Transcript == "" {
		return ""
	}
	switch in.Client {
	case "claude", "codex":
		return in.Client
	}
	return ""
}

// nonChanges are the ledger ops that leave the memory's content as it
// was: a capsule written, given to a subagent, pinned or unpinned, a
// client wired in or out.
var nonChanges = []string{"capsule", store.OpSubagent, store.OpCapsulePin, store.OpCapsuleUnpin, "install", "uninstall"}

// changedSince reports whether the memory changed after capsule f was
// written: a ledger line after the capsule's own (op capsule naming its
// path), other than those of [nonChanges]. A capsule without a ledger
// line of its own (one an agent wrote) counts from its created_at. Only
// the ledger's lines from created_at on are read. A ledger wake cannot
// read counts as a change.
func (m *Memory) changedSince(f capsule.Found) bool {
	entries, _, err := store.ReadLedgerSince(m.o.FS, m.root, f.Created)
	if err != nil {
		return true
	}
	from := -1
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.Op == "capsule" && slices.Contains(e.Paths, f.Path) {
			from = i
			break
		}
	}
	for i, e := range entries {
		if slices.Contains(nonChanges, e.Op) {
			continue
		}
		if from >= 0 && i > from || from < 0 && e.At.After(f.Created) {
			return true
		}
	}
	return false
}

// injectionText renders capsule f for a subagent within limit bytes: a
// heading, the capsule's provenance (id, path, branch, time, session; the
// objective is the Mission Snapshot's first line), its sections (empty ones left out,
// headings one level down) and the consumption prompt. The sections'
// lines go from the bottom up, as the budget's fitter cuts, with a note
// of how many went and where the whole capsule is. mini, when not "",
// follows the provenance: the note that f is a capsule's miniature. It
// returns the text, how many lines were cut, and what they were.
func (m *Memory) injectionText(f capsule.Found, limit int, known, mini string) (string, int, []budget.Cut) {
	path := filepath.Join(m.root, filepath.FromSlash(f.Path))
	fm := f.Capsule.Front
	var head strings.Builder
	head.WriteString("## Context Capsule\n\n")
	fmt.Fprintf(&head, "Capsule %s (%s) of branch %s", f.ID, path, fm.Branch)
	if !fm.CreatedAt.IsZero() {
		fmt.Fprintf(&head, ", written %s", fm.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"))
	}
	if fm.SourceSession != "" {
		fmt.Fprintf(&head, " for session %s", fm.SourceSession)
	}
	head.WriteString(".\n")
	head.WriteString(mini)
	tail := "\n" + fmt.Sprintf(consumptionPrompt, m.root)
	var lines []string
	held := 0
	var facts map[string]bool
	if known != "" {
		facts = knownFacts(known)
	}
	for _, s := range f.Capsule.Sections {
		body := strings.TrimSpace(s.Body)
		if body == "" {
			continue
		}
		var kept []string
		for _, l := range strings.Split(body, "\n") {
			if knownLine(l, facts) {
				held++
				continue
			}
			kept = append(kept, l)
		}
		if len(kept) == 0 {
			continue
		}
		lines = append(lines, "", "### "+s.Title, "")
		lines = append(lines, kept...)
	}
	if held > 0 {
		fmt.Fprintf(&head, "%s of it that the boot context you were given holds already are left out.\n", budget.Plural(held, "line"))
	}
	note := func(n int) string {
		if n == 0 {
			return ""
		}
		return fmt.Sprintf("\n_(%s of this capsule left out to fit %s bytes: the whole capsule is %s.)_\n", budget.Plural(n, "line"), budget.Thousands(limit), path)
	}
	room := limit - len(head.String()) - len(tail)
	if room < len(note(len(lines)))+minCapsuleRoom {
		// Not even the wrapper fits: a pointer to the file.
		short := fmt.Sprintf("Context capsule %s: read %s before you start, treat it as authoritative for current context, verify it against the memory files, and say \"%s\" when critical information is missing.\n", f.ID, path, CapsuleGap)
		short, _ = policy.Scrub(short)
		return tiers.CutBytes(short, limit), len(lines), nil
	}
	fr := &budget.Fitter{Unit: budget.Bytes, Limit: room, Pieces: make([]budget.Piece, len(lines))}
	upTo := make([]int, len(lines)+1)
	for i, l := range lines {
		fr.Pieces[i] = budget.Piece{Text: l, Size: len(l) + 1, Where: budget.Where(f.Path, "")}
		upTo[i+1] = upTo[i] + len(l) + 1
	}
	fr.Measure = func() int { return upTo[len(lines)-fr.Steps()] + len(note(fr.Steps())) }
	fr.Fit()
	kept := len(lines) - fr.Steps()
	// A heading, or a blank line, left last of what is kept goes too.
	for kept > 0 && (lines[kept-1] == "" || strings.HasPrefix(lines[kept-1], "### ")) && kept < len(lines) {
		kept--
	}
	var b strings.Builder
	b.WriteString(head.String())
	for _, l := range lines[:kept] {
		b.WriteString(l)
		b.WriteString("\n")
	}
	b.WriteString(note(len(lines) - kept))
	b.WriteString(tail)
	text, _ := policy.Scrub(b.String())
	// Scrubbing replaces a secret with a shorter mark; should one ever
	// be longer, the limit still holds.
	return tiers.CutBytes(text, limit), len(lines) - kept, fr.Cuts()
}

// minCapsuleRoom is the least room for the capsule's lines worth the
// wrapper: below it the subagent gets a pointer to the file instead.
const minCapsuleRoom = 200

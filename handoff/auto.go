package handoff

import (
	"fmt"
	"strings"
	"time"

	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
	"github.com/wakeproto/wake/transcript"
)

// AutoPrefix opens the summary of an automatic hand-off of a session that
// wrote none; AutoAfterPrefix, with the time of the session's hand-off,
// that of one covering the work after it. Both start with AutoMark.
const (
	AutoMark        = "Automatic hand-off"
	AutoPrefix      = AutoMark + " (the session ended without one): "
	AutoAfterPrefix = AutoMark + " of the work after the hand-off of %s (the session ended without another): "
	// RecoveredPrefix opens that of a session recovered at a later start:
	// no hook wrote it when the session ended (killed, or still open).
	RecoveredPrefix = AutoMark + ", recovered at a later start (the session wrote none, and no hook wrote one when it ended): "
)

// CarriedPrefix opens a next priority carried over from the previous
// hand-off by an automatic one.
const CarriedPrefix = "(carried over from the previous hand-off) "

// Facts are what an automatic hand-off is written from: what wake saw of
// a session that ended without one.
type Facts struct {
	Session    *transcript.Summary // nil without a transcript
	Transcript string              // the transcript's file
	Start      time.Time
	After      time.Time  // the session's last hand-off, which this one follows; zero when none
	Decisions  int        // the decision-log changes in the ledger since (with a transcript, those naming the session)
	Changed    tiers.List // git's files changed since Start
	Carried    string     // the previous hand-off's next priority
	// Recovered says the hand-off is written at a later session's start,
	// from the transcript of a session that left none ([RecoveredPrefix]).
	Recovered bool
}

// maxNamed is how many edited files the summary line names, and
// maxListed how many the list of edits does.
const (
	maxNamed  = 3
	maxListed = 30
)

// Auto builds the automatic hand-off's input: every text scrubbed of secrets, the
// scrubbing counted in the note for the successor.
func Auto(f Facts) Input {
	sc := &scrubber{}
	s := tiers.Session{
		Summary:      sc.do(f.prefix() + f.what()),
		NextPriority: sc.do(f.next()),
		OpenRisk:     "Written by wake from the session's record, not by the agent: it does not say whether the work was finished, tested or committed.",
		Happened:     tiers.List{Items: sc.all(f.happened())},
		Changed:      tiers.List{Items: sc.all(f.Changed.Items), Note: sc.do(f.Changed.Note)},
		Threads:      tiers.List{Items: sc.all(f.threads())},
	}
	if s.Changed.Empty() {
		s.Changed.Note = "git listed nothing."
	}
	if n := f.decided(); n > 0 {
		// They are in the decision log already, with their reasons: said
		// here, not written again.
		s.Decisions.Note = fmt.Sprintf("The session recorded %s in the decision log; see `wake decisions`.", count(n, "decision"))
	}
	s.Successor = sc.do(f.successor())
	if sc.n > 0 {
		s.Successor += fmt.Sprintf("\n\nSecrets in the transcript were replaced with [redacted:…] markers (%d in this summary).", sc.n)
	}
	return Input{Session: s}
}

func (f Facts) prefix() string {
	if f.Recovered {
		return RecoveredPrefix
	}
	if f.After.IsZero() {
		return AutoPrefix
	}
	return fmt.Sprintf(AutoAfterPrefix, stamp(f.After))
}

// what says in a line what the session did.
func (f Facts) what() string {
	var parts []string
	if s := f.Session; s != nil {
		if n := len(s.Edits) + s.MoreEdits; n > 0 {
			names := s.EditedPaths()
			if len(names) > maxNamed {
				names = append(names[:maxNamed:maxNamed], "…")
			}
			parts = append(parts, fmt.Sprintf("the agent's tools edited %s (%s)", count(n, "file"), strings.Join(names, ", ")))
		}
		if s.CommandCount > 0 {
			parts = append(parts, "ran "+count(s.CommandCount, "command"))
		}
	}
	if n := f.decided(); n > 0 {
		parts = append(parts, "recorded "+count(n, "decision"))
	}
	if len(parts) == 0 {
		parts = append(parts, "files changed in the work tree")
	}
	line := strings.Join(parts, ", ")
	if f.Session != nil && len(f.Session.Prompts) > 0 {
		line += "; the user asked: " + quote(cut(f.Session.Prompts[0], 120))
	}
	return line
}

// decided is how many decisions the session recorded: those its
// transcript shows it making, or the ledger's count when that is more
// (with a transcript, the lines naming the session: a transcript may lag).
func (f Facts) decided() int {
	if f.Session != nil {
		return max(f.Session.Decisions, f.Decisions)
	}
	return f.Decisions
}

// next is the next priority, from the session where it tells one: what
// the agent's last message left open, else the user's last request; the
// previous hand-off's, labelled as carried over, only when the session
// tells nothing (no transcript, or no prompt in it).
func (f Facts) next() string {
	if s := f.Session; s != nil && len(s.FollowUps) > 0 {
		return leftOpenNext + quote(cut(s.FollowUps[0], 200))
	}
	if s := f.Session; s != nil && len(s.Prompts) > 0 {
		return autoNext + ", then take up the user's last request: " + quote(cut(s.Prompts[len(s.Prompts)-1], 200))
	}
	if c := f.carried(); c != "" {
		return CarriedPrefix + c
	}
	return autoNext + " and ask the user what comes next."
}

// autoNext opens the next priority an automatic hand-off derives;
// leftOpenNext the one it takes from what the agent's last message left
// open.
const (
	autoNext     = "Check this automatic hand-off against the work tree"
	leftOpenNext = autoNext + ", then take up what the agent's last message left open: "
)

// carried is the previous hand-off's next priority as a thing to do:
// without the label an automatic hand-off gave it; of one an earlier
// automatic hand-off derived, only what that session left open, since
// the rest (its user's request, or nothing) points at that session, not
// at work.
func (f Facts) carried() string {
	c := strings.TrimPrefix(f.Carried, CarriedPrefix)
	if rest, ok := strings.CutPrefix(c, leftOpenNext); ok {
		return strings.TrimSuffix(strings.TrimPrefix(rest, "“"), "”")
	}
	if strings.HasPrefix(c, autoNext) {
		return ""
	}
	return c
}

// threads are the open threads: what the agent's last message left open,
// and the previous hand-off's next priority when the session's own took
// its place (the session may or may not have done it).
func (f Facts) threads() []string {
	var out []string
	if s := f.Session; s != nil {
		// The first is the next priority's (each fact once).
		for i, u := range s.FollowUps {
			if i == 0 && cut(u, 200) == u {
				continue // whole in the next priority
			}
			out = append(out, "Left open by the agent's last message: "+quote(u))
		}
	}
	if c := f.carried(); c != "" && !strings.HasPrefix(f.next(), CarriedPrefix) {
		out = append(out, "The previous hand-off's next priority, which this session may or may not have taken up: "+quote(c))
	}
	return out
}

// happened lists the prompts, the edits, the commands and the last
// message.
func (f Facts) happened() []string {
	s := f.Session
	if s == nil {
		if f.Decisions > 0 {
			return []string{fmt.Sprintf("Recorded %s in the decision log (see wake decisions).", count(f.Decisions, "decision"))}
		}
		return []string{"No transcript was given: the files below are all that is known of the session."}
	}
	var out []string
	for i, p := range s.Prompts {
		if i == s.PromptGap && s.PromptCount > len(s.Prompts) {
			out = append(out, fmt.Sprintf("(%d more prompts in between)", s.PromptCount-len(s.Prompts)))
		}
		out = append(out, "The user asked: "+quote(p))
	}
	if n := len(s.Edits); n > 0 {
		var names []string
		for i, e := range s.Edits {
			if i == maxListed {
				break
			}
			names = append(names, fmt.Sprintf("%s (%s)", e.Path, e.Tool))
		}
		if more := n - len(names) + s.MoreEdits; more > 0 {
			names = append(names, fmt.Sprintf("and %d more", more))
		}
		out = append(out, "The agent's tools edited: "+strings.Join(names, ", "))
	}
	if s.Outside > 0 {
		// Not named: a path outside the project (the user's home, say)
		// is none of the memory's business.
		out = append(out, fmt.Sprintf("The agent's tools also edited %s outside the project, not listed.", count(s.Outside, "file")))
	}
	if len(s.Commands) > 0 {
		head := "The agent ran:"
		if s.CommandCount > len(s.Commands) {
			head = fmt.Sprintf("The agent ran %d commands, the last %d:", s.CommandCount, len(s.Commands))
		}
		out = append(out, head+" "+strings.Join(codes(s.Commands), ", "))
	}
	if n := f.decided(); n > 0 {
		out = append(out, fmt.Sprintf("Recorded %s in the decision log (see wake decisions).", count(n, "decision")))
	}
	if s.LastMessage != "" {
		// What it left open is the next priority and the open threads:
		// the message is quoted without it (each fact once).
		msg := s.LastMessage
		for _, u := range s.FollowUps {
			// A follow-up is a whole sentence or list item, most often
			// at the message's end: an earlier occurrence of its words
			// is part of another sentence, and stays.
			if i := strings.LastIndex(msg, u); i >= 0 {
				msg = strings.TrimSpace(msg[:i] + msg[i+len(u):])
			}
		}
		switch {
		case msg == "":
			out = append(out, "The agent's last message left work open: see the next priority and the open threads.")
		case msg != s.LastMessage:
			out = append(out, "The agent's last message: "+quote(msg)+" (what it left open: the next priority and the open threads)")
		default:
			out = append(out, "The agent's last message: "+quote(msg))
		}
	}
	return out
}

func (f Facts) successor() string {
	src := "git and the ledger"
	if s := f.Session; s != nil {
		src = fmt.Sprintf("the %s transcript %s (%d lines read", s.Format, f.Transcript, s.Lines)
		if n := s.Skipped(); n > 0 {
			src += fmt.Sprintf(", %d skipped", n)
		}
		src += "), git and the ledger"
	}
	what := "the session that started at " + stamp(f.Start) + " and ended without one"
	if !f.After.IsZero() {
		what = "the work that the session that started at " + stamp(f.Start) + " did after its hand-off of " + stamp(f.After) + ", which it did not hand off"
	}
	return fmt.Sprintf("This hand-off was written by `wake handoff --auto` for %s, from %s. It records what happened, not the agent's judgement: verify it before building on it, and write the next hand-off yourself (`wake handoff --summary ... --next ...`).",
		what, src)
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func quote(s string) string { return "“" + s + "”" }

// cut shortens a one-line text to at most max bytes, at a character and
// never inside a redaction marker. The transcript's texts come scrubbed
// whole, before any cut, so that no cut leaves a secret's head.
func cut(s string, max int) string { return transcript.Shorten(s, max) }

// codes renders commands as Markdown code spans.
func codes(cmds []string) []string {
	out := make([]string, len(cmds))
	for i, c := range cmds {
		fence := "`"
		for strings.Contains(c, fence) {
			fence += "`"
		}
		if strings.HasPrefix(c, "`") || strings.HasSuffix(c, "`") {
			c = " " + c + " "
		}
		out[i] = fence + c + fence
	}
	return out
}

// scrubber scrubs texts of secrets and counts the redaction markers in
// what it gives: those the transcript's reading put in, and its own.
type scrubber struct{ n int }

func (s *scrubber) do(text string) string {
	out, _ := policy.Scrub(text)
	s.n += strings.Count(out, redactedMarker)
	return out
}

// redactedMarker opens what [policy.Scrub] puts in place of a secret.
const redactedMarker = "[redacted:"

func (s *scrubber) all(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = s.do(t)
	}
	return out
}

// stamp is a time as the automatic hand-off's texts give it.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

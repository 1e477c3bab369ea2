package capsule

import (
	"fmt"
	"strings"
)

// Guidance is one line a section, saying what belongs in it: the prompt's
// template shows it, and the stub keeps it as a comment.
var Guidance = map[string]string{
	"Mission Snapshot":                       "What the user wants and where the work stands now, in two or three bullets.",
	"Key Decisions & Rationale":              "The decisions that shape what comes next, each with its reason; cite the decision log rather than restate it.",
	"Active Workstreams":                     "Each line of work in progress: its scope, who or what carries it, what blocks it.",
	"Pending Actions":                        "The next steps as \"- [ ]\" items, blocking ones first, each with what triggers it.",
	"Knowledge Base":                         "The files, commands, interfaces and documents the next agent needs: name them, do not explain them.",
	"Risks & Watchpoints":                    "What could go wrong and how to notice it; anything the HANDOFF, tasks or git contradict.",
	"Transcript Highlights":                  "At most five pivotal moments of the conversation, newest first, each citing its UTC time or a commit.",
	"Exploratory Threads & User Preferences": "Open ideas and what the user asked to keep in mind: topic, current hypothesis, evidence still missing, next discovery step.",
}

// Stub is the skeleton of a capsule for an agent to fill in: h's front
// matter, then every section of the outline, empty but for its guidance
// as a comment (which `wake capsule verify` ignores; an empty section is
// a finding until filled).
func Stub(fm FrontMatter) []byte {
	var b strings.Builder
	b.WriteString("---\n")
	b.Write(RenderFront(fm))
	b.WriteString("---\n")
	for _, t := range Outline {
		fmt.Fprintf(&b, "# %s\n<!-- %s -->\n\n", t, Guidance[t])
	}
	return []byte(b.String())
}

// PromptInput is what the capture prompt is made of.
type PromptInput struct {
	Target string // where the capsule goes, as the agent should write it
	Exists bool   // the file is already there (a stub to fill in)
	Front  FrontMatter
	// The files to read first, as the agent should open them.
	Handoff, Tasks, Inbox string
	OpenReminders         int // -1 when the inbox could not be read
	// Plans are the branch's plan and progress notebooks, as the agent
	// should open them; PlanSlug the name they were looked for under
	// when given, "" when the branch's own.
	Plans    []string
	PlanSlug string
	Git      GitState
	Verify   string // the command that checks the capsule
}

// GitState is the work tree as git status shows it when the prompt is made.
type GitState struct {
	Branch     string
	Changed    int    // files git status lists
	LastCommit string // short hash and subject; "" when none
	Note       string // why git said nothing, when it did not
}

// Prompt is the ready-to-send instruction block that asks an agent to
// flush its working memory into a capsule.
func Prompt(in PromptInput) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("Write a context capsule: a short, auditable snapshot of this session that a")
	w("subagent, or the next session, reads first to carry on as if it were you.")
	w("")
	if in.Exists {
		w("File:    %s (it is there: fill in every section)", in.Target)
	} else {
		w("File:    %s (create it; do not overwrite another capsule)", in.Target)
	}
	w("Branch:  %s", in.Front.Branch)
	if in.Front.SourceSession != "" {
		w("Session: %s", in.Front.SourceSession)
	}
	w("Budget:  %d tokens for the body (everything after the front matter), counted exactly", in.Front.TokenBudget)
	w("")
	w("Read first:")
	w("- %s: the HANDOFF, what the last session left for this one", in.Handoff)
	w("- %s: the active tasks", in.Tasks)
	switch {
	case in.OpenReminders < 0:
		w("- %s: the remember-later inbox (it could not be read; check it by hand)", in.Inbox)
	case in.OpenReminders == 0:
		w("- %s: the remember-later inbox (no open reminders)", in.Inbox)
	default:
		w("- %s: the remember-later inbox, %d open reminder(s): carry each into", in.Inbox, in.OpenReminders)
		w("  Exploratory Threads & User Preferences, or say why it is done")
	}
	for _, p := range in.Plans {
		w("- %s: the branch's plan or progress notebook: check the capsule", p)
		w("  against it and cite its entries rather than re-explain them")
	}
	if len(in.Plans) == 0 && in.PlanSlug != "" {
		w("- no plan or progress notebook named %s was found ([capsule] plans)", in.PlanSlug)
	}
	w("")
	w("Git now:")
	if in.Git.Note != "" {
		w("- %s", in.Git.Note)
	} else {
		w("- branch %s, %d changed file(s) in git status", in.Git.Branch, in.Git.Changed)
		if in.Git.LastCommit != "" {
			w("- last commit %s", in.Git.LastCommit)
		}
	}
	w("")
	if in.Front.PrimaryObjective == "" {
		w("Template: keep the front matter and fill in primary_objective (one line).")
	} else {
		w("Template: keep the front matter; primary_objective comes from the HANDOFF:")
		w("correct it (one line) if the work moved on.")
	}
	w("Replace each comment with the section's content. Write the file yourself;")
	w("if you cannot, reply with the whole capsule and nothing else.")
	w("")
	b.Write(Stub(in.Front))
	writeRules(w, in.Front.CreatedAt.UTC().Format("2006-01-02T15:04Z"), in.Verify, len(in.Plans) > 0)
	return b.String()
}

func writeRules(w func(string, ...any), now, verify string, plans bool) {
	w("Rules:")
	w("1. Newest, blocking and high-severity items first; stable background belongs")
	w("   in the project's documents, not here.")
	w("2. Refer instead of re-explaining: name files as `path/to/file` or Markdown")
	w("   links, relative to the project (or to the memory root), and commits by hash.")
	w("   Backticks are for paths and hashes only: verify looks each one up.")
	w("3. Transcript Highlights: at most %d bullets, the pivotal exchanges only,", MaxHighlights)
	w("   each citing its UTC time (%s) or a commit hash.", now)
	w("4. Each exploratory thread names its topic, its current hypothesis, the")
	w("   evidence still missing and its next discovery step.")
	w("5. No secrets: no tokens, keys or passwords; say where they are kept instead.")
	w("6. Keep every heading, in order; under one with nothing to say, write")
	w("   %s", Empty)
	w("")
	w("Before you finish:")
	if plans {
		w("- [ ] The capsule agrees with the HANDOFF, the active tasks, the plan and")
		w("      git status; anything that does not is flagged in Risks & Watchpoints.")
	} else {
		w("- [ ] The capsule agrees with the HANDOFF, the active tasks and git status;")
		w("      anything that does not is flagged in Risks & Watchpoints.")
	}
	w("- [ ] The uncommitted changes git status lists are covered by Active")
	w("      Workstreams or Pending Actions.")
	w("- [ ] Every file and commit you name exists.")
	w("- [ ] The body is within the budget.")
	w("- [ ] Then run: %s", verify)
}

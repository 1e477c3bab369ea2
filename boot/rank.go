package boot

import (
	"regexp"
	"strings"
	"sync"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// rankFor is the order in which a tier file over its share loses its
// blocks (see [budget.FitRanked]), following seed 001 (actionable over
// historical): main.md never its HANDOFF block; the tasks and questions
// their done and resolved items first, so that every open one stays
// while they go; a session summary "What happened" first and its note to
// its successor, open threads, next priority and risk (its front matter)
// last. nil cuts every block alike, from the bottom up.
func rankFor(path string) func(budget.Block) int {
	switch path {
	case tiers.MainPath:
		return func(b budget.Block) int {
			if strings.EqualFold(b.Section, tiers.SectionHandoff) {
				return budget.Keep
			}
			return 0
		}
	case tiers.TasksPath, tiers.QuestionsPath:
		return func(b budget.Block) int {
			if doneItem().MatchString(b.Text) || doneSection(b.Section) {
				return -1
			}
			return 0
		}
	case tiers.LatestPath, tiers.PreviousPath:
		return sessionRank
	}
	return nil
}

// doneItem matches a list item checked off: "- [x] …".
var doneItem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\A\n*\s*([-*+]|\d{1,9}[.)])\s+\[[xX]\]`) })

// doneSection reports whether a section's title says its items are
// finished.
func doneSection(title string) bool {
	switch strings.ToLower(strings.TrimSpace(title)) {
	case "done", "completed", "finished", "resolved", "answered", "closed":
		return true
	}
	return false
}

// sessionRank ranks a session summary's blocks by section.
func sessionRank(b budget.Block) int {
	switch strings.ToLower(strings.Join(strings.Fields(b.Section), " ")) {
	case "what happened":
		return -3
	case "what changed (files)", "what changed":
		return -2
	case "decisions made", "decisions":
		return -1
	case "open threads":
		return 1
	case "for my successor":
		return 2
	}
	// The front matter (summary, next priority, risk), the title and
	// anything of the user's own.
	return 3
}

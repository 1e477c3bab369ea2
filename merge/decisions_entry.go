package merge

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/wakeproto/wake/tiers"
)

// datePrefix reads the "[YYYY-MM-DD]" an annotation opens with.
var datePrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[(\d{4}-\d{2}-\d{2})\]`) })

// group is an annotation and the fields that go with it (an OBJECTION and
// its PROPOSED), as they stand in the entry.
type group struct {
	key, date, text string
}

// mergeEntry merges one entry both sides have. Where one side left it as
// base had it, the other side's bytes are taken whole.
func mergeEntry(o Options, base, ours, theirs tiers.Decision, res *Result) string {
	switch {
	case ours.Raw == theirs.Raw, theirs.Raw == base.Raw:
		return ours.Raw
	case ours.Raw == base.Raw && sameText(firstLineOf(ours.Raw), firstLineOf(theirs.Raw)):
		return withEOL(theirs.Raw, entryEOL(ours))
	case !sameText(firstLineOf(ours.Raw), firstLineOf(theirs.Raw)):
		return ours.Raw // two entries with one ID: theirs goes at the end
	}
	eol := entryEOL(ours)
	head, groups := splitAnnotations(ours)
	_, theirGroups := splitAnnotations(theirs)
	have := map[string]bool{}
	for _, g := range groups {
		have[normal(g.text)] = true
	}
	for _, g := range theirGroups {
		if !have[normal(g.text)] {
			have[normal(g.text)] = true
			groups = append(groups, g)
		}
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].date < groups[j].date })
	status := statusOf(groups)
	if status == "double" {
		status = tiers.StatusContested
		if !hasDoubleObjection(groups) {
			groups = append(groups, doubleObjection(o, ours, groups))
			res.Notes = append(res.Notes, fmt.Sprintf("decision %s was reversed differently on the two branches: it is contested, for you to settle ('wake decisions --all' shows both replacements)", ours.Ref()))
		}
	}
	var b strings.Builder
	b.WriteString(withEOL(setStatus(head, ours, status), eol))
	for _, g := range groups {
		b.WriteString(withEOL(g.text, eol))
	}
	return b.String()
}

func entryEOL(e tiers.Decision) string {
	if strings.Contains(e.Raw, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// splitAnnotations cuts an entry at its first annotation: the head (the
// DECISION line, ID, STATUS, TOPIC) and the annotation groups after it.
// An annotation written on the DECISION line stays in the head.
func splitAnnotations(e tiers.Decision) (string, []group) {
	cut := len(e.Raw)
	var groups []group
	date := ""
	for i, f := range e.Fields {
		if i == 0 || !annotationKeys[f.Key] || f.Line == e.Line {
			if len(groups) > 0 {
				// A field after an annotation goes with it.
				groups[len(groups)-1].text += e.Raw[f.Bytes.Start-e.Bytes.Start : f.Bytes.End-e.Bytes.Start]
			}
			continue
		}
		if cut == len(e.Raw) {
			cut = f.Bytes.Start - e.Bytes.Start
		}
		text := e.Raw[f.Bytes.Start-e.Bytes.Start : f.Bytes.End-e.Bytes.Start]
		if m := datePrefix().FindStringSubmatch(f.Value); m != nil {
			date = m[1]
		}
		if f.Key == tiers.KeyProposed && len(groups) > 0 {
			groups[len(groups)-1].text += text
			continue
		}
		groups = append(groups, group{key: f.Key, date: date, text: text})
	}
	return e.Raw[:cut], groups
}

// statusOf is the status the annotations give: reversed over contested
// over active, an uphold as new as the last objection giving active;
// "double" when two different reversals are there.
func statusOf(groups []group) string {
	reversals := map[string]bool{}
	var objected, upheld string
	for _, g := range groups {
		switch g.key {
		case tiers.KeyReversedBy:
			reversals[normal(g.text)] = true
		case tiers.KeyObjection:
			objected = max(objected, g.date)
		case tiers.KeyUpheld:
			upheld = max(upheld, g.date)
		}
	}
	switch {
	case len(reversals) > 1:
		return "double"
	case len(reversals) == 1:
		return tiers.StatusReversed
	case objected != "" && (upheld == "" || upheld < objected):
		return tiers.StatusContested
	}
	return tiers.StatusActive
}

func hasDoubleObjection(groups []group) bool {
	for _, g := range groups {
		if g.key == tiers.KeyObjection && strings.Contains(g.text, doubleReversal) {
			return true
		}
	}
	return false
}

// doubleObjection is the objection a merge writes on a decision reversed
// differently on the two branches (rule 4: the user settles it).
func doubleObjection(o Options, e tiers.Decision, groups []group) group {
	var by []string
	for _, g := range groups {
		if g.key == tiers.KeyReversedBy {
			v := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(g.text), tiers.KeyReversedBy+":"))
			by = append(by, fmt.Sprintf("%q", tiers.OneLine(v)))
		}
	}
	day := o.Now().UTC().Format("2006-01-02")
	text := fmt.Sprintf("%s: [%s] %s, met in a git merge of %s: %s\n%s: keep one replacement: 'wake reverse' the other, then 'wake uphold %s' or 'wake reverse %s' with the one kept\n",
		tiers.KeyObjection, day, doubleReversal, o.Path, strings.Join(by, " and "), tiers.KeyProposed, e.Ref(), e.Ref())
	return group{key: tiers.KeyObjection, date: day, text: text}
}

// setStatus gives the head the status: its STATUS value replaced, or a
// STATUS line added when it has none and the status is not active.
func setStatus(head string, e tiers.Decision, status string) string {
	v := e.StatusValue
	if v.Start >= 0 && v.End-e.Bytes.Start <= len(head) {
		return head[:v.Start-e.Bytes.Start] + status + head[v.End-e.Bytes.Start:]
	}
	if status == tiers.StatusActive {
		return head
	}
	eol := entryEOL(e)
	if !strings.HasSuffix(head, "\n") {
		head += eol
	}
	return head + tiers.KeyStatus + ": " + status + eol
}

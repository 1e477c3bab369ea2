package handoff

import (
	"fmt"
	"github.com/wakeproto/wake/store"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/wakeproto/wake/tiers"
)

// The checks of the texts of a `wake handoff --file` document, each named
// as the document spells it: a front-matter key, a section and its item,
// a JSON field.

// checkSession checks every text of a Markdown document that a hand-off
// writes; file prefixes each name ("--file notes.md: ").
func checkSession(c *store.TextCheck, file string, s *tiers.Session) error {
	for _, f := range []struct {
		key string
		v   *string
	}{{"summary", &s.Summary}, {tiers.FrontNextPriority, &s.NextPriority}, {tiers.FrontOpenRisk, &s.OpenRisk},
		{tiers.FrontEmotionalRegister, &s.EmotionalRegister}, {"sensitivity", &s.Sensitivity}} {
		if err := c.Text(file+"field "+f.key, f.v, false); err != nil {
			return err
		}
	}
	if err := c.Text(file+"the text before the first section", &s.Preamble, true); err != nil {
		return err
	}
	for _, l := range []struct {
		title string
		list  *tiers.List
	}{{tiers.SessionHappened, &s.Happened}, {tiers.SessionDecisions, &s.Decisions}, {tiers.SessionChanged, &s.Changed}, {tiers.SessionThreads, &s.Threads}} {
		for i := range l.list.Items {
			if err := c.Text(fmt.Sprintf("%ssection %q, item %d", file, l.title, i+1), &l.list.Items[i], false); err != nil {
				return err
			}
		}
		if err := c.Text(fmt.Sprintf("%ssection %q", file, l.title), &l.list.Note, true); err != nil {
			return err
		}
	}
	if err := c.Text(fmt.Sprintf("%ssection %q", file, tiers.SessionSuccessor), &s.Successor, true); err != nil {
		return err
	}
	for i := range s.Extra {
		x := &s.Extra[i]
		if err := c.Text(fmt.Sprintf("%sthe title of section %q", file, x.Title), &x.Title, false); err != nil {
			return err
		}
		if err := c.Text(fmt.Sprintf("%ssection %q", file, x.Title), &x.Body, true); err != nil {
			return err
		}
	}
	return nil
}

// checkJSON checks every text of a JSON document.
func checkJSON(c *store.TextCheck, file string, f *handoffFile) error {
	for _, t := range []struct {
		key       string
		v         *string
		multiline bool
	}{{store.FieldSummary, &f.Summary, false}, {store.FieldNext, &f.Next, false}, {store.FieldRisk, &f.Risk, false},
		{store.FieldMood, &f.Mood, false}, {store.FieldSuccessor, &f.Successor, true}} {
		if err := c.Text(file+"field "+t.key, t.v, t.multiline); err != nil {
			return err
		}
	}
	for _, l := range []struct {
		key   string
		items strOrArr
	}{{store.FieldHappened, f.Happened}, {store.FieldDecision, f.Decision}, {store.FieldChanged, f.Changed}, {store.FieldThread, f.Thread}} {
		for i := range l.items {
			if err := c.Text(fmt.Sprintf("%sfield %s, item %d", file, l.key, i+1), &l.items[i], false); err != nil {
				return err
			}
		}
	}
	return nil
}

// plainFrontMatter refuses front matter that YAML would decode rather than
// take as written (a tag such as !!binary, an anchor, an alias, a merge
// key), and a control character written raw, which YAML refuses without
// saying where; each error names the field.
func plainFrontMatter(name string, data []byte) error {
	y, _, ok := tiers.SplitFrontMatter(data)
	if !ok {
		return nil
	}
	if err := rawControls(name, y); err != nil {
		return err
	}
	var n yaml.Node
	if yaml.Unmarshal(y, &n) != nil {
		// tiers.ParseSession says what is wrong.
		return nil
	}
	if field, what := yamlDecodes(&n, "the front matter"); what != "" {
		return inputHint(fmt.Sprintf("%s: %s: %s is not accepted: wake takes the text as written and decodes nothing", name, field, what),
			"write the value as plain text, as in: summary: what happened, in one line")
	}
	return nil
}

// frontKey is the key a front-matter line starts with.
var frontKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)\s*:`) })

// rawControls finds a character that wake refuses written raw in front
// matter y.
func rawControls(name string, y []byte) error {
	for i, line := range strings.Split(string(y), "\n") {
		err := store.CheckText(strings.ReplaceAll(line, "\r", " "), false)
		if err == nil {
			continue
		}
		where := fmt.Sprintf("front matter line %d", i+2)
		if m := frontKey().FindStringSubmatch(line); m != nil {
			where = "field " + m[1]
		}
		return inputHint(fmt.Sprintf("%s: %s: %v", name, where, err), store.TextHint)
	}
	return nil
}

// yamlDecodes returns the first node under n, and the field holding it,
// that YAML would decode rather than take as written; what is "" when there
// is none.
func yamlDecodes(n *yaml.Node, field string) (string, string) {
	switch {
	case n.Style&yaml.TaggedStyle != 0:
		return field, "the YAML tag " + shown(n.Tag)
	case n.Anchor != "":
		return field, "the YAML anchor &" + shown(n.Anchor)
	case n.Kind == yaml.AliasNode:
		return field, "the YAML alias *" + shown(n.Value)
	case n.Tag == "!!merge":
		return field, "the YAML merge key <<"
	}
	for i, c := range n.Content {
		f := field
		if n.Kind == yaml.MappingNode && n.Content[i-i%2].Kind == yaml.ScalarNode && field == "the front matter" {
			f = "field " + shown(n.Content[i-i%2].Value)
		}
		if f, what := yamlDecodes(c, f); what != "" {
			return f, what
		}
	}
	return "", ""
}

// shown is s as an error may show it: quoted when it holds a character
// wake refuses to write.
func shown(s string) string {
	if store.CheckText(s, false) != nil {
		return strconv.Quote(s)
	}
	return s
}

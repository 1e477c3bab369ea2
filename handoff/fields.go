package handoff

import (
	"fmt"
	"github.com/wakeproto/wake/store"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// Fields are a hand-off's parts as a front end takes them one at a time:
// the command line's flags, an MCP tool's arguments. A nil pointer or
// slice is a part not given, which a document's value then keeps; a given
// part replaces the document's.
type Fields struct {
	Summary, Next, Risk, Mood, Successor  *string
	Happened, Decisions, Changed, Threads []string

	parsed []store.NewDecision // Decisions, by Check
}

// Check refuses a line break in a one-line part and, in any part, a
// character wake does not write, naming the part as prefix+its field name
// ("--summary"), and reads each decision as "WHAT because WHY". Invalid
// UTF-8 is replaced, with a warning. Errors are [*store.InputError]s.
func (f *Fields) Check(prefix string) (warnings []string, err error) {
	var c store.TextCheck
	defer func() { warnings = c.Warnings }()
	for _, p := range []struct {
		name      string
		v         *string
		multiline bool
	}{{store.FieldSummary, f.Summary, false}, {store.FieldNext, f.Next, false}, {store.FieldRisk, f.Risk, false}, {store.FieldMood, f.Mood, false}, {store.FieldSuccessor, f.Successor, true}} {
		if p.v == nil {
			continue
		}
		if !p.multiline && strings.ContainsAny(*p.v, "\r\n") {
			return nil, inputErrorf("%s%s must be one line", prefix, p.name)
		}
		if err := c.Text(prefix+p.name, p.v, p.multiline); err != nil {
			return nil, err
		}
	}
	for _, l := range []struct {
		name  string
		items []string
	}{{store.FieldHappened, f.Happened}, {store.FieldDecision, f.Decisions}, {store.FieldChanged, f.Changed}, {store.FieldThread, f.Threads}} {
		for i, it := range l.items {
			if strings.ContainsAny(it, "\r\n") {
				return nil, inputErrorf("%s%s %q must be one line", prefix, l.name, it)
			}
			if err := c.Text(fmt.Sprintf("%s%s %q", prefix, l.name, it), &l.items[i], false); err != nil {
				return nil, err
			}
		}
	}
	if f.parsed, err = ParseDecisions(f.Decisions); err != nil {
		return nil, inputHint(fmt.Sprintf("%s%s %v", prefix, store.FieldDecision, err), fmt.Sprintf(`write it as %s%s "Use TOML because YAML indentation broke parsing"`, prefix, store.FieldDecision))
	}
	return nil, nil
}

// Over lays the given parts over doc (the zero Input when there is no
// document), after [Fields.Check], and returns the input normalized and
// validated: a part that leaves it unusable is a [*store.FieldError].
func (f *Fields) Over(doc Input) (Input, error) {
	in := doc
	s := &in.Session
	for _, p := range []struct {
		dst *string
		v   *string
	}{{&s.Summary, f.Summary}, {&s.NextPriority, f.Next}, {&s.OpenRisk, f.Risk}, {&s.EmotionalRegister, f.Mood}, {&s.Successor, f.Successor}} {
		if p.v != nil {
			*p.dst = *p.v
		}
	}
	for _, l := range []struct {
		dst   *tiers.List
		items []string
	}{{&s.Happened, f.Happened}, {&s.Changed, f.Changed}, {&s.Threads, f.Threads}} {
		if l.items != nil {
			*l.dst = tiers.List{Items: l.items}
		}
	}
	if f.Decisions != nil {
		in.Decisions = f.parsed
	}
	in.Normalize()
	return in, in.Validate()
}

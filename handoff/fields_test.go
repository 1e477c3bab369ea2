package handoff

import (
	"errors"
	"github.com/wakeproto/wake/store"
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

func str(s string) *string { return &s }

// TestFieldsOver: a part given replaces the document's, a part not given
// (nil) keeps it, and the result is normalized and validated.
func TestFieldsOver(t *testing.T) {
	doc := Input{Session: tiers.Session{Summary: "from the file", NextPriority: "file next", OpenRisk: "file risk",
		Happened: tiers.List{Items: []string{"file item"}}, Threads: tiers.List{Items: []string{"file thread"}}}}
	f := Fields{Next: str("  flag next  "), Happened: []string{"flag item", " "}, Decisions: []string{"Use TOML because YAML broke"}}
	if _, err := f.Check("--"); err != nil {
		t.Fatal(err)
	}
	in, err := f.Over(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := in.Session
	if s.Summary != "from the file" || s.NextPriority != "flag next" || s.OpenRisk != "file risk" {
		t.Errorf("one-line values %q, %q, %q", s.Summary, s.NextPriority, s.OpenRisk)
	}
	if strings.Join(s.Happened.Items, "|") != "flag item" || strings.Join(s.Threads.Items, "|") != "file thread" {
		t.Errorf("lists %v, %v", s.Happened.Items, s.Threads.Items)
	}
	if len(in.Decisions) != 1 || in.Decisions[0].What != "Use TOML" || in.Decisions[0].Why != "YAML broke" {
		t.Errorf("decisions %+v", in.Decisions)
	}
	// A required part left empty names its field.
	f = Fields{Summary: str("only a summary")}
	f.Check("--")
	var fe *store.FieldError
	if _, err := f.Over(Input{}); !errors.As(err, &fe) || fe.Field != store.FieldNext {
		t.Errorf("missing next: %v", err)
	}
}

// TestFieldsCheck: errors name the part with the front end's prefix, and
// invalid UTF-8 is replaced with a warning naming it.
func TestFieldsCheck(t *testing.T) {
	for _, c := range []struct {
		f    Fields
		want string
	}{
		{Fields{Summary: str("two\nlines")}, "--summary must be one line"},
		{Fields{Threads: []string{"a\nb"}}, `--thread "a\nb" must be one line`},
		{Fields{Mood: str("bell\a")}, "--mood"},
		{Fields{Decisions: []string{"no reason here"}}, `--decision "no reason here"`},
	} {
		_, err := c.f.Check("--")
		var ie *store.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want an store.InputError with %q", c.f, err, c.want)
		}
	}
	f := Fields{Successor: str("ok\xffok")}
	ws, err := f.Check("")
	if err != nil || len(ws) != 1 || !strings.HasPrefix(ws[0], "successor: invalid UTF-8") || *f.Successor != "ok\uFFFDok" {
		t.Errorf("warnings %q, err %v, successor %q", ws, err, *f.Successor)
	}
}

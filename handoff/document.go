package handoff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/wakeproto/wake/store"
	"io"
	"reflect"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// handoffFile is the JSON form of a hand-off document. A list field takes a
// string or an array of strings.
type handoffFile struct {
	Summary   string   `json:"summary"`
	Next      string   `json:"next"`
	Risk      string   `json:"risk"`
	Mood      string   `json:"mood"`
	Happened  strOrArr `json:"happened"`
	Decision  strOrArr `json:"decision"`
	Changed   strOrArr `json:"changed"`
	Thread    strOrArr `json:"thread"`
	Successor string   `json:"successor"`
}

type strOrArr []string

func (s *strOrArr) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = []string{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		// The decoder adds the field's name to a type error.
		return &json.UnmarshalTypeError{Value: "value", Type: reflect.TypeOf(many)}
	}
	*s = many
	return nil
}

// ParseDocument reads a hand-off document (`wake handoff --file`, or a
// front end's), named by label in every message (such as "--file notes.md"): a JSON object when it starts
// with "{", else Markdown in the session-summary shape. A byte-order mark,
// which editors on Windows add, is dropped. Any other JSON value ([1],
// null) is a usage error rather than Markdown with no summary in it. Every
// text is checked as [store.TextCheck] does; the warnings come back for the
// caller to print.
func ParseDocument(label string, data []byte) (Input, []string, error) {
	var c store.TextCheck
	data = c.FixDocument(bytes.TrimPrefix(data, []byte("\ufeff")))
	in, err := parseHandoffDoc(&c, label, data)
	c.Finish(label)
	return in, c.Warnings, err
}

func parseHandoffDoc(c *store.TextCheck, label string, data []byte) (Input, error) {
	trimmed := bytes.TrimSpace(data)
	if bytes.HasPrefix(trimmed, []byte("{")) {
		return parseHandoffJSON(c, label, data)
	}
	if json.Valid(trimmed) {
		return Input{}, inputHint(fmt.Sprintf("%s: the --file JSON must be an object", label),
			`write it as {"summary": "...", "next": "..."}`)
	}
	if err := plainFrontMatter(label, data); err != nil {
		return Input{}, err
	}
	sess, err := tiers.ParseSession(data)
	if err != nil && !errors.Is(err, tiers.ErrSessionTime) {
		return Input{}, inputErrorf("%s: %v", label, err)
	}
	// Not written: a summary's title is always "Session <date>".
	sess.Title = ""
	if err := checkSession(c, label+": ", &sess); err != nil {
		return Input{}, err
	}
	in := Input{Session: sess}
	for i, it := range sess.Decisions.Items {
		d, err := ParseDecision(it)
		if err != nil {
			return in, inputErrorf("%s: %s, item %d (%q): %v", label, tiers.SessionDecisions, i+1, it, err)
		}
		in.Decisions = append(in.Decisions, d)
	}
	in.Session.Decisions.Items = nil
	return in, nil
}

func parseHandoffJSON(c *store.TextCheck, label string, data []byte) (Input, error) {
	var f handoffFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			want := te.Type.String()
			if te.Type == reflect.TypeOf([]string(nil)) {
				want = "a string or an array of strings"
			}
			return Input{}, inputErrorf("%s: field %s: want %s", label, te.Field, want)
		}
		msg := strings.TrimPrefix(err.Error(), "json: ")
		return Input{}, inputHint(fmt.Sprintf("%s: %s", label, msg),
			"the JSON fields are summary, next, risk, mood, happened, decision, changed, thread, successor")
	}
	if dec.More() {
		return Input{}, inputErrorf("%s: more than one JSON value", label)
	}
	if err := checkJSON(c, label+": ", &f); err != nil {
		return Input{}, err
	}
	in := Input{Session: tiers.Session{
		Summary: f.Summary, NextPriority: f.Next, OpenRisk: f.Risk, EmotionalRegister: f.Mood,
		Happened: tiers.List{Items: f.Happened}, Changed: tiers.List{Items: f.Changed},
		Threads: tiers.List{Items: f.Thread}, Successor: f.Successor,
	}}
	ds, err := ParseDecisions(f.Decision)
	if err != nil {
		return in, inputErrorf("%s: decision %v", label, err)
	}
	in.Decisions = ds
	return in, nil
}

// ParseDecisions reads "WHAT because WHY" texts.
func ParseDecisions(texts []string) ([]store.NewDecision, error) {
	var out []store.NewDecision
	for _, t := range texts {
		d, err := ParseDecision(t)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", t, err)
		}
		out = append(out, d)
	}
	return out, nil
}

// ReadDocument reads a hand-off document from r, named label in errors
// ("--file summary.md"): one over [tiers.MaxDocBytes], which a session
// summary never nears, or with nothing but white space is an
// [*store.InputError].
func ReadDocument(r io.Reader, label string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, tiers.MaxDocBytes+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", label, err)
	case len(data) > tiers.MaxDocBytes:
		return nil, inputErrorf("%s: over %d MiB; a session summary should be far smaller", label, tiers.MaxDocBytes>>20)
	case len(bytes.TrimSpace(data)) == 0:
		return nil, inputErrorf("%s: the document is empty", label)
	}
	return data, nil
}

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

// maxHandoffFile caps a --file document; a summary is read whole.
const maxHandoffFile = tiers.MaxDocBytes

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

// readHandoffFile reads --file: a path, or "-" for standard input.
func (a *app) readHandoffFile(name string) ([]byte, error) {
	var r io.Reader = a.in
	if name != "-" {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(a.cwd, p)
		}
		f, err := a.fs.Open(p)
		if errors.Is(err, os.ErrNotExist) {
			return nil, usagef("--file %s: no such file", name)
		}
		if err != nil {
			return nil, fmt.Errorf("--file %s: %w", name, err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxHandoffFile+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("--file %s: %w", name, err)
	case len(data) > maxHandoffFile:
		return nil, usagef("--file %s: over %d MiB; a session summary should be far smaller", name, maxHandoffFile>>20)
	case len(bytes.TrimSpace(data)) == 0:
		return nil, usagef("--file %s: the document is empty", name)
	}
	return data, nil
}

// parseHandoffFile reads a hand-off document: a JSON object when it starts
// with "{", else Markdown in the session-summary shape. A byte-order mark,
// which editors on Windows add, is dropped. Any other JSON value ([1],
// null) is a usage error rather than Markdown with no summary in it. Every
// text is checked as [textCheck] does; the warnings come back for the
// caller to print.
func parseHandoffFile(name string, data []byte) (handoff.Input, []string, error) {
	var c textCheck
	data = c.fixDocument(bytes.TrimPrefix(data, []byte("\ufeff")))
	in, err := parseHandoffDoc(&c, name, data)
	c.finish("--file " + name)
	return in, c.warnings, err
}

func parseHandoffDoc(c *textCheck, name string, data []byte) (handoff.Input, error) {
	trimmed := bytes.TrimSpace(data)
	if bytes.HasPrefix(trimmed, []byte("{")) {
		return parseHandoffJSON(c, name, data)
	}
	if json.Valid(trimmed) {
		return handoff.Input{}, hintError{usagef("--file %s: the --file JSON must be an object", name),
			`write it as {"summary": "...", "next": "..."}`}
	}
	if err := plainFrontMatter(name, data); err != nil {
		return handoff.Input{}, err
	}
	sess, err := tiers.ParseSession(data)
	if err != nil && !errors.Is(err, tiers.ErrSessionTime) {
		return handoff.Input{}, usagef("--file %s: %v", name, err)
	}
	// Not written: a summary's title is always "Session <date>".
	sess.Title = ""
	if err := checkSession(c, "--file "+name+": ", &sess); err != nil {
		return handoff.Input{}, err
	}
	in := handoff.Input{Session: sess}
	for i, it := range sess.Decisions.Items {
		d, err := handoff.ParseDecision(it)
		if err != nil {
			return in, usagef("--file %s: %s, item %d (%q): %v", name, tiers.SessionDecisions, i+1, it, err)
		}
		in.Decisions = append(in.Decisions, d)
	}
	in.Session.Decisions.Items = nil
	return in, nil
}

func parseHandoffJSON(c *textCheck, name string, data []byte) (handoff.Input, error) {
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
			return handoff.Input{}, usagef("--file %s: field %s: want %s", name, te.Field, want)
		}
		msg := strings.TrimPrefix(err.Error(), "json: ")
		return handoff.Input{}, hintError{usagef("--file %s: %s", name, msg),
			"the JSON fields are summary, next, risk, mood, happened, decision, changed, thread, successor"}
	}
	if dec.More() {
		return handoff.Input{}, usagef("--file %s: more than one JSON value", name)
	}
	if err := checkJSON(c, "--file "+name+": ", &f); err != nil {
		return handoff.Input{}, err
	}
	in := handoff.Input{Session: tiers.Session{
		Summary: f.Summary, NextPriority: f.Next, OpenRisk: f.Risk, EmotionalRegister: f.Mood,
		Happened: tiers.List{Items: f.Happened}, Changed: tiers.List{Items: f.Changed},
		Threads: tiers.List{Items: f.Thread}, Successor: f.Successor,
	}}
	ds, err := parseDecisions(f.Decision)
	if err != nil {
		return in, usagef("--file %s: decision %v", name, err)
	}
	in.Decisions = ds
	return in, nil
}

// parseDecisions reads "WHAT because WHY" texts.
func parseDecisions(texts []string) ([]handoff.NewDecision, error) {
	var out []handoff.NewDecision
	for _, t := range texts {
		d, err := handoff.ParseDecision(t)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", t, err)
		}
		out = append(out, d)
	}
	return out, nil
}

// readFileInput is the hand-off document named by --file, parsed.
func (a *app) readFileInput(name string) (handoff.Input, error) {
	data, err := a.readHandoffFile(name)
	if err != nil {
		return handoff.Input{}, err
	}
	in, warnings, err := parseHandoffFile(name, data)
	for _, w := range warnings {
		fmt.Fprintf(a.errOut, "wake: warning: %s\n", w)
	}
	return in, err
}

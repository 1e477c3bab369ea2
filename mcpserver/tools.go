package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/duration"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/report"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// The tools' arguments. Their doc strings (jsonschema tags) are what the
// agent reads in each input schema.
type (
	loadArgs struct {
		Format string `json:"format,omitempty" jsonschema:"text (the Markdown boot context, the default) or json (the same as wake load --format json)"`
		Page   int    `json:"page,omitempty" jsonschema:"the page of a result too long for one answer, from 1; the last line of a cut result names the next"`
	}
	checkArgs struct {
		Format string `json:"format,omitempty" jsonschema:"text (the default) or json"`
		Page   int    `json:"page,omitempty" jsonschema:"the page of a long result, from 1"`
	}
	coldArgs struct {
		Path   string `json:"path,omitempty" jsonschema:"a cold document's path as the listing shows it (cold/notes/vat.md or notes/vat.md); leave it out to list a folder"`
		Folder string `json:"folder,omitempty" jsonschema:"a folder of cold/ to list, as the listing shows it (cold/2022/01/ or 2022/01); leave it and path out to list cold/ itself"`
		Page   int    `json:"page,omitempty" jsonschema:"the page of a long result, from 1; reading another page of a pull spends nothing more"`
	}
	decideArgs struct {
		What    string `json:"what" jsonschema:"the decision, one line: what was decided"`
		Because string `json:"because" jsonschema:"why it was decided"`
		Topic   string `json:"topic,omitempty" jsonschema:"the subject, so decisions on it can be found and compared"`
		Force   bool   `json:"force,omitempty" jsonschema:"record it, contested, even when it contradicts a decision in force; without it such a decision is refused"`
	}
	contestArgs struct {
		Decision  string `json:"decision" jsonschema:"the decision contested: its number (7) or ID (d-7f3a), as wake_load and the log show it"`
		Objection string `json:"objection" jsonschema:"what is wrong with the decision"`
		Proposal  string `json:"proposal" jsonschema:"what to do instead"`
	}
	handoffArgs struct {
		Summary   string   `json:"summary" jsonschema:"one line on what happened this session"`
		Next      string   `json:"next" jsonschema:"one line: the single most important thing to do next"`
		Risk      string   `json:"risk,omitempty" jsonschema:"one line: anything that might break or needs attention"`
		Mood      string   `json:"mood,omitempty" jsonschema:"one line: the user's apparent mood or energy"`
		Happened  []string `json:"happened,omitempty" jsonschema:"what happened, one item a bullet"`
		Decision  []string `json:"decision,omitempty" jsonschema:"decisions made, each as 'WHAT because WHY'"`
		Changed   []string `json:"changed,omitempty" jsonschema:"files changed and why, one item a file"`
		Thread    []string `json:"thread,omitempty" jsonschema:"open threads, each with enough context to resume"`
		Successor string   `json:"successor,omitempty" jsonschema:"free text for the next instance"`
		Force     bool     `json:"force,omitempty" jsonschema:"record a decision that contradicts one in force, contested, instead of refusing the hand-off"`
	}
	rememberArgs struct {
		Text  string   `json:"text" jsonschema:"what to come back to later, one line: not a task yet, not a decision"`
		Topic string   `json:"topic,omitempty" jsonschema:"the subject, one line"`
		Next  string   `json:"next,omitempty" jsonschema:"the suggested next step, one line"`
		Tags  []string `json:"tags,omitempty" jsonschema:"tags, each one word or phrase without a comma"`
		// An exploratory thread's, as seed 003 asks of one.
		Hypothesis string `json:"hypothesis,omitempty" jsonschema:"an exploratory thread's current hypothesis, one line"`
		Missing    string `json:"missing,omitempty" jsonschema:"the evidence still missing for the hypothesis, one line"`
	}
	logArgs struct {
		Since  string `json:"since,omitempty" jsonschema:"only entries from the last DURATION, such as 24h, 30d or 2w"`
		Op     string `json:"op,omitempty" jsonschema:"only entries of this op: init, handoff, decide, contest, pull..."`
		Format string `json:"format,omitempty" jsonschema:"text (the default) or json"`
		Page   int    `json:"page,omitempty" jsonschema:"the page of a long result, from 1"`
	}
)

// toolInfo is what tools/list says of a tool, but its input schema.
type toolInfo struct{ Name, Title, Description string }

// textTool adds a tool whose arguments are an In and whose answer is
// text, cut into pages: run returns the whole text for the arguments,
// which the notices the call gave end.
func textTool[In any](s *server, t toolInfo, page func(In) int, run func(context.Context, *wake.Memory, In) (string, error)) {
	fs := fieldsOf(reflect.TypeFor[In]())
	s.tools = append(s.tools, &tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: inputSchema(fs),
		call: func(ctx context.Context, args json.RawMessage) (string, error) {
			var in In
			if err := decodeArgs(t.Name, fs, args, &in); err != nil {
				return "", err
			}
			return s.runText(ctx, t.Name, in, page(in), func(ctx context.Context, m *wake.Memory) (string, error) { return run(ctx, m, in) })
		}})
}

// runText runs a text tool's call of arguments in, for page p of its
// result.
func (s *server) runText(ctx context.Context, name string, in any, p int, run func(context.Context, *wake.Memory) (string, error)) (string, error) {
	if p < 0 {
		return "", fmt.Errorf("page %d: pages count from 1", p)
	}
	key := resultKey(name, in)
	var notes []string
	var text string
	err := s.with(&notes, func(m *wake.Memory) error {
		if last := s.last[name]; p > 1 && last.key == key {
			var err error
			text, err = s.page(m, last.text, p)
			return err
		}
		var err error
		if text, err = run(ctx, m); err != nil {
			return err
		}
		text = scrubResult(text)
		// The notices end the result, counted in its pages.
		if len(notes) > 0 {
			text = strings.TrimRight(text, "\n") + "\n\n" + strings.Join(notes, "\n") + "\n"
		}
		s.last[name] = result{key, text}
		text, err = s.page(m, text, max(p, 1))
		return err
	})
	if err != nil {
		return "", toolError(err, notes)
	}
	return text, nil
}

// scrubResult is a tool's text as it may leave wake: a confirmation
// echoes the caller's text, which may hold a pasted credential, so every
// text result is scrubbed here, at the one exit of the tools. A JSON
// result is left as it is: its builders scrub what they take in (the
// packet, the boot context, the ledger), and replacing inside its
// encoding could cut an escape in two.
func scrubResult(text string) string {
	if json.Valid([]byte(text)) {
		return text
	}
	out, _ := policy.Scrub(text)
	return out
}

// resultKey names a call's result by its tool and arguments, less the
// page: the same key, the same result.
func resultKey(tool string, in any) string {
	data, _ := json.Marshal(in)
	var args map[string]any
	json.Unmarshal(data, &args)
	delete(args, "page")
	data, _ = json.Marshal(args) // keys sorted
	return tool + " " + string(data)
}

// toolError is err as the agent reads it, with its hint and the notices.
func toolError(err error, notes []string) error {
	msg := "wake: error: " + err.Error()
	var h interface{ Hint() string }
	if errors.As(err, &h) && h.Hint() != "" {
		msg += "\nwake: hint: " + h.Hint()
	}
	if len(notes) > 0 {
		msg += "\n" + strings.Join(notes, "\n")
	}
	// An error may quote an argument: it leaves scrubbed, as results do.
	msg, _ = policy.Scrub(msg)
	return errors.New(cutError(msg))
}

// maxErrorBytes bounds a tool error, which may quote a bad argument of any
// length: a byte is at most a token, so it is far within MaxResultTokens.
const maxErrorBytes = 8 << 10

// cutError shortens msg to maxErrorBytes, on a character boundary, saying
// how much was left out.
func cutError(msg string) string {
	if len(msg) <= maxErrorBytes {
		return msg
	}
	head := tiers.CutBytes(msg, maxErrorBytes)
	return fmt.Sprintf("%s…\n[wake: %d more bytes of this error left out]", head, len(msg)-len(head))
}

// page is page n of text, within the server's bound in the encoder of m's
// root.
func (s *server) page(m *wake.Memory, text string, n int) (string, error) {
	name := m.Config().Encoding
	c, ok := s.counts[name]
	if !ok {
		c = budget.NewCache(name, s.encs[name], nil)
		s.counts[name] = c
	}
	pages := Paginate(c.Count, text, s.o.PageTokens)
	if n > len(pages) {
		return "", fmt.Errorf("page %d: the result has %d page(s)", n, len(pages))
	}
	return pages[n-1], nil
}

func (s *server) addTools() {
	textTool(s, toolInfo{Name: "wake_load", Title: "Load the boot context",
		Description: "Start the session: returns the boot context (what the previous instances left: identity, hand-off, decisions in force, recent work, the cold tier's table of contents) and opens the session's budget for cold pulls. Call it once, first, and read it before working. Same as `wake load`."},
		func(a loadArgs) int { return a.Page }, s.load)
	textTool(s, toolInfo{Name: "wake_check", Title: "Run the coherence checks",
		Description: "Run the four coherence checks of the Wake Protocol on the memory (identity, continuity, task awareness, decision consistency) and return each with its messages, the announcement and the outcome. Same as `wake check`. On HALT (identity failed), stop and tell the user."},
		func(a checkArgs) int { return a.Page }, s.check)
	textTool(s, toolInfo{Name: "wake_cold", Title: "Read the cold tier",
		Description: "Without a path: list one folder of the cold tier (archived sessions and notes; cold/ itself unless folder names another): its subfolders with their documents, tokens and newest date, then its documents with each one's size in tokens, and what is left of the session's pull budget. With a path: return that cold document, within the session's caps (a confidential one as its summary only; a secret one never). Pull only what the task needs. Same as `wake cold [FOLDER|PATH]`."},
		// The listing's pages are the command's (--page); a pull's are the
		// tool's own, cut from the pull already made.
		func(a coldArgs) int {
			if a.Path == "" && a.Page >= 0 {
				return 1
			}
			return a.Page
		}, s.cold)
	textTool(s, toolInfo{Name: "wake_decide", Title: "Record a decision",
		Description: "Append a decision to the decision log as you make it, with why. One that contradicts a decision in force is refused unless force is set, and then recorded contested for the user to settle. Same as `wake decide` in a shell."},
		func(decideArgs) int { return 1 }, s.decide)
	textTool(s, toolInfo{Name: "wake_contest", Title: "Contest a decision",
		Description: "Object to a decision in force instead of overriding it silently: records the objection and a proposal; the user then settles it (wake reverse or wake uphold, on the command line). Same as `wake contest`."},
		func(contestArgs) int { return 1 }, s.contest)
	textTool(s, toolInfo{Name: "wake_handoff", Title: "Hand off the session",
		Description: "End the session: write its summary and the HANDOFF block the next instance wakes with, rotate the tiers and log the decisions given. Do it before the session ends, even when the user does not ask. summary and next are required. Same as `wake handoff`."},
		func(handoffArgs) int { return 1 }, s.handoff)
	textTool(s, toolInfo{Name: "wake_remember", Title: "Remember for later",
		Description: "Leave a reminder in the remember-later inbox (warm/inbox.md): something to come back to that is not a task or a decision yet, such as an idea or a loose end. The open ones are listed in the boot context (wake_load) and handed to the next subagent's context capsule. Same as `wake remember \"TEXT\"`."},
		func(rememberArgs) int { return 1 }, s.remember)
	textTool(s, toolInfo{Name: "wake_log", Title: "Read the audit ledger",
		Description: "Return the audit ledger, newest first: every write wake made (init, hand-offs, decisions, pulls, edits made outside wake), optionally only the recent ones or one op. Same as `wake log`."},
		// The text's pages are the command's (--page); JSON, complete, is
		// cut into the tool's own.
		func(a logArgs) int {
			if a.Format == "json" || a.Page < 0 {
				return a.Page
			}
			return 1
		}, s.log)
}

// format checks a format argument: "" is text.
func format(f string, allowed ...string) (string, error) {
	if f == "" {
		return allowed[0], nil
	}
	for _, a := range allowed {
		if f == a {
			return f, nil
		}
	}
	return "", fmt.Errorf("format %q: want %s", f, strings.Join(allowed, " or "))
}

func (s *server) load(ctx context.Context, m *wake.Memory, a loadArgs) (string, error) {
	f, err := format(a.Format, "text", "json")
	if err != nil {
		return "", err
	}
	st, err := m.Start(ctx, wake.BootFiles{})
	if err != nil {
		return "", err
	}
	if f == "json" {
		data, err := report.LoadJSON(st.Context)
		return string(data), err
	}
	return st.Text, nil
}

func (s *server) check(ctx context.Context, m *wake.Memory, a checkArgs) (string, error) {
	f, err := format(a.Format, "text", "json")
	if err != nil {
		return "", err
	}
	r, err := m.Check(ctx)
	if err != nil {
		return "", err
	}
	if f == "json" {
		data, err := report.CheckJSON(m.Root(), r)
		return string(data), err
	}
	outcome, _ := report.CheckOutcome(r)
	return report.CheckText(r) + "\nOutcome: " + outcome + "\n", nil
}

func (s *server) cold(ctx context.Context, m *wake.Memory, a coldArgs) (string, error) {
	if a.Path != "" && a.Folder != "" {
		return "", hinted{errors.New("path and folder: give one"), "path pulls a document, folder lists a folder"}
	}
	if a.Path != "" && m.IsColdFolder(a.Path) {
		// A listing's pages are the command's, asked for with folder.
		if a.Page > 1 {
			return "", hinted{fmt.Errorf("path %s: a folder", a.Path), "list it with folder: " + a.Path + ", and its pages with page"}
		}
		a.Folder, a.Path = a.Path, ""
	}
	if a.Path == "" {
		if _, err := cold.FolderPath(a.Folder); err != nil {
			return "", hinted{fmt.Errorf("folder: %w", err), "call wake_cold without a path or folder for cold/ and its folders"}
		}
		f, cs, err := m.ColdFolder(a.Folder)
		if errors.Is(err, wake.ErrNoFolder) {
			return "", hinted{err, "call wake_cold without a path or folder for cold/ and its folders"}
		}
		if err != nil {
			return "", err
		}
		var b strings.Builder
		c, err := wake.ListingCounter(m.Root(), s.lib)
		if err != nil {
			return "", err
		}
		if err := report.ColdText(&b, m.Root(), f, cs.Pulled, m.Config().Budget.Cold, report.Pager{Counter: c, Page: a.Page}); err != nil {
			return "", pageError(err)
		}
		b.WriteString("\nHere `wake cold FOLDER` is wake_cold with folder: the folder's path, as listed; `wake cold PATH` is wake_cold with path: the document's path, its folder's path and its name.\n")
		if strings.Contains(b.String(), " --page ") {
			b.WriteString("And `--page N` is wake_cold with page: N.\n")
		}
		return b.String(), nil
	}
	rel, err := cold.ColdPath(a.Path)
	if err != nil {
		return "", hinted{fmt.Errorf("path: %w", err), "call wake_cold without a path for the cold documents and their paths"}
	}
	// A later page comes from the pull already made (textTool keeps it);
	// asking for one otherwise would pull again, spending the session's
	// budget twice on one document.
	if a.Page > 1 {
		return "", hinted{fmt.Errorf("page %d of %s: it was not the last result", a.Page, rel), "pull it first: wake_cold with its path and no page"}
	}
	p, err := m.Pull(ctx, rel)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(p.Text, "\n") + fmt.Sprintf("\n\n[wake: %s: %s tokens pulled; %s left this session (%s)]\n",
		p.Path, budget.Thousands(p.Tokens), budget.Thousands(p.Left), p.Cap), nil
}

func (s *server) decide(ctx context.Context, m *wake.Memory, a decideArgs) (string, error) {
	if err := required("what", a.What, "because", a.Because); err != nil {
		return "", err
	}
	ch, err := m.Decide(ctx, store.NewDecision{What: a.What, Why: a.Because, Topic: a.Topic, Force: a.Force})
	if err != nil {
		return "", listHint(err)
	}
	if ch.Status == tiers.StatusContested {
		return fmt.Sprintf("Decided #%s: %s (contested: it contradicts a decision in force; the user settles it with 'wake uphold %s' or 'wake reverse').\n", ch.Name(), ch.Title, ch.Ref()), nil
	}
	return fmt.Sprintf("Decided #%s: %s (active).\n", ch.Name(), ch.Title), nil
}

func (s *server) contest(ctx context.Context, m *wake.Memory, a contestArgs) (string, error) {
	if err := required("decision", a.Decision, "objection", a.Objection, "proposal", a.Proposal); err != nil {
		return "", err
	}
	ref, err := store.ParseDecisionRef(a.Decision)
	if err != nil {
		return "", hinted{fmt.Errorf("decision: %w", err), "give the decision's number (7) or ID (d-7f3a) as wake_load shows it"}
	}
	ch, err := m.Contest(ctx, ref, a.Objection, a.Proposal)
	if err != nil {
		return "", listHint(err)
	}
	r := ch.Ref()
	return fmt.Sprintf("Contested #%s: %s (now contested).\nThe user settles it: wake reverse %s --by \"…\" --because \"…\", or wake uphold %s --because \"…\".\n", ch.Name(), ch.Title, r, r), nil
}

func (s *server) handoff(ctx context.Context, m *wake.Memory, a handoffArgs) (string, error) {
	if err := required("summary", a.Summary, "next", a.Next); err != nil {
		return "", err
	}
	f := handoff.Fields{Summary: &a.Summary, Next: &a.Next, Happened: a.Happened, Decisions: a.Decision, Changed: a.Changed, Threads: a.Thread}
	for _, p := range []struct {
		v   string
		dst **string
	}{{a.Risk, &f.Risk}, {a.Mood, &f.Mood}, {a.Successor, &f.Successor}} {
		if p.v != "" {
			*p.dst = &p.v
		}
	}
	ws, err := f.Check("")
	if err != nil {
		return "", err
	}
	in, err := f.Over(handoff.Input{})
	if err != nil {
		return "", err
	}
	for i := range in.Decisions {
		in.Decisions[i].Force = a.Force
	}
	res, err := m.Handoff(ctx, in, wake.BootFiles{})
	if err != nil {
		return "", err
	}
	if s.o.AfterHandoff != nil {
		s.o.AfterHandoff(ctx, m)
	}
	var b strings.Builder
	report.HandoffText(&b, res)
	for _, w := range ws {
		b.WriteString("wake: warning: " + w + "\n")
	}
	return b.String(), nil
}

func (s *server) remember(ctx context.Context, m *wake.Memory, a rememberArgs) (string, error) {
	if err := required("text", a.Text); err != nil {
		return "", err
	}
	r, err := m.Remember(ctx, store.NewReminder{Text: a.Text, Topic: a.Topic, Next: a.Next, Tags: a.Tags, Hypothesis: a.Hypothesis, Missing: a.Missing})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Remembered #%d: %s\n", r.N, tiers.OneLine(r.Text)), nil
}

func (s *server) log(_ context.Context, m *wake.Memory, a logArgs) (string, error) {
	f, err := format(a.Format, "text", "json")
	if err != nil {
		return "", err
	}
	var lf wake.LogFilter
	if a.Since != "" {
		d, err := duration.Parse(a.Since)
		if err != nil {
			return "", fmt.Errorf("since %w", err)
		}
		lf.Since = d
	}
	if strings.ContainsAny(a.Op, " \t") {
		return "", fmt.Errorf("op %q: want one op, such as handoff or decide", a.Op)
	}
	lf.Op = a.Op
	l, err := wake.ReadLedger(m.Root(), s.lib, lf)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, bad := range l.Bad {
		fmt.Fprintf(&b, "wake: warning: %v\n", bad)
	}
	if f == "json" {
		data, err := report.LogJSON(l.Entries, l.HeldBack, l.Bad, l.Redacted)
		return string(data), err
	}
	// A page, the first by default, as the command prints it: a tool's
	// answer goes into the agent's context.
	c, err := wake.ListingCounter(m.Root(), s.lib)
	if err != nil {
		return "", err
	}
	if err := report.LogText(&b, l.Entries, l.HeldBack, l.Redacted, lf, report.Pager{Counter: c, Page: a.Page}); err != nil {
		return "", pageError(err)
	}
	if strings.Contains(b.String(), "Next: wake log --page ") {
		b.WriteString("\nHere `wake log --page N` is wake_log with page: N (and the same since and op).\n")
	}
	return b.String(), nil
}

// pageError says a page past the last in the tool's words.
func pageError(err error) error {
	var pe *report.PageError
	if errors.As(err, &pe) {
		return fmt.Errorf("page %d: the listing has %d page(s)", pe.Page, pe.Pages)
	}
	return err
}

// required refuses an empty or blank argument of the pairs name, value.
func required(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if strings.TrimSpace(pairs[i+1]) == "" {
			return fmt.Errorf("%s is required and may not be blank", pairs[i])
		}
	}
	return nil
}

// hinted is an error with what the agent can do about it.
type hinted struct {
	error
	hint string
}

func (h hinted) Unwrap() error { return h.error }
func (h hinted) Hint() string  { return h.hint }

// listHint adds, to a decision the log lacks, where to find the right one.
func listHint(err error) error {
	if errors.Is(err, store.ErrNoSuchDecision) {
		return hinted{err, "wake_load lists the decisions in force with their numbers and IDs"}
	}
	return err
}

package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/mcpserver"
	"github.com/wakeproto/wake/skeleton"
)

var (
	encOnce sync.Once
	enc     *budget.Encoder
	encErr  error
)

// sharedEncoder builds the token counter once for every test.
func sharedEncoder(name string) (*budget.Encoder, error) {
	encOnce.Do(func() { enc, encErr = budget.NewEncoder(name) })
	return enc, encErr
}

// newRoot makes a memory root on an in-memory file system, with one cold
// note, and the library options for it.
func newRoot(t *testing.T) (afero.Fs, wake.Options) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home/ava"}, Locker: &memlock.Locker{}, Encoder: sharedEncoder,
		Now: func() time.Time { mu.Lock(); defer mu.Unlock(); now = now.Add(time.Second); return now }}
	if _, err := wake.Init(context.Background(), "/p/.wake", skeleton.Params{Agent: "Ava", Project: "bakery"}, o); err != nil {
		t.Fatal(err)
	}
	main, _ := afero.ReadFile(fsys, "/p/.wake/main.md")
	afero.WriteFile(fsys, "/p/.wake/main.md", []byte(strings.Replace(string(main), "## Purpose\n", "## Purpose\nKeep the books of a bakery.\n", 1)), 0o644)
	afero.WriteFile(fsys, "/p/.wake/cold/notes/vat.md", []byte("---\nsummary: VAT rates\n---\n# VAT\n\nBread is taxed at 7%.\n"), 0o644)
	return fsys, o
}

// connect serves the root over a pair of pipes and returns the SDK's
// client session on it: the SDK is the oracle of the protocol.
func connect(t testing.TB, o mcpserver.Options) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpserver.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return serve(t, srv)
}

// serve runs srv on a pair of pipes and connects the SDK's client to it;
// the session ends with the test.
func serve(t testing.TB, srv *mcpserver.Server) *mcp.ClientSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, inR, outW); outW.Close() }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		inW.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Error("the server did not end when its input did")
		}
		cancel()
	})
	return cs
}

// call calls tool with args and returns its text and whether it is an
// error, failing on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.(*mcp.TextContent).Text)
	}
	return b.String(), res.IsError
}

var tools = []string{"memory_wakeup", "wake_check", "wake_cold", "wake_contest", "wake_decide", "wake_handoff", "wake_load", "wake_log", "wake_remember"}

func TestListsAndInstructions(t *testing.T) {
	_, o := newRoot(t)
	cs := connect(t, mcpserver.Options{Root: "/p/.wake", Library: o})
	ins := cs.InitializeResult().Instructions
	if len(ins) > mcpserver.MaxInstructions || !strings.Contains(ins, "First session") || !strings.Contains(ins, "## Protocol") || !strings.Contains(ins, "wake_handoff") {
		t.Errorf("instructions (%d bytes):\n%s", len(ins), ins)
	}
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range lt.Tools {
		names = append(names, tl.Name)
		schema, _ := tl.InputSchema.(map[string]any)
		if len(tl.Description) < 80 || schema["type"] != "object" {
			t.Errorf("%s: description %q, schema %v", tl.Name, tl.Description, tl.InputSchema)
		}
		props, _ := schema["properties"].(map[string]any)
		for p, v := range props {
			if d, _ := v.(map[string]any)["description"].(string); d == "" {
				t.Errorf("%s: argument %s has no description", tl.Name, p)
			}
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, tools) {
		t.Errorf("tools: %v", names)
	}
	lr, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range lr.Resources {
		uris = append(uris, r.URI)
	}
	if !slices.Equal(uris, []string{mcpserver.BootURI, mcpserver.SkillURI}) {
		t.Errorf("resources: %v", uris)
	}
	for uri, want := range map[string]string{mcpserver.BootURI: "Keep the books of a bakery.", mcpserver.SkillURI: "wake handoff"} {
		rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, want) {
			t.Errorf("%s: %v %+v", uri, err, rr)
		}
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "wake://nothing"}); err == nil {
		t.Error("wake://nothing: no error")
	}
}

// TestEveryTool is a session through the tools: load, decide, contest,
// pull, check, hand off, read the log.
func TestEveryTool(t *testing.T) {
	fsys, o := newRoot(t)
	cs := connect(t, mcpserver.Options{Root: "/p/.wake", Library: o})
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"wake_load", nil, "Keep the books of a bakery."},
		{"wake_load", map[string]any{"format": "json"}, `"totals"`},
		{"wake_decide", map[string]any{"what": "Round VAT per line", "because": "the tax office does", "topic": "vat"}, "Decided #1"},
		{"wake_remember", map[string]any{"text": "Ask the baker about Sunday rates", "topic": "payroll", "next": "Call on Monday", "tags": []string{"payroll", "open"},
			"hypothesis": "Sunday pays double", "missing": "the contract"}, "Remembered #1: Ask the baker about Sunday rates"},
		{"wake_load", nil, "Ask the baker about Sunday rates"},
		{"wake_contest", map[string]any{"decision": "1", "objection": "rounding per invoice is allowed", "proposal": "round per invoice"}, "Contested #1"},
		{"wake_cold", nil, "- cold/notes/ — 1 document"},
		{"wake_cold", map[string]any{"folder": "notes"}, "vat.md — VAT rates"},
		{"wake_cold", map[string]any{"path": "cold/notes/"}, "vat.md — VAT rates"},
		{"wake_cold", map[string]any{"path": "cold/notes/vat.md"}, "taxed at 7%"},
		{"wake_check", nil, "Outcome:"},
		{"wake_check", map[string]any{"format": "json"}, `"findings"`},
		{"wake_handoff", map[string]any{"summary": "Set up VAT rounding", "next": "Import the bank CSV", "happened": []string{"rounding"}, "decision": []string{"Keep CSV imports manual because the bank has no API"}}, "latest.md"},
		{"wake_log", nil, "decide"},
		{"wake_log", map[string]any{"op": "handoff", "since": "24h", "format": "json"}, `"entries"`},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s %v: error %v, want %q in:\n%s", c.tool, c.args, isErr, c.want, text)
		}
	}
	main, _ := afero.ReadFile(fsys, "/p/.wake/main.md")
	if !strings.Contains(string(main), "Import the bank CSV") {
		t.Errorf("main.md:\n%s", main)
	}
	inbox, _ := afero.ReadFile(fsys, "/p/.wake/warm/inbox.md")
	for _, want := range []string{"Ask the baker about Sunday rates", "payroll", "Call on Monday", "open", "- hypothesis: Sunday pays double", "- missing: the contract"} {
		if !strings.Contains(string(inbox), want) {
			t.Errorf("warm/inbox.md lacks %q:\n%s", want, inbox)
		}
	}
}

func TestBadArguments(t *testing.T) {
	_, o := newRoot(t)
	cs := connect(t, mcpserver.Options{Root: "/p/.wake", Library: o})
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"wake_decide", map[string]any{"what": 1, "because": "x"}, "want \"string\""},
		{"wake_decide", map[string]any{"what": "x"}, "because"},
		{"wake_decide", map[string]any{"what": "  ", "because": "x"}, "what is required"},
		{"wake_decide", map[string]any{"what": "a", "because": "b", "nope": true}, "nope"},
		{"wake_remember", map[string]any{"text": " "}, "text is required"},
		{"wake_remember", map[string]any{"text": "a\nb"}, "one line"},
		{"wake_remember", map[string]any{"text": "a", "tags": []string{"x,y"}}, "holds a comma"},
		{"wake_remember", map[string]any{"text": "a", "tags": "x"}, `want an array of "string"`},
		{"wake_contest", map[string]any{"decision": "zzz", "objection": "o", "proposal": "p"}, "no such decision"},
		{"wake_contest", map[string]any{"decision": "#!", "objection": "o", "proposal": "p"}, "decision: "},
		{"wake_contest", map[string]any{"decision": "99", "objection": "o", "proposal": "p"}, "wake: hint: wake_load lists"},
		{"wake_cold", map[string]any{"path": "../main.md"}, "outside cold/"},
		{"wake_cold", map[string]any{"path": "/etc/passwd"}, "absolute paths are refused"},
		{"wake_cold", map[string]any{"path": "notes/none.md"}, "none.md"},
		{"wake_cold", map[string]any{"path": "notes/vat.md", "page": 2}, "not the last result"},
		{"wake_cold", map[string]any{"folder": "nowhere/"}, "cold/nowhere/: no such folder in cold/"},
		{"wake_cold", map[string]any{"folder": "../warm"}, "outside cold/"},
		{"wake_cold", map[string]any{"folder": "notes", "path": "notes/vat.md"}, "give one"},
		{"wake_cold", map[string]any{"path": "notes/", "page": 2}, "list it with folder: notes/"},
		{"wake_load", map[string]any{"format": "yaml"}, `format "yaml"`},
		{"wake_load", map[string]any{"page": 5}, "page 5: the result has 1 page(s)"},
		{"wake_load", map[string]any{"page": -1}, "pages count from 1"},
		{"wake_handoff", map[string]any{"summary": "x"}, "next"},
		{"wake_handoff", map[string]any{"summary": "two\nlines", "next": "n"}, "one line"},
		{"wake_handoff", map[string]any{"summary": "s", "next": "n", "decision": []string{"no reason given"}}, "because"},
		{"wake_log", map[string]any{"since": "-3h"}, "shorter than a minute"},
		{"wake_log", map[string]any{"op": "a b"}, "one op"},
		{"wake_check", map[string]any{"format": 3}, "want \"string\""},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s %v: error %v, want %q in:\n%s", c.tool, c.args, isErr, c.want, text)
		}
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "wake_nope"}); err == nil {
		t.Error("wake_nope: no error")
	}
	// An error quoting a huge argument stays within the bound.
	huge := strings.Repeat("ab c", 60000)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"wake_cold", map[string]any{"path": huge}},
		{"wake_log", map[string]any{"op": huge}},
		{"wake_contest", map[string]any{"decision": huge, "objection": "o", "proposal": "p"}},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr || len(text) > 9<<10 || !strings.Contains(text, "more bytes of this error left out") {
			t.Errorf("%s with a huge argument: error %v, %d bytes", c.tool, isErr, len(text))
		}
	}
	if text, isErr := call(t, cs, "wake_check", nil); isErr || !strings.Contains(text, "Outcome:") {
		t.Errorf("after the bad calls, wake_check: %v\n%s", isErr, text)
	}
}

// TestPages cuts the boot context into pages of a small bound: every page
// is within it and names the next, and together they are the whole.
func TestPages(t *testing.T) {
	_, o := newRoot(t)
	const limit = 300
	cs := connect(t, mcpserver.Options{Root: "/p/.wake", Library: o, PageTokens: limit})
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpserver.BootURI})
	if err != nil {
		t.Fatal(err)
	}
	whole := rr.Contents[0].Text
	var got strings.Builder
	for n := 1; ; n++ {
		text, isErr := call(t, cs, "wake_load", map[string]any{"page": n})
		if isErr {
			t.Fatalf("page %d: %s", n, text)
		}
		if c := enc.Count(text); c > limit {
			t.Errorf("page %d: %d tokens", n, c)
		}
		body, footer, cut := strings.Cut(text, "\n[wake: page ")
		if !cut {
			got.WriteString(text)
			break
		}
		if !strings.Contains(footer, fmt.Sprintf("page: %d for the rest", n+1)) {
			t.Errorf("page %d footer: %q", n, footer)
		}
		got.WriteString(strings.TrimSuffix(body, "\n"))
		if n > 100 {
			t.Fatal("no last page")
		}
	}
	if strings.ReplaceAll(got.String(), "\n", "") != strings.ReplaceAll(whole, "\n", "") {
		t.Errorf("the pages are not the boot context:\n%s\n---\n%s", got.String(), whole)
	}
}

func TestPaginateLongLine(t *testing.T) {
	count := func(s string) int { return len(s) }
	text := strings.Repeat("x", 1000) + "\nshort\n"
	pages := mcpserver.Paginate(count, text, 200)
	var body strings.Builder
	for i, p := range pages {
		if len(p) > 200 {
			t.Errorf("page %d: %d", i+1, len(p))
		}
		b, _, _ := strings.Cut(p, "\n[wake: page ")
		body.WriteString(b)
	}
	if strings.ReplaceAll(body.String(), "\n", "") != strings.ReplaceAll(text, "\n", "") {
		t.Errorf("pages lose text: %q", pages)
	}
	if got := mcpserver.Paginate(count, "fits\n", 200); !slices.Equal(got, []string{"fits\n"}) {
		t.Errorf("a text that fits: %q", got)
	}
}

func TestInstructionsBound(t *testing.T) {
	long := strings.Repeat("A line of the announcement that goes on for a while.\n", 200)
	got := mcpserver.Instructions("/p/.wake", long, "card line\n")
	if len(got) > mcpserver.MaxInstructions || !strings.Contains(got, "card line") || !strings.Contains(got, "the rest of the announcement: wake_load") {
		t.Errorf("%d bytes:\n%s", len(got), got)
	}
	short := mcpserver.Instructions("/p/.wake", "All checks passed.", "card line\n")
	if !strings.Contains(short, "\nAll checks passed.\n") || strings.Contains(short, "the rest of") {
		t.Errorf("short:\n%s", short)
	}
}

// TestConcurrentCalls runs decisions, loads and pulls at once: every call
// answers, and the log holds every decision once.
func TestConcurrentCalls(t *testing.T) {
	_, o := newRoot(t)
	cs := connect(t, mcpserver.Options{Root: "/p/.wake", Library: o})
	var wg sync.WaitGroup
	errs := make(chan string, 30)
	for i := range 10 {
		wg.Add(3)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "wake_decide",
				Arguments: map[string]any{"what": fmt.Sprintf("Use tool %d", i), "because": "it works", "topic": fmt.Sprintf("t%d", i)}})
			if err != nil || res.IsError {
				errs <- fmt.Sprintf("decide %d: %v %+v", i, err, res)
			}
		}()
		for _, tool := range []string{"wake_load", "wake_cold"} {
			go func() {
				defer wg.Done()
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool})
				if err != nil || res.IsError {
					errs <- fmt.Sprintf("%s: %v %+v", tool, err, res)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	text, _ := call(t, cs, "wake_log", map[string]any{"op": "decide"})
	for i := range 10 {
		if n := strings.Count(text, fmt.Sprintf("Use tool %d\n", i)) + strings.Count(text, fmt.Sprintf("Use tool %d ", i)); n == 0 {
			t.Errorf("decision %d missing from the log:\n%s", i, text)
		}
	}
}

// TestPulledPages reads a long pull in pages: the session's budget is
// spent once, however many pages are read.
func TestPulledPages(t *testing.T) {
	fsys, o := newRoot(t)
	var doc strings.Builder
	doc.WriteString("---\nsummary: the ovens\n---\n# Ovens\n\n")
	for i := range 60 {
		fmt.Fprintf(&doc, "Oven %d is preheated to %d degrees before the first batch of the morning.\n", i, 200+i)
	}
	afero.WriteFile(fsys, "/p/.wake/cold/notes/ovens.md", []byte(doc.String()), 0o644)
	cs := connect(t, mcpserver.Options{Root: "/p/.wake", Library: o, PageTokens: 300})
	first, isErr := call(t, cs, "wake_cold", map[string]any{"path": "notes/ovens.md"})
	if isErr || !strings.Contains(first, "[wake: page 1 of ") {
		t.Fatalf("page 1: %s", first)
	}
	var all strings.Builder
	all.WriteString(first)
	for n := 2; ; n++ {
		text, isErr := call(t, cs, "wake_cold", map[string]any{"path": "notes/ovens.md", "page": n})
		if isErr {
			t.Fatalf("page %d: %s", n, text)
		}
		all.WriteString(text)
		if !strings.Contains(text, "[wake: page ") {
			break
		}
	}
	if !strings.Contains(all.String(), "Oven 59 is preheated") {
		t.Errorf("the pages lack the end of the document:\n%s", all.String())
	}
	_, after, _ := strings.Cut(all.String(), "[wake: cold/notes/ovens.md: ")
	spent, _, _ := strings.Cut(after, " tokens pulled")
	list, _ := call(t, cs, "wake_cold", nil)
	if spent == "" || !strings.Contains(list, "This session has pulled "+spent+" of") {
		t.Errorf("pulled %q tokens, but the listing says:\n%s", spent, list)
	}
}

// TestHookedSessions: a client whose hook gave its sessions the boot
// context (Options.Hooked, by the name it gives itself) is not told to
// load it first, and gets no second copy of the announcement or the
// protocol card; wake_load is described as the way back to it. Another
// client gets the whole instructions.
func TestHookedSessions(t *testing.T) {
	_, o := newRoot(t)
	var mu sync.Mutex
	var asked []string
	srv, err := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o, Hooked: func(c string) bool {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, c)
		return c == "test"
	}})
	if err != nil {
		t.Fatal(err)
	}
	cs := serve(t, srv)
	ins := cs.InitializeResult().Instructions
	if ins != mcpserver.HookedInstructions("/p/.wake") || strings.Contains(ins, "First session") || strings.Contains(ins, "## Protocol") || strings.Contains(ins, "Call wake_load first") {
		t.Errorf("a hooked session's instructions:\n%s", ins)
	}
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if !slices.Equal(asked, []string{"test"}) {
		t.Errorf("Hooked asked of %v: not once", asked)
	}
	mu.Unlock()
	for _, tl := range lt.Tools {
		if tl.Name == "wake_load" && !strings.Contains(tl.Description, "only when it is no longer in your context") {
			t.Errorf("wake_load in a hooked session: %q", tl.Description)
		}
	}
	// The same server, another client: the whole instructions.
	srv2, _ := mcpserver.New(mcpserver.Options{Root: "/p/.wake", Library: o, Hooked: func(string) bool { return false }})
	cs2 := serve(t, srv2)
	if ins := cs2.InitializeResult().Instructions; !strings.Contains(ins, "Call wake_load first") || !strings.Contains(ins, "## Protocol") {
		t.Errorf("an unhooked session's instructions:\n%s", ins)
	}
	lt, _ = cs2.ListTools(context.Background(), nil)
	for _, tl := range lt.Tools {
		if tl.Name == "wake_load" && !strings.Contains(tl.Description, "Call it once, first") {
			t.Errorf("wake_load in an unhooked session: %q", tl.Description)
		}
	}
}

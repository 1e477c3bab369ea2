package mcpserver_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/mcpserver"
	"github.com/wakeproto/wake/store"
)

// TestLogPages: a ledger longer than a page answers wake_log page by
// page, as `wake log --page N` does, each page naming how to get the
// next; a page past the last is an error; JSON stays complete.
func TestLogPages(t *testing.T) {
	_, o := newRoot(t)
	m, err := wake.Open("/p/.wake", o)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 120 {
		if _, err := m.Remember(context.Background(), store.NewReminder{Text: fmt.Sprintf("reminder %03d with enough words to fill a page of the ledger quickly", i)}); err != nil {
			t.Fatal(err)
		}
	}
	cs := connect(t, mcpserver.Options{Root: "/p/.wake", Library: o})
	first, isErr := call(t, cs, "wake_log", nil)
	if isErr || !strings.Contains(first, "Page 1 of ") || !strings.Contains(first, "wake_log with page: N") || !strings.Contains(first, "reminder 119") {
		t.Fatalf("first page:\n%s", first)
	}
	second, isErr := call(t, cs, "wake_log", map[string]any{"page": 2})
	if isErr || !strings.Contains(second, "Page 2 of ") || strings.Contains(second, "reminder 119") {
		t.Fatalf("second page:\n%s", second)
	}
	if text, isErr := call(t, cs, "wake_log", map[string]any{"page": 99}); !isErr || !strings.Contains(text, "page 99: the listing has") {
		t.Fatalf("page 99: error %v: %s", isErr, text)
	}
	if text, isErr := call(t, cs, "wake_log", map[string]any{"format": "json"}); isErr || !strings.Contains(text, "reminder 000") || !strings.Contains(text, "reminder 119") {
		t.Fatalf("json is not complete (error %v)", isErr)
	}
}

// TestColdListingPages: a folder of the cold listing answers page by page
// as `wake cold FOLDER --page N` does.
func TestColdListingPages(t *testing.T) {
	fsys, o := newRoot(t)
	for i := range 600 {
		afero.WriteFile(fsys, fmt.Sprintf("/p/.wake/cold/notes/n%03d.md", i), []byte(fmt.Sprintf("---\nsummary: Note %03d on the ovens and their service history\n---\n# Note\n", i)), 0o644)
	}
	cs := connect(t, mcpserver.Options{Root: "/p/.wake", Library: o})
	top, isErr := call(t, cs, "wake_cold", nil)
	if isErr || !strings.Contains(top, "- cold/notes/ — 601 documents") || strings.Contains(top, "Page 1 of ") {
		t.Fatalf("cold/:\n%s", top)
	}
	first, isErr := call(t, cs, "wake_cold", map[string]any{"folder": "cold/notes/"})
	if isErr || !strings.Contains(first, "Page 1 of ") || !strings.Contains(first, "wake_cold with page: N") || !strings.Contains(first, "Next: wake cold cold/notes/ --page 2") {
		t.Fatalf("first page:\n%s", first)
	}
	second, isErr := call(t, cs, "wake_cold", map[string]any{"folder": "cold/notes/", "page": 2})
	if isErr || !strings.Contains(second, "Page 2 of ") || second == first {
		t.Fatalf("second page:\n%s", second)
	}
}

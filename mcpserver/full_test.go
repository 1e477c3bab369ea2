package mcpserver_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/internal/memgen"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/mcpserver"
)

// fullRoot is a generated root with full tiers (about 36,000 tokens) and
// cold documents.
func fullRoot(tb testing.TB, cold int) wake.Options {
	tb.Helper()
	fsys := afero.NewMemMapFs()
	if err := memgen.Generate(fsys, "/p/.wake", memgen.Options{TierScale: 1, ColdFiles: cold}); err != nil {
		tb.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	return wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home/ava"}, Locker: &memlock.Locker{}, Encoder: sharedEncoder,
		Now: func() time.Time { return now }}
}

// TestFullRootPages loads a full root through the real bound: the boot
// context is cut into pages of at most MaxResultTokens tokens, and the
// pages together are the whole context.
func TestFullRootPages(t *testing.T) {
	if testing.Short() {
		t.Skip("counts a full root")
	}
	o := fullRoot(t, 200)
	cs := connect(t, mcpserver.Options{Root: "/p/.wake", Library: o})
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpserver.BootURI})
	if err != nil {
		t.Fatal(err)
	}
	whole := rr.Contents[0].Text
	var got strings.Builder
	pages := 0
	for n := 1; n < 10; n++ {
		text, isErr := call(t, cs, "wake_load", map[string]any{"page": n})
		if isErr {
			t.Fatalf("page %d: %s", n, text)
		}
		pages++
		if c := enc.Count(text); c > mcpserver.MaxResultTokens {
			t.Errorf("page %d: %d tokens", n, c)
		}
		body, _, cut := strings.Cut(text, "\n[wake: page ")
		got.WriteString(strings.TrimSuffix(body, "\n"))
		if !cut {
			break
		}
	}
	// The notices the load gave (skill.md over its budget) end the last page.
	if a, b := strings.ReplaceAll(got.String(), "\n", ""), strings.ReplaceAll(whole, "\n", ""); pages < 2 || !strings.HasPrefix(a, b) || !strings.Contains(a[len(b):], "wake: warning: ") {
		t.Errorf("%d page(s) of a %d-token context; the pages are the context and its notices: %v", pages, enc.Count(whole), strings.HasPrefix(a, b))
	}
}

// BenchmarkTools times a call of each tool that writes no memory on a full root with
// 1,000 cold documents, through the SDK's client on a pair of pipes.
func BenchmarkTools(b *testing.B) {
	o := fullRoot(b, 1000)
	cs := connect(b, mcpserver.Options{Root: "/p/.wake", Library: o})
	ctx := context.Background()
	for _, tool := range []string{"wake_load", "wake_check", "wake_cold", "wake_log", "memory_wakeup"} {
		b.Run(tool, func(b *testing.B) {
			for b.Loop() {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
				if err != nil || res.IsError {
					b.Fatalf("%v %+v", err, res)
				}
			}
		})
	}
}

package boot

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestStatusFlagsHugeFiles proves wake status says when a file is over the
// read limit (its count is of the head only), in its text, and
// that its memory line says it counts the tier files only.
func TestStatusFlagsHugeFiles(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	huge := strings.Repeat("- an open question that goes on\n", tiers.MaxDocBytes/32+10)
	afero.WriteFile(fsys, "/demo/warm/open_questions.md", []byte(huge), 0o644)
	ctx, err := Read(Options{FS: fsys, Root: "/demo", Config: tiers.DefaultConfig(), Counter: encoder(t)})
	if err != nil {
		t.Fatal(err)
	}
	text := Status(ctx)
	line := lineOf(text, "warm/open_questions.md")
	if !strings.Contains(line, "+ / ") || !strings.Contains(line, "huge: ") || !strings.Contains(line, "over the 4 MiB read limit; only its first 64 KiB counted") {
		t.Errorf("huge file not flagged: %q", line)
	}
	if strings.Contains(lineOf(text, "warm/decisions.md"), "huge") {
		t.Error("a small file flagged as huge")
	}
	if !strings.Contains(text, "\nmemory (tier files) ") || !strings.Contains(text, "memory (tier files) counts the tier files whole, before compression; 'wake load' also adds the cold table of contents (budget.toc 1,500) and the digest (budget.digest 1,000)") {
		t.Errorf("memory line does not say what it counts:\n%s", text)
	}

}

func lineOf(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

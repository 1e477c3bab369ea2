package cold

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/wakeproto/wake/internal/coldtree"
	"github.com/wakeproto/wake/tiers"
)

// TestColdIndexKeepsNoSecretText: of a secret document, and of one whose
// front matter does not parse, the cold index keeps no text: not its
// summary, heading or session, nor a value its front-matter error quotes.
// The listing, cold and warm, shows none of it either.
func TestColdIndexKeepsNoSecretText(t *testing.T) {
	t.Parallel()
	const canary = "CANARY"
	fsys := coldtree.FS(t, []coldtree.File{
		{Path: "cold/secret.md", Data: "---\nsummary: CANARY summary\nsensitivity: secret\nsession: CANARY\n---\n# CANARY title\n\nCANARY body\n", Age: time.Hour},
		{Path: "cold/broken.md", Data: "---\nsummary: CANARY\nsource_of_truth: CANARYyes\n---\n# CANARY\n", Age: time.Hour},
		{Path: "cold/typo.md", Data: "---\nsummary: CANARY\nsensitivity: \"CANARY \\\" ` \"\n---\n", Age: time.Hour},
		{Path: "cold/plain.md", Data: "---\nsummary: An ordinary note\n---\n", Age: time.Hour},
	})
	enc := encoder(t)
	for run := range 2 {
		o := tocOptions(fsys, enc)
		o.Index = OpenIndex(fsys, "/r", o.Config.Encoding)
		toc, warns := buildTOC(t, o, NoFold)
		if err := SaveIndex(fsys, "/r", o.Index); err != nil {
			t.Fatal(err)
		}
		data, err := afero.ReadFile(fsys, filepath.Join("/r", tiers.StateDir, IndexFile))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), canary) || !strings.Contains(string(data), "An ordinary note") {
			t.Errorf("run %d: the index holds:\n%s", run, data)
		}
		if out := toc.Text() + strings.Join(warns, "\n"); strings.Contains(out, canary) {
			t.Errorf("run %d: the listing shows:\n%s", run, out)
		}
		if toc.Secret != 1 || toc.Unreadable != 2 || toc.Documents != 1 {
			t.Errorf("run %d: %d secret, %d unreadable, %d listed", run, toc.Secret, toc.Unreadable, toc.Documents)
		}
	}
}

func TestUnquoted(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"no quotes": "no quotes",
		"cannot unmarshal !!str `CANARYy...` into bool": "cannot unmarshal !!str `…` into bool",
		`sensitivity "CAN\"ARY" is not public`:          `sensitivity "…" is not public`,
		"a `CAN`ARY` b":                                 "a `…` b",
		"line 2: `one` and line 3: `two`":               "line 2: `…`", // what lies between goes too
		"open \"CANARY":                                 "open \"…",
	} {
		if got := unquoted(in); got != want {
			t.Errorf("unquoted(%q) = %q, want %q", in, got, want)
		}
	}
}

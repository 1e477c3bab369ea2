package memgen

import (
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
)

// TestFullTiersSize keeps the generator honest about the sizes the
// benchmarks claim.
func TestFullTiersSize(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	if err := Generate(fs, "/r", Options{TierScale: 1, ColdFiles: 3}); err != nil {
		t.Fatal(err)
	}
	enc, _ := budget.NewEncoder("cl100k_base")
	total := 0
	for _, rel := range []string{"main.md", "recent/latest.md", "recent/previous.md", "warm/active_tasks.md", "warm/decisions.md", "warm/open_questions.md"} {
		data, err := afero.ReadFile(fs, "/r/"+rel)
		if err != nil {
			t.Fatal(err)
		}
		n := enc.Count(string(data))
		t.Logf("%s: %d tokens", rel, n)
		total += n
	}
	if total < 34000 || total > 40000 {
		t.Fatalf("full tiers are %d tokens, want about 36,000 (under the 39,000 of tier budgets)", total)
	}
	if ok, _ := afero.Exists(fs, "/r/cold/2022/03/note-000002.md"); !ok {
		t.Fatal("cold note missing")
	}
}

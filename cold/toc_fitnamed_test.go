package cold

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/wakeproto/wake/internal/coldtree"
)

// TestTOCFitNamedIsBuildThenName: a listing made by ListTOC and fitted
// once by FitNamed is the listing BuildTOC fits and NameRecords fits
// again, line for line, count for count, with the same folds, the same
// redactions counted and the same record of what it cut: at budgets that
// list everything, fold some months, fold most, and leave it out; with
// no record named, a few, and more than there are. Records whose
// summaries hold a secret make the naming change what is counted
// redacted. Fails when FitNamed names no record, or does not fit.
func TestTOCFitNamedIsBuildThenName(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	files := coldtree.Large()
	for m := 6; m <= 11; m++ {
		for d := 1; d <= 25; d += 3 {
			summary := fmt.Sprintf("Session of 2026-%02d-%02d", m, d)
			if d%2 == 0 {
				summary += " with token ghp_" + strings.Repeat("a1B2c3D4e5", 4)[:36]
			}
			name := fmt.Sprintf("cold/sessions/2026-%02d-%02dT10-00-00Z.md", m, d)
			files = append(files, coldtree.File{Path: name, Data: fmt.Sprintf("---\nsummary: %s\n---\n", summary)})
		}
	}
	fsys := coldtree.FS(t, files)
	named, redacted := map[int]bool{}, false
	for _, limit := range []int{NoFold, 5000, 1200, 600, 250, 10} {
		for _, elsewhere := range []int{0, 2} {
			for _, n := range []int{0, 1, 3, 200} {
				o := tocOptions(fsys, enc)
				o.SessionsElsewhere = elsewhere
				want, wantWarns, err := BuildTOC(o, limit)
				if err != nil {
					t.Fatal(err)
				}
				want.NameRecords(n, enc)
				got, gotWarns := ListTOC(o, limit)
				got.FitNamed(n, enc)
				named[strings.Count(got.Text(), "session record (")] = true
				redacted = redacted || len(got.Redacted) > 0
				what := fmt.Sprintf("limit %d, %d named elsewhere, %d named", limit, elsewhere, n)
				if got.Text() != want.Text() {
					t.Fatalf("%s: fitted once:\n%s\nfitted twice:\n%s", what, got.Text(), want.Text())
				}
				if !reflect.DeepEqual(got.Lines, want.Lines) || got.Tokens != want.Tokens || got.Folded != want.Folded ||
					got.Omitted != want.Omitted || !reflect.DeepEqual(got.Redacted, want.Redacted) || !reflect.DeepEqual(gotWarns, wantWarns) {
					t.Fatalf("%s: fitted once: %d tokens, %d folded, omitted %v, redacted %v; twice: %d, %d, %v, %v",
						what, got.Tokens, got.Folded, got.Omitted, got.Redacted, want.Tokens, want.Folded, want.Omitted, want.Redacted)
				}
				if !reflect.DeepEqual(got.Cuts(), want.Cuts()) {
					t.Fatalf("%s: the records of the cuts differ:\n%v\n%v", what, got.Cuts(), want.Cuts())
				}
			}
		}
	}
	if len(named) < 4 || !redacted {
		t.Errorf("the listings named %v records, and counted a redaction: %v", named, redacted)
	}
}

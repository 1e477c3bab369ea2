package checks

import (
	"os"
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

func TestContradicts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want bool
		why  string
	}{
		{"Use YAML for config", "Use TOML for config", true, `"yaml" against "toml"`},
		{"Use cgo", "Do not use cgo", true, `negates the other with "do not"`},
		{"Use cgo", "Don't use cgo", true, "negates"},
		{"We can vendor dependencies", "We cannot vendor dependencies", true, "negates"},
		{"Never commit to main", "Commit to main", true, `"never"`},
		{"Enable telemetry", "Disable telemetry", true, `"enable" is the opposite of "disable"`},
		{"Always squash merges", "Never squash merges", true, "opposite"},
		{"Retry failed uploads 3 times", "Retry failed uploads 5 times", true, `"3" against "5"`},
		{"Store journal entries in SQLite", "Store journal entries in Postgres", true, "another choice"},
		{"Use tabs for indentation", "Use spaces for indentation", true, "another choice"},
		{"Represent money as int64 cents", "Represent money as float64 cents", true, `"int64" against "float64"`},
		// Not contradictions.
		{"Use YAML for config", "Use YAML for config", false, ""},
		{"Use YAML for config", "Use YAML as config", false, ""},
		{"Use YAML for config", "Use YAML for config and fixtures", false, ""},
		{"Write tests for every parser", "Write a test for every parser", false, ""},
		{"Use cobra for the CLI", "Use afero for the file system", false, ""},
		{"Use cgo", "Do not use cgo in tests", false, ""},
		{"Use TOML", "Use YAML", false, ""},
		{"Store invoices in SQLite", "Store journal entries in SQLite", false, ""},
		{"Run tests in CI", "Run lint in CI", false, ""},
		{"Use SQLite for tests", "Use SQLite for production", false, ""},
		{"Add a cache for tokens", "Add a cache for sessions", false, ""},
		{"Write docs in Markdown", "Write specs in Markdown", false, ""},
		{"Config lives in YAML files", "Config lives in TOML files", true, "another choice"},
		{"Postgres stores the invoices", "SQLite stores the invoices", true, "another choice"},
	} {
		why, got := contradicts(tc.a, tc.b)
		if got != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("contradicts(%q, %q) = %q, %v; want %v (%s)", tc.a, tc.b, why, got, tc.want, tc.why)
		}
		if _, back := contradicts(tc.b, tc.a); back != got {
			t.Errorf("contradicts is not symmetric on %q, %q", tc.a, tc.b)
		}
	}
}

// realDecisions are unrelated decisions of the kind a project's log holds.
// No pair of them may be reported as a contradiction.
var realDecisions = []string{
	"Use YAML for config",
	"Store journal entries in SQLite",
	"Represent money as int64 cents",
	"Write one importer per bank",
	"Use cobra for the command line",
	"All file access goes through afero",
	"Count tokens with tiktoken offline",
	"Ship the BPE tables inside the binary",
	"Write every file atomically with a temp file and rename",
	"Take the root's lock for every mutation",
	"Append one ledger line per mutation",
	"Do not use cgo",
	"Keep main.go under thirty lines",
	"Run gofmt and go vet in CI",
	"Tag releases with semantic versions",
	"Support Linux and macOS first",
	"Log to stderr, never to stdout",
	"Put golden files under testdata",
	"Fuzz every parser with a seed corpus",
	"Default the context window to 200k tokens",
	"Compress files from the bottom up",
	"Never load cold files automatically",
	"Hold back secret documents from every output",
	"Name exit statuses in one place",
	"Review every pull request before merge",
	"Deploy from main only",
	"Keep error messages lowercase",
	"Pin dependencies in go.sum",
}

func TestContradictsRealDecisionsRaiseNone(t *testing.T) {
	t.Parallel()
	demo, err := os.ReadFile("../testdata/demo/warm/decisions.md")
	if err != nil {
		t.Fatal(err)
	}
	all := append([]string{}, realDecisions...)
	for _, e := range tiers.ParseDecisions(demo).Entries {
		all = append(all, e.What)
	}
	if len(all) < 20 {
		t.Fatalf("only %d decisions", len(all))
	}
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if all[i] == "Use YAML for config" && all[j] == "Use TOML for config" {
				continue // the demo's own reversed pair
			}
			if why, ok := contradicts(all[i], all[j]); ok {
				t.Errorf("false positive: %q against %q: %s", all[i], all[j], why)
			}
		}
	}
}

func TestWords(t *testing.T) {
	t.Parallel()
	got := strings.Join(words("Don't use go-diff’s v1.4 in CI. Can't; won’t!"), "|")
	if want := "do|not|use|go-diff's|v1.4|in|ci|can|not|will|not"; got != want {
		t.Errorf("words = %q", got)
	}
}

package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// TestReviewDecisions: nostalgia. A decision in force whose BECAUSE names
// a file or a module the project no longer has, or that nothing touched
// for checks.review_after, is listed for review; a reversed one, a fresh
// one and one whose reasons are all there are not.
func TestReviewDecisions(t *testing.T) {
	t.Parallel()
	log := "[2026-11-01] DECISION: Parse config by hand BECAUSE: config/legacy.go cannot use a library\nSTATUS: active\n\n" +
		"[2026-11-02] DECISION: Keep the router BECAUSE: github.com/gorilla/mux handles our routes\nSTATUS: active\n\n" +
		"[2025-01-10] DECISION: Money in cents BECAUSE: floats round badly\nSTATUS: active\n\n" +
		"[2025-01-11] DECISION: Use tabs BECAUSE: gofmt\nSTATUS: active\nOBJECTION: [2026-10-01] spaces\nUPHELD: [2026-10-02] gofmt decides\n\n" +
		"[2025-01-12] DECISION: Use cgo BECAUSE: config/legacy.go\nSTATUS: reversed\nREVERSED_BY: [2025-02-01] no cgo\n\n" +
		"[2026-11-03] DECISION: Keep afero BECAUSE: report/vat.go and github.com/spf13/afero/mem need it\nSTATUS: active\n"
	m := Memory{Decisions: tiers.Doc{Path: tiers.DecisionsPath, Content: []byte(log)}}
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	o := DriftOptions{
		Exists:      func(p string) bool { return p == "report/vat.go" },
		Module:      func(p string) (bool, bool) { return strings.HasPrefix(p, "github.com/spf13/afero"), true },
		ReviewAfter: 180 * 24 * time.Hour, Now: func() time.Time { return now },
	}
	var review []Finding
	for _, f := range CheckDrift(m, o) {
		if f.Kind == KindReview {
			review = append(review, f)
		}
	}
	if len(review) != 1 || review[0].Severity != Warning || !review[0].Pass {
		t.Fatalf("review findings %+v", review)
	}
	want := []string{
		"entry 1 ([2026-11-01] Parse config by hand): its reason names config/legacy.go, which the project no longer has",
		"entry 2 ([2026-11-02] Keep the router): its reason names the module github.com/gorilla/mux, which the project no longer requires",
		"entry 3 ([2025-01-10] Money in cents): untouched since 2025-01-10, longer than checks.review_after (180 days)",
	}
	if got := review[0].Details; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("details:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Age off: only the reasons that are gone.
	o.ReviewAfter = 0
	for _, f := range CheckDrift(m, o) {
		if f.Kind == KindReview && len(f.Details) != 2 {
			t.Errorf("review_after 0: %q", f.Details)
		}
	}
}

// The options a BECAUSE names: long flags, environment variables and keys
// between backticks; never an ordinary word, a file or a dash of prose.
func TestNamedOptions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want []string
	}{
		{"run with `--dry-run` first", []string{"--dry-run"}},
		{"--force-push=always, then --force-push again", []string{"--force-push"}},
		{"set $WAKE_LEGACY_MODE and `FOO_BAR=1`", []string{"WAKE_LEGACY_MODE", "FOO_BAR"}},
		{"`server.timeout` is 30s and `checks.review_after` too", []string{"server.timeout", "checks.review_after"}},
		// Negatives: prose, files, code, acronyms, dashes, short flags.
		{"the server times out -- see main.go and `config.toml`", nil},
		{"Node.js and the API (HTTP/2) are fast; use -v", nil},
		{"`os.Getenv` reads it; `main.go` too; TODO", nil},
		{"reasons--the old ones---hold; a - b", nil},
		{"`Server.Timeout` and `3.5` and `.env`", nil},
	} {
		if got := NamedOptions(c.text); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("NamedOptions(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// The dependencies a BECAUSE names: only as a manifest, a registry or a
// package manager names them.
func TestNamedDependencies(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want []string
	}{
		{"the `serde` crate derives it", []string{"serde"}},
		{"the npm package `left-pad` pads; `lodash@4.17.21` merges", []string{"left-pad", "lodash"}},
		{"`requests>=2.31` and `uvicorn[standard]==0.30` serve it", []string{"requests", "uvicorn"}},
		{"@types/node types it; pip install `httpx`; cargo add `tokio`", []string{"httpx", "tokio", "@types/node"}},
		{"the `left-pad` npm package, then the `Left_Pad` crate", []string{"left-pad"}},
		// Negatives: words, paths, emails, Go modules, std, unqualified names.
		{"the standard library package manager is npm", nil},
		{"the `requests` module and the `json` library; mail ben@example.com", nil},
		{"github.com/spf13/afero and `std` crate and the `core` crate", nil},
		{"npm is slow; the crate is big; `config.toml`", nil},
	} {
		if got := NamedDependencies(c.text); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("NamedDependencies(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestOptionSpellings(t *testing.T) {
	t.Parallel()
	for opt, want := range map[string]string{
		"--dry-run":      "dry-run|dry_run|dryrun",
		"--force":        "force",
		"FOO_BAR":        "foo_bar|foo-bar|foo.bar",
		"server.timeout": "server.timeout|server_timeout|timeout",
	} {
		if got := strings.Join(OptionSpellings(opt), "|"); got != want {
			t.Errorf("OptionSpellings(%q) = %q, want %q", opt, got, want)
		}
	}
}

// TestReviewOptionsAndDependencies: a decision in force whose BECAUSE
// names an option no file of the project mentions, or a dependency no
// manifest lists, is listed for review, naming what is gone; the project
// is searched once; one whose names are all there, or whose words only
// look like names, is not; without a search or a manifest, nothing is
// said.
func TestReviewOptionsAndDependencies(t *testing.T) {
	t.Parallel()
	log := "[2026-11-01] DECISION: Keep the dry run BECAUSE: `--dry-run` and $DEPLOY_TARGET guard the deploy\nSTATUS: active\n\n" +
		"[2026-11-02] DECISION: Time out early BECAUSE: `server.timeout` is short\nSTATUS: active\n\n" +
		"[2026-11-03] DECISION: Derive serialisation BECAUSE: the `serde` crate and `lodash@4.17.21` do it\nSTATUS: active\n\n" +
		"[2026-11-04] DECISION: Keep the flags BECAUSE: `--verbose`, LOG_LEVEL and `client.retries` are used; the `tokio` crate too\nSTATUS: active\n\n" +
		"[2026-11-05] DECISION: Plain words BECAUSE: the package manager -- npm -- and the server timeout are fine; main.go\nSTATUS: active\n\n" +
		"[2026-11-06] DECISION: Old flag BECAUSE: `--legacy-mode`\nSTATUS: reversed\nREVERSED_BY: [2026-11-07] gone\n"
	m := Memory{Decisions: tiers.Doc{Path: tiers.DecisionsPath, Content: []byte(log)}}
	project := "the deploy reads deploy_target; verbose logging; log_level; [client] retries = 3"
	searches := 0
	o := DriftOptions{
		Exists: func(string) bool { return true },
		Mentioned: func(spellings []string) (map[string]bool, bool) {
			searches++
			found := map[string]bool{}
			for _, s := range spellings {
				found[s] = strings.Contains(project, s)
			}
			return found, true
		},
		Dependencies: func() (map[string]bool, []string) {
			return map[string]bool{"tokio": true, "left-pad": true}, []string{"Cargo.toml", "web/package.json"}
		},
	}
	details := reviewDetails(t, m, o)
	want := []string{
		"entry 1 ([2026-11-01] Keep the dry run): its reason names the option --dry-run, which no file of the project mentions",
		"entry 2 ([2026-11-02] Time out early): its reason names the option server.timeout, which no file of the project mentions",
		"entry 3 ([2026-11-03] Derive serialisation): its reason names the dependency serde, which none of the project's manifests lists (Cargo.toml, web/package.json); its reason names the dependency lodash, which none of the project's manifests lists (Cargo.toml, web/package.json)",
	}
	if strings.Join(details, "\n") != strings.Join(want, "\n") {
		t.Errorf("details:\n%s\nwant:\n%s", strings.Join(details, "\n"), strings.Join(want, "\n"))
	}
	if searches != 1 {
		t.Errorf("the project was searched %d times, want once", searches)
	}
	// A search that could not cover the project, and no manifest: nothing.
	o.Mentioned = func([]string) (map[string]bool, bool) { return nil, false }
	o.Dependencies = func() (map[string]bool, []string) { return nil, nil }
	if d := reviewDetails(t, m, o); len(d) != 0 {
		t.Errorf("unknown project: %q", d)
	}
}

func reviewDetails(t *testing.T, m Memory, o DriftOptions) []string {
	t.Helper()
	for _, f := range CheckDrift(m, o) {
		if f.Kind == KindReview {
			return f.Details
		}
	}
	return nil
}

func FuzzNamedOptionsAndDependencies(f *testing.F) {
	f.Add("`--dry-run` FOO_BAR `server.timeout` the `serde` crate `lodash@4` @types/node `requests>=2`")
	f.Add("plain prose -- with dashes, Node.js and main.go")
	f.Fuzz(func(t *testing.T, text string) {
		for _, o := range NamedOptions(text) {
			if !strings.Contains(text, o) || len(OptionSpellings(o)) == 0 {
				t.Fatalf("option %q of %q", o, text)
			}
		}
		for _, d := range NamedDependencies(text) {
			if !strings.Contains(text, d) || DependencyKey(d) == "" {
				t.Fatalf("dependency %q of %q", d, text)
			}
		}
	})
}

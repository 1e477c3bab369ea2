package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestHandoffNamesLoggedDecisions: a decision the session already put in
// the log with wake decide, given to the hand-off again (by its text, in
// another case, or by its ID or number), is listed in the summary with its
// reference and not appended a second time; a new one is appended once,
// with the TOPIC its reason ends in, even when listed twice.
func TestHandoffNamesLoggedDecisions(t *testing.T) {
	s, _ := newDecisionStore(t, "")
	ctx := context.Background()
	ch, err := s.Decide(ctx, NewDecision{What: "Use TOML for config", Why: "YAML broke", Topic: "config"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(ctx, NewDecision{What: "Ship one binary", Why: "simple installs"}); err != nil {
		t.Fatal(err)
	}
	in := hoInput("x")
	// As handoff.ParseDecision reads "use TOML for config.  because it
	// reads well", "#2", the ID, "Cache counts because starts are slow
	// TOPIC: cache" and "Cache counts because starts are slow".
	in.Decisions = []NewDecision{{What: "use TOML for config.", Why: "it reads well"}, {Ref: "#2"}, {Ref: ch.ID},
		{What: "Cache counts", Why: "starts are slow", Topic: "cache"}, {What: "Cache counts", Why: "starts are slow"}}
	res, err := WriteSession(ctx, s, in)
	if err != nil {
		t.Fatal(err)
	}
	log := tiers.ParseDecisions([]byte(readLog(t, s)))
	if len(log.Entries) != 3 || res.Decisions != 1 || log.Entries[2].Topic() != "cache" || log.Entries[2].What != "Cache counts" || log.Entries[2].Why != "starts are slow" {
		t.Fatalf("%d entries, %d appended: %+v", len(log.Entries), res.Decisions, log.Entries)
	}
	latest, _ := afero.ReadFile(s.FS, s.Path(tiers.LatestPath))
	sess, _ := tiers.ParseSession(latest)
	want := []string{
		"Use TOML for config because YAML broke (" + ch.ID + ", in the log)",
		"Ship one binary because simple installs (" + log.Entries[1].ID + ", in the log)",
		"Use TOML for config because YAML broke (" + ch.ID + ", in the log)",
		"Cache counts because starts are slow",
	}
	if strings.Join(sess.Decisions.Items, "\n") != strings.Join(want, "\n") {
		t.Errorf("decisions made:\n%s\nwant\n%s", strings.Join(sess.Decisions.Items, "\n"), strings.Join(want, "\n"))
	}
	// A reversed entry is no decision the session made.
	if _, err := s.Reverse(ctx, DecisionRef{Number: 2}, NewDecision{What: "Ship two binaries", Why: "the daemon grew"}); err != nil {
		t.Fatal(err)
	}
	in = hoInput("z")
	in.Decisions = []NewDecision{{Ref: "#2"}}
	if _, err := WriteSession(ctx, s, in); err == nil || !strings.Contains(err.Error(), "decision #2 is reversed") {
		t.Fatalf("a reversed reference: %v", err)
	}
	// Of a held-back log, the summary names the entry, never its text.
	log2 := readLog(t, s)
	afero.WriteFile(s.FS, s.Path(tiers.DecisionsPath), []byte("---\nsensitivity: secret\n---\n"+log2[strings.Index(log2, "["):]), 0o644)
	s.Guard = nil
	in = hoInput("w")
	in.Decisions = []NewDecision{{Ref: ch.ID}}
	if _, err := WriteSession(ctx, s, in); err != nil {
		t.Fatal(err)
	}
	latest, _ = afero.ReadFile(s.FS, s.Path(tiers.LatestPath))
	if strings.Contains(string(latest), "TOML") || !strings.Contains(string(latest), "decision "+ch.ID+", in the log (its text is held back)") {
		t.Fatalf("a held-back log's entry in the summary:\n%s", latest)
	}
	// A reference to no entry is refused, and nothing is written.
	in = hoInput("y")
	in.Decisions = []NewDecision{{Ref: "d-ffff"}}
	before := readLog(t, s)
	var fe *FieldError
	if _, err := WriteSession(ctx, s, in); !errors.As(err, &fe) || !strings.Contains(err.Error(), "d-ffff") {
		t.Fatalf("unknown reference: %v", err)
	}
	if readLog(t, s) != before {
		t.Error("a refused hand-off changed the log")
	}
}

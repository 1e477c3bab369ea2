package boot

import (
	"strings"
	"testing"
	"time"
)

// TestTrajectoryHiddenNamesRisks: when not even one session's line fits,
// the section still says how many sessions and open risks it left out,
// so an open risk never vanishes unsaid.
func TestTrajectoryHiddenNamesRisks(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	all := []TrajectoryEntry{
		{At: at, Path: "recent/latest.md", Summary: "second", Risk: "the VAT sums drift"},
		{At: at.Add(-time.Hour), Path: "recent/previous.md", Summary: "first", Risk: "the backups are untested"},
	}
	tr := &Trajectory{Sessions: 2, all: all, Risks: openRisks(all, 10)}
	tr.fit(5, encoder(t))
	var b strings.Builder
	writeTrajectory(&b, &Context{Trajectory: tr})
	if !strings.Contains(b.String(), "2 sessions and 2 open risks, not listed") {
		t.Fatalf("hidden trajectory:\n%s", b.String())
	}
}

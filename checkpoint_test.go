package wake_test

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/transcript"
)

// TestCheckpoint: a session's checkpoint holds what its transcript tells
// of it, is read back by its id alone, and checkpoints older than two
// weeks go when a new one is written.
func TestCheckpoint(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t)
	afero.WriteFile(fsys, "/t/s.jsonl", []byte(claudeTurn("s1", now.Add(-time.Hour), "write the report", "report.txt")), 0o644)
	afero.WriteFile(fsys, "/p/.wake/.state/"+wake.CheckpointDir+"/old.md", []byte("old"), 0o644)
	old := now.Add(-20 * 24 * time.Hour)
	fsys.Chtimes("/p/.wake/.state/"+wake.CheckpointDir+"/old.md", old, old)
	text, err := m.Checkpoint("/t/s.jsonl", transcript.Claude, "s1")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Checkpoint before the compaction", "write the report", "report.txt (Write)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the checkpoint lacks %q:\n%s", want, text)
		}
	}
	if got, err := m.ReadCheckpoint("s1"); err != nil || got != text {
		t.Errorf("read back %q (%v)", got, err)
	}
	if got, _ := m.ReadCheckpoint("s2"); got != "" {
		t.Errorf("another session's checkpoint: %q", got)
	}
	if ok, _ := afero.Exists(fsys, "/p/.wake/.state/"+wake.CheckpointDir+"/old.md"); ok {
		t.Error("a checkpoint three weeks old was kept")
	}
}

package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/skeleton"
)

func TestInitCreatesOnlyWhatIsMissing(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	s := &Store{FS: fs, Root: "/p/.wake", Now: func() time.Time { return time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC) }, Locker: &memlock.Locker{}, Writer: "wtest"}
	res, err := Init(context.Background(), s, skeleton.Params{Agent: "Ava", Project: "p"})
	if err != nil {
		t.Fatal(err)
	}
	want := "recent/ warm/ cold/ cold/sessions/ main.md wake.toml warm/active_tasks.md warm/decisions.md warm/open_questions.md"
	if got := strings.Join(res.Created, " "); got != want {
		t.Fatalf("created %q, want %q", got, want)
	}
	mine := []byte("# my own main.md\n")
	afero.WriteFile(fs, "/p/.wake/main.md", mine, 0o644)
	fs.Remove("/p/.wake/warm/open_questions.md")
	res, err = Init(context.Background(), s, skeleton.Params{Project: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Created, " ") != "warm/open_questions.md" {
		t.Fatalf("second init created %v", res.Created)
	}
	if data, _ := afero.ReadFile(fs, "/p/.wake/main.md"); string(data) != string(mine) {
		t.Fatal("init overwrote main.md")
	}
	res, err = Init(context.Background(), s, skeleton.Params{Project: "p"})
	if err != nil || len(res.Created) != 0 {
		t.Fatalf("third init: %v, %v", res.Created, err)
	}
	entries, bad, err := ReadLedger(fs, "/p/.wake")
	if err != nil || len(bad) != 0 || len(entries) != 2 || entries[0].Op != "init" {
		t.Fatalf("ledger: %+v %v %v (an init that creates nothing must not log)", entries, bad, err)
	}
}

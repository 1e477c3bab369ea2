package clients_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/internal/splice"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// notes is a client as a sibling package would write one, with nothing
// but the API: it adds the line "@<boot.md>" to the project's
// NOTES.md, records the line, and takes it out again.
type notes struct{}

func (notes) About() clients.About {
	return clients.About{Name: "notes", Title: "Notes", Unrecorded: "removes nothing"}
}

func (notes) Wire(env clients.Env) clients.Wiring {
	return &notesWiring{env, filepath.Join(env.Project, "NOTES.md"), "@" + filepath.Join(env.Root, tiers.BootPath)}
}

type notesWiring struct {
	clients.Env
	file, line string
}

type notesRecord struct {
	Lines []string `json:"lines,omitempty"`
}

func (w *notesWiring) Boot() (clients.Boot, error) { return clients.Boot{Into: "NOTES.md"}, nil }

func (w *notesWiring) PlanInstall() (clients.InstallPlan, error) {
	ed, err := w.Read(w.file)
	if err != nil {
		return clients.InstallPlan{}, err
	}
	if ed.New, ed.Changed, err = splice.AddLine(ed.Old, ed.Exists, w.line); err != nil {
		return clients.InstallPlan{}, err
	}
	ed.Done, ed.Kept = "added "+w.line, "unchanged"
	return clients.InstallPlan{Edits: []clients.FileEdit{ed}, Done: "Wired.", Unchanged: "Already wired.",
		Record: func(r *clients.Record) error {
			var rec notesRecord
			if err := r.Decode(&rec); err != nil {
				return err
			}
			rec.Lines = append(rec.Lines, w.line)
			return r.Encode(rec)
		}}, nil
}

func (w *notesWiring) PlanUninstall(rec *clients.Record) (clients.UninstallPlan, error) {
	var u clients.UninstallPlan
	if rec == nil {
		return u, nil
	}
	var r notesRecord
	if err := rec.Decode(&r); err != nil {
		return u, err
	}
	if dropped := rec.KeepCreated([]string{w.file}, nil); len(dropped) > 0 {
		w.Warn("dropped " + strings.Join(dropped, ", "))
	}
	ed, err := w.Read(w.file)
	if err != nil || !slices.Contains(r.Lines, w.line) {
		return u, err
	}
	ed.New, ed.Changed = splice.RemoveLine(ed.Old, w.line)
	ed.Remove, ed.Done = len(ed.New) == 0, "removed "+w.line
	u.Edits = append(u.Edits, ed)
	return u, nil
}

var encoder = sync.OnceValues(func() (*budget.Encoder, error) { return budget.NewEncoder(tiers.EncodingCL100K) })

// memProject is a project /p with its memory root on a MemMapFs.
func memProject(t *testing.T) (afero.Fs, clients.Options, *[]wake.Notice) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	var notices []wake.Notice
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home"}, Locker: &memlock.Locker{},
		Now: func() time.Time { return time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC) },
		Notify: func(n wake.Notice) {
			if n.Kind != "note" { // the first-time notes of writes outside the root
				notices = append(notices, n)
			}
		},
		Encoder: func(string) (*budget.Encoder, error) { return encoder() }}
	if _, err := wake.Init(context.Background(), "/p/.wake", skeleton.Params{Agent: "Ava"}, o); err != nil {
		t.Fatal(err)
	}
	return fsys, clients.Options{Wake: o, Project: "/p", Cwd: "/p", BootFiles: wake.BootFiles{NoSkill: true}}, &notices
}

// TestSiblingClient: a client written against the API alone installs and
// uninstalls exactly, with a manifest of its own and a ledger line each.
func TestSiblingClient(t *testing.T) {
	t.Parallel()
	fsys, o, notices := memProject(t)
	ctx := context.Background()
	r, err := clients.Install(ctx, notes{}, o)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"NOTES.md: created; added @/p/.wake/boot.md", ".wake/boot.md: written (the whole boot context; each hand-off writes it again)"}
	if !slices.Equal(r.Lines(), want) || r.Summary != "Wired." || len(r.Warnings) != 0 {
		t.Fatalf("report: %q %q %v", r.Lines(), r.Summary, r.Warnings)
	}
	manifest, err := afero.ReadFile(fsys, "/p/.wake/.state/notes-install.json")
	var m struct{ Installs []map[string]any }
	if err != nil || json.Unmarshal(manifest, &m) != nil || len(m.Installs) != 1 || m.Installs[0]["lines"] == nil {
		t.Fatalf("manifest (%v):\n%s", err, manifest)
	}
	if r, err = clients.Install(ctx, notes{}, o); err != nil || r.Changed() || r.Summary != "Already wired." {
		t.Fatalf("second install: %v %+v", err, r)
	}
	r, err = clients.Uninstall(ctx, notes{}, o)
	if err != nil || !slices.Equal(r.Lines(), []string{"NOTES.md: removed @/p/.wake/boot.md; deleted the file, which install created and which held nothing else"}) {
		t.Fatalf("uninstall: %v %q", err, r.Lines())
	}
	for _, p := range []string{"/p/NOTES.md", "/p/.wake/.state/notes-install.json"} {
		if _, err := fsys.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left: %v", p, err)
		}
	}
	entries, _, _ := store.ReadLedger(fsys, "/p/.wake")
	var ops []string
	for _, e := range entries {
		ops = append(ops, e.Op+": "+e.ChangeSummary)
	}
	if !slices.Equal(ops[len(ops)-2:], []string{"install: wake install notes: NOTES.md: added @/p/.wake/boot.md; wrote .wake/boot.md", "uninstall: wake uninstall notes: NOTES.md: removed @/p/.wake/boot.md"}) {
		t.Fatalf("ledger: %q", ops)
	}
	if r, err = clients.Uninstall(ctx, notes{}, o); err != nil || r.Changed() || r.Summary != "Nothing of wake's was found; nothing changed." {
		t.Fatalf("second uninstall: %v %+v", err, r)
	}
	for _, n := range *notices {
		t.Errorf("notice: %+v", n)
	}
}

// TestDamagedRecord: a record the client cannot decode stops install and
// uninstall, naming the manifest, with the client's hint.
func TestDamagedRecord(t *testing.T) {
	t.Parallel()
	fsys, o, _ := memProject(t)
	afero.WriteFile(fsys, "/p/.wake/.state/notes-install.json", []byte(`{"version": 1, "installs": [{"project": "/p", "lines": 7}]}`), 0o644)
	for _, run := range []func(context.Context, clients.Client, clients.Options) (*clients.Report, error){clients.Install, clients.Uninstall} {
		_, err := run(context.Background(), notes{}, o)
		var h interface{ Hint() string }
		if err == nil || !strings.HasPrefix(err.Error(), "/p/.wake/.state/notes-install.json: ") || !errors.As(err, &h) ||
			h.Hint() != "it records what 'wake install notes' added: restore it, or delete it, and uninstall then removes nothing" {
			t.Fatalf("got %v", err)
		}
	}
	if _, err := fsys.Stat("/p/NOTES.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("NOTES.md written: %v", err)
	}
}

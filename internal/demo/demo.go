// Package demo gives tests the demo memory root the repository ships,
// in memory, and the encoder they count it with.
package demo

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// Time is the clock of the demo root: every file is modified then.
var Time = time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC)

// FS copies the shipped demo root (testdata/demo at the module's top)
// into memory at /demo, without its .state/.
func FS(t testing.TB) afero.Fs {
	t.Helper()
	mem := afero.NewMemMapFs()
	_, self, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(self), "..", "..", "testdata", "demo")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if strings.HasPrefix(rel, tiers.StateDir) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		name := filepath.Join("/demo", rel)
		if err := afero.WriteFile(mem, name, data, 0o644); err != nil {
			return err
		}
		// One fixed time for every file keeps the cold listing's
		// newest-first order (ties by name) the same on every run.
		return mem.Chtimes(name, Time, Time)
	})
	if err != nil {
		t.Fatal(err)
	}
	return mem
}

// Encoder returns a cl100k_base encoder.
func Encoder(t testing.TB) *budget.Encoder {
	t.Helper()
	e, err := budget.NewEncoder(tiers.EncodingCL100K)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Config reads the demo root's wake.toml from fsys.
func Config(t testing.TB, fsys afero.Fs) tiers.Config {
	t.Helper()
	data, err := afero.ReadFile(fsys, "/demo/"+tiers.ConfigPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := tiers.ParseConfig("/demo/"+tiers.ConfigPath, data)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

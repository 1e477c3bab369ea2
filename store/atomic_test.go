package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// atomicFailFs fails one named operation of WriteFile's sequence.
type atomicFailFs struct {
	afero.Fs
	failOn string // "write", "sync", "close" or "rename"
}

var errInjected = errors.New("injected failure")

func (f atomicFailFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	file, err := f.Fs.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return atomicFailFile{File: file, failOn: f.failOn}, nil
}

func (f atomicFailFs) Rename(o, n string) error {
	if f.failOn == "rename" {
		return errInjected
	}
	return f.Fs.Rename(o, n)
}

type atomicFailFile struct {
	afero.File
	failOn string
}

func (f atomicFailFile) Write(p []byte) (int, error) {
	if f.failOn == "write" {
		return 0, errInjected
	}
	return f.File.Write(p)
}

func (f atomicFailFile) Sync() error {
	if f.failOn == "sync" {
		return errInjected
	}
	return f.File.Sync()
}

func (f atomicFailFile) Close() error {
	err := f.File.Close()
	if f.failOn == "close" {
		return errInjected
	}
	return err
}

// TestWriteFileFailureLeavesOriginal proves that a failure at any step
// leaves the old content in place and no temporary file behind.
func TestWriteFileFailureLeavesOriginal(t *testing.T) {
	t.Parallel()
	for _, step := range []string{"write", "sync", "close", "rename"} {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "main.md")
			os.WriteFile(name, []byte("old\n"), 0o644)
			err := WriteFile(atomicFailFs{Fs: afero.NewOsFs(), failOn: step}, name, []byte("new\n"), 0o644)
			if !errors.Is(err, errInjected) {
				t.Fatalf("got %v, want the injected failure", err)
			}
			if data, _ := os.ReadFile(name); string(data) != "old\n" {
				t.Fatalf("content %q after a failed write", data)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp-") {
					t.Fatalf("temporary file %s left behind", e.Name())
				}
			}
		})
	}
}

func TestWriteFileReplacesAndCreatesParents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "a", "b", "f.md")
	fs := afero.NewOsFs()
	for _, content := range []string{"one\n", "two\n"} {
		if err := WriteFile(fs, name, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if data, _ := os.ReadFile(name); string(data) != content {
			t.Fatalf("got %q, want %q", data, content)
		}
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
}

func TestCreateExclusiveNeverOverwrites(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	if err := CreateExclusiveIn(fs, "/r", "x.md", []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CreateExclusiveIn(fs, "/r", "x.md", []byte("second"), 0o644); !errors.Is(err, os.ErrExist) {
		t.Fatalf("got %v, want ErrExist", err)
	}
	if data, _ := afero.ReadFile(fs, "/r/x.md"); string(data) != "first" {
		t.Fatalf("overwritten: %q", data)
	}
}

package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

// ManifestFile records, under the memory root's state directory, what
// `wake install claude` added, so that `wake uninstall claude` removes that
// and nothing else.
const ManifestFile = "claude-install.json"

// manifest is the record of every install into Claude Code made from
// one memory root.
type manifest struct {
	Version  int             `json:"version"`
	Installs []claudeInstall `json:"installs"`
}

// claudeInstall is what install added for one project. Paths are absolute.
type claudeInstall struct {
	Project string `json:"project"`
	// Hook is the SessionStart hook install added; nil when one was
	// there already.
	Hook    *hookRecord    `json:"hook,omitempty"`
	Imports []importRecord `json:"imports,omitempty"`
	// Created lists the files and directories install created, in the
	// order it created them.
	Created []string `json:"created,omitempty"`
}

// hookRecord is one SessionStart hook install added to a settings file,
// and what it made around it (see [HookEdit]: "made" and "inside", absent
// from the records of older wakes).
type hookRecord struct {
	File    string `json:"file"`
	Matcher string `json:"matcher"`
	Command string `json:"command"`
	HookEdit
}

// importRecord is one import line install added to a CLAUDE.md.
type importRecord struct {
	File string `json:"file"`
	Line string `json:"line"`
}

func manifestPath(root string) string {
	return filepath.Join(root, tiers.StateDir, ManifestFile)
}

// readManifest reads the manifest; a missing one is empty.
func readManifest(fsys afero.Fs, root string) (manifest, error) {
	m := manifest{Version: 1}
	name := manifestPath(root)
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+ManifestFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return m, nil
	case err != nil:
		return m, fmt.Errorf("reading %s: %w", name, err)
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Version != 1 {
		if err == nil {
			err = fmt.Errorf("version %d, want 1", m.Version)
		}
		return m, hinted(fmt.Errorf("%s: %w", name, err), "it records what 'wake install claude' added: restore it, or delete it, and uninstall then removes wake's hook alone and names the import lines for you to remove")
	}
	return m, nil
}

// write saves the manifest atomically, or removes it when it records
// nothing.
func (m manifest) write(fsys afero.Fs, root string) error {
	name := manifestPath(root)
	if len(m.Installs) == 0 {
		if err := fsys.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", name, err)
		}
		return nil
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return handoff.WriteState(fsys, root, ManifestFile, append(data, '\n'))
}

// find returns the index of the project's record, or -1.
func (m *manifest) find(project string) int {
	return slices.IndexFunc(m.Installs, func(in claudeInstall) bool { return in.Project == project })
}

// record adds what one install run did to the project's record.
func (m *manifest) record(project string, hook *hookRecord, imp *importRecord, created []string) {
	i := m.find(project)
	if i < 0 {
		m.Installs = append(m.Installs, claudeInstall{Project: project})
		i = len(m.Installs) - 1
	}
	in := &m.Installs[i]
	if hook != nil {
		in.Hook = hook
	}
	if imp != nil && !slices.Contains(in.Imports, *imp) {
		in.Imports = append(in.Imports, *imp)
	}
	for _, c := range created {
		if !slices.Contains(in.Created, c) {
			in.Created = append(in.Created, c)
		}
	}
}

// hintedError is an error with what the user can do about it.
type hintedError struct {
	err  error
	hint string
}

func (e *hintedError) Error() string { return e.err.Error() }
func (e *hintedError) Unwrap() error { return e.err }

// Hint says what the user can do about the error.
func (e *hintedError) Hint() string { return e.hint }

func hinted(err error, hint string) error { return &hintedError{err, hint} }

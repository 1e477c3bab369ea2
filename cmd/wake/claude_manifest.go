package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/wakeproto/wake/clients/claude"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

// claudeManifestFile records, under the memory root's state directory, what
// `wake install claude` added, so that `wake uninstall claude` removes that
// and nothing else.
const claudeManifestFile = "claude-install.json"

// claudeManifest is the record of every install into Claude Code made from
// one memory root.
type claudeManifest struct {
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
// and what it made around it (see [claude.HookEdit]: "made" and "inside", absent
// from the records of older wakes).
type hookRecord struct {
	File    string `json:"file"`
	Matcher string `json:"matcher"`
	Command string `json:"command"`
	claude.HookEdit
}

// importRecord is one import line install added to a CLAUDE.md.
type importRecord struct {
	File string `json:"file"`
	Line string `json:"line"`
}

func claudeManifestPath(root string) string {
	return filepath.Join(root, tiers.StateDir, claudeManifestFile)
}

// readClaudeManifest reads the manifest; a missing one is empty.
func readClaudeManifest(fsys afero.Fs, root string) (claudeManifest, error) {
	m := claudeManifest{Version: 1}
	name := claudeManifestPath(root)
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+claudeManifestFile)
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
		return m, hintError{fmt.Errorf("%s: %w", name, err), "it records what 'wake install claude' added: restore it, or delete it, and uninstall then removes wake's hook alone and names the import lines for you to remove"}
	}
	return m, nil
}

// write saves the manifest atomically, or removes it when it records
// nothing.
func (m claudeManifest) write(fsys afero.Fs, root string) error {
	name := claudeManifestPath(root)
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
	return handoff.WriteState(fsys, root, claudeManifestFile, append(data, '\n'))
}

// find returns the index of the project's record, or -1.
func (m *claudeManifest) find(project string) int {
	return slices.IndexFunc(m.Installs, func(in claudeInstall) bool { return in.Project == project })
}

// record adds what one install run did to the project's record.
func (m *claudeManifest) record(project string, hook *hookRecord, imp *importRecord, created []string) {
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

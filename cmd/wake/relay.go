package main

import (
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/clients/claude"
	"github.com/wakeproto/wake/tiers"
)

// addBelowFlag gives a hook command the --below PROJECT flag of the
// relays 'wake install claude' puts in the user's settings (see
// [claude.RelayCommand]).
func (a *app) addBelowFlag(cmd *cobra.Command) {
	cmd.Flags().StringVar(&a.below, "below", "", "run as the relay of the wired project `DIR`: only for a session started in one of its subdirectories")
}

// relayGoesOn reports whether a hook run as the relay of project (--below)
// serves this session: one Claude Code started (CLAUDE_PROJECT_DIR, else
// the working directory) strictly below project, which still runs wake's
// hooks, with no memory root or wired project of its own in between (a
// session there is another project's, or its own hooks serve it). A relay
// that does not serve the session does nothing at all.
func (a *app) relayGoesOn(project string) bool {
	start, project := a.sessionStart(), filepath.Clean(project)
	if rel, err := filepath.Rel(project, start); err != nil || rel == "." || !filepath.IsLocal(rel) {
		return false
	}
	if !claude.WiredAt(a.fs, project) {
		return false
	}
	for d := start; d != project; d = filepath.Dir(d) {
		if claude.WiredAt(a.fs, d) {
			return false
		}
		if fi, err := a.fs.Stat(filepath.Join(d, tiers.DefaultDirName)); err == nil && fi.IsDir() {
			return false
		}
	}
	return true
}

// sessionStart is the directory the Claude Code session started in:
// CLAUDE_PROJECT_DIR, which it sets for its hooks, else the working
// directory.
func (a *app) sessionStart() string {
	if d := a.env["CLAUDE_PROJECT_DIR"]; d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	return a.cwd
}

// relayImports reports whether, in a session a relay serves, Claude Code
// read the project's boot.md through its CLAUDE.md import all the same:
// the user approved imports from outside the start directory there.
func (a *app) relayImports(bootPath string) bool {
	if a.relayImported == nil {
		// Asked twice in a start (its text, and what goes before it):
		// ~/.claude.json is read once.
		v := claude.ExternalImportsApproved(a.fs, a.env, a.env["HOME"], a.sessionStart()) &&
			claude.ImportsBoot(a.fs, filepath.Clean(a.below), bootPath)
		a.relayImported = &v
	}
	return *a.relayImported
}

// relayed is the line a session started below its project's top gets
// before its memory: what it sees of CLAUDE.md's import, unexpanded.
const relayed = "This session started in a subdirectory of the project, where Claude Code reads the project's CLAUDE.md but does not expand its import of the memory: wake's relay gives it here instead.\n\n"

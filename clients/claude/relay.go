package claude

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/internal/splice"
)

// Claude Code reads a project's .claude/settings.json only in the
// directory a session starts in: a session started in a subdirectory of
// a wired project runs none of its hooks, so it gets no memory, no Stop
// and no automatic hand-off (its CLAUDE.md is read, from the directories
// above too, but the @import of boot.md, outside the session's
// directory, needs an approval a non-interactive session never gives).
// The user's own settings (~/.claude/settings.json) are read wherever a
// session starts, so install adds there, for each wired project, a relay
// of each of wake's hooks: a shell case on $CLAUDE_PROJECT_DIR, which
// Claude Code sets to the directory the session started in, that runs
// wake only for a session started strictly below the project's top (at
// the top, the project's own hooks run). A session anywhere else pays
// for a case statement in sh, not for a run of wake.

// BelowFlag is the flag a relayed hook runs wake with: the project whose
// subdirectory the session started in.
const BelowFlag = "--below"

// relayHooks are the relays of wake's hooks for the project at project,
// in the order of [wakeHooks].
func relayHooks(project string) []hookSpec {
	hs := make([]hookSpec, len(wakeHooks))
	for i, h := range wakeHooks {
		hs[i] = hookSpec{Event: h.Event, Matcher: h.Matcher, Command: RelayCommand(project, h.Command), Timeout: h.Timeout}
	}
	return hs
}

// RelayCommand is the relay of hook command cmd for the project at
// project: `case "$CLAUDE_PROJECT_DIR" in '/p'/*) exec wake ... --below
// '/p';; esac`. exec passes stdin, the output and the exit status (a
// Stop hook's 2) through.
func RelayCommand(project, cmd string) string {
	q := shellQuote(project)
	return fmt.Sprintf(`case "$CLAUDE_PROJECT_DIR" in %s/*) exec %s %s %s;; esac`, q, cmd, BelowFlag, q)
}

// shellQuote quotes s for sh, in single quotes: inside them nothing is
// special, glob characters in a case pattern included, but the quote
// itself.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// userSettings is the user's own Claude Code settings file, which every
// session reads wherever it starts: $CLAUDE_CONFIG_DIR/settings.json, or
// ~/.claude/settings.json. "" when neither is known, or on Windows, whose
// hooks do not run through sh.
func userSettings(env clients.Env) string {
	if runtime.GOOS == "windows" {
		return ""
	}
	if dir := env.Vars["CLAUDE_CONFIG_DIR"]; dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "settings.json")
	}
	if env.Home == "" {
		return ""
	}
	return filepath.Join(env.Home, ".claude", "settings.json")
}

// relaySpec is the relay of event for w's project.
func (w *wiring) relaySpec(event string) (hookSpec, bool) {
	for _, h := range relayHooks(w.Project) {
		if h.Event == event {
			return h, true
		}
	}
	return hookSpec{}, false
}

// planRelay plans adding to the user's settings the relays of wake's
// hooks for this project that they lack, and returns those it adds with
// what each made. A zero edit (no Path) when there is no user settings
// file to write, or the user asked for the project alone.
func (w *wiring) planRelay() (clients.FileEdit, []hookSpec, []hookEdit, error) {
	if w.userSettings == "" || w.ProjectOnly {
		return clients.FileEdit{}, nil, nil, nil
	}
	set, err := w.Read(w.userSettings)
	if err != nil {
		return set, nil, nil, err
	}
	var added []hookSpec
	var eds []hookEdit
	out := set.Old
	for _, h := range relayHooks(w.Project) {
		next, ed, changed, err := addHook(out, h)
		if err != nil {
			return set, nil, nil, settingsFailure(w.userSettings, err)
		}
		if changed {
			added, eds, out = append(added, h), append(eds, ed), next
		}
	}
	set.New, set.Changed = out, len(added) > 0
	set.Done = fmt.Sprintf("added the relay of wake's %d hooks for sessions started in a subdirectory of this project (Claude Code reads a project's settings only where a session starts; the relay runs wake for this project's subdirectories alone)", len(added))
	set.Kept = "already relays wake's hooks to sessions started in this project's subdirectories; unchanged"
	return set, added, eds, nil
}

// planRelayRemoval plans taking this project's relays out of the user's
// settings: those r records (nil: every relay of this project's, as each
// names the project exactly). Nothing else in the file changes, and the
// file goes only when install created it and nothing else is in it.
func (w *wiring) planRelayRemoval(r *record) (clients.FileEdit, bool, error) {
	if w.userSettings == "" || r != nil && len(r.Relay) == 0 {
		return clients.FileEdit{}, false, nil
	}
	set, err := w.Read(w.userSettings)
	if err != nil || !set.Exists || splice.Blank(set.Old) {
		return set, false, err
	}
	out := set.Old
	hs := relayHooks(w.Project)
	removed := 0
	for i := len(hs) - 1; i >= 0 && !set.Remove; i-- {
		h := hs[i]
		var ed *hookEdit
		if r != nil {
			hr := r.relayOf(h)
			if hr == nil {
				continue
			}
			ed = &hr.hookEdit
		}
		next, rm, gone, err := removeHook(out, h, ed)
		if err != nil {
			return set, false, settingsFailure(w.userSettings, err)
		}
		if rm {
			out, set.Remove = next, gone
			removed++
		}
	}
	set.New, set.Changed = out, removed > 0
	if set.Remove && splice.Blank(out) {
		set.New = nil // the file install created, with nothing else in it
	}
	set.Done = fmt.Sprintf("removed the relay of wake's hooks for this project's subdirectories (%d hooks)", removed)
	set.Kept = "holds no relay of wake's hooks for this project; unchanged"
	return set, removed > 0, nil
}

// relayOf is the record of relay h, nil when install did not add it.
func (r *record) relayOf(h hookSpec) *hookRecord {
	for i := range r.Relay {
		if r.Relay[i].Event == h.Event && r.Relay[i].Command == h.Command {
			return &r.Relay[i]
		}
	}
	return nil
}

// WiredAt reports whether Claude Code, started in dir, runs wake's
// SessionStart hook from the project settings there (.claude/settings.json
// or .claude/settings.local.json): the sessions the project's own hooks
// serve, which a relay leaves alone.
func WiredAt(fsys afero.Fs, dir string) bool {
	for _, name := range []string{"settings.json", "settings.local.json"} {
		src, err := afero.ReadFile(fsys, filepath.Join(dir, ".claude", name))
		if err != nil {
			continue
		}
		if _, _, arr, err := claudeHookNodes(src, startHook.Event); err == nil && arr != nil && findWakeHook(src, arr, startHook) >= 0 {
			return true
		}
	}
	return false
}

// ExternalImportsApproved reports whether the user let Claude Code follow
// CLAUDE.md imports of files outside the directory a session starts in
// (in an interactive session's dialog, kept per start directory in
// ~/.claude.json, or $CLAUDE_CONFIG_DIR/.claude.json): then the project's
// @import of boot.md is read in a session started in a subdirectory too.
func ExternalImportsApproved(fsys afero.Fs, vars map[string]string, home, dir string) bool {
	path := ""
	switch {
	case vars["CLAUDE_CONFIG_DIR"] != "":
		path = filepath.Join(vars["CLAUDE_CONFIG_DIR"], ".claude.json")
	case home != "":
		path = filepath.Join(home, ".claude.json")
	default:
		return false
	}
	data, err := afero.ReadFile(fsys, path)
	if err != nil || len(data) > 64<<20 {
		return false
	}
	var cfg struct {
		Projects map[string]struct {
			Approved bool `json:"hasClaudeMdExternalIncludesApproved"`
		} `json:"projects"`
	}
	if json.Unmarshal(data, &cfg) != nil {
		return false
	}
	return cfg.Projects[dir].Approved
}

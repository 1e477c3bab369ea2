package codex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/clients"
)

// trust records Codex's trust in the project and in wake's hooks the way
// Codex's own /hooks screen does: through its app server, which hashes
// each hook as written in hooks.json (the hash is Codex's business, and
// changes with its versions) and writes config.toml itself. Codex skips
// an untrusted hook without a word, so whatever stands in the way is a
// warning with what the user can do instead.
func (w *wiring) trust(ctx context.Context, record func(func(*clients.Record) error) error) (clients.Followup, error) {
	var f clients.Followup
	codex := clients.LookPath(w.FS, w.Vars["PATH"], w.Cwd, "codex")
	if codex == "" || w.configFile == "" {
		f.Warnings = append(f.Warnings, w.trustByHand("'codex' is not on PATH"))
		return f, nil
	}
	before, existed, err := w.readFile(w.configFile)
	if err != nil {
		return f, err
	}
	cfg, err := parseConfig(w.configFile, before)
	if err != nil {
		return f, clients.Hinted(err, "fix the file (Codex cannot start with it either) and run the command again")
	}
	if cfg.projectTrust(w.Project) == "untrusted" {
		f.Warnings = append(f.Warnings, wake.Notice{Kind: "warning",
			Msg:  fmt.Sprintf("%s marks %s as untrusted, so Codex runs none of its hooks; wake left that as it is", w.Show(w.configFile), w.Project),
			Hint: "if you trust the project, set trust_level = \"trusted\" under [projects.\"" + w.Project + "\"] there, then run 'wake install codex' again"})
		return f, nil
	}
	ctx, cancel := context.WithTimeout(ctx, appServerTimeout)
	defer cancel()
	s, err := openAppServer(ctx, w.appServer, codex, envList(w.Vars))
	if err != nil {
		f.Warnings = append(f.Warnings, w.trustByHand(fmt.Sprintf("%s app-server failed (%v)", codex, err)))
		return f, nil
	}
	defer s.close()
	if s.codexHome != "" && filepath.Clean(s.codexHome) != w.codexHome {
		f.Warnings = append(f.Warnings, w.trustByHand(fmt.Sprintf("Codex keeps its configuration in %s, not %s", s.codexHome, w.codexHome)))
		return f, nil
	}
	t := &trustRecord{File: w.configFile}
	// The first record names what the writes are about to do; what an
	// earlier install recorded is kept from it, for the undo.
	var prior *trustRecord
	captured := false
	merge := func(undo func() *fileUndo) error {
		return record(func(r *clients.Record) error {
			if undo != nil && !existed && !slices.Contains(r.Created, w.configFile) {
				// Uninstall deletes it only while it is byte for byte
				// the file the app server created: see checkRecord.
				r.Created = append(r.Created, w.configFile)
			}
			return w.mergeTrust(r, t, func(old *trustRecord) {
				if !captured {
					prior, captured = old, true
				}
			}, undo)
		})
	}
	steps, warn, err := w.writeTrust(s, cfg, t, func() error { return merge(nil) })
	if warn != nil {
		f.Warnings = append(f.Warnings, *warn)
	}
	if err != nil {
		return f, err
	}
	if steps == "" {
		f.Edits = append(f.Edits, clients.FileEdit{Path: w.configFile, Show: w.Show(w.configFile), Kept: "trusts the project and wake's hooks; unchanged"})
		return f, nil
	}
	after, _, err := w.readFile(w.configFile)
	if err != nil {
		return f, err
	}
	t.Tables = addedHeaders(before, after)
	err = merge(func() *fileUndo {
		if prior == nil {
			return makeUndo(before, existed, after)
		}
		return prior.Undo.chain(before, after)
	})
	if err != nil {
		return f, err
	}
	f.Edits = append(f.Edits, clients.FileEdit{Path: w.configFile, Show: w.Show(w.configFile), Exists: existed, Changed: true,
		Done: steps + " (written by 'codex app-server', as Codex's /hooks screen does)"})
	return f, nil
}

// writeTrust has the app server trust the project, then each of wake's
// hooks it lists as not trusted yet, recording each before it is written.
// It returns what it did, "" for nothing, and a warning when a hook is
// still not trusted.
func (w *wiring) writeTrust(s *appSession, cfg codexConfig, t *trustRecord, pre func() error) (string, *wake.Notice, error) {
	var did []string
	if cfg.projectTrust(w.Project) != "trusted" {
		t.Project = true
		if err := pre(); err != nil {
			return "", nil, err
		}
		if err := s.upsert("projects", map[string]any{w.Project: map[string]any{"trust_level": "trusted"}}); err != nil {
			n := w.trustByHand(fmt.Sprintf("the app server did not record the project's trust (%v)", err))
			return "", &n, nil
		}
		did = append(did, "trusted the project")
	}
	found, problems, err := w.listWakeHooks(s)
	if err != nil {
		n := w.trustByHand(err.Error())
		return strings.Join(did, "; "), &n, nil
	}
	state := map[string]any{}
	t.Hashes = map[string]string{}
	for _, h := range found {
		if h.Enabled && h.TrustStatus != "trusted" {
			state[h.Key] = map[string]any{"trusted_hash": h.CurrentHash}
			t.Hashes[h.Key] = h.CurrentHash
		}
	}
	if len(state) > 0 {
		if err := pre(); err != nil {
			return "", nil, err
		}
		if err := s.upsert("hooks.state", state); err != nil {
			n := w.trustByHand(fmt.Sprintf("the app server did not record the hooks' trust (%v)", err))
			return strings.Join(did, "; "), &n, nil
		}
		did = append(did, fmt.Sprintf("trusted %d of wake's hooks", len(state)))
		if found, problems, err = w.listWakeHooks(s); err != nil {
			problems = append(problems, err.Error())
		}
	}
	for _, h := range found {
		switch {
		case !h.Enabled:
			problems = append(problems, fmt.Sprintf("the %s hook is disabled in Codex (/hooks); wake left it so", h.EventName))
		case h.TrustStatus != "trusted":
			problems = append(problems, fmt.Sprintf("Codex still lists the %s hook as %s", h.EventName, h.TrustStatus))
		}
	}
	if len(problems) == 0 {
		return strings.Join(did, "; "), nil, nil
	}
	n := w.trustByHand(strings.Join(problems, "; "))
	return strings.Join(did, "; "), &n, nil
}

// listWakeHooks lists wake's hooks as Codex sees them in the project, and
// what keeps Codex from seeing any of them.
func (w *wiring) listWakeHooks(s *appSession) ([]listedHook, []string, error) {
	l, err := s.hooks(w.Project)
	if err != nil {
		return nil, nil, err
	}
	var found []listedHook
	var problems []string
	for _, d := range l.Data {
		for _, e := range d.Errors {
			problems = append(problems, fmt.Sprintf("Codex: %s: %s", e.Path, e.Message))
		}
		for _, h := range d.Hooks {
			wakes := func(s hookSpec) bool { return s.Command == h.Command && s.Event == upperFirst(h.EventName) }
			if slices.ContainsFunc(wakeHooks, wakes) && w.sameFile(h.SourcePath, w.hooksFile) {
				found = append(found, h)
			}
		}
	}
	for _, s := range wakeHooks {
		if !slices.ContainsFunc(found, func(h listedHook) bool { return h.Command == s.Command }) {
			problems = append(problems, fmt.Sprintf("Codex does not list wake's %s hook in %s", s.Event, w.Show(w.hooksFile)))
		}
	}
	return found, problems, nil
}

// upperFirst turns hooks/list's "sessionStart" into "SessionStart".
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// sameFile reports whether Codex's path names the file wake wrote, which
// it may have reached through a symbolic link.
func (w *wiring) sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := w.FS.Stat(a)
	fb, err2 := w.FS.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// trustByHand is the warning that the trust was not recorded, with what
// the user can do about it.
func (w *wiring) trustByHand(why string) wake.Notice {
	return wake.Notice{Kind: "warning",
		Msg: fmt.Sprintf("Codex runs a project's hooks only once they are trusted, and skips the others without a word; wake could not record that trust: %s", why),
		Hint: fmt.Sprintf("put codex on PATH and run 'wake install codex' again, which records it through 'codex app-server'; or start codex in %s, trust the project when asked, "+
			"then open /hooks and trust wake's five hooks in .codex/hooks.json (SessionStart, Stop, SessionEnd, SubagentStart, PreCompact)", w.Project)}
}

// mergeTrust adds t to the record's trust, showing seen the trust as
// the record held it. undo, when not nil, makes the record's undo; until
// the writes are done the record names what is about to be written, so
// that uninstall can find it.
func (w *wiring) mergeTrust(r *clients.Record, t *trustRecord, seen func(*trustRecord), undo func() *fileUndo) error {
	var rec record
	if err := r.Decode(&rec); err != nil {
		return err
	}
	old := rec.Trust
	if old != nil {
		c := *old
		seen(&c)
	} else {
		seen(nil)
		old = &trustRecord{File: t.File}
	}
	old.Project = old.Project || t.Project
	for k, h := range t.Hashes {
		if old.Hashes == nil {
			old.Hashes = map[string]string{}
		}
		old.Hashes[k] = h
	}
	for _, tb := range t.Tables {
		if !slices.ContainsFunc(old.Tables, func(p []string) bool { return slices.Equal(p, tb) }) {
			old.Tables = append(old.Tables, tb)
		}
	}
	if undo != nil {
		old.Undo = undo()
	}
	rec.Trust = old
	return r.Encode(rec)
}

// readFile reads a file; a missing one is empty and existed false.
func (w *wiring) readFile(path string) ([]byte, bool, error) {
	data, err := afero.ReadFile(w.FS, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("reading %s: %w", path, err)
	}
	return data, true, nil
}

// envList writes the environment as exec wants it.
func envList(vars map[string]string) []string {
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

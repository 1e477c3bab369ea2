package wake

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// Pull prints one cold document within the session's caps (see
// [cold.PullCold]) and records it in the session's cold accounting, under
// the root's lock so that the cap holds against concurrent pulls. path is
// inside cold/, with or without the "cold/" (see [cold.ColdPath]); one
// outside is an error wrapping [ErrBadPath]. The document is counted
// first, unlocked.
//
// When what it prints contradicts what is in force now (an active
// decision, a decision of the last session), a note ends the text saying
// so (the protocol's rule 3: trust recent over cold), counted with it.
func (m *Memory) Pull(ctx context.Context, path string) (cold.Pull, error) {
	rel, err := cold.ColdPath(path)
	if err != nil {
		return cold.Pull{}, fmt.Errorf("%w: %w", ErrBadPath, err)
	}
	o := m.coldOptions(nil)
	cold.PullCold(o, rel, store.ColdSession{})
	var p cold.Pull
	err = m.Store().PullCold(ctx, func(cs store.ColdSession) (store.ColdPull, error) {
		var err error
		if p, err = cold.PullCold(o, rel, cs); err != nil {
			return store.ColdPull{}, err
		}
		// Pasted credentials never leave: the text is scrubbed, says so,
		// and is counted as printed.
		if text, r := policy.Scrub(p.Text); r.Total() > 0 {
			text += "\n[wake: " + r.Line() + "]\n"
			n := m.counter().Count(text)
			p.Left = max(0, p.Left+p.Tokens-n)
			p.Text, p.Tokens = text, n
		}
		if note := m.recentNote(p.Text); note != "" {
			n := m.counter().Count(note)
			p.Text += note
			p.Tokens += n
			p.Left = max(0, p.Left-n)
		}
		return store.ColdPull{Path: p.Path, Tokens: p.Tokens, Whole: p.Whole}, nil
	})
	m.SaveCache()
	return p, err
}

// recentNote is the rule-3 note on a pulled text: "" when nothing in it
// contradicts what is in force. What a held-back document says is not
// quoted, only where it stands.
func (m *Memory) recentNote(text string) string {
	var r checks.Recent
	dec, _ := tiers.ReadDoc(m.o.FS, m.root, tiers.DecisionsPath)
	decHeld := dec.Readable() && policy.Withheld(policy.Level(dec.Meta.Sensitivity, dec.MetaErr))
	if dec.Readable() {
		r.Log = tiers.ParseDecisions(dec.Content)
	}
	lat, _ := tiers.ReadDoc(m.o.FS, m.root, tiers.LatestPath)
	latHeld := lat.Readable() && policy.Withheld(policy.Level(lat.Meta.Sensitivity, lat.MetaErr))
	if lat.Readable() {
		s, _ := tiers.ParseSession(lat.Content)
		r.Session = s.Decisions.Items
	}
	stale := checks.AgainstRecent(text, r)
	if len(stale) == 0 {
		return ""
	}

	var b strings.Builder
	b.WriteString("\n---\nwake: rule 3, trust recent over cold: this cold document contradicts what is in force now. Recent state wins unless the user says otherwise.\n")
	for _, s := range stale {
		with := fmt.Sprintf("%q (%s)", s.WithText, s.Why)
		if held := s.With == "the last session" && latHeld || s.With != "the last session" && decHeld; held {
			with = "(its text is held back)"
		}
		fmt.Fprintf(&b, "- line %d, %q, against %s, %s\n", s.Line, s.Text, s.With, with)
	}
	// The note quotes the log and the session: scrubbed as they are.
	note, _ := policy.Scrub(b.String())
	return note
}

// ColdTOC is the whole table of contents of cold/, nothing folded, with
// the session's cold accounting as it stands.
func (m *Memory) ColdTOC() (*cold.TOC, store.ColdSession, error) {
	idx := cold.OpenIndex(m.o.FS, m.root, m.cfg.Encoding)
	toc, warns, err := cold.BuildTOC(m.coldOptions(idx), cold.NoFold)
	if err != nil {
		return nil, store.ColdSession{}, err
	}
	m.SaveCache()
	m.saveIndex(idx)
	m.warnAll(warns)
	cs, err := store.ReadColdSession(m.o.FS, m.root)
	return toc, cs, err
}

// ColdFolder lists one folder of cold/ (see [cold.TOC.Folder]), with the
// session's cold accounting as it stands. path names the folder as
// [cold.FolderPath] takes it ("" for cold/ itself); one outside cold/ is
// an error wrapping [ErrBadPath], a folder that does not exist one
// wrapping [ErrNoFolder]. A folder that exists but lists nothing (empty,
// or all its documents held back) is listed empty.
func (m *Memory) ColdFolder(path string) (*cold.Folder, store.ColdSession, error) {
	rel, err := cold.FolderPath(path)
	if err != nil {
		return nil, store.ColdSession{}, fmt.Errorf("%w: %w", ErrBadPath, err)
	}
	toc, cs, err := m.ColdTOC()
	if err != nil {
		return nil, cs, err
	}
	f, ok := toc.Folder(rel)
	if !ok {
		if fi, err := m.o.FS.Stat(filepath.Join(m.root, filepath.FromSlash(rel))); err != nil || !fi.IsDir() || cold.IsMonth(rel) {
			return nil, cs, fmt.Errorf("%s: %w", rel, ErrNoFolder)
		}
		f = &cold.Folder{Path: rel}
	}
	return f, cs, nil
}

// ErrNoFolder marks a folder of cold/ that does not exist.
var ErrNoFolder = errors.New("no such folder in cold/")

// IsColdFolder reports whether a `wake cold` argument names a folder of
// cold/ rather than a document: cold/ itself, a path ending in "/", a
// month of session records as the listing groups them
// ("cold/sessions/2026-09-*"), or a directory. A path outside cold/ is
// not one (pulling it says why).
func (m *Memory) IsColdFolder(path string) bool {
	rel, err := cold.FolderPath(path)
	switch {
	case err != nil:
		return false
	case rel == tiers.ColdDir+"/" || strings.HasSuffix(filepath.ToSlash(path), "/") || cold.IsMonth(rel):
		return true
	}
	fi, err := m.o.FS.Stat(filepath.Join(m.root, filepath.FromSlash(rel)))
	return err == nil && fi.IsDir()
}

// ErrBadPath marks a path an operation refuses before reading anything:
// a usage mistake, not a failure.
var ErrBadPath = errors.New("bad path")

func (m *Memory) coldOptions(idx *cold.Index) cold.Options {
	return cold.Options{FS: m.o.FS, Root: m.root, Config: m.cfg, Counter: m.counter(), Now: m.o.Now, Index: idx, Progress: m.coldProgress()}
}

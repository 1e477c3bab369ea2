package wake

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
	"github.com/wakeproto/wake/transcript"
)

// RecoverOptions say where a session start looks for sessions that left
// no hand-off ([Memory.RecoverMissed]).
type RecoverOptions struct {
	// Transcript is the starting session's transcript: the transcripts
	// beside it (and, for Codex, in the days before it) are the earlier
	// sessions' of the same client.
	Transcript string
	Format     transcript.Format
	// Quiet is how long a transcript must have gone unwritten to be
	// taken for a session that ended: one written since may be a session
	// still open. 0 means [RecoverQuiet].
	Quiet time.Duration
	Boot  BootFiles
}

// Recovered is a session handed off at a later start.
type Recovered struct {
	Transcript string
	Result     AutoResult
}

// The bounds of a recovery: transcripts quiet for RecoverQuiet, written
// within RecoverAge, at most recoverMost of them read at one start.
const (
	RecoverQuiet = 30 * time.Minute
	RecoverAge   = 14 * 24 * time.Hour
	recoverMost  = 3
)

// RecoverSeenFile, in the state directory, names the transcripts a
// recovery has read (path, size, modification time), so that a start
// reads each once while it stays as it was.
const RecoverSeenFile = "recovered-transcripts.tsv"

// RecoverMissed hands off, before a session starts, the earlier sessions
// of its client that did work and left no hand-off of it: killed, or
// ended where neither the Stop nor the SessionEnd hook ran. Each is
// found by its transcript, beside the starting session's, that has gone
// unwritten for o.Quiet and whose session worked in this memory root; its
// hand-off is the automatic one, marked recovered ([handoff.RecoveredPrefix]).
// A session handed off already, or that did no work since its last
// hand-off, is left alone, and so is one during or after whose life
// another session handed off, whose HANDOFF it must not take: that one is
// named in a warning. A transcript read to an outcome is not read again
// while it stays as it was; one whose reading failed is tried again. The
// hand-off counts for its session as any other: should the session still
// be open after all, its Stop hook asks for the work after it.
func (m *Memory) RecoverMissed(ctx context.Context, o RecoverOptions) ([]Recovered, error) {
	if o.Transcript == "" || !filepath.IsAbs(o.Transcript) {
		return nil, nil
	}
	if o.Quiet <= 0 {
		o.Quiet = RecoverQuiet
	}
	now := m.o.Now()
	seen := m.readRecoverSeen()
	var cands []recoverCandidate
	for _, dir := range recoverDirs(o.Transcript, o.Format) {
		infos, err := afero.ReadDir(m.o.FS, dir)
		if err != nil {
			continue
		}
		for _, fi := range infos {
			name := filepath.Join(dir, fi.Name())
			if !fi.Mode().IsRegular() || filepath.Ext(name) != ".jsonl" || name == filepath.Clean(o.Transcript) {
				continue
			}
			age := now.Sub(fi.ModTime())
			if age < o.Quiet || age > RecoverAge || seen[name] == seenKey(fi) {
				continue
			}
			cands = append(cands, recoverCandidate{name, fi})
		}
	}
	if len(cands) == 0 {
		// The common start: nothing to read, nothing to write.
		return nil, nil
	}
	// The oldest first: the newest session's hand-off, written last,
	// becomes the HANDOFF.
	slices.SortFunc(cands, func(a, b recoverCandidate) int { return a.fi.ModTime().Compare(b.fi.ModTime()) })
	var out []Recovered
	read := 0
	for _, c := range cands {
		if read == recoverMost {
			break
		}
		same, start, id, err := m.sameRoot(c.name, o.Format)
		if err != nil {
			continue // tried again at the next start
		}
		if !same {
			// Another project's (Codex files every project's sessions
			// together): not read again, and not counted.
			seen[c.name] = seenKey(c.fi)
			continue
		}
		read++
		if start.IsZero() {
			start = c.fi.ModTime()
		}
		if later, err := m.handedOffAfter(start, id); err != nil {
			continue
		} else if !later.IsZero() {
			// Another session handed off while this one lived, or after
			// it: that hand-off may be newer than what this one did, and
			// its automatic hand-off would take the HANDOFF from it.
			// Said, not written.
			m.warn(fmt.Sprintf("the session of %s left no hand-off, but a later one (%s) holds the HANDOFF: it was not recovered; its work is in its transcript", c.name, stamp(later)))
			seen[c.name] = seenKey(c.fi)
			continue
		}
		res, err := m.AutoHandoff(ctx, AutoOptions{Transcript: c.name, Format: o.Format, Boot: o.Boot, Recovered: true})
		if err != nil {
			// One that fails costs its recovery, not the start; it is
			// tried again at the next.
			m.warn(fmt.Sprintf("recovering the session of %s: %v", c.name, err))
			continue
		}
		seen[c.name] = seenKey(c.fi)
		if res.Written != nil {
			out = append(out, Recovered{Transcript: c.name, Result: res})
		}
	}
	m.saveRecoverSeen(seen)
	return out, nil
}

type recoverCandidate struct {
	name string
	fi   os.FileInfo
}

// recoverDirs are the directories that hold the earlier transcripts of
// the session whose transcript is name: its own (Claude Code keeps one
// directory for the sessions of one working directory), and for Codex,
// which files them by day (sessions/YYYY/MM/DD), the two days before.
func recoverDirs(name string, f transcript.Format) []string {
	dir := filepath.Dir(name)
	out := []string{dir}
	if f != transcript.Codex {
		return out
	}
	dd, mm, yyyy := filepath.Base(dir), filepath.Base(filepath.Dir(dir)), filepath.Base(filepath.Dir(filepath.Dir(dir)))
	day, err := time.Parse("2006/01/02", yyyy+"/"+mm+"/"+dd)
	if err != nil {
		return out
	}
	base := filepath.Dir(filepath.Dir(filepath.Dir(dir)))
	for i := 1; i <= 2; i++ {
		out = append(out, filepath.Join(base, filepath.FromSlash(day.AddDate(0, 0, -i).Format("2006/01/02"))))
	}
	return out
}

// sameRoot reports whether the session of the transcript name worked in
// this memory root: its working directory, as its transcript records it,
// finds this root. A transcript that records none is taken for this
// root's only when its client keeps one directory a working directory
// (Claude Code's).
// It returns the session's start and id, as the transcript records them
// (zero, "" when it does not).
func (m *Memory) sameRoot(name string, f transcript.Format) (bool, time.Time, string, error) {
	h, err := m.readTranscript(name, false, func(r io.Reader) (*transcript.Summary, error) {
		return transcript.Head(r, f, 0)
	})
	if err != nil {
		return false, time.Time{}, "", err
	}
	if h.Cwd == "" {
		return f == transcript.Claude, h.Start, h.SessionID, nil
	}
	// By the working directory alone: a WAKE_ROOT in this start's
	// environment says nothing of where that session worked.
	root, err := Find(m.o.FS, "", "", h.Cwd)
	return err == nil && filepath.Clean(root) == filepath.Clean(m.root), h.Start, h.SessionID, nil
}

// handedOffAfter is the time of the newest hand-off the ledger records
// after t of another session than session (its own hand-offs are its
// work's, which the automatic one follows), other than a recovered one;
// zero when there is none.
func (m *Memory) handedOffAfter(t time.Time, session string) (time.Time, error) {
	es, _, err := store.ReadLedgerSince(m.o.FS, m.root, t.UTC().Truncate(time.Second).Add(time.Second))
	if err != nil {
		return time.Time{}, err
	}
	var last time.Time
	for _, e := range es {
		if e.Op == "handoff" && e.At.After(t) && e.At.After(last) && !strings.HasPrefix(e.ChangeSummary, handoff.RecoveredPrefix) &&
			(session == "" || e.Session != session) {
			last = e.At
		}
	}
	return last, nil
}

// seenKey is what a recovery remembers of a transcript it read: its size
// and modification time.
func seenKey(fi os.FileInfo) string {
	return strconv.FormatInt(fi.Size(), 10) + "\t" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
}

// readRecoverSeen reads [RecoverSeenFile]: path, size, time, a line each.
// A file that cannot be read is none: the transcripts are read again.
func (m *Memory) readRecoverSeen() map[string]string {
	out := map[string]string{}
	data, err := tiers.ReadOwn(m.o.FS, m.root, tiers.StateDir+"/"+RecoverSeenFile)
	if err != nil {
		return out
	}
	for line := range strings.Lines(string(data)) {
		name, key, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		if ok && filepath.IsAbs(name) {
			out[name] = key
		}
	}
	return out
}

// saveRecoverSeen writes [RecoverSeenFile], without the transcripts past
// [RecoverAge], which no recovery reads: a cache, so unsynced.
func (m *Memory) saveRecoverSeen(seen map[string]string) {
	names := make([]string, 0, len(seen))
	cutoff := m.o.Now().Add(-RecoverAge).UnixNano()
	for name, key := range seen {
		_, stamp, _ := strings.Cut(key, "\t")
		if t, err := strconv.ParseInt(stamp, 10, 64); err == nil && t >= cutoff && !strings.ContainsAny(name, "\t\n") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var b strings.Builder
	for _, name := range names {
		b.WriteString(name + "\t" + seen[name] + "\n")
	}
	_ = store.WriteStateUnsynced(m.o.FS, m.root, RecoverSeenFile, []byte(b.String()))
}

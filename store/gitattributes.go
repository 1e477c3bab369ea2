package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// GitAttributesPath is the root's .gitattributes, committed with the
// memory: it names the files git merges with wake's driver.
const GitAttributesPath = ".gitattributes"

// MergeDriverMark is the file under .state/ that says this clone was
// told, or found, whether the merge driver is configured: the notice is
// given once a clone.
const MergeDriverMark = "merge-driver"

// GitAttributes maps the files of the root that wake structures to its
// merge driver (DESIGN section 12). Patterns are relative to the root.
const GitAttributes = `# wake: how git merges this memory root (DESIGN section 12).
# The driver is configured per clone by 'wake init' (git config merge.wake.*):
# git runs no program a repository names by itself. Without it, git merges
# these files as text and conflicts where wake would not.
#
# grow-only log: union of lines, ordered by time
*.jsonl merge=wake
# records by key: every decision and reminder of both sides, annotations
# and closings united, a decision reversed differently on two branches
# left contested for the user
/warm/decisions.md merge=wake
/warm/inbox.md merge=wake
# the archives wake compact appends to: records by key as well, and the
# lists of finished tasks and questions, whose lines both sides only add
/cold/archive/decisions.md merge=wake
/cold/archive/inbox.md merge=wake
/cold/archive/tasks.md merge=union
/cold/archive/questions.md merge=union
# views of the session records: the newer session's; main.md outside its
# HANDOFF block is the user's prose, merged three-way
/recent/latest.md merge=wake
/recent/previous.md merge=wake
/main.md merge=wake
# derived: rebuilt by the next wake command, never a conflict
/boot.md merge=wake
/skill.md merge=wake
# cold/sessions/* and capsules are added, never changed, under unique
# names: git keeps both sides' files without a driver. Tasks, questions
# and wake.toml are the user's prose: git's own three-way merge.
`

// WriteGitAttributes creates the root's .gitattributes with
// [GitAttributes], under the lock and with a ledger line; one an older
// wake wrote gains the rules it lacks (see [Store.updateGitAttributes]).
// It reports whether it wrote the file.
func (s *Store) WriteGitAttributes(ctx context.Context) (bool, error) {
	changed := false
	err := s.Mutate(ctx, func() (Entry, error) {
		err := CreateExclusiveIn(s.FS, s.Root, GitAttributesPath, []byte(GitAttributes), 0o644)
		if errors.Is(err, os.ErrExist) {
			return s.updateGitAttributes(&changed)
		}
		if err != nil {
			return Entry{}, err
		}
		changed = true
		return Entry{Op: opInit, Paths: []string{GitAttributesPath}, ChangeSummary: "git merge rules: .gitattributes names the files the wake merge driver merges"}, nil
	})
	if errors.Is(err, errNothingCreated) {
		err = nil
	}
	return changed, err
}

// updateGitAttributes brings a .gitattributes an older wake wrote up to
// the rules of this one: the rule lines it lacks are appended, nothing of
// it removed or changed. A file wake did not write (no header of wake's)
// is the user's, and left as it is.
func (s *Store) updateGitAttributes(changed *bool) (Entry, error) {
	cur, err := tiers.ReadOwn(s.FS, s.Root, GitAttributesPath)
	if err != nil || !bytes.HasPrefix(cur, []byte(gitAttributesHeader)) {
		return Entry{}, errNothingCreated
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(cur), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	var missing []string
	for _, l := range strings.Split(GitAttributes, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && !have[l] {
			missing = append(missing, l)
		}
	}
	if len(missing) == 0 {
		return Entry{}, errNothingCreated
	}
	text := string(cur)
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	text += "# added by a newer wake\n" + strings.Join(missing, "\n") + "\n"
	if err := s.Write(GitAttributesPath, []byte(text)); err != nil {
		return Entry{}, err
	}
	*changed = true
	return Entry{Op: opInit, Paths: []string{GitAttributesPath}, ChangeSummary: "git merge rules: .gitattributes gains " + strings.Join(missing, ", ")}, nil
}

// gitAttributesHeader opens the .gitattributes wake writes.
const gitAttributesHeader = "# wake: how git merges this memory root"

// MarkMergeDriver records in .state/ that this clone's merge driver was
// checked (what, in a word): wake says so once.
func (s *Store) MarkMergeDriver(what string) error {
	return WriteState(s.FS, s.Root, MergeDriverMark, []byte(what+"\n"))
}

// MergeDriverMarked reports whether the mark is there.
func (s *Store) MergeDriverMarked() bool {
	_, err := s.FS.Stat(s.Path(tiers.StateDir + "/" + MergeDriverMark))
	return err == nil
}

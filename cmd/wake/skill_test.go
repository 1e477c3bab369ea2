package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// openLog is a file system that records the files opened through it.
type openLog struct {
	afero.Fs
	mu     sync.Mutex
	opened []string
}

func (l *openLog) Open(name string) (afero.File, error) {
	l.record(name)
	return l.Fs.Open(name)
}

func (l *openLog) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	l.record(name)
	return l.Fs.OpenFile(name, flag, perm)
}

func (l *openLog) record(name string) {
	l.mu.Lock()
	l.opened = append(l.opened, filepath.ToSlash(name))
	l.mu.Unlock()
}

// TestSkillReadsOnlyWhatItNeeds: `wake skill` builds skill.md from the tier
// files and the cold index, not the whole boot context: it never reads the
// ledger the digest is made from, nor an archived session the index knows.
func TestSkillReadsOnlyWhatItNeeds(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	var opened []string
	for range 2 { // the first may learn the cold index; the second must not need to
		a, out, errOut := newTestApp(t, dir)
		log := &openLog{Fs: a.fs}
		a.fs = log
		if code := a.run([]string{"skill"}); code != 0 {
			t.Fatalf("skill: exit %d: %s", code, errOut)
		}
		if !strings.Contains(out.String(), "first session") {
			t.Fatalf("History lacks the archived session:\n%s", out)
		}
		opened = log.opened
	}
	for _, n := range opened {
		if strings.HasSuffix(n, "/"+tiers.LedgerPath) || strings.Contains(n, "/"+tiers.SessionsDir+"/") {
			t.Errorf("wake skill opened %s", n)
		}
	}
}

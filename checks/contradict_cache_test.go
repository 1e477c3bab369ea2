package checks

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

const cacheRoot = "/p/.wake"

func cachePath() string {
	return filepath.Join(cacheRoot, tiers.StateDir, ContradictionCacheFile)
}

// consistencyDetails runs the check with the root's cache and saves it.
func consistencyDetails(t *testing.T, fsys afero.Fs, log string) []string {
	t.Helper()
	m := decisionsMemory(log, "")
	m.Contradictions = ReadContradictionCache(fsys, cacheRoot)
	fs := CheckDecisions(m)
	if err := m.Contradictions.Save(fsys, cacheRoot); err != nil {
		t.Fatal(err)
	}
	return fs[0].Details
}

func TestContradictionCache(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	want := CheckDecisions(decisionsMemory(twoActive, ""))[0].Details
	if len(want) != 1 || !strings.Contains(want[0], "contradict") {
		t.Fatalf("without a cache: %q", want)
	}
	// A first run finds the pair and keeps it.
	if got := consistencyDetails(t, fsys, twoActive); !reflect.DeepEqual(got, want) {
		t.Fatalf("first run: %q", got)
	}
	data, err := afero.ReadFile(fsys, cachePath())
	if err != nil {
		t.Fatal(err)
	}
	var f contradictionFile
	if err := json.Unmarshal(data, &f); err != nil || f.Key != contradictionKey([]byte(twoActive)) || !reflect.DeepEqual(f.Findings, want) {
		t.Fatalf("the cache holds %s (%v)", data, err)
	}
	// A warm run takes the findings from the cache, comparing nothing:
	// findings planted under the log's key are what it reports.
	f.Findings = []string{"planted"}
	planted, _ := json.Marshal(f)
	afero.WriteFile(fsys, cachePath(), planted, 0o644)
	if got := consistencyDetails(t, fsys, twoActive); !reflect.DeepEqual(got, []string{"planted"}) {
		t.Fatalf("warm run: %q, not the cached findings", got)
	}
	// Another log is compared again, and replaces the cache.
	other := twoActive + "\n[2026-01-06] DECISION: Do not use TOML for config BECAUSE: x\nSTATUS: active\n"
	wantOther := CheckDecisions(decisionsMemory(other, ""))[0].Details
	if got := consistencyDetails(t, fsys, other); !reflect.DeepEqual(got, wantOther) || len(got) < 2 {
		t.Fatalf("changed log: %q, want %q", got, wantOther)
	}
	// Another version of the check, or a corrupt cache, is rebuilt.
	for _, bad := range []string{`{"version":99,"key":"` + contradictionKey([]byte(twoActive)) + `","findings":["stale"]}`, "{not json", ""} {
		afero.WriteFile(fsys, cachePath(), []byte(bad), 0o644)
		if got := consistencyDetails(t, fsys, twoActive); !reflect.DeepEqual(got, want) {
			t.Fatalf("cache %q: %q", bad, got)
		}
		if data, _ := afero.ReadFile(fsys, cachePath()); !strings.Contains(string(data), `"version":2`) {
			t.Fatalf("cache %q was not rebuilt: %s", bad, data)
		}
	}
	// An unchanged cache is not written again.
	before, _ := fsys.Stat(cachePath())
	c := ReadContradictionCache(fsys, cacheRoot)
	m := decisionsMemory(twoActive, "")
	m.Contradictions = c
	CheckDecisions(m)
	if c.dirty {
		t.Error("a cache hit left the cache to be saved")
	}
	if err := c.Save(fsys, cacheRoot); err != nil {
		t.Fatal(err)
	}
	if after, _ := fsys.Stat(cachePath()); !after.ModTime().Equal(before.ModTime()) {
		t.Error("the cache was rewritten")
	}
}

package checks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// ContradictionCacheFile is the state file, in the root's state directory,
// that keeps the contradiction check's findings between runs.
const ContradictionCacheFile = "contradictions.json"

// contradictionVersion names the check that made the cached findings: a
// change to what the check reports (its words, bounds or messages) must
// raise it, and a cache of another version is rebuilt.
// Version 2 compares every active decision, where 1 compared the 300
// newest.
const contradictionVersion = 2

// ContradictionCache keeps the contradiction check's findings for one
// decision log, keyed by a hash of the log's bytes and the check's
// version: a start whose log is unchanged compares no pair at all. It is
// safe for concurrent use; the zero value is an empty cache.
type ContradictionCache struct {
	mu    sync.Mutex
	saved contradictionFile
	dirty bool // holds findings not saved yet
}

// contradictionFile is the cache as stored.
type contradictionFile struct {
	Version  int      `json:"version"`
	Key      string   `json:"key"` // contradictionKey of the log
	Findings []string `json:"findings"`
}

// ReadContradictionCache reads the cache from the root's state directory.
// A missing, unreadable or corrupt cache, or one of another version, is
// empty: the check runs, and its findings replace it.
func ReadContradictionCache(fsys afero.Fs, root string) *ContradictionCache {
	c := &ContradictionCache{}
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+ContradictionCacheFile)
	if err != nil {
		return c
	}
	var f contradictionFile
	if json.Unmarshal(data, &f) == nil && f.Version == contradictionVersion && f.Key != "" {
		c.saved = f
	}
	return c
}

// Save writes the cache to the root's state directory, atomically, when
// it holds findings not saved yet.
func (c *ContradictionCache) Save(fsys afero.Fs, root string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty {
		return nil
	}
	data, err := json.Marshal(c.saved)
	if err != nil {
		return err
	}
	if err := store.WriteState(fsys, root, ContradictionCacheFile, data); err != nil {
		return err
	}
	c.dirty = false
	return nil
}

// contradictionKey is the hash the findings of log are kept under.
func contradictionKey(log []byte) string {
	h := sha256.New()
	h.Write([]byte{contradictionVersion})
	h.Write(log)
	return hex.EncodeToString(h.Sum(nil))
}

// contradictionsOf is [contradictions] of the log with bytes data, from
// the cache when it holds them (c may be nil: no cache).
func contradictionsOf(c *ContradictionCache, data []byte, log tiers.DecisionLog) []string {
	if c == nil {
		return contradictions(log)
	}
	key := contradictionKey(data)
	c.mu.Lock()
	if c.saved.Key == key {
		f := c.saved
		c.mu.Unlock()
		return append([]string(nil), f.Findings...)
	}
	c.mu.Unlock()
	out := contradictions(log)
	c.mu.Lock()
	c.saved = contradictionFile{Version: contradictionVersion, Key: key, Findings: append([]string(nil), out...)}
	c.dirty = true
	c.mu.Unlock()
	return out
}

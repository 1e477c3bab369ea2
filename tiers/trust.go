package tiers

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/afero"
)

// A memory root's wake.toml usually comes with the repository it lives in,
// so whoever wrote the repository chose it. The setting that decides where
// wake writes outside the root is therefore honoured from wake.toml only
// once the user trusted it (`wake trust`, which records the root and a
// hash of the settings that need trust, [TrustDigest]); otherwise it comes
// from the user's own configuration file, else from the default. The other
// keys cannot reach outside the root and need no trust.

// Files of the user's own wake directory ([UserDir]).
const (
	UserConfigFile = "config.toml" // the user's settings, written by hand
	TrustFile      = "trust.json"  // the roots the user trusted, written by `wake trust`
)

// TrustedKeys are the wake.toml keys honoured only from a trusted file:
// skill.path chooses a file outside the root that wake writes. (An older
// wake also held claude.boot = "skill" here, when it imported skill.md
// into the user's global ~/.claude/CLAUDE.md; it now imports the root's
// own copy into the project's CLAUDE.md, as boot = "full" imports
// boot.md, which reaches nothing outside the project.)
var TrustedKeys = []string{"skill.path"}

// UserKeys are the keys of the user's own config.toml: the defaults of
// every root's skill.path, which a wake.toml may set only once trusted,
// and of claude.boot, which a wake.toml may set freely; and the developer
// roots of the wake-up packet's developer profile, which only the user
// names (a wake.toml that came with a repository must not send wake
// reading elsewhere).
var UserKeys = []string{"skill.path", "claude.boot", "wakeup.developer"}

// UserDir returns the user's own wake directory: $XDG_CONFIG_HOME/wake,
// else $HOME/.config/wake; "" when the environment names neither.
func UserDir(env map[string]string) string {
	if d := env["XDG_CONFIG_HOME"]; filepath.IsAbs(d) {
		return filepath.Join(d, "wake")
	}
	if h := env["HOME"]; h != "" {
		return filepath.Join(h, ".config", "wake")
	}
	return ""
}

// UserConfig is the user's own configuration file: the defaults of the
// keys of [UserKeys].
type UserConfig struct {
	Skill  struct{ Path *string }
	Claude struct{ Boot string }
	// Wakeup.Developer are the developer roots, as written ("~/" is the
	// home directory).
	Wakeup struct{ Developer []string }
}

// LoadUserConfig reads config.toml from the user's wake directory; a
// missing file, or dir "", gives the zero UserConfig. Errors name the file,
// line and key as wake.toml's do.
func LoadUserConfig(fsys afero.Fs, dir string) (UserConfig, error) {
	var uc UserConfig
	if dir == "" {
		return uc, nil
	}
	name := filepath.Join(dir, UserConfigFile)
	data, err := afero.ReadFile(fsys, name)
	if errors.Is(err, os.ErrNotExist) {
		return uc, nil
	}
	if err != nil {
		return uc, fmt.Errorf("reading %s: %w", name, err)
	}
	return ParseUserConfig(name, data)
}

// ParseUserConfig decodes the user's config.toml; name is used in errors.
// It takes the keys of [UserKeys], each with the range it has in
// wake.toml.
func ParseUserConfig(name string, data []byte) (UserConfig, error) {
	var uc UserConfig
	doc, err := readTOML(name, data)
	if err != nil {
		return uc, err
	}
	cfg := DefaultConfig()
	for _, k := range doc.keys {
		key := keyName(k.path)
		if k.header && (key == "skill" || key == "claude" || key == "wakeup") {
			continue
		}
		if key == DeveloperKey && !k.header {
			list, msg := developerRoots(valueAt(doc.values, k.path))
			if msg != "" {
				return uc, &ConfigError{Path: name, Line: k.line, Key: key, Msg: msg}
			}
			uc.Wakeup.Developer = list
			continue
		}
		ck := lookupKey(key)
		if k.header || ck == nil || !slices.Contains(UserKeys, key) {
			return uc, &ConfigError{Path: name, Line: k.line, Key: key,
				Msg: "is not a key of your own config.toml (it takes " + strings.Join(UserKeys[:len(UserKeys)-1], ", ") + " and " + UserKeys[len(UserKeys)-1] + "; the rest belongs in a memory root's wake.toml)"}
		}
		if msg := ck.decode(&cfg, valueAt(doc.values, k.path)); msg != "" {
			return uc, &ConfigError{Path: name, Line: k.line, Key: key, Msg: msg}
		}
		switch key {
		case "skill.path":
			p := cfg.Skill.Path
			uc.Skill.Path = &p
		case "claude.boot":
			uc.Claude.Boot = cfg.Claude.Boot
		}
	}
	return uc, nil
}

// DeveloperKey names the developer roots in the user's config.toml.
const DeveloperKey = "wakeup.developer"

// maxDeveloperRoots bounds the developer roots: a handful of folders of
// notes, not a search path.
const maxDeveloperRoots = 16

// developerRoots decodes wakeup.developer: an array of directory names,
// each one line of at most maxPathChars.
func developerRoots(v any) ([]string, string) {
	rule := fmt.Sprintf("wakeup.developer lists at most %d directories, each one line of at most %d characters", maxDeveloperRoots, maxPathChars)
	return stringList(v, maxDeveloperRoots, maxPathChars, "directories", rule, "each entry names a directory, such as \"~/.config/wake/developer\"")
}

// TrustStore is the user's record of trusted memory roots.
type TrustStore struct {
	Version int           `json:"version"`
	Roots   []TrustedRoot `json:"roots"`
}

// TrustedRoot is one trusted wake.toml: the root's real path (symlinks
// resolved) and the file's [TrustDigest] when the user trusted it (an
// older wake recorded the SHA-256 of the whole file, which is still
// honoured while the file is unchanged).
type TrustedRoot struct {
	Root   string    `json:"root"`
	SHA256 string    `json:"wake_toml_sha256"`
	At     time.Time `json:"trusted_at"`
}

// ReadTrust reads the trust store from the user's wake directory. A
// missing file, or dir "", is an empty store; a damaged one is an error
// naming it, and trusts nothing.
func ReadTrust(fsys afero.Fs, dir string) (TrustStore, error) {
	t := TrustStore{Version: 1}
	if dir == "" {
		return t, nil
	}
	name := filepath.Join(dir, TrustFile)
	data, err := afero.ReadFile(fsys, name)
	if errors.Is(err, os.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return t, fmt.Errorf("reading %s: %w", name, err)
	}
	if err := json.Unmarshal(data, &t); err != nil || t.Version != 1 {
		if err == nil {
			err = fmt.Errorf("version %d, want 1", t.Version)
		}
		return TrustStore{Version: 1}, fmt.Errorf("%s: %v; no memory root is trusted until it is mended or removed", name, err)
	}
	return t, nil
}

// Find returns the index of root's record, or -1.
func (t TrustStore) Find(root string) int {
	for i, r := range t.Roots {
		if r.Root == root {
			return i
		}
	}
	return -1
}

// Trusts reports whether root is trusted with a wake.toml of this hash.
func (t TrustStore) Trusts(root, sha string) bool {
	i := t.Find(root)
	return i >= 0 && t.Roots[i].SHA256 == sha
}

// TrustDigest is what a trust record holds of a wake.toml: the SHA-256,
// in hex, of the [TrustedKeys] it sets with their values, a line
// `key = "value"` each in key order. Editing any other key (agent, team,
// the budgets) leaves it, and the trust, as it was: those keys cannot
// reach outside the root.
func TrustDigest(data []byte) string {
	set := TrustedSettings(data)
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(set)) {
		fmt.Fprintf(&b, "%s = %q\n", k, set[k])
	}
	return ConfigHash([]byte(b.String()))
}

// TrustsConfig reports whether root is trusted with the wake.toml data:
// its [TrustDigest], or the hash of the whole file, which an older wake
// recorded.
func (t TrustStore) TrustsConfig(root string, data []byte) bool {
	return t.Trusts(root, TrustDigest(data)) || t.Trusts(root, ConfigHash(data))
}

// ConfigHash is the SHA-256, in hex, of a wake.toml's bytes.
func ConfigHash(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// RealRoot resolves every symlink in root: the identity a trust record
// keeps, so that one root reached by two paths is trusted once.
func RealRoot(fsys afero.Fs, root string) (string, error) {
	return realPath(fsys, filepath.Clean(root), false)
}

// TrustedSettings returns which of [TrustedKeys] a wake.toml sets, with
// the values it sets them to: "skill.path".
func TrustedSettings(data []byte) map[string]string {
	out := map[string]string{}
	for k, v := range setKeys(data, TrustedKeys) {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// setKeys returns those of keys ("table.key") that the wake.toml data
// sets, with their values; nil when it cannot be read.
func setKeys(data []byte, keys []string) map[string]any {
	var raw map[string]any
	if toml.Unmarshal(data, &raw) != nil {
		return nil
	}
	out := map[string]any{}
	for _, k := range keys {
		table, key, _ := strings.Cut(k, ".")
		if t, ok := raw[table].(map[string]any); ok {
			if v, ok := t[key]; ok {
				out[k] = v
			}
		}
	}
	return out
}

// Trust is what [ApplyTrust] decided about a root's wake.toml.
type Trust struct {
	Root     string            // the root's real path
	SHA256   string            // wake.toml's TrustDigest; "" when there is none
	Trusted  bool              // the user trusted this very file (or the root, when it has none)
	Settings map[string]string // the trusted keys wake.toml sets
	Ignored  []string          // those it sets that were not honoured, as "key = value"
}

// ApplyTrust settles the keys of [UserKeys] in cfg, the root's decoded
// wake.toml: a skill.path wake.toml sets is kept when the user trusted the
// file or when it only narrows what wake does (skill.path = "" writes
// nothing outside the root); otherwise the user's own config decides, else
// the default. claude.boot is wake.toml's when it sets one, else the
// user's, else the default. data is wake.toml's bytes (nil when there is
// none).
func ApplyTrust(cfg Config, data []byte, uc UserConfig, store TrustStore, realRoot string) (Config, Trust) {
	def := DefaultConfig()
	tr := Trust{Root: realRoot}
	userPath, userBoot := def.Skill.Path, def.Claude.Boot
	if uc.Skill.Path != nil {
		userPath = *uc.Skill.Path
	}
	if uc.Claude.Boot != "" {
		userBoot = uc.Claude.Boot
	}
	if data == nil {
		cfg.Skill.Path, cfg.Claude.Boot = userPath, userBoot
		tr.Trusted = store.Trusts(realRoot, "")
		return cfg, tr
	}
	tr.SHA256 = TrustDigest(data)
	tr.Settings = TrustedSettings(data)
	tr.Trusted = store.TrustsConfig(realRoot, data)
	if v, ok := tr.Settings["skill.path"]; !ok || (v != "" && v != userPath && !tr.Trusted) {
		if ok {
			tr.Ignored = append(tr.Ignored, fmt.Sprintf("skill.path = %q", v))
		}
		cfg.Skill.Path = userPath
	}
	if _, ok := setKeys(data, []string{"claude.boot"})["claude.boot"]; !ok {
		cfg.Claude.Boot = userBoot
	}
	return cfg, tr
}

package tiers

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
)

func TestUserDir(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOME": "/h"}, "/h/.config/wake"},
		{map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x"}, "/x/wake"},
		{map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "relative"}, "/h/.config/wake"},
		{map[string]string{}, ""},
	} {
		if got := UserDir(tt.env); got != tt.want {
			t.Errorf("UserDir(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
}

func TestParseUserConfig(t *testing.T) {
	t.Parallel()
	uc, err := ParseUserConfig("c.toml", []byte("[skill]\npath = \"~/s.md\"\n[claude]\nboot = \"skill\"\n"))
	if err != nil || uc.Skill.Path == nil || *uc.Skill.Path != "~/s.md" || uc.Claude.Boot != BootSkill {
		t.Fatalf("%+v %v", uc, err)
	}
	uc, err = ParseUserConfig("c.toml", []byte("[skill]\npath = \"\"\n"))
	if err != nil || uc.Skill.Path == nil || *uc.Skill.Path != "" {
		t.Fatalf("an empty path must stay set: %+v %v", uc, err)
	}
	uc, err = ParseUserConfig("c.toml", []byte("[wakeup]\ndeveloper = [\"~/.config/wake/developer\", \"/notes\"]\n"))
	if err != nil || len(uc.Wakeup.Developer) != 2 || uc.Wakeup.Developer[1] != "/notes" {
		t.Fatalf("developer roots: %+v %v", uc, err)
	}
	if _, err := ParseConfig("wake.toml", []byte("[wakeup]\ndeveloper = [\"/etc\"]\n")); err == nil {
		t.Error("a wake.toml names developer roots")
	}
	for _, tt := range []struct{ in, want string }{
		{"[wakeup]\ndeveloper = \"~/d\"\n", "c.toml:2: key wakeup.developer: expected an array of strings, got a string"},
		{"[wakeup]\ndeveloper = [\" \"]\n", "c.toml:2: key wakeup.developer: entry 1 is empty"},
		{"[wakeup]\nconstraints = 1\n", "c.toml:2: key wakeup.constraints is not a key of your own config.toml (it takes skill.path, claude.boot and wakeup.developer;"},
		{"[budget]\nmain = 5\n", "c.toml:1: key budget is not a key of your own config.toml"},
		{"[skill]\nbudget = 5\n", "c.toml:2: key skill.budget is not a key of your own config.toml"},
		{"[skill]\npath = 3\n", "c.toml:2: key skill.path: expected a string, got an integer"},
		{"[skill]\npath = \"a\\u0000b\"\n", "c.toml:2: key skill.path: \"a\\x00b\" has a control character (U+0000)"},
		{"[claude]\nboot = \"all\"\n", "c.toml:2: key claude.boot:"},
		{"[skill\n", "c.toml:1"},
	} {
		if _, err := ParseUserConfig("c.toml", []byte(tt.in)); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: %v, want prefix %q", tt.in, err, tt.want)
		}
	}
}

// ApplyTrust honours wake.toml's skill.path only from a trusted file of
// the same hash; otherwise the user's config, else the default, decides.
// Narrowing values need no trust, nor does claude.boot, which imports a
// file of the root into the project alone.
func TestApplyTrust(t *testing.T) {
	t.Parallel()
	evil := []byte("[skill]\npath = \"~/.ssh/authorized_keys\"\n[claude]\nboot = \"skill\"\n")
	cfg, err := ParseConfig("wake.toml", evil)
	if err != nil {
		t.Fatal(err)
	}
	def := DefaultConfig()
	trusted := TrustStore{Version: 1, Roots: []TrustedRoot{{Root: "/r", SHA256: ConfigHash(evil)}}}
	mine := "~/mine.md"
	user := UserConfig{}
	user.Skill.Path = &mine
	skillUser := UserConfig{}
	skillUser.Claude.Boot = BootSkill
	for _, tt := range []struct {
		name      string
		data      []byte
		uc        UserConfig
		store     TrustStore
		root      string
		path      string
		boot      string
		ignored   int
		isTrusted bool
	}{
		{"untrusted", evil, UserConfig{}, TrustStore{}, "/r", def.Skill.Path, BootSkill, 1, false},
		{"untrusted, user config", evil, user, TrustStore{}, "/r", mine, BootSkill, 1, false},
		{"trusted", evil, UserConfig{}, trusted, "/r", "~/.ssh/authorized_keys", BootSkill, 0, true},
		{"trusted elsewhere", evil, UserConfig{}, trusted, "/other", def.Skill.Path, BootSkill, 1, false},
		{"changed since", append(evil, '#'), UserConfig{}, trusted, "/r", def.Skill.Path, BootSkill, 1, false},
		{"no wake.toml", nil, user, TrustStore{}, "/r", mine, BootFull, 0, false},
		{"no claude.boot: the user's", []byte("agent = \"Ava\"\n"), skillUser, TrustStore{}, "/r", def.Skill.Path, BootSkill, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := cfg
			if tt.data != nil && string(tt.data) != string(evil) {
				c, _ = ParseConfig("wake.toml", tt.data)
			}
			got, tr := ApplyTrust(c, tt.data, tt.uc, tt.store, tt.root)
			if got.Skill.Path != tt.path || got.Claude.Boot != tt.boot || len(tr.Ignored) != tt.ignored || tr.Trusted != tt.isTrusted {
				t.Fatalf("path %q boot %q ignored %v trusted %v", got.Skill.Path, got.Claude.Boot, tr.Ignored, tr.Trusted)
			}
		})
	}
	narrow := []byte("[skill]\npath = \"\"\n[claude]\nboot = \"full\"\n")
	c, _ := ParseConfig("wake.toml", narrow)
	got, tr := ApplyTrust(c, narrow, user, TrustStore{}, "/r")
	if got.Skill.Path != "" || got.Claude.Boot != BootFull || len(tr.Ignored) != 0 {
		t.Fatalf("narrowing values: %q %q %v", got.Skill.Path, got.Claude.Boot, tr.Ignored)
	}
}

func TestReadTrust(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	if st, err := ReadTrust(fs, "/u"); err != nil || len(st.Roots) != 0 {
		t.Fatalf("missing: %v %v", st, err)
	}
	rec := TrustStore{Version: 1, Roots: []TrustedRoot{{Root: "/r", SHA256: "ab", At: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)}}}
	data, _ := json.Marshal(rec)
	afero.WriteFile(fs, "/u/trust.json", data, 0o600)
	st, err := ReadTrust(fs, "/u")
	if err != nil || !st.Trusts("/r", "ab") || st.Trusts("/r", "cd") || st.Trusts("/s", "ab") {
		t.Fatalf("%+v %v", st, err)
	}
	afero.WriteFile(fs, "/u/trust.json", []byte("{\"version\": 2}"), 0o600)
	if st, err := ReadTrust(fs, "/u"); err == nil || len(st.Roots) != 0 || !strings.Contains(err.Error(), "no memory root is trusted") {
		t.Fatalf("damaged: %+v %v", st, err)
	}
}

// FuzzParseUserConfig: any input is an error naming the file, or a config
// holding only valid values of the two keys.
func FuzzParseUserConfig(f *testing.F) {
	for _, s := range []string{"", "[skill]\npath = \"~/x\"\n", "[claude]\nboot = \"skill\"\n", "[skill]\npath = 1\n", "x = 1", "[skill\n", "[skill]\npath = \"a\\nb\"\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		uc, err := ParseUserConfig("c.toml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "c.toml") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		if p := uc.Skill.Path; p != nil && textProblem(*p, maxPathChars) != "" {
			t.Fatalf("accepted path %q", *p)
		}
		if b := uc.Claude.Boot; b != "" && b != BootFull && b != BootSkill {
			t.Fatalf("accepted boot %q", b)
		}
	})
}

// FuzzReadTrust: any trust.json is read or refused whole, never half.
func FuzzReadTrust(f *testing.F) {
	for _, s := range []string{"", "{}", `{"version":1,"roots":[{"root":"/r","wake_toml_sha256":"ab"}]}`, `{"version":1,"roots":null}`, "[", `{"version":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fs := afero.NewMemMapFs()
		afero.WriteFile(fs, "/u/trust.json", data, 0o600)
		st, err := ReadTrust(fs, "/u")
		if err != nil && len(st.Roots) != 0 {
			t.Fatalf("a refused store trusts %v", st.Roots)
		}
		if err == nil && st.Version != 1 {
			t.Fatalf("version %d accepted", st.Version)
		}
	})
}

// TestTrustDigest: the digest covers the keys that reach outside the root
// and nothing else, so editing agent, team or a budget keeps the trust.
func TestTrustDigest(t *testing.T) {
	t.Parallel()
	base := TrustDigest([]byte("agent = \"Kit\"\n[skill]\npath = \"~/a.md\"\n"))
	for _, same := range []string{
		"[skill]\npath = \"~/a.md\"\n",
		"agent = \"Kat\"\nteam = [\"Ann\"]\n[budget]\nmain = 900\n[skill]\npath = \"~/a.md\"\nbudget = 3000\n",
		"# a comment\n[skill]\n  path   =   '~/a.md'\n",
	} {
		if got := TrustDigest([]byte(same)); got != base {
			t.Errorf("TrustDigest(%q) = %s, want the digest of the same skill.path", same, got)
		}
	}
	for _, other := range []string{"[skill]\npath = \"~/b.md\"\n", "[skill]\npath = \"\"\n", "agent = \"Kit\"\n"} {
		if TrustDigest([]byte(other)) == base {
			t.Errorf("TrustDigest(%q) is the digest of another skill.path", other)
		}
	}
	old := []byte("agent = \"Kit\"\n")
	st := TrustStore{Version: 1, Roots: []TrustedRoot{{Root: "/r", SHA256: ConfigHash(old)}}}
	if !st.TrustsConfig("/r", old) {
		t.Errorf("a record of the whole file's hash, as an older wake wrote it, is not honoured")
	}
	if st.TrustsConfig("/r", []byte("agent = \"Kat\"\n")) {
		t.Errorf("an older record trusts a file that changed")
	}
}

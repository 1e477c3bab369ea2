package main

import (
	"debug/buildinfo"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionOf(t *testing.T) {
	t.Parallel()
	set := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, tc := range []struct {
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"v1.2.0", nil, "v1.2.0"},
		{"", nil, "(devel)"},
		{"(devel)", set("vcs", "git", "vcs.revision", "5b0e5b2c0ffee0123456789abcdef0123456789a", "vcs.time", "2026-11-28T14:00:00Z", "vcs.modified", "false"),
			"(devel) (rev 5b0e5b2c0ffe, 2026-11-28T14:00:00Z)"},
		{"(devel)", set("vcs.revision", "5b0e5b2c0ffee0123456789abcdef0123456789a", "vcs.modified", "true"),
			"(devel) (rev 5b0e5b2c0ffe, modified)"},
		{"v1.3.0-0.20261128140000-5b0e5b2c0ffe", nil, "v1.3.0-0.20261128140000-5b0e5b2c0ffe"},
		{"v0.0.0-20261128150105-1fc4cc872be4+dirty", set("vcs.revision", "1fc4cc872be4aa", "vcs.time", "2026-11-28T15:01:05Z", "vcs.modified", "true"),
			"v0.0.0-20261128150105-1fc4cc872be4+dirty (rev 1fc4cc872be4, 2026-11-28T15:01:05Z, modified)"},
	} {
		info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/wakeproto/wake", Version: tc.version}, Settings: tc.settings}
		if got := versionOf(info); got != tc.want {
			t.Errorf("versionOf(%q, %v) = %q, want %q", tc.version, tc.settings, got, tc.want)
		}
	}
}

// TestVersionFlag: 'wake --version' and -v print the binary's version on
// stdout and exit 0.
func TestVersionFlag(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"--version", "-v"} {
		code, out, errOut := runApp(t, t.TempDir(), flag)
		if code != 0 || out != "wake version "+version()+"\n" || errOut != "" {
			t.Errorf("wake %s: exit %d\n%s%s", flag, code, out, errOut)
		}
	}
}

// TestVersionBinary: the built wake reads its own build information, the
// VCS revision included when the build recorded one (a build from a
// checkout, unless -buildvcs=false).
func TestVersionBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds wake")
	}
	bin := wakeBinary(t)
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("wake --version: %v", err)
	}
	if want := "wake version " + versionOf(info) + "\n"; string(out) != want {
		t.Errorf("wake --version printed %q, want %q", out, want)
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && !strings.Contains(string(out), "rev "+s.Value[:12]) {
			t.Errorf("wake --version printed %q: no revision %s", out, s.Value)
		}
	}
}

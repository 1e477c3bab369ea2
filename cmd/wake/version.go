package main

import (
	"runtime/debug"
	"strings"
)

// version is what 'wake --version' prints after "wake version ": the
// module version, and the VCS revision when the binary was built from a
// checkout (go build, go run, go install of a path).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information in the binary)"
	}
	return versionOf(info)
}

// versionOf renders a binary's build information: "v1.2.0" as installed
// with go install …@v1.2.0; as built from a checkout, the version go
// stamped (a pseudo-version from the commit since Go 1.24, "(devel)"
// where it could not make one) then the revision, its time and
// "modified" when the work tree had uncommitted changes:
// "(devel) (rev 0123456789ab, 2026-11-28T15:01:05Z, modified)".
func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	parts := []string{"rev " + rev}
	if at != "" {
		parts = append(parts, at)
	}
	if modified {
		parts = append(parts, "modified")
	}
	return v + " (" + strings.Join(parts, ", ") + ")"
}

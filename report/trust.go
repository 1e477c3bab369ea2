package report

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/tiers"
)

// TrustedRoot is one item of `wake trust --list --format json`.
type TrustedRoot struct {
	Root      string `json:"root"`
	SHA256    string `json:"wake_toml_sha256"`
	TrustedAt string `json:"trusted_at"`
	// State is "trusted" (wake.toml is the file trusted), "changed" (it
	// changed since) or "missing" (the root or its wake.toml is gone).
	State string `json:"state"`
}

func newTrusted(roots []wake.TrustedRoot) []TrustedRoot {
	out := []TrustedRoot{}
	for _, r := range roots {
		out = append(out, TrustedRoot{Root: r.Root, SHA256: r.SHA256, TrustedAt: r.At.UTC().Format("2006-01-02T15:04:05Z"), State: r.State})
	}
	return out
}

// TrustListJSON renders the trusted roots as a JSON array.
func TrustListJSON(roots []wake.TrustedRoot) ([]byte, error) { return marshal(newTrusted(roots)) }

// TrustListText writes one line a trusted root; dir is the user's wake
// directory, named when there is none.
func TrustListText(w io.Writer, roots []wake.TrustedRoot, dir string) {
	if len(roots) == 0 {
		fmt.Fprintf(w, "No memory root is trusted (%s).\n", filepath.Join(dir, tiers.TrustFile))
		return
	}
	for _, it := range newTrusted(roots) {
		what := "no wake.toml"
		if it.SHA256 != "" {
			what = "wake.toml sha256 " + it.SHA256[:min(12, len(it.SHA256))]
		}
		fmt.Fprintf(w, "%-8s %s  (%s, trusted %s)\n", it.State, it.Root, what, it.TrustedAt)
	}
}

// TrustText says what `wake trust` did and, unless it revoked, what the
// trusted wake.toml now decides.
func TrustText(w io.Writer, ch wake.TrustChange, revoke bool) {
	tr := ch.Trust
	switch {
	case revoke && !ch.Changed:
		fmt.Fprintf(w, "%s was not trusted; nothing changed.\n", tr.Root)
	case revoke:
		fmt.Fprintf(w, "Revoked: %s is no longer trusted (%s).\n", tr.Root, ch.Store)
	case !ch.Changed:
		fmt.Fprintf(w, "Already trusted: %s with %s.\n", tr.Root, trustedFile(tr))
	default:
		fmt.Fprintf(w, "Trusted %s: %s is recorded in %s.\n", tr.Root, trustedFile(tr), ch.Store)
	}
	if revoke {
		return
	}
	keys := slices.Sorted(maps.Keys(tr.Settings))
	risky := strings.Join(tiers.TrustedKeys, ", ")
	if ch.NoFile {
		fmt.Fprintf(w, "Should a wake.toml set %s later, trust it again.\n", risky)
		return
	}
	if len(keys) == 0 {
		fmt.Fprintf(w, "The trust covers no key of this wake.toml: it sets none of those that reach outside the root (%s), and the others need no trust.\n", risky)
		fmt.Fprintf(w, "Should it set %s later, trust it again.\n", risky)
		return
	}
	fmt.Fprintln(w, "The trust covers the keys of this wake.toml that reach outside the root:")
	for _, k := range keys {
		fmt.Fprintf(w, "  %s = %q\n", k, tr.Settings[k])
	}
	fmt.Fprintf(w, "A change to %s makes it untrusted again until you run 'wake trust' again; its other keys (agent, team, the budgets, ...) need no trust.\n", strings.Join(keys, " or "))
}

// trustedFile names what a trust record holds of a root.
func trustedFile(tr tiers.Trust) string {
	if tr.SHA256 == "" {
		return "the root, which has no wake.toml,"
	}
	return fmt.Sprintf("its wake.toml (settings sha256 %s)", tr.SHA256[:12])
}

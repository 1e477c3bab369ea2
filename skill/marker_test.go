package skill

import "testing"

// TestMarkerRoot: the marker names the root whose skill.md a file is, so
// that a file every root may write to says whose it is.
func TestMarkerRoot(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ data, want string }{
		{"# Memory — Ava\n\n" + Marker("/home/ava/a/.wake") + "\n", "/home/ava/a/.wake"},
		{Marker("/r: odd/.wake") + "\r\n# Memory\n", "/r: odd/.wake"},
		// The last marker is wake's: one pasted above it is not.
		{Marker("/old/.wake") + "\n# Memory\n" + Marker("/new/.wake") + "\n", "/new/.wake"},
		{"# Memory — Ava\n", ""},
		{"<!-- wake skill.md from an unknown wake -->\n", ""},
		{Marker("") + "\n", ""},
	} {
		if got := MarkerRoot([]byte(tc.data)); got != tc.want {
			t.Errorf("MarkerRoot(%q) = %q, want %q", tc.data, got, tc.want)
		}
	}
}

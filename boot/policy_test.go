package boot

import (
	"errors"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// TestSensitivityReadsParsedMeta: the level comes from the front matter
// ReadDoc parsed, and its error, never from parsing the content again.
func TestSensitivityReadsParsedMeta(t *testing.T) {
	t.Parallel()
	broken := errors.New("front matter: bad")
	for _, tc := range []struct {
		name string
		doc  tiers.Doc
		want string
		err  bool
	}{
		{"parsed secret, content without front matter", tiers.Doc{Content: []byte("# x\n"), Meta: tiers.FrontMatter{Sensitivity: tiers.Secret}}, tiers.Secret, false},
		{"parsed internal, content claiming confidential", tiers.Doc{Content: []byte("---\nsensitivity: confidential\n---\n")}, tiers.Internal, false},
		{"unreadable front matter", tiers.Doc{MetaErr: broken}, tiers.Secret, true},
	} {
		got, err := policy.OfDoc(tc.doc)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	fsys := afero.NewMemMapFs()
	afero.WriteFile(fsys, "/r/a.md", []byte("---\nsummary: [broken\n---\n# A\n"), 0o644)
	d, err := tiers.ReadDoc(fsys, "/r", "a.md")
	if err != nil || d.MetaErr == nil {
		t.Fatalf("ReadDoc kept no front-matter error: %v", err)
	}
	if lvl, err := policy.OfDoc(d); lvl != tiers.Secret || err != d.MetaErr {
		t.Fatalf("%q, %v", lvl, err)
	}
}

package tiers

import (
	"errors"
	"strings"
	"testing"
)

// secretSpellings are the ways a document has been seen to say it is
// secret that an earlier reader took for no front matter, or for an
// internal document: each must read as secret, or as unreadable (which the
// policy holds back as secret).
var secretSpellings = []struct {
	name, doc string
	readable  bool // the front matter reads, as secret; else it is an error
}{
	{"plain", "---\nsensitivity: secret\n---\n", true},
	{"byte-order mark", "\ufeff---\nsensitivity: secret\n---\n", true},
	{"two byte-order marks", "\ufeff\ufeff---\nsensitivity: secret\n---\n", true},
	{"CRLF", "---\r\nsensitivity: secret\r\n---\r\n", true},
	{"byte-order mark and CRLF", "\ufeff---\r\nsensitivity: secret\r\n---\r\n", true},
	{"capital key", "---\nSensitivity: secret\n---\n", true},
	{"upper-case key", "---\nSENSITIVITY: secret\n---\n", true},
	{"upper-case value", "---\nsensitivity: SECRET\n---\n", true},
	{"capital value", "---\nsensitivity: Secret\n---\n", true},
	{"quoted key and value", "---\n\"sensitivity\": 'secret'\n---\n", true},
	{"zero-width space in the key", "---\nsensi\u200btivity: secret\n---\n", true},
	{"zero-width space in the value", "---\nsensitivity: sec\u200bret\n---\n", true},
	{"value by alias", "---\nlevel: &l secret\nsensitivity: *l\n---\n", true},
	{"spaces around", "---   \n  sensitivity:   secret   \n---\t\n", true},
	{"blank line before", "\n---\nsensitivity: secret\n---\n", false},
	{"space before", " ---\nsensitivity: secret\n---\n", false},
	{"tab before", "\t---\nsensitivity: secret\n---\n", false},
	{"zero-width space before", "\u200b---\nsensitivity: secret\n---\n", false},
	{"no-break space before", "\u00a0---\nsensitivity: secret\n---\n", false},
	{"byte-order mark and blank line", "\ufeff\r\n---\r\nsensitivity: secret\r\n---\r\n", false},
	{"four dashes", "----\nsensitivity: secret\n----\n", false},
	{"four dashes opening only", "----\nsensitivity: secret\n---\n", false},
	{"dashes and text", "--- yaml\nsensitivity: secret\n---\n", false},
	{"CR-only line ends", "---\rsensitivity: secret\r---\r", false},
	{"unclosed", "---\nsensitivity: secret\n", false},
	{"closed by dots", "---\nsensitivity: secret\n...\n", false},
	{"misspelt key", "---\nsensitivty: secret\n---\n", false},
	{"misspelt key, capitals", "---\nSensitvity: secret\n---\n", false},
	{"misspelt value", "---\nsensitivity: secrte\n---\n", false},
	{"key given twice", "---\nsensitivity: public\nSensitivity: secret\n---\n", false},
	{"merge key", "---\nbase: &b\n  sensitivity: secret\n<<: *b\n---\n", false},
	{"list value", "---\nsensitivity: [secret]\n---\n", false},
	{"malformed YAML", "---\nsensitivity: secret\nsummary: a: b: [x\n---\n", false},
}

// TestSecretSpellings runs every spelling through the one reader: each is
// secret, or an error the policy holds back.
func TestSecretSpellings(t *testing.T) {
	t.Parallel()
	for _, tc := range secretSpellings {
		doc := tc.doc + "# Body\n\nCANARY\n"
		m, _, err := ParseFrontMatter([]byte(doc))
		switch {
		case tc.readable && (err != nil || m.Level() != Secret):
			t.Errorf("%s: level %q, error %v; want secret", tc.name, m.Level(), err)
		case !tc.readable && err == nil:
			t.Errorf("%s: read as %q with no error; want it unreadable", tc.name, m.Level())
		}
		h := ParseColdHead([]byte(doc), true)
		if (h.MetaErr == "") != tc.readable || tc.readable && h.Meta.Level() != Secret {
			t.Errorf("%s: cold head %+v", tc.name, h)
		}
		s, err := ParseSession([]byte(doc))
		if tc.readable && (err != nil || s.Sensitivity != Secret) || !tc.readable && err == nil {
			t.Errorf("%s: session sensitivity %q, error %v", tc.name, s.Sensitivity, err)
		}
	}
}

// TestFrontMatterNotLookalikes: documents that only resemble front matter
// in passing read as having none, and keys of the user's own are let be.
func TestFrontMatterNotLookalikes(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		"# Title\n\n---\n\ntext\n",
		"text\n---\nmore\n",
		"-- a note\n",
		"- [ ] a task\n",
		"",
		"\n\n# Title\n",
		"\ufeff# Title\n",
		"---\nsummary: fine\nsensitive_data: none\nsensors: 2\n---\n",
		"---\n---\n# empty front matter\n",
	} {
		if m, _, err := ParseFrontMatter([]byte(doc)); err != nil || m.Level() != Internal {
			t.Errorf("%q: %+v %v", doc, m, err)
		}
	}
}

// TestFrontMatterKeys: keys are matched without regard to case, with "-"
// or a space for "_", and errors name the file's line.
func TestFrontMatterKeys(t *testing.T) {
	t.Parallel()
	m, body, err := ParseFrontMatter([]byte("\ufeff---\nSummary: The doc\nMemory-Type: decision\nSOURCE_OF_TRUTH: yes\nProject ID: p1\n---\nbody\n"))
	if err != nil || m.Summary != "The doc" || m.MemoryType != "decision" || m.SourceOfTruth == nil || !*m.SourceOfTruth || m.ProjectID != "p1" || string(body) != "body\n" {
		t.Fatalf("%+v %q %v", m, body, err)
	}
	for doc, want := range map[string]string{
		"---\nsummary: x\nsummary: y\n---\n":       "line 3: key summary is given twice (first at line 2)",
		"---\nsummary: x\nSensitivity: top\n---\n": "line 3: sensitivity is not public",
		"---\nSensitivity: Secrte\n---\n":          "line 2: sensitivity \"Secrte\" is not",
		"\n\n---\nsensitivity: secret\n---\n":      "line 3: a --- line after blank",
		"---\nsource_of_truth: often\n---\n":       "line 2: source_of_truth: expected true or false",
		"---\n- a\n- b\n---\n":                     "line 2: not a mapping",
	} {
		if _, _, err := ParseFrontMatter([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", doc, err, want)
		}
	}
	if _, _, err := ParseFrontMatter([]byte("---\nsensitivity: secret\n")); !errors.Is(err, ErrUnclosedFrontMatter) {
		t.Errorf("unclosed: %v", err)
	}
}

// A misspelt level is named with the level it is nearest to; any other
// value is not quoted, since it may be what the document holds back.
func TestSensitivityDidYouMean(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ value, want string }{
		{"secrte", `sensitivity "secrte" is not public, internal, confidential or secret; did you mean secret?`},
		{"Confidental", `sensitivity "Confidental" is not public, internal, confidential or secret; did you mean confidential?`},
		{"publc", `did you mean public?`},
		{"hunter2", `line 2: sensitivity is not public, internal, confidential or secret`},
	} {
		_, _, err := ParseFrontMatter([]byte("---\nsensitivity: " + tt.value + "\n---\nbody\n"))
		var le *LevelError
		if !errors.As(err, &le) || le.Line != 2 || !strings.HasSuffix(err.Error(), tt.want) {
			t.Errorf("%s: %v, want ...%s", tt.value, err, tt.want)
		}
		if tt.value == "hunter2" && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the value is quoted: %v", err)
		}
	}
}

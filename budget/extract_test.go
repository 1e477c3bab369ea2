package budget

import (
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"summary, headings and first sentences",
			"---\nsummary: How the importer works\n---\nIntro sentence one. Intro two.\n\n# Importer\n\nIt reads CSV files. Then it validates them.\n\n## Parsing\n\n```go\nfunc x() {}\n```\n\nParsing is lenient! It accepts both banks.\n\n## Empty\n\n## Lists\n\n- First item is the point. More.\n- Second item.\n",
			"Summary: How the importer works\n\nIntro sentence one.\n\n# Importer\n\nIt reads CSV files.\n\n## Parsing\n\nParsing is lenient!\n\n## Empty\n\n## Lists\n\nFirst item is the point.\n"},
		{"a sentence across lines", "# T\n\nThis sentence\nwraps over lines. Next.\n", "# T\n\nThis sentence wraps over lines.\n"},
		{"no end of sentence", "# T\n\nno full stop here\n", "# T\n\nno full stop here\n"},
		{"comments and versions", "<!-- guidance. -->\n# T\n\nVersion 1.2 shipped today. Then more.\n", "# T\n\nVersion 1.2 shipped today.\n"},
		{"malformed front matter is not a summary", "---\nsummary: [x\n---\n# T\n", "# T\n"},
		{"only code", "```\ncode. more.\n```\n", ""},
		{"empty", "", ""},
	} {
		if got := Extract(tc.in); got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, got, tc.want)
		}
	}
	long := "# T\n\n" + strings.Repeat("word ", 200) + "\n"
	if got := Extract(long); !strings.HasSuffix(got, "…\n") || len([]rune(got)) > maxSentenceRunes+10 {
		t.Errorf("an endless sentence is not bounded: %d runes", len([]rune(got)))
	}
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{"---\nsummary: s\n---\n# T\n\nA. B.\n", "- a. b\n  c\n", "```\n# x\n", "# \n#\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Extract(s)
		if out != "" && !strings.HasSuffix(out, "\n") {
			t.Fatalf("no final newline: %q", out)
		}
		if strings.Count(out, "\n#") > strings.Count("\n"+s, "\n#")+strings.Count(s, "#") {
			t.Fatalf("more headings out than in: %q -> %q", s, out)
		}
	})
}

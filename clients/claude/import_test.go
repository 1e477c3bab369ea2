package claude

import (
	"strings"
	"testing"
)

const testImport = "@.wake/boot.md"

func TestImportRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		src    string
		exists bool
		want   string // after install
	}{
		{"missing file", "", false, "@.wake/boot.md\n"},
		{"empty file", "", true, "\n@.wake/boot.md\n"},
		{"ends in a newline", "# Rules\n\nBe brief.\n", true, "# Rules\n\nBe brief.\n\n@.wake/boot.md\n"},
		{"no final newline", "# Rules", true, "# Rules\n@.wake/boot.md\n"},
		{"CRLF", "# Rules\r\n", true, "# Rules\r\n\r\n@.wake/boot.md\r\n"},
		{"CRLF, no final newline", "# Rules\r\nBe brief.", true, "# Rules\r\nBe brief.\r\n@.wake/boot.md\r\n"},
		{"LF first, CRLF later", "a\nb\r\n", true, "a\nb\r\n\n@.wake/boot.md\n"},
		{"lone CR at the end", "a\r", true, "a\r\n@.wake/boot.md\n"},
		{"import only in code", "```\n@.wake/boot.md\n```\n", true, "```\n@.wake/boot.md\n```\n\n@.wake/boot.md\n"},
		{"other imports", "@AGENTS.md\n@docs/style.md\n", true, "@AGENTS.md\n@docs/style.md\n\n@.wake/boot.md\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := AddImport([]byte(tc.src), tc.exists, testImport)
			if err != nil || !changed || string(out) != tc.want {
				t.Fatalf("install: changed=%v\n got %q\nwant %q", changed, out, tc.want)
			}
			if again, changed, _ := AddImport(out, true, testImport); changed || string(again) != string(out) {
				t.Fatalf("second install changed the file: %q", again)
			}
			back, removed := RemoveImport(out, testImport)
			if !removed {
				t.Fatal("uninstall: the import was not found")
			}
			if string(back) != tc.src {
				t.Fatalf("uninstall:\n got %q\nwant %q", back, tc.src)
			}
		})
	}
}

func TestImportPresent(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"@.wake/boot.md\n", "intro\n  @.wake/boot.md  \nmore\n"} {
		if out, changed, _ := AddImport([]byte(src), true, testImport); changed || string(out) != src {
			t.Fatalf("%q: install changed it to %q", src, out)
		}
	}
	// Moved by hand into the middle: only the line goes.
	out, removed := RemoveImport([]byte("a\n@.wake/boot.md\nb\n"), testImport)
	if !removed || string(out) != "a\nb\n" {
		t.Fatalf("got %q removed=%v", out, removed)
	}
	if out, removed := RemoveImport([]byte("a\n"), testImport); removed || string(out) != "a\n" {
		t.Fatalf("no import: got %q removed=%v", out, removed)
	}
}

func TestImportOpenFence(t *testing.T) {
	t.Parallel()
	src := "Example:\n```sh\nwake load\n"
	if _, _, err := AddImport([]byte(src), true, testImport); err == nil || !strings.Contains(err.Error(), "code fence") {
		t.Fatalf("got %v, want an error about the open fence", err)
	}
}

func TestImportLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		from, target, home string
		preferHome         bool
		want               string
	}{
		{"/p", "/p/.wake/boot.md", "/h", false, "@.wake/boot.md"},
		{"/p", "/p/mem/.wake/boot.md", "/h", false, "@mem/.wake/boot.md"},
		{"/h/p", "/h/roots/x/boot.md", "/h", false, "@~/roots/x/boot.md"},
		{"/p", "/srv/mem/boot.md", "/h", false, "@/srv/mem/boot.md"},
		{"/h/.claude", "/h/.claude/agentchat.skill.md", "/h", true, "@~/.claude/agentchat.skill.md"},
		{"/h/.claude", "/srv/skill.md", "/h", true, "@/srv/skill.md"},
		{"/h/.claude", "/srv/skill.md", "", true, "@/srv/skill.md"},
	} {
		if got := ImportLine(tc.from, tc.target, tc.home, tc.preferHome); got != tc.want {
			t.Errorf("ImportLine(%q, %q, %q) = %q, want %q", tc.from, tc.target, tc.home, got, tc.want)
		}
	}
}

// FuzzImport proves install then uninstall gives back any CLAUDE.md that
// does not import boot.md already.
func FuzzImport(f *testing.F) {
	for _, s := range []string{"", "a", "a\n", "a\n\n", "\n", "```\n", "x\r\n", "x\r\ny", "x\r", "\r\n\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Contains(src, testImport) {
			return
		}
		out, changed, err := AddImport([]byte(src), true, testImport)
		if err != nil {
			return // ends in an unclosed fence: refused
		}
		if !changed {
			t.Fatalf("not added to %q", src)
		}
		back, removed := RemoveImport(out, testImport)
		if !removed || string(back) != src {
			t.Fatalf("round trip of %q: got %q removed=%v", src, back, removed)
		}
	})
}

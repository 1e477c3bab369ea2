package claude

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestReadHookInput(t *testing.T) {
	t.Parallel()
	open, client := io.Pipe() // a stdin the client never closes
	t.Cleanup(func() { client.Close() })
	full := `{"session_id":"5998b205","transcript_path":"/h/x.jsonl","cwd":"/p/sub","hook_event_name":"SessionStart","source":"startup"}`
	for _, tc := range []struct {
		name  string
		stdin io.Reader
		want  HookInput
		warn  string
	}{
		{"no stdin", nil, HookInput{}, ""},
		{"empty", strings.NewReader(" \n"), HookInput{}, ""},
		{"Claude Code's input", strings.NewReader(full), HookInput{"5998b205", "/h/x.jsonl", "/p/sub", "SessionStart", "startup"}, ""},
		{"bad JSON", strings.NewReader(`{"cwd": 12`), HookInput{}, "the hook input on stdin is not the JSON Claude Code sends ("},
		{"wrong type", strings.NewReader(`{"cwd": 12}`), HookInput{}, "is not the JSON Claude Code sends"},
		{"read error", io.MultiReader(strings.NewReader("{"), errReader{}), HookInput{}, "reading the hook input on stdin: broken pipe"},
		{"never closed", open, HookInput{}, "no hook input on stdin after 50ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in, warns := readHookInput(tc.stdin, 50*time.Millisecond)
			if in != tc.want {
				t.Errorf("input %+v, want %+v", in, tc.want)
			}
			if tc.warn == "" && len(warns) > 0 || tc.warn != "" && (len(warns) != 1 || !strings.Contains(warns[0], tc.warn)) {
				t.Errorf("warnings %q, want one containing %q", warns, tc.warn)
			}
		})
	}
}

func TestHookInputDir(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ cwd, want string }{{"", "/w"}, {"rel/dir", "/w"}, {"/p/sub/../x/", "/p/x"}} {
		if got := (HookInput{Cwd: tc.cwd}).Dir("/w"); got != tc.want {
			t.Errorf("Dir with cwd %q = %q, want %q", tc.cwd, got, tc.want)
		}
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("broken pipe") }

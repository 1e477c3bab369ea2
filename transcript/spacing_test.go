package transcript

import (
	"bytes"
	"os"
	"reflect"
	"testing"
	"time"
)

// spaced writes JSON lines as a pretty-printer spaces them: a space
// around each colon and after each comma between members and elements,
// none inside strings.
func spaced(data []byte) []byte {
	var b bytes.Buffer
	in, esc := false, false
	for _, c := range data {
		b.WriteByte(c)
		switch {
		case in && esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && (c == ':' || c == ','):
			b.WriteByte(' ')
		}
	}
	return bytes.ReplaceAll(b.Bytes(), []byte(`": `), []byte(`" : `))
}

// TestSpacingReadsTheSame (issue 23, point 6): a transcript written with
// spaces around its colons reads as the same transcript written tight,
// in every mode and scope, on each format's fast path; a failed edit
// (is_error: true) stays a failure.
func TestSpacingReadsTheSame(t *testing.T) {
	t.Parallel()
	since := time.Date(2026, 11, 22, 10, 0, 1, 0, time.UTC)
	for _, name := range []string{"claude.jsonl", "codex.jsonl", "codex-0.169.jsonl", "wake.jsonl", "claude-stop.jsonl", "codex-stop.jsonl"} {
		tight, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		loose := spaced(tight)
		if bytes.Equal(tight, loose) || !bytes.Contains(loose, []byte(`"type" : "`)) {
			t.Fatalf("%s: not respaced", name)
		}
		for _, sc := range []Scope{{}, {Since: since}} {
			for mode, read := range map[string]func([]byte) (*Summary, error){
				"Read":     func(d []byte) (*Summary, error) { return Read(bytes.NewReader(d), Auto, DefaultLimits(), sc) },
				"ReadWork": func(d []byte) (*Summary, error) { return ReadWork(bytes.NewReader(d), Auto, 0, sc) },
				"Head":     func(d []byte) (*Summary, error) { return Head(bytes.NewReader(d), Auto, 0) },
			} {
				want, err1 := read(tight)
				got, err2 := read(loose)
				if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("%s, %s since %v: spaced reads\n%+v\nwant\n%+v", name, mode, sc.Since, got, want)
				}
			}
		}
	}
}

// BenchmarkReadCodexSpaced is BenchmarkReadCodex on a rollout written
// with spaces around its colons.
func BenchmarkReadCodexSpaced(b *testing.B) {
	data := spaced(codexRollout(200 << 20))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s, err := Read(bytes.NewReader(data), Codex, DefaultLimits(), Scope{})
		if err != nil || s.CommandCount == 0 {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadSpaced is BenchmarkRead on a Claude Code transcript
// written with spaces around its colons.
func BenchmarkReadSpaced(b *testing.B) {
	var tight bytes.Buffer
	tight.ReadFrom(&bigSession{size: 50 << 20})
	data := spaced(tight.Bytes())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), Claude, DefaultLimits(), Scope{}); err != nil {
			b.Fatal(err)
		}
	}
}

package transcript

import (
	"encoding/json"
	"strings"
	"testing"
)

// testKey is a private key's body: 20 lines of base64, as a pasted PEM
// block has.
func testKey() (block, line string) {
	line = strings.Repeat("MIIEowIBAAKCAQEAx7Qz", 3) + "AbCd"
	var b strings.Builder
	b.WriteString("-----BEGIN RSA " + "PRIVATE KEY-----\n")
	for range 20 {
		b.WriteString(line + "\n")
	}
	b.WriteString("-----END RSA " + "PRIVATE KEY-----\n")
	return b.String(), line
}

const testToken = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"

func jsonLine(t *testing.T, v map[string]string) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// TestScrubBeforeCut: each text is scrubbed of secrets whole, before it
// is made one line and cut, so that a private key pasted in a prompt or
// a command, or a token across the cut, leaves nothing of itself; and the
// cut never falls inside a redaction marker.
func TestScrubBeforeCut(t *testing.T) {
	t.Parallel()
	key, keyLine := testKey()
	tr := jsonLine(t, map[string]string{"type": "session", "at": "2026-11-22T10:00:00Z"}) +
		jsonLine(t, map[string]string{"type": "prompt", "text": "use this key:\n" + key + "and deploy"}) +
		jsonLine(t, map[string]string{"type": "command", "command": "printf '%s' '" + key + "' > id_rsa"}) +
		jsonLine(t, map[string]string{"type": "message", "text": "Saved the key:\n" + key})
	s, err := Read(strings.NewReader(tr), Wake, DefaultLimits(), Scope{})
	if err != nil {
		t.Fatal(err)
	}
	texts := append(append([]string{s.LastMessage}, s.Prompts...), s.Commands...)
	for _, x := range texts {
		if strings.Contains(x, keyLine[:16]) || strings.Contains(x, "BEGIN RSA") {
			t.Errorf("the key is in %q", x)
		}
	}
	if want := "use this key: [redacted:private-key] and deploy"; s.Prompts[0] != want {
		t.Errorf("prompt %q, want %q", s.Prompts[0], want)
	}

	lim := DefaultLimits()
	for pad := lim.Text - len(testToken); pad <= lim.Text+2; pad++ {
		text := strings.Repeat("x", pad-1) + " " + testToken + " and more"
		tr := jsonLine(t, map[string]string{"type": "prompt", "text": text}) +
			jsonLine(t, map[string]string{"type": "command", "command": strings.Repeat("y", pad-lim.Text+lim.Command-1) + " " + testToken}) +
			jsonLine(t, map[string]string{"type": "message", "text": text})
		s, err := Read(strings.NewReader(tr), Wake, lim, Scope{})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range []string{s.Prompts[0], s.Commands[0], s.LastMessage} {
			if strings.Contains(x, "ghp_") {
				t.Errorf("pad %d: the token's head is in %q", pad, x[max(0, len(x)-60):])
			}
			if i := strings.Index(x, "[redacted"); i >= 0 && !strings.Contains(x[i:], "[redacted:github-token]") {
				t.Errorf("pad %d: cut inside the marker: %q", pad, x[i:])
			}
		}
	}
}

// TestShorten: a text is cut at a character, and before a redaction
// marker that the cut would fall in.
func TestShorten(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"abcdef", 10, "abcdef"},
		{"abcdef", 3, "abc…"},
		{"ab [redacted:github-token] cd", 10, "ab…"},
		{"ab [redacted:github-token] cd", 26, "ab [redacted:github-token]…"},
		{"ab [redacted:github-token] cd", 25, "ab…"},
		{"[redacted:x] [redacted:github-token]", 20, "[redacted:x]…"},
		{"héllo", 2, "h…"},
	} {
		if got := Shorten(c.in, c.max); got != c.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

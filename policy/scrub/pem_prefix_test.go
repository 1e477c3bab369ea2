package scrub

import (
	"strings"
	"testing"
)

// TestPEMQuotedOrCommented: a private key pasted quoted or commented out,
// every line behind "> ", "# " or "// ", is found and redacted whole, its
// line count kept, and the text after it left alone.
func TestPEMQuotedOrCommented(t *testing.T) {
	body := strings.Repeat("MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n", 5)
	for _, pre := range []string{"> ", "# ", "// ", ""} {
		var b strings.Builder
		b.WriteString(pre + "-----BEGIN RSA " + "PRIVATE KEY-----\n")
		for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
			b.WriteString(pre + l + "\n")
		}
		b.WriteString(pre + "-----END RSA " + "PRIVATE KEY-----\nafter\n")
		out, r := Text(b.String())
		if r.Total() != 1 || strings.Contains(out, "MIIEow") || !strings.HasSuffix(out, "after\n") || strings.Count(out, "\n") != strings.Count(b.String(), "\n") {
			t.Errorf("prefix %q: %d redactions:\n%s", pre, r.Total(), out)
		}
	}
}

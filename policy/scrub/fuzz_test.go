package scrub

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzScrub(f *testing.F) {
	for _, p := range positives(f) {
		f.Add(p.text)
	}
	for _, text := range cleanCorpus(f) {
		f.Add(text)
	}
	f.Add("[redacted:url-password]=Tr0ub4dor&3xK password=[redacted:jwt]x9")
	f.Fuzz(checkScrub)
}

// FuzzScrubPieces builds texts from pieces of secrets and of what stands
// around them, so that the fuzzer puts secrets next to each other, inside
// names and values and markers, which random bytes seldom do.
func FuzzScrubPieces(f *testing.F) {
	fake := faker{rand.New(rand.NewPCG(3, 2026))}
	pieces := []string{
		"password", "token", "Secret", "api_key", "max_", "Key", "aws_secret_access_key", "db.", "=", ":", " = ",
		"?=", "\"", "'", "`", " ", "\n", "\r\n", ".", "-", "_", "(", "[", "]", "$", "{", "@", "://", "postgres",
		"u:", "@db.internal", "hooks.slack.com/services/", "-----BEGIN RSA PRIVATE KEY-----",
		"-----END RSA PRIVATE KEY-----", "AKIA", "sk-", "ghp_", "eyJ", "xoxb-", "AIza", "[redacted:jwt]",
		"Tr0ub4dor&3xK", "é", "\xff", "0123456789",
	}
	for _, name := range []string{"akia", "aws-secret", "ghp", "github-pat", "sk-ant-api", "sk-proj", "xoxb", "xapp",
		"slack-hook", "aiza", "jwt", "hex40", "b64-32", "uuid", "pem-rsa", "pem-truncated"} {
		pieces = append(pieces, fake.secret(f, name))
	}
	f.Add([]byte{0, 9, 60, 1, 9, 45})
	f.Add([]byte{27, 29, 31, 63, 32, 14, 42, 64, 7})
	f.Fuzz(func(t *testing.T, picks []byte) {
		// Long texts from these pieces test nothing more, slowly: one made
		// of 2,400 headers of private keys found a cost quadratic in them.
		picks = picks[:min(len(picks), 256)]
		var b strings.Builder
		for _, p := range picks {
			b.WriteString(pieces[int(p)%len(pieces)])
		}
		checkScrub(t, b.String())
	})
}

// checkScrub checks what Scrub promises for any text: no panic, valid
// UTF-8 stays valid, the line count stays, FindSecrets counts what Scrub
// replaces, and a second scrub changes nothing.
func checkScrub(t *testing.T, text string) {
	got, red := Text(text)
	if utf8.ValidString(text) && !utf8.ValidString(got) {
		t.Fatalf("Scrub made invalid UTF-8 of %q: %q", text, got)
	}
	if strings.Count(got, "\n") != strings.Count(text, "\n") {
		t.Fatalf("Scrub changed the line count of %q: %q", text, got)
	}
	if n := len(Find(text)); n != red.Total() {
		t.Fatalf("FindSecrets found %d, Scrub redacted %d in %q", n, red.Total(), text)
	}
	if again, _ := Text(got); again != got {
		t.Fatalf("Scrub is not idempotent on %q:\nonce  %q\ntwice %q", text, got, again)
	}
}

// FuzzAssignedSecret checks that the quick tests of the assignment rules
// let through every line in which they find a secret.
func FuzzAssignedSecret(f *testing.F) {
	for _, p := range positives(f) {
		for _, line := range strings.Split(p.text, "\n") {
			f.Add(line)
		}
	}
	f.Add(`token: =abcdefgh1`)
	rules := []rule{ruleOf(f, kindGeneric), ruleOf(f, kindAWSSecretKey)}
	f.Fuzz(func(t *testing.T, s string) {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[:i]
		}
		for _, r := range rules {
			loc := r.re.FindStringSubmatchIndex(s)
			if loc == nil || r.pre(s) {
				continue
			}
			secret := s[loc[0]:loc[1]]
			for g := 2; g < len(loc); g += 2 {
				if loc[g] >= 0 {
					secret = s[loc[g]:loc[g+1]]
					break
				}
			}
			if r.valid == nil || r.valid(s[:loc[1]], secret) {
				t.Fatalf("%s: the rule finds %q in %q, its quick test refuses the line", r.kind, secret, s)
			}
		}
	})
}

func ruleOf(t testing.TB, kind string) rule {
	for _, r := range scrubRules {
		if r.kind == kind {
			return r
		}
	}
	t.Fatalf("no rule for %s", kind)
	return rule{}
}

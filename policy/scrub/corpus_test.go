package scrub

import (
	"encoding/base64"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// positive is one section of testdata/scrub/positive.txtar made concrete:
// the text with fake secrets in, what Scrub must make of it, and the line
// of each secret.
type positive struct {
	kind      string
	text      string
	want      string
	wantLines []int
}

var markerRe = regexp.MustCompile(`«([^»]+)»`)

// positives reads the true-positive corpus and puts fake secrets where its
// markers are. The secrets are the same at every run.
func positives(t testing.TB) []positive {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata", "scrub", "positive.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	fake := faker{rand.New(rand.NewPCG(11, 2026))}
	var out []positive
	for _, f := range a.Files {
		p := positive{kind: f.Name}
		var text, want strings.Builder
		src, last := string(f.Data), 0
		for _, m := range markerRe.FindAllStringSubmatchIndex(src, -1) {
			secret := fake.secret(t, src[m[2]:m[3]])
			text.WriteString(src[last:m[0]])
			want.WriteString(src[last:m[0]])
			p.wantLines = append(p.wantLines, strings.Count(text.String(), "\n")+1)
			text.WriteString(secret)
			want.WriteString(marker + p.kind + "]" + breaks(secret))
			last = m[1]
		}
		text.WriteString(src[last:])
		want.WriteString(src[last:])
		p.text, p.want = text.String(), want.String()
		out = append(out, p)
	}
	return out
}

// breaks is the line breaks in s, which a redaction keeps.
func breaks(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return r
		}
		return -1
	}, s)
}

// cleanCorpus reads the false-positive corpus: ordinary notes and code in
// which nothing is a secret.
func cleanCorpus(t testing.TB) map[string]string {
	t.Helper()
	dir := filepath.Join("testdata", "scrub", "clean")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

func TestScrubPositives(t *testing.T) {
	t.Parallel()
	kinds := map[string]bool{}
	for _, p := range positives(t) {
		kinds[p.kind] = true
		t.Run(p.kind, func(t *testing.T) {
			got, red := Text(p.text)
			if got != p.want {
				t.Errorf("Scrub:\n%s", lineDiff(p.want, got))
			}
			if red[p.kind] != len(p.wantLines) || red.Total() != len(p.wantLines) {
				t.Errorf("counted %v, want %d %s", red, len(p.wantLines), p.kind)
			}
			var lines []int
			for _, h := range Find(p.text) {
				if h.Kind != p.kind {
					t.Errorf("line %d: found %s, want %s", h.Line, h.Kind, p.kind)
				}
				lines = append(lines, h.Line)
			}
			if !slices.Equal(lines, p.wantLines) {
				t.Errorf("FindSecrets lines %v, want %v", lines, p.wantLines)
			}
			if again, red := Text(got); again != got || red.Total() != 0 {
				t.Errorf("scrubbing twice changed the text: %v", red)
			}
		})
	}
	for _, k := range SecretKinds() {
		if !kinds[k] {
			t.Errorf("no true positives for %s", k)
		}
	}
}

func TestScrubClean(t *testing.T) {
	t.Parallel()
	files, lines, size := 0, 0, 0
	for name, text := range cleanCorpus(t) {
		files, lines, size = files+1, lines+strings.Count(text, "\n"), size+len(text)
		for _, h := range Find(text) {
			t.Errorf("%s:%d: false positive %s: %q", name, h.Line, h.Kind, strings.Split(text, "\n")[h.Line-1])
		}
		if got, _ := Text(text); got != text {
			t.Errorf("%s: Scrub changed a clean text", name)
		}
	}
	t.Logf("clean corpus: %d files, %d lines, %d bytes", files, lines, size)
}

// lineDiff shows the lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n  want " + wl + "\n  got  " + gl + "\n")
		}
	}
	return b.String()
}

// faker builds fake secrets of the right shape from parts, so that the
// repository holds no key in one piece.
type faker struct{ r *rand.Rand }

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower  = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	alnum  = upper + lower + digits
	b64    = alnum + "+/"
	b64url = alnum + "-_"
	hexd   = "0123456789abcdef"
	base32 = upper + "234567"
)

func (f faker) pick(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[f.r.IntN(len(set))]
	}
	return string(b)
}

func (f faker) secret(t testing.TB, name string) string {
	t.Helper()
	if lit, ok := strings.CutPrefix(name, "="); ok {
		return lit
	}
	switch name {
	case "akia", "asia":
		return strings.ToUpper(name) + f.pick(base32, 16)
	case "aws-secret":
		return f.pick(b64, 40)
	case "ghp", "gho", "ghu", "ghs", "ghr":
		return name + "_" + f.pick(alnum, 36)
	case "github-pat":
		return "github" + "_pat_" + f.pick(alnum, 22) + "_" + f.pick(alnum, 59)
	case "sk-ant-api", "sk-ant-admin":
		typ := map[string]string{"sk-ant-api": "api03", "sk-ant-admin": "admin01"}[name]
		return "sk-" + "ant-" + typ + "-" + f.pick(b64url, 93) + "AA"
	case "sk-proj", "sk-svcacct":
		return name + "-" + f.pick(b64url, 74) + "T3Blbk" + "FJ" + f.pick(b64url, 74)
	case "sk-legacy":
		return "sk-" + f.pick(alnum, 20) + "T3Blbk" + "FJ" + f.pick(alnum, 20)
	case "xoxb":
		return "xo" + "xb-" + f.pick(digits, 12) + "-" + f.pick(digits, 13) + "-" + f.pick(alnum, 24)
	case "xoxp":
		return "xo" + "xp-" + f.pick(digits, 11) + "-" + f.pick(digits, 11) + "-" + f.pick(digits, 12) + "-" + f.pick(hexd, 32)
	case "xoxa":
		return "xo" + "xa-2-" + f.pick(digits, 9) + "-" + f.pick(digits, 11) + "-" + f.pick(hexd, 18)
	case "xapp":
		return "xa" + "pp-1-A" + f.pick(upper+digits, 10) + "-" + f.pick(digits, 13) + "-" + f.pick(hexd, 64)
	case "slack-hook":
		return "T" + f.pick(upper+digits, 8) + "/B" + f.pick(upper+digits, 10) + "/" + f.pick(alnum, 24)
	case "aiza":
		return "AI" + "za" + f.pick(b64url, 35)
	case "jwt":
		enc := base64.RawURLEncoding.EncodeToString
		return enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." +
			enc([]byte(`{"sub":"`+f.pick(digits, 10)+`","name":"Fake Person","iat":1516239022}`)) + "." + f.pick(b64url, 43)
	case "hex32", "hex40", "hex64":
		return f.pick(hexd, map[string]int{"hex32": 32, "hex40": 40, "hex64": 64}[name])
	case "b64-32":
		return f.pick(alnum, 32)
	case "uuid":
		return f.pick(hexd, 8) + "-" + f.pick(hexd, 4) + "-4" + f.pick(hexd, 3) + "-a" + f.pick(hexd, 3) + "-" + f.pick(hexd, 12)
	}
	if pem, ok := f.pem(name); ok {
		return pem
	}
	t.Fatalf("positive.txtar: no fake secret named %q", name)
	return ""
}

// pem builds a fake private-key block.
func (f faker) pem(name string) (string, bool) {
	begin := func(what string) string { return "-----BEGIN " + what + " PRIVATE" + " KEY-----" }
	end := func(what string) string { return "-----END " + what + " PRIVATE" + " KEY-----" }
	body := func(n int) []string {
		var lines []string
		for range n {
			lines = append(lines, f.pick(b64, 64))
		}
		return append(lines, f.pick(b64, 20)+"==")
	}
	block := func(what string, sep string, head ...string) string {
		lines := append(append([]string{begin(what)}, head...), body(5)...)
		return strings.Join(append(lines, end(what)), sep)
	}
	switch name {
	case "pem-rsa":
		return block("RSA", "\n"), true
	case "pem-pkcs8":
		return strings.Replace(block("X", "\n"), "X ", "", 2), true
	case "pem-ec":
		return block("EC", "\n"), true
	case "pem-openssh":
		return block("OPENSSH", "\n"), true
	case "pem-encrypted":
		return block("RSA", "\n", "Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,"+strings.ToUpper(f.pick(hexd, 32)), ""), true
	case "pem-pgp":
		return strings.Replace(block("PGP", "\n", ""), "KEY-----", "KEY BLOCK-----", 2), true
	case "pem-truncated":
		return strings.Join(append([]string{begin("RSA")}, body(3)...), "\n"), true
	case "pem-crlf":
		return block("RSA", "\r\n"), true
	case "pem-indented":
		return block("EC", "\n    "), true
	case "pem-json":
		return strings.Replace(block("X", `\n`), "X ", "", 2), true
	}
	return "", false
}

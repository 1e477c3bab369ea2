package scrub

import (
	"encoding/base64"
	"math"
	"regexp"
	"strings"
	"sync"
)

// A rule finds one kind of secret. The keywords are the prefilter: the
// rule's regexp runs only where one of them occurs (case-insensitively),
// and only from there, so that text with none of them costs one pass.
// Each rule says which gitleaks rule (github.com/gitleaks/gitleaks,
// cmd/generate/config/rules) it follows; they are written anew, narrower
// where wake's text (Markdown notes, pasted code) asks for it.
type rule struct {
	kind     string
	keywords []string // lower case
	// back is what may precede a keyword within a match (a variable name
	// before "token", a scheme before "://"); nil when a match starts at
	// its keyword.
	back *byteSet
	// bounded asks that a match neither start nor end inside a word, so
	// that a token is not found inside a longer run of letters (base64).
	bounded bool
	// reach is the most the regexp reads, in bytes (0 for 1 KiB): its cost
	// when many keywords sit in one long run of text.
	reach int
	// body, when set, carries a match over the lines after it: given the
	// text that follows the match (up to 64 KiB), it returns how much of it
	// belongs to the secret, or false for no secret. A regexp reads a
	// multi-line block at 40 ns a byte or worse; a loop, at about one.
	body func(s string) (int, bool)
	// re is anchored at the start of the match. The secret is its first
	// capture group that took part in the match, or the whole match.
	re *lazyRegexp
	// pre, when set, is a cheap test of the text from the match's start to
	// its line's end that every secret the rule finds passes: most
	// keywords in prose are not in an assignment, and a regexp costs a
	// microsecond or more a try.
	pre     func(s string) bool
	entropy float64  // the least Shannon entropy of the secret, bits a byte
	allow   []string // lower-case parts that mark an example or a placeholder
	valid   func(match, secret string) bool
}

// The kinds of secret, as they appear in [redacted:<kind>].
const (
	kindPrivateKey   = "private-key"
	kindAWSAccessKey = "aws-access-key"
	kindGitHub       = "github-token"
	kindAnthropic    = "anthropic-key"
	kindOpenAI       = "openai-key"
	kindSlackToken   = "slack-token"
	kindSlackWebhook = "slack-webhook"
	kindGoogle       = "google-api-key"
	kindJWT          = "jwt"
	kindAWSSecretKey = "aws-secret-key"
	kindURLPassword  = "url-password"
	kindGeneric      = "generic-secret"
)

// Parts of the assignment rules: a variable or key name, an operator from
// code, YAML, env or JSON, and a value, quoted or not. An unquoted value
// must end where values end, not at a "(" or "[" that makes it code.
const (
	nameRe   = `[A-Za-z0-9_.\-]+`
	assignRe = `["']?[ \t]*(?:::=|:=|\?=|=>|=|:)[ \t]*`
	valueRe  = `(?:"([^"\r\n]+)"|'([^'\r\n]+)'|` + "`([^`\\r\\n]+)`" +
		`|([^\s"'` + "`" + `<>(){}\[\],;&|\\]+)(?:[\s"'` + "`" + `)}\],;&|]|\\[nrt]|\z))`
)

// scrubRules is the one table of secrets, most specific first: where two
// rules find overlapping secrets, the earlier rule's is kept.
var scrubRules = []rule{
	{ // gitleaks: private-key, with a body of key lines only, so that one
		// block never runs into the next nor into prose; see pemBody
		kind: kindPrivateKey, keywords: []string{"-----begin"}, reach: 128,
		re:   anchor(`-----BEGIN[ A-Z0-9_-]{0,64}PRIVATE KEY(?: BLOCK)?-----`),
		body: pemBody, valid: keyBody,
	},
	{ // gitleaks: aws-access-token
		kind: kindAWSAccessKey, keywords: []string{"akia", "asia", "abia", "acca", "a3t"}, bounded: true,
		re:      anchor(`(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}`),
		entropy: 3, allow: []string{"example"},
	},
	{ // gitleaks: github-pat, github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat
		kind: kindGitHub, keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, bounded: true,
		re:      anchor(`gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,}`),
		entropy: 3,
	},
	{ // gitleaks: anthropic-api-key, anthropic-admin-api-key (any key type and length)
		kind: kindAnthropic, keywords: []string{"sk-ant-"}, bounded: true,
		re:      anchor(`sk-ant-[a-z]{2,8}[0-9]{2}-[A-Za-z0-9_-]{32,}`),
		entropy: 3.5,
	},
	{ // gitleaks: openai-api-key, without asking for its T3BlbkFJ marker
		kind: kindOpenAI, keywords: []string{"sk-"}, bounded: true,
		re:      anchor(`sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{40,}|[A-Za-z0-9]{48})`),
		entropy: 3.5,
	},
	{ // gitleaks: slack-bot-token, slack-user-token, slack-app-token, slack-config-*-token, slack-legacy-*
		kind: kindSlackToken, keywords: []string{"xox", "xapp-"}, bounded: true,
		re: anchor(`xox[bpeos]-[0-9]{1,13}-[0-9A-Za-z][0-9A-Za-z-]{8,}` +
			`|xox[ar]-(?:[0-9]-)?[0-9A-Za-z][0-9A-Za-z-]{7,}` +
			`|xoxe\.xox[bp]-[0-9]-[0-9A-Za-z]{100,}` +
			`|(?i:xapp)-[0-9]-[0-9A-Za-z]+-[0-9]+-[0-9A-Za-z]+`),
		entropy: 3, valid: slackToken,
	},
	{ // gitleaks: slack-webhook-url; only the path is secret
		kind: kindSlackWebhook, keywords: []string{"hooks.slack.com/"},
		re:      anchor(`hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/_-]{24,})`),
		entropy: 3,
	},
	{ // gitleaks: gcp-api-key
		kind: kindGoogle, keywords: []string{"aiza"}, bounded: true,
		re:      anchor(`AIza[0-9A-Za-z_-]{35}`),
		entropy: 4,
	},
	{ // gitleaks: jwt, with a header that must decode to a JWT header
		kind: kindJWT, keywords: []string{"eyj"}, bounded: true, reach: 8 << 10,
		re:    anchor(`eyJ[A-Za-z0-9_-]{12,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{16,}`),
		valid: jwtHeader,
	},
	{ // gitleaks dropped its AWS secret key rule as noisy; this is
		// generic-api-key's shape held to AWS's names and a 40-character value
		kind: kindAWSSecretKey, back: nameBytes, pre: assigned,
		keywords: []string{"secret_access_key", "secretaccesskey", "secret-access-key", "aws_secret", "aws-secret", "awssecret"},
		re:       anchor(nameRe + assignRe + "[\"'`]?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|\\z)"),
		entropy:  4, allow: []string{"example"},
	},
	{ // gitleaks has no rule for URLs; its placeholders follow curl-auth-user's allow-list
		kind: kindURLPassword, keywords: []string{"://"}, back: schemeBytes, pre: userinfo,
		re:    anchor(`[A-Za-z0-9+.\-]*://[^\s:/?#@\[\]{}"'` + "`" + `<>\\]*:([^\s/?#\[\]{}"'` + "`" + `<>\\]+)@[A-Za-z0-9\[_%-]`),
		allow: []string{"${", "{{", "%s", "%v", "%(", "...", "example", "placeholder", "your"},
		valid: urlPassword,
	},
	{ // gitleaks: generic-api-key, held to fewer names and a value that looks random
		kind: kindGeneric, back: nameBytes, pre: assignedSecret, reach: 4 << 10,
		keywords: []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "api_key", "api-key",
			"private_key", "privatekey", "private-key"},
		re:    anchor(nameRe + assignRe + valueRe),
		allow: placeholders, valid: genericSecret,
	},
}

func anchor(p string) *lazyRegexp { return lazy(`\A(?:` + p + `)`) }

// lazyRegexp is compiled on first use: most runs of wake scrub nothing
// (a session start served from its cache), and compiling the rules at
// every start cost a third of a millisecond.
type lazyRegexp struct {
	once sync.Once
	src  string
	re   *regexp.Regexp
}

func lazy(src string) *lazyRegexp { return &lazyRegexp{src: src} }

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.get().FindStringSubmatchIndex(s)
}
func (l *lazyRegexp) FindStringIndex(s string) []int { return l.get().FindStringIndex(s) }
func (l *lazyRegexp) MatchString(s string) bool      { return l.get().MatchString(s) }

// byteSet is a set of bytes, looked up in one step.
type byteSet [256]bool

func bytesOf(ranges ...string) *byteSet {
	var s byteSet
	for _, r := range ranges {
		if len(r) == 3 && r[1] == '-' {
			for c := int(r[0]); c <= int(r[2]); c++ {
				s[c] = true
			}
			continue
		}
		for i := 0; i < len(r); i++ {
			s[r[i]] = true
		}
	}
	return &s
}

var (
	wordBytes   = bytesOf("a-z", "A-Z", "0-9", "_")
	nameBytes   = bytesOf("a-z", "A-Z", "0-9", "_.-")
	schemeBytes = bytesOf("a-z", "A-Z", "0-9", "+.-")
)

// placeholders are parts of a value that make it an example, a template or
// a reference rather than a secret.
var placeholders = []string{
	"xxx", "***", "...", "…", "<", ">", "${", "{{", "}}", "$(", "%(", "%s", "%v",
	"example", "sample", "placeholder", "changeme", "change_me", "change-me", "changeit",
	"your", "redacted", "dummy", "fake", "insert", "replace",
}

// entropy is the Shannon entropy of s, in bits a byte: log2(n) less the
// mean of c·log2(c) over the counts c of its bytes.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var n [256]int
	for i := 0; i < len(s); i++ {
		n[s[i]]++
	}
	sum := 0.0
	for _, c := range n {
		if c < len(clog) {
			sum += clog[c]
		} else {
			sum += float64(c) * math.Log2(float64(c))
		}
	}
	l := float64(len(s))
	return math.Log2(l) - sum/l
}

// clog holds c·log2(c) for the counts entropy meets most.
var clog = func() (t [256]float64) {
	for c := 1; c < len(t); c++ {
		t[c] = float64(c) * math.Log2(float64(c))
	}
	return t
}()

// userinfo reports whether the URL that s opens with has a user and a
// password, as every match of the URL rule does: a ":" and then an "@"
// before the host ends the authority.
func userinfo(s string) bool {
	i := strings.Index(s, "://")
	if i < 0 {
		return false
	}
	auth := s[i+3:]
	if end := strings.IndexAny(auth, " \t\r/?#[]{}\"'`<>\\"); end >= 0 {
		auth = auth[:end]
	}
	colon := strings.IndexByte(auth, ':')
	return colon >= 0 && strings.LastIndexByte(auth, '@') > colon
}

// keyBody asks a private-key block for a line of key material, so that a
// block whose body is a note ("paste your key here") is left alone.
func keyBody(match, _ string) bool {
	run := 0
	for i := 0; i < len(match); i++ {
		c := match[i]
		if c == '+' || c == '/' || c == '=' || wordBytes[c] && c != '_' {
			if run++; run >= 40 {
				return true
			}
			continue
		}
		run = 0
	}
	return false
}

// slackToken asks for a digit after the prefix: placeholders such as
// xoxa-access-token-here have none.
func slackToken(match, _ string) bool {
	return strings.ContainsAny(match[5:], "0123456789")
}

// jwtHeader asks the first part to decode to a JSON header naming its
// algorithm or type.
func jwtHeader(match, _ string) bool {
	head, _, _ := strings.Cut(match, ".")
	b, err := base64.RawURLEncoding.DecodeString(head)
	if err != nil {
		return false
	}
	return len(b) > 0 && b[0] == '{' && (strings.Contains(string(b), `"alg"`) || strings.Contains(string(b), `"typ"`))
}

// urlPassword leaves out the placeholders and masks of documentation
// (user:password@, user:****@, $PASSWORD) and printf verbs.
func urlPassword(_, pw string) bool {
	switch strings.ToLower(pw) {
	case "password", "passwd", "pass", "pwd", "secret", "token", "changeme", "changeit", "test":
		return false
	}
	if pw[0] == '$' || strings.Trim(pw, "*") == "" || strings.Trim(strings.ToLower(pw), "x") == "" {
		return false
	}
	return true
}

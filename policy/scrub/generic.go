package scrub

import "strings"

// The generic rule is where false positives come from: "token" is on every
// page of an agent's notes. These judge the name and the value of an
// assignment the way a reader would.

// nameStops are words that, right after the secret word, make the name a
// secret's property (token_url, secret_name, password_min_length) or a
// count (token_budget) rather than the secret.
var nameStops = setOf("id", "ids", "name", "names", "url", "uri", "urls", "endpoint", "file", "path", "dir",
	"length", "len", "size", "count", "type", "kind", "env", "var", "header", "prefix", "field", "label",
	"hint", "ttl", "expiry", "expires", "expiration", "lifetime", "limit", "limits", "timeout", "budget",
	"policy", "format", "version", "mode", "arn", "ref", "provider", "store", "manager", "usage", "used",
	"estimate", "cost", "regex", "pattern", "template", "location", "source", "min", "max", "age", "reset",
	"rules", "strength", "last", "changed")

// namePrefixStops are words that, right before the secret word, name
// something that is not a credential (csrf_token, next_page_token,
// max_token_length, CancellationToken) or a token that only orders or
// deduplicates requests (ClientRequestToken, ChangeToken, LockToken).
var namePrefixStops = setOf("csrf", "xsrf", "public", "page", "next", "continuation", "cancellation",
	"max", "min", "num", "sync", "request", "idempotency", "change", "action", "verification", "output",
	"lock", "update")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// genericSecret judges an assignment: the name must name a secret (not a
// token count or a secret's name) and the value must look random.
func genericSecret(match, value string) bool {
	n := 0
	for n < len(match) && nameBytes[match[n]] {
		n++
	}
	return len(value) >= 8 && secretName(match[:n]) && randomValue(value)
}

// assigned reports whether s opens with a name and an assignment
// operator, as every match of the assignment rules does.
func assigned(s string) bool {
	_, ok := operator(s)
	return ok
}

// operator skips the name, the closing quote and the blanks at the start
// of s, and reports where the operator after them ends, if one starts
// there (its first byte: the value may begin with operator bytes).
func operator(s string) (int, bool) {
	i := 0
	for i < len(s) && nameBytes[s[i]] {
		i++
	}
	if i == 0 {
		return 0, false
	}
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i == len(s) || strings.IndexByte(":=?", s[i]) < 0 {
		return 0, false
	}
	return i + 1, true
}

// valueEnds are the bytes an unquoted value may end at.
var valueEnds = bytesOf(" \t\r\f\"'`)}],;&|\\")

// assignedSecret is [assigned] for the generic rule, which asks more: a
// name that names a secret, and a value that a secret could be: quoted,
// closing at least 8 bytes on, or unquoted, at least 8 bytes long and
// ending where values end, not at the "(" or "[" of code
// (os.Getenv("PASSWORD"), headers["Authorization"]). Every secret the
// rule finds passes it (FuzzAssignedSecret).
func assignedSecret(s string) bool {
	k, ok := operator(s)
	if !ok {
		return false
	}
	n := 0
	for n < len(s) && nameBytes[s[n]] {
		n++
	}
	if !secretName(s[:n]) {
		return false
	}
	p := k
	for p < len(s) && strings.IndexByte(" \t:=?>", s[p]) >= 0 {
		p++
	}
	if p == len(s) {
		return false
	}
	if q := s[p]; q == '"' || q == '\'' || q == '`' {
		return strings.IndexByte(s[p+1:], q) >= 8
	}
	q := p
	for q < len(s) && !valueEnds[s[q]] && strings.IndexByte("<>({[", s[q]) < 0 {
		q++
	}
	if q-k < 8 {
		return false
	}
	return q == len(s) || valueEnds[s[q]]
}

// secretName reports whether a variable or key name names a secret: its
// last secret word (password, secret, token, api key, private key, with
// any prefix: dbpassword, accessToken) is neither a plural nor a longer
// word (tokenizer, secretary) nor qualified into a property of the secret,
// and it ends the name's last dotted part (db.password, but not
// Token.Prompt, a field of something called Token).
func secretName(name string) bool {
	var buf [16]string
	words, last := nameWords(buf[:0], name)
	for i := len(words) - 1; i >= 0; i-- {
		n := secretWord(words, i)
		if n == 0 {
			continue
		}
		if i+n <= last {
			return false
		}
		if i > 0 && namePrefixStops[words[i-1]] || i+n < len(words) && nameStops[words[i+n]] {
			return false
		}
		return true
	}
	return false
}

// secretWord is how many words from i name a secret: 1 (token), 2 (api
// key), or 0.
func secretWord(words []string, i int) int {
	w := words[i]
	for _, s := range []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "privatekey"} {
		if strings.HasSuffix(w, s) {
			return 1
		}
	}
	if i+1 < len(words) && words[i+1] == "key" && (strings.HasSuffix(w, "api") || w == "private") {
		return 2
	}
	return 0
}

// nameWords splits a name at _ . - and at camelCase humps, in lower case:
// AWS_SECRET_KEY and awsSecretKey both give aws, secret, key. A name in
// capitals only is split at its separators only. The words are appended
// to words; last is the index of the first word of the last dotted part
// (len(words) when that part is empty).
func nameWords(words []string, name string) (_ []string, last int) {
	lower := strings.ToLower(name)
	start := 0
	add := func(end int) {
		if end > start {
			words = append(words, lower[start:end])
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '.' || c == '-':
			add(i)
			start = i + 1
			if c == '.' {
				last = len(words)
			}
		case i > start && 'A' <= c && c <= 'Z' && 'a' <= name[i-1] && name[i-1] <= 'z':
			add(i)
			start = i
		}
	}
	add(len(name))
	return words, last
}

// randomValue reports whether an assigned value looks generated or chosen
// to be hard to guess rather than written to be read: no spaces, not a
// reference ($VAR, a dotted name, a path, a URL, a template, a variable
// named for a secret), not words joined by dashes (my-app-secret-2), a
// letter and a digit or symbol, and an entropy of 3.5 bits a byte, or of 3
// when it mixes three classes of character (Summer2023!) or is long (hex,
// at most 4 bits a byte, often falls short of 3.5).
func randomValue(v string) bool {
	if strings.ContainsAny(v, " \t") || v[0] == '$' || v[0] == '@' || v[0] == '/' || v[0] == '~' ||
		strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.Contains(v, "://") {
		return false
	}
	if i := strings.IndexByte(v, '{'); i >= 0 && strings.IndexByte(v[i:], '}') > 0 {
		return false // a template: {name}, #{name}, {0}
	}
	var upper, lower, digit, symbol bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case 'A' <= c && c <= 'Z':
			upper = true
		case 'a' <= c && c <= 'z':
			lower = true
		case '0' <= c && c <= '9':
			digit = true
		case c != '_' && c != '-' && c != '.':
			symbol = true
		}
	}
	if !upper && !lower || !digit && !symbol || dottedName(v) || wordy(v) || namesSecret(v) {
		return false
	}
	classes := 0
	for _, b := range []bool{upper, lower, digit, symbol} {
		if b {
			classes++
		}
	}
	h := entropy(v)
	return h >= 3.5 || h >= 3 && (classes >= 3 || len(v) >= 20)
}

// namesSecret reports whether v has a secret's name in it, as a variable
// holding one does (testRSA2048PrivateKey, dbPassword2) and a generated
// secret almost never does.
func namesSecret(v string) bool {
	low := strings.ToLower(v)
	for _, w := range []string{"passw", "secret", "token", "key", "credential"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// dottedName reports whether v reads as a reference in code:
// settings.DB_PASSWORD, process.env.TOKEN.
func dottedName(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || '0' <= p[0] && p[0] <= '9' {
			return false
		}
		for i := 0; i < len(p); i++ {
			if !wordBytes[p[i]] {
				return false
			}
		}
	}
	return true
}

// wordy reports whether v is words and numbers joined by - _ . : or /
// (prod-db-2024, my_app_secret_v): a name, however long.
func wordy(v string) bool {
	for _, p := range strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune("-_.:/", r) }) {
		letters, digits := 0, 0
		for i := 0; i < len(p); i++ {
			switch c := p[i]; {
			case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
				letters++
			case '0' <= c && c <= '9':
				digits++
			default:
				return false
			}
		}
		if letters > 0 && digits > 0 {
			return false
		}
	}
	return true
}

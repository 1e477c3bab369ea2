package scrub

import (
	"slices"
	"testing"
)

// Obviously fake secrets of the right shape, built from parts.
var (
	fakeGitHub = "gh" + "p_" + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij"
	fakeKey    = "-----BEGIN RSA " + "PRIVATE KEY-----\n" +
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/\n" +
		"ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba9876543210/+\n" +
		"-----END RSA " + "PRIVATE KEY-----"
)

func TestScrub(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, text, want string
		hits             []Hit
	}{
		{"nothing", "token budget: 60k\n", "token budget: 60k\n", nil},
		{"only the password of a URL",
			"db: postgres://app:N7q2vLx9pR4s@db.internal:5432/app\n",
			"db: postgres://app:[redacted:url-password]@db.internal:5432/app\n",
			[]Hit{{1, kindURLPassword}}},
		{"the specific rule wins", "x\nGITHUB_TOKEN=" + fakeGitHub,
			"x\nGITHUB_TOKEN=[redacted:github-token]", []Hit{{2, kindGitHub}}},
		{"a block keeps its line breaks", "key:\n" + fakeKey + "\nafter\n",
			"key:\n[redacted:private-key]\n\n\n\nafter\n", []Hit{{2, kindPrivateKey}}},
		{"two on a line", "password = \"Tr0ub4dor&3xK\" # " + fakeGitHub,
			"password = \"[redacted:generic-secret]\" # [redacted:github-token]",
			[]Hit{{1, kindGeneric}, {1, kindGitHub}}},
		{"a marker is no secret", "postgres://app:[redacted:url-password]@db/app password=\"[redacted:x]\"",
			"postgres://app:[redacted:url-password]@db/app password=\"[redacted:x]\"", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, red := Text(c.text)
			if got != c.want {
				t.Errorf("Scrub:\n got %q\nwant %q", got, c.want)
			}
			if hits := Find(c.text); !slices.Equal(hits, c.hits) {
				t.Errorf("FindSecrets = %v, want %v", Find(c.text), c.hits)
			}
			if red.Total() != len(c.hits) {
				t.Errorf("counted %v, want %d", red, len(c.hits))
			}
		})
	}
}

func TestRedactions(t *testing.T) {
	t.Parallel()
	var none Redactions
	if none.Line() != "" || none.Total() != 0 {
		t.Fatalf("nothing redacted: %q", none.Line())
	}
	r := Redactions{"aws-access-key": 1, "github-token": 2}.Merge(Redactions{"aws-access-key": 1, "jwt": 1})
	if got, want := r.Line(), "5 secrets redacted (aws-access-key, github-token, jwt)"; got != want {
		t.Errorf("Line() = %q, want %q", got, want)
	}
	if got, want := (Redactions{"github-token": 1}).Line(), "1 secret redacted (github-token)"; got != want {
		t.Errorf("Line() = %q, want %q", got, want)
	}
	if r.Total() != 5 || !slices.Equal(r.Kinds(), []string{"aws-access-key", "github-token", "jwt"}) {
		t.Errorf("Total %d, Kinds %v", r.Total(), r.Kinds())
	}
}

func TestSecretName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"password": true, "DB_PASSWORD": true, "dbpassword": true, "accessToken": true, "api_key": true,
		"X-API-Key": true, "apiKey": true, "APIKEY": true, "client_secret": true, "SECRET_KEY_BASE": true,
		"private_key": true, "passphrase": true, "--password": true, "GITHUB_TOKEN": true,
		"tokenizer": false, "max_tokens": false, "token_budget": false, "secret_name": false,
		"secretName": false, "password_min_length": false, "csrf_token": false, "tokenURL": false,
		"secretary": false, "TOKENS": false, "api_key_id": false, "keyboard": false, "nextPageToken": false,
		"db.password": true, "app.api.key": true, "client.apiKey": true, "this._password": true,
		"Token.OutPrompt": false, "ClientRequestToken": false, "PasswordLastUsed": false,
	} {
		if got := secretName(name); got != want {
			t.Errorf("secretName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestRandomValue(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{
		"Tr0ub4dor&3xK": true, "Summer2024!Xy": true, "q9Lm2Vx7Rt4Z": true,
		"5d41402abc4b2a76b9719d911017c592": true, "dafa7817-e246-48f3-91a7-e87653d587b8": true,
		"cl100k_base": false, "my-app-secret-2": false, "prod-db-2024": false, "settings.SECRET_KEY": false,
		"process.env.DB_PASSWORD2": false, "$GITHUB_TOKEN": false, "/var/run/secrets/token": false,
		"12345678901": false, "abcdefghij": false, "correct horse battery": false, "v1.2.3-beta": false,
		"https://a.example/x1": false, "testRSA2048PrivateKey": false, "{current_phrase}": false,
		"#{user}:#{pw9}": false,
	} {
		if got := randomValue(v); got != want {
			t.Errorf("randomValue(%q) = %v, want %v (entropy %.2f)", v, got, want, entropy(v))
		}
	}
}

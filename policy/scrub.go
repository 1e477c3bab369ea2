package policy

import "github.com/wakeproto/wake/policy/scrub"

// SecretHit is a secret-looking string found in a text: its line (from 1)
// and kind, never its value.
type SecretHit = scrub.Hit

// Redactions counts by kind the secrets [Scrub] replaced.
type Redactions = scrub.Redactions

// Scrub returns text with every secret-looking string replaced by
// [redacted:<kind>] and the count of what was replaced. Scrubbing twice
// gives what scrubbing once gives.
func Scrub(text string) (string, Redactions) { return scrub.Text(text) }

// FindSecrets lists the secret-looking strings in text, for a check that
// must say where they are without showing them.
func FindSecrets(text string) []SecretHit { return scrub.Find(text) }

// ScrubFind is [Scrub] and [FindSecrets] in one search of text: for the
// session start, which shows a document scrubbed and warns where it held
// secrets.
func ScrubFind(text string) (string, Redactions, []SecretHit) { return scrub.TextFind(text) }

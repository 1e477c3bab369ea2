package store

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// A decision log written with CRLF line endings keeps them: the entries
// decide, reverse and a hand-off append take the file's line ending, and
// the result has no bare LF.
func TestDecisionEntriesKeepTheLogsLineEnding(t *testing.T) {
	t.Parallel()
	const crlf = "# Decisions\r\n\r\n[2026-11-01] DECISION: Use TOML BECAUSE: YAML broke\r\nSTATUS: active\r\n"
	// The hand-written entry gets its ID line, in the file's line ending.
	const crlfID = crlf + "ID: d-f1b5ab-wtest\r\n"
	for _, tc := range []struct {
		name string
		log  string
		run  func(*Store) error
		want string
	}{
		{"decide", crlf, func(s *Store) error {
			_, err := s.Decide(context.Background(), NewDecision{What: "Use SQLite", Why: "one file", Topic: "storage"})
			return err
		}, crlfID + "\r\n[2026-11-22] DECISION: Use SQLite BECAUSE: one file\r\nID: d-1ccbb9-wtest\r\nSTATUS: active\r\nTOPIC: storage\r\n"},
		{"decide after no final newline", strings.TrimSuffix(crlf, "\r\n"), func(s *Store) error {
			_, err := s.Decide(context.Background(), NewDecision{What: "Use SQLite", Why: "one file"})
			return err
		}, crlfID + "\r\n[2026-11-22] DECISION: Use SQLite BECAUSE: one file\r\nID: d-1ccbb9-wtest\r\nSTATUS: active\r\n"},
		{"reverse", crlf, func(s *Store) error {
			_, err := s.Reverse(context.Background(), num(1), NewDecision{What: "Use JSON", Why: "no parser"})
			return err
		}, "# Decisions\r\n\r\n[2026-11-01] DECISION: Use TOML BECAUSE: YAML broke\r\nSTATUS: reversed\r\nID: d-f1b5ab-wtest\r\nREVERSED_BY: [2026-11-22] Use JSON BECAUSE: no parser\r\n" +
			"\r\n[2026-11-22] DECISION: Use JSON BECAUSE: no parser\r\nID: d-8d98ff-wtest\r\nSTATUS: active\r\n"},
		{"hand-off", crlf + "\r\n", func(s *Store) error {
			_, err := WriteSession(context.Background(), s, faultInput("crlf"))
			return err
		}, crlfID + "\r\n[2026-11-22] DECISION: Decided in crlf BECAUSE: a test\r\nID: d-9b373a-wtest\r\nSTATUS: active\r\n"},
		{"LF stays LF", "[2026-11-01] DECISION: A BECAUSE: b\n", func(s *Store) error {
			_, err := s.Decide(context.Background(), NewDecision{What: "C", Why: "d"})
			return err
		}, "[2026-11-01] DECISION: A BECAUSE: b\nID: d-f7b550-wtest\n\n[2026-11-22] DECISION: C BECAUSE: d\nID: d-9062d3-wtest\nSTATUS: active\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			s, _ := newHandoffStore(t, fs)
			afero.WriteFile(fs, s.Path(tiers.DecisionsPath), []byte(tc.log), 0o644)
			if err := tc.run(s); err != nil {
				t.Fatal(err)
			}
			if got := hoRead(t, s, tiers.DecisionsPath); got != tc.want {
				t.Fatalf("log\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

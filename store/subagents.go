package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
)

// SubagentsPath is the registry of the capsules wake gave subagents as
// they started, in the memory root: one JSON line an injection, appended,
// never rewritten, so that an auditor can see what state was shared with
// which agent.
const SubagentsPath = "subagents.jsonl"

// OpSubagent is the ledger op of an injection.
const OpSubagent = "subagent"

// SubagentRecord is one line of [SubagentsPath].
type SubagentRecord struct {
	At        time.Time `json:"at"`
	Capsule   string    `json:"capsule"` // the capsule's id: "main/20261122T223000Z"
	AgentID   string    `json:"agent_id"`
	AgentType string    `json:"agent_type"`
	Client    string    `json:"client"`            // "claude" or "codex"
	Session   string    `json:"session,omitempty"` // the client's id of the main session
	Bytes     int       `json:"bytes"`             // the size of the context given, in bytes
	// Cut is how many of the capsule's lines were left out to fit the
	// agent type's byte limit; 0 when the subagent got it whole.
	Cut int `json:"cut"`
	// Pinned says the capsule was the one pinned to the branch
	// ([CapsulePin]) rather than the branch's newest.
	Pinned bool `json:"pinned,omitempty"`
	// Mini says the subagent was given the capsule's miniature (its
	// mission, pending actions and the decisions bearing on them) and
	// Tokens its exact size, as its agent type is configured.
	Mini   bool `json:"mini,omitempty"`
	Tokens int  `json:"tokens,omitempty"`
}

// RecordSubagent appends r to the registry and a ledger line (op
// subagent) naming the capsule and the agent, under the root's lock.
func (s *Store) RecordSubagent(ctx context.Context, r SubagentRecord) error {
	if r.At.IsZero() {
		r.At = s.Now()
	}
	r.At = r.At.UTC().Truncate(time.Second)
	return s.Mutate(ctx, func() (Entry, error) {
		line, err := json.Marshal(r)
		if err != nil {
			return Entry{}, err
		}
		if err := CheckLedgerWritable(s.FS, s.Root); err != nil {
			return Entry{}, err
		}
		if err := appendLine(s.FS, s.Root, SubagentsPath, line); err != nil {
			return Entry{}, err
		}
		return Entry{At: r.At, Op: OpSubagent, Paths: []string{SubagentsPath}, ChangeSummary: r.summary()}, nil
	})
}

// summary is the ledger line's change_summary: "capsule main/2026… given
// to subagent general-purpose (agent a1b2, claude), 3,912 bytes, 4 lines
// cut".
func (r SubagentRecord) summary() string {
	id := r.AgentID
	if id == "" {
		id = "no id"
	}
	typ := r.AgentType
	if typ == "" {
		typ = "of no type"
	}
	s := fmt.Sprintf("capsule %s given to subagent %s (agent %s, %s), %s bytes", r.Capsule, oneLine(typ), oneLine(id), oneLine(r.Client), budget.Thousands(r.Bytes))
	if r.Cut > 0 {
		s += fmt.Sprintf(", %d line(s) of it cut", r.Cut)
	}
	return s
}

// ReadSubagents reads the registry's injections; a missing registry is
// empty. Lines that are not records (torn by a crash, edited by hand)
// come back as bad lines; pins ([ReadCapsulePins]) are left out.
func ReadSubagents(fsys afero.Fs, root string) ([]SubagentRecord, []BadLine, error) {
	f, err := openJSONL(fsys, root, SubagentsPath, false)
	if err != nil || f == nil {
		return nil, nil, err
	}
	defer f.Close()
	var out []SubagentRecord
	var bad []BadLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var r SubagentRecord
		if err := json.Unmarshal(line, &r); err != nil {
			bad = append(bad, BadLine{Line: n, Err: err.Error()})
			continue
		}
		if isPinLine(line) {
			continue
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return out, bad, fmt.Errorf("reading %s: %w", SubagentsPath, err)
	}
	return out, bad, nil
}

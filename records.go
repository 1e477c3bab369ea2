package wake

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// The records a memory root keeps, read as they are, with no open
// [Memory]: the decision log, the ledger and the user's trusted roots. A
// wake.toml wake cannot read does not stop them.

// Decisions is the decision log as wake shows it.
type Decisions struct {
	Log tiers.DecisionLog
	// Held is the sensitivity level that holds the log back ("secret",
	// "confidential"), or "": a held-back log is shown by its counts alone,
	// and Log then holds its entries for counting, never for showing.
	Held string
	// Planned are the IDs wake gives the entries that have none at its
	// next write of the log, by entry number: the commands that name a
	// decision take them already.
	Planned map[int]string
	// Redacted counts the secret-looking strings scrubbed from Log's texts.
	Redacted policy.Redactions
	// Archived are the reversed entries wake compact moved to the
	// decisions archive; none when the log is held back.
	Archived tiers.DecisionLog
}

// ReadDecisions reads the decision log of the memory root at root, after
// finishing any write a crash interrupted. It is read as a document: a
// symlink out of the root, a device or a binary file is refused, so that
// wake never shows a file it does not hold; one over the read limit is
// read whole, since listing every decision needs all of them.
func ReadDecisions(root string, o Options) (Decisions, error) {
	m := bare(root, o)
	m.recover(context.Background())
	d, err := tiers.ReadDoc(m.o.FS, root, tiers.DecisionsPath)
	if err != nil {
		return Decisions{}, err
	}
	if d.Skipped != "" {
		return Decisions{}, fmt.Errorf("%s: %s", tiers.DecisionsPath, d.Skipped)
	}
	content := d.Content
	if d.Huge {
		if content, err = tiers.ReadOwn(m.o.FS, root, tiers.DecisionsPath); err != nil {
			return Decisions{}, err
		}
	}
	out := Decisions{Log: tiers.ParseDecisions(content), Planned: map[int]string{}}
	// The plan avoids the IDs the ledger records, as the write's does; an
	// unreadable ledger stops that write anyway.
	written, _ := store.WrittenDecisionIDs(m.o.FS, root)
	known := tiers.IDSet{}
	for _, w := range written {
		known.Add(w.ID)
	}
	writer, err := m.Store().WriterID()
	if err != nil {
		return Decisions{}, err
	}
	for _, a := range tiers.PlanIDs(out.Log, known, writer) {
		out.Planned[a.Number] = a.ID
	}
	if lvl, _ := policy.OfDoc(d); !d.Missing && policy.Withheld(lvl) {
		out.Held = lvl
	}
	// What is shown is scrubbed of pasted credentials; the IDs were
	// planned from the log as it is.
	out.Log, out.Redacted = policy.ScrubDecisions(out.Log)
	if out.Held == "" {
		ar, err := store.ReadDecisionsArchive(m.o.FS, root)
		if err != nil {
			return Decisions{}, err
		}
		var red policy.Redactions
		out.Archived, red = policy.ScrubDecisions(ar)
		for k, n := range red {
			if out.Redacted == nil {
				out.Redacted = policy.Redactions{}
			}
			out.Redacted[k] += n
		}
	}
	return out, nil
}

// LogFilter selects ledger entries; the zero filter selects every one.
type LogFilter struct {
	Since time.Duration // only entries this recent; 0: all
	Op    string        // only entries of this op; "": all
}

// Ledger is the ledger as wake shows it: newest first, with what the
// sensitivity policy holds back counted, never shown.
type Ledger struct {
	Entries  []store.Entry
	HeldBack int               // entries touching a secret document
	Bad      []store.BadLine   // lines that could not be read, skipped
	Redacted policy.Redactions // secret-looking strings scrubbed from Entries
}

// ReadLedger reads the ledger of the memory root at root, after finishing
// any write a crash interrupted, and keeps the entries f selects.
func ReadLedger(root string, o Options, f LogFilter) (Ledger, error) {
	m := bare(root, o)
	m.recover(context.Background())
	entries, bad, err := store.ReadLedger(m.o.FS, root)
	if err != nil {
		return Ledger{}, err
	}
	now := m.o.Now()
	kept := []store.Entry{}
	for _, e := range entries {
		if f.Since > 0 && e.At.Before(now.Add(-f.Since)) || f.Op != "" && e.Op != f.Op {
			continue
		}
		kept = append(kept, e)
	}
	slices.Reverse(kept)
	slices.SortStableFunc(kept, func(a, b store.Entry) int { return b.At.Compare(a.At) })
	kept, held, red := policy.RedactLedger(kept, func(p string) string { return policy.OfPath(m.o.FS, root, p) })
	return Ledger{Entries: kept, HeldBack: held, Bad: bad, Redacted: red}, nil
}

// TrustedRoot is a root in the user's trust store and what became of it.
type TrustedRoot struct {
	tiers.TrustedRoot
	// State is "trusted" when its wake.toml is the file trusted (or it
	// still has none, when it was trusted without one), "changed" when
	// that differs, "missing" when the root is gone.
	State string
}

// TrustedRoots lists the user's trusted roots, and the store's path.
func TrustedRoots(o Options) ([]TrustedRoot, string, error) {
	m := bare("", o)
	dir := tiers.UserDir(m.o.Env)
	if dir == "" {
		return nil, "", ErrNoUserDir
	}
	store, err := tiers.ReadTrust(m.o.FS, dir)
	if err != nil {
		return nil, "", err
	}
	out := []TrustedRoot{}
	for _, r := range store.Roots {
		out = append(out, TrustedRoot{r, trustState(m, r)})
	}
	return out, dir, nil
}

// trustState is what became of a trusted root. wake.toml is read as
// wake's own file (no link, capped).
func trustState(m *Memory, r tiers.TrustedRoot) string {
	if fi, err := m.o.FS.Stat(r.Root); err != nil || !fi.IsDir() {
		return "missing"
	}
	data, err := tiers.ReadOwn(m.o.FS, r.Root, tiers.ConfigPath)
	switch {
	case errors.Is(err, fs.ErrNotExist) && r.SHA256 == "":
		return "trusted"
	case err != nil:
		return "changed"
	case tiers.TrustDigest(data) == r.SHA256 || tiers.ConfigHash(data) == r.SHA256:
		return "trusted"
	}
	return "changed"
}

// ListingCounter is the token counter of the memory root at root, with
// the encoding its wake.toml names (the default one when the file cannot
// be read: a listing must not fail for it), for paging a listing of its
// records ([report.Pager]).
func ListingCounter(root string, o Options) (budget.Counter, error) {
	m := bare(root, o)
	enc := tiers.DefaultConfig().Encoding
	if data, err := m.readConfig(); err == nil && data != nil {
		if cfg, err := tiers.ParseConfig(m.path(tiers.ConfigPath), data); err == nil {
			enc = cfg.Encoding
		}
	}
	newEncoder := o.Encoder
	if newEncoder == nil {
		newEncoder = budget.NewEncoder
	}
	return newEncoder(enc)
}

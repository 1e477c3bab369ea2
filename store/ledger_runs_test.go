package store

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// readCountFs counts the bytes read from the ledger.
type readCountFs struct {
	afero.Fs
	n atomic.Int64
}

type readCountFile struct {
	afero.File
	n *atomic.Int64
}

func (f readCountFile) Read(b []byte) (int, error) {
	n, err := f.File.Read(b)
	f.n.Add(int64(n))
	return n, err
}

func (f readCountFile) ReadAt(b []byte, off int64) (int, error) {
	n, err := f.File.ReadAt(b, off)
	f.n.Add(int64(n))
	return n, err
}

func (c *readCountFs) wrap(f afero.File, err error) (afero.File, error) {
	if err != nil || path.Base(f.Name()) != "ledger.jsonl" {
		return f, err
	}
	return readCountFile{f, &c.n}, nil
}

func (c *readCountFs) Open(name string) (afero.File, error) { return c.wrap(c.Fs.Open(name)) }

func (c *readCountFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	return c.wrap(c.Fs.OpenFile(name, flag, perm))
}

// wantSince is the window by brute force: every readable entry stamped at
// or after since, oldest first, lines of one time in file order.
func wantSince(t *testing.T, fs afero.Fs, since time.Time) []Entry {
	t.Helper()
	all, _, err := ReadLedger(fs, "/r")
	if err != nil {
		t.Fatal(err)
	}
	out := slices.DeleteFunc(all, func(e Entry) bool { return e.At.Before(since) })
	slices.SortStableFunc(out, func(a, b Entry) int { return a.At.Compare(b.At) })
	if len(out) == 0 {
		return nil
	}
	return out
}

// TestReadLedgerSinceByTime proves the window is chosen by time, not by
// the lines' place: a ledger merged by hand (another clone's lines, older,
// after the newer ones, then interleaved) and written under a clock set
// back gives every entry of the window, none outside it, and the record
// of the runs, kept from one read to the next, gives the same as a read
// without it. Once the record is made, a read after an append reads the
// window's runs, not the ledger.
func TestReadLedgerSinceByTime(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(25))
	count := &readCountFs{Fs: afero.NewMemMapFs()}
	fs := afero.Fs(count)
	line := func(side string, i int, at time.Time) string {
		b, err := json.Marshal(Entry{At: at, Op: "decide", Paths: []string{"warm/decisions.md"},
			ChangeSummary: fmt.Sprintf("%s %d %s", side, i, strings.Repeat("x", rng.Intn(200)))})
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	var b strings.Builder
	for i := range 4000 { // ours: a line a minute
		b.WriteString(line("ours", i, ledgerT0.Add(time.Duration(i)*time.Minute)))
	}
	// theirs, merged by taking both sides: their lines, older, after ours
	for i := range 300 {
		b.WriteString(line("theirs", i, ledgerT0.Add(time.Duration(3000+i*3)*time.Minute+time.Second)))
	}
	writeLedger(t, fs, b.String())
	end := ledgerT0.Add(4000 * time.Minute)
	check := func(since time.Time) {
		t.Helper()
		got, bad, err := ReadLedgerSince(fs, "/r", since)
		if err != nil || bad != nil {
			t.Fatal(err, bad)
		}
		if want := wantSince(t, fs, since); !reflect.DeepEqual(got, want) {
			t.Fatalf("since %s: got %d entries, want %d", since, len(got), len(want))
		}
	}
	for _, back := range []time.Duration{0, time.Minute, time.Hour, 24 * time.Hour, 1000 * time.Hour} {
		check(end.Add(-back))
	}
	if _, err := fs.Stat("/r/" + tiers.StateDir + "/" + LedgerRunsFile); err != nil {
		t.Fatalf("no record of the runs: %v", err)
	}
	// A clock set back, then time goes on: a third run.
	f, err := fs.OpenFile("/r/ledger.jsonl", os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		f.WriteString(line("late", i, end.Add(-2*time.Hour+time.Duration(i)*time.Minute)))
	}
	f.Close()
	for _, back := range []time.Duration{0, 90 * time.Minute, 3 * time.Hour, 24 * time.Hour} {
		check(end.Add(-back))
	}
	// Without the record: the same.
	if err := fs.Remove("/r/" + tiers.StateDir + "/" + LedgerRunsFile); err != nil {
		t.Fatal(err)
	}
	check(end.Add(-3 * time.Hour))

	// The cost follows the window: an hour's read after an append reads
	// the runs that reach into the hour (theirs ended 13 hours before),
	// a few blocks, not the ledger's 600 kB.
	f, _ = fs.OpenFile("/r/ledger.jsonl", os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(line("new", 0, end.Add(time.Minute)))
	f.Close()
	fi, _ := fs.Stat("/r/ledger.jsonl")
	count.n.Store(0)
	check(end.Add(-time.Hour))
	read := count.n.Load() - fi.Size() // wantSince read it whole
	if read > 4*ledgerTailBlock {
		t.Errorf("an hour's window read %d bytes of a %d-byte ledger", read, fi.Size())
	}
}

// TestLedgerRunsRecord proves a damaged, foreign or stale record of the
// runs is not trusted.
func TestLedgerRunsRecord(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	var b strings.Builder
	for i := range 50 {
		e, _ := json.Marshal(ledgerEntry(i % 20)) // three runs
		b.Write(append(e, '\n'))
	}
	writeLedger(t, fs, b.String())
	since := ledgerT0.Add(15 * time.Hour)
	want := wantSince(t, fs, since)
	if got, _, _ := ReadLedgerSince(fs, "/r", since); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %d, want %d", len(got), len(want))
	}
	rec := "/r/" + tiers.StateDir + "/" + LedgerRunsFile
	data, err := afero.ReadFile(fs, rec)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 2+3 {
		t.Fatalf("record of %d lines, want a sum, a head and three runs:\n%s", n, data)
	}
	for _, bad := range []string{
		strings.Replace(string(data), "\t", " ", 1), // the sum no longer holds
		"garbage",                          // not a record
		string(data[:len(data)-1]) + "x\n", // damaged
	} {
		afero.WriteFile(fs, rec, []byte(bad), 0o644)
		if got, _, _ := ReadLedgerSince(fs, "/r", since); !reflect.DeepEqual(got, want) {
			t.Fatalf("with the record %q: got %d, want %d", bad, len(got), len(want))
		}
	}
	// The ledger cut and rewritten in another order: the record is stale.
	ReadLedgerSince(fs, "/r", since)
	b.Reset()
	for i := range 20 {
		e, _ := json.Marshal(ledgerEntry(19 - i))
		b.Write(append(e, '\n'))
	}
	writeLedger(t, fs, b.String())
	want = wantSince(t, fs, since)
	if got, _, _ := ReadLedgerSince(fs, "/r", since); !reflect.DeepEqual(got, want) || len(want) != 5 {
		t.Fatalf("after a rewrite: got %d, want %d (5)", len(got), len(want))
	}
}

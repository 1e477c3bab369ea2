package store

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// TestReadLedgerSinceTail checks the ledger read from its end against the
// same window read from the whole text, on ledgers long enough to take
// several blocks: in time order, with lines out of order, with bad,
// blank and torn lines, with and without a final newline, after an
// append, after a hand edit and after a cut.
func TestReadLedgerSinceTail(t *testing.T) {
	rng := rand.New(rand.NewSource(24))
	line := func(i int, at time.Time) string {
		b, err := json.Marshal(Entry{At: at, Op: "decide", Paths: []string{"warm/decisions.md"}, ChangeSummary: fmt.Sprintf("decision %d %s", i, strings.Repeat("x", rng.Intn(300)))})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	build := func(n int, mess bool) []string {
		var ls []string
		for i := range n {
			at := ledgerT0.Add(time.Duration(i) * time.Minute)
			if mess && rng.Intn(50) == 0 {
				at = at.Add(-time.Duration(rng.Intn(600)) * time.Minute) // a clock set back, or a merge
			}
			ls = append(ls, line(i, at))
			if mess {
				switch rng.Intn(200) {
				case 0:
					ls = append(ls, `{"at": torn`)
				case 1:
					ls = append(ls, "")
				case 2:
					ls = append(ls, "   ")
				}
			}
		}
		return ls
	}
	check := func(t *testing.T, fs afero.Fs, since time.Time) {
		t.Helper()
		data, err := afero.ReadFile(fs, "/r/ledger.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		want, wantBad, _ := ledgerSince(data, since)
		got, gotBad, err := ReadLedgerSince(fs, "/r", since)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotBad, wantBad) {
			t.Fatalf("since %s: got %d entries %v bad, want %d entries %v bad", since, len(got), gotBad, len(want), wantBad)
		}
	}
	for _, n := range []int{0, 1, 3, 200, 3000} {
		for _, mess := range []bool{false, true} {
			for _, final := range []string{"\n", ""} {
				t.Run(fmt.Sprintf("%d-%v-%q", n, mess, final), func(t *testing.T) {
					fs := afero.NewMemMapFs()
					ls := build(n, mess)
					writeLedger(t, fs, strings.Join(ls, "\n")+final)
					sinces := []time.Time{{}, ledgerT0, ledgerT0.Add(time.Duration(n) * time.Minute), ledgerT0.Add(time.Duration(n+10) * time.Minute)}
					for range 8 {
						sinces = append(sinces, ledgerT0.Add(time.Duration(rng.Intn(n+1))*time.Minute))
					}
					for _, since := range sinces {
						check(t, fs, since)
					}
					if n == 0 {
						return
					}
					// An append, a hand edit of a line in the window, a cut.
					ls = append(ls, line(n, ledgerT0.Add(time.Duration(n)*time.Minute)))
					writeLedger(t, fs, strings.Join(ls, "\n")+"\n")
					check(t, fs, ledgerT0.Add(time.Duration(n-5)*time.Minute))
					ls[len(ls)-2] = `{"at":"edited by hand"`
					writeLedger(t, fs, strings.Join(ls, "\n")+"\n")
					check(t, fs, ledgerT0.Add(time.Duration(n-5)*time.Minute))
					writeLedger(t, fs, strings.Join(ls[:len(ls)/2], "\n")+"\n")
					check(t, fs, ledgerT0.Add(time.Duration(n/2-5)*time.Minute))
					check(t, fs, time.Time{})
				})
			}
		}
	}
}

// Command loadfloor measures the floor of a first load (a `wake load`
// with no .state/) over a memory root: the CPU time to read every
// document once, sign it (SHA-256) and count its tokens, and to read the
// ledger once looking for decision IDs, in one process whose encoder is
// already built. A first load does at least that when it shows every
// folder's token total and keeps a record of every document for the edit
// detection; no first load can cost less than its floor, so the floor's
// growth between two roots bounds what a ratio between their first loads
// can be.
//
//	go run ./scripts/loadfloor [-samples 9] [-encoding cl100k_base] [-count=false] ROOT...
package main

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/wakeproto/wake/budget"
)

func main() {
	samples := flag.Int("samples", 9, "runs over each root; the median is printed")
	encoding := flag.String("encoding", "cl100k_base", "the encoding to count with")
	count := flag.Bool("count", true, "count every document's tokens (false: read and sign only, the floor of a first load that shows no folder totals)")
	flag.Parse()
	if flag.NArg() == 0 {
		log.Fatal("usage: loadfloor [-samples N] [-encoding NAME] ROOT...")
	}
	enc, err := budget.NewEncoder(*encoding)
	if err != nil {
		log.Fatal(err)
	}
	enc.Count("x") // the tables built before any measure
	fmt.Println("| root | documents | tokens | ledger lines naming decisions | floor, CPU ms |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, root := range flag.Args() {
		var times []float64
		var f floor
		for range max(1, *samples) {
			start := cpuTime()
			if f, err = measure(root, enc, *count); err != nil {
				log.Fatal(err)
			}
			times = append(times, float64(cpuTime()-start)/float64(time.Millisecond))
		}
		slices.Sort(times)
		fmt.Printf("| %s | %d | %d | %d | %.1f |\n", root, f.docs, f.tokens, f.decisionLines, times[len(times)/2])
	}
}

type floor struct{ docs, tokens, decisionLines int }

// measure reads every file under root but .state/ once: the ledger for
// its decision IDs, every other file signed, and counted when count is
// set.
func measure(root string, enc *budget.Encoder, count bool) (floor, error) {
	var f floor
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == ".state":
			return filepath.SkipDir
		case !d.Type().IsRegular():
			return nil
		}
		if _, err := os.Lstat(p); err != nil { // a first load checks each path is no link
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if d.Name() == "ledger.jsonl" {
			f.decisionLines += bytes.Count(data, []byte(`"decision_ids"`))
			return nil
		}
		sha256.Sum256(data)
		if count {
			f.tokens += enc.Count(string(data))
		}
		f.docs++
		return nil
	})
	return f, err
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		log.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

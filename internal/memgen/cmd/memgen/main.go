// Command memgen writes a generated memory root for the performance
// scripts: memgen [-decisions N] [-varied] [-inbox N] DIR [COLD_FILES [TIER_SCALE
// [TYPED_EVERY]]] (TYPED_EVERY: every n-th cold document gets memory_type
// front matter; -decisions: how many decision entries, -varied: varied,
// realistic active ones; -inbox: entries in warm/inbox.md, see
// memgen.Options).
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/memgen"
)

const usage = "usage: memgen [-decisions N] [-varied] [-inbox N] DIR [COLD_FILES [TIER_SCALE [TYPED_EVERY]]]"

func main() {
	o := memgen.Options{TierScale: 1, ColdFiles: 10000}
	flags := flag.NewFlagSet("memgen", flag.ContinueOnError)
	flags.IntVar(&o.Decisions, "decisions", 0, "decision entries (0: 270 a tier scale)")
	flags.BoolVar(&o.VariedDecisions, "varied", false, "varied, realistic active decisions")
	flags.IntVar(&o.Inbox, "inbox", 0, "entries in warm/inbox.md (0: no inbox)")
	if err := flags.Parse(os.Args[1:]); err != nil || o.Decisions < 0 || o.Inbox < 0 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	args := flags.Args()
	if len(args) < 1 || len(args) > 4 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	for i, p := range []*int{&o.ColdFiles, &o.TierScale, &o.TypedEvery} {
		if len(args) > i+1 {
			n, err := strconv.Atoi(args[i+1])
			if err != nil || n < 0 {
				fmt.Fprintf(os.Stderr, "memgen: error: %q is not a count\n", args[i+1])
				os.Exit(2)
			}
			*p = n
		}
	}
	if err := memgen.Generate(afero.NewOsFs(), args[0], o); err != nil {
		fmt.Fprintf(os.Stderr, "memgen: error: %v\n", err)
		os.Exit(1)
	}
}

// Command memgen writes a generated memory root for the performance
// scripts: memgen DIR [COLD_FILES [TIER_SCALE [TYPED_EVERY [DECISIONS]]]]
// (TYPED_EVERY: every n-th cold document gets memory_type front matter;
// DECISIONS: how many decisions warm/decisions.md holds).
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/memgen"
)

func main() {
	if len(os.Args) < 2 || len(os.Args) > 6 {
		fmt.Fprintln(os.Stderr, "usage: memgen DIR [COLD_FILES [TIER_SCALE [TYPED_EVERY [DECISIONS]]]]")
		os.Exit(2)
	}
	o := memgen.Options{TierScale: 1, ColdFiles: 10000}
	for i, p := range []*int{&o.ColdFiles, &o.TierScale, &o.TypedEvery, &o.Decisions} {
		if len(os.Args) > i+2 {
			n, err := strconv.Atoi(os.Args[i+2])
			if err != nil || n < 0 {
				fmt.Fprintf(os.Stderr, "memgen: error: %q is not a count\n", os.Args[i+2])
				os.Exit(2)
			}
			*p = n
		}
	}
	if err := memgen.Generate(afero.NewOsFs(), os.Args[1], o); err != nil {
		fmt.Fprintf(os.Stderr, "memgen: error: %v\n", err)
		os.Exit(1)
	}
}

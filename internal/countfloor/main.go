// Command countfloor is the floor a first `wake load` is measured
// against in scripts/bench-start.sh: it builds the token encoder once and
// counts each file named once, as a first start must at the least, and
// prints the total.
//
//	countfloor [-encoding NAME] FILE...
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

func main() {
	encoding := flag.String("encoding", tiers.EncodingCL100K, "the encoding to count with")
	flag.Parse()
	enc, err := budget.NewEncoder(*encoding)
	if err != nil {
		fmt.Fprintf(os.Stderr, "countfloor: error: %v\n", err)
		os.Exit(2)
	}
	total := 0
	for _, name := range flag.Args() {
		data, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "countfloor: error: %v\n", err)
			os.Exit(1)
		}
		total += enc.Count(string(data))
	}
	fmt.Println(total)
}

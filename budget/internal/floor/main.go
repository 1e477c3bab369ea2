// Command floor is the floor of a first session start, as a whole process
// to measure beside `wake load`: it builds the encoder and counts each
// file under DIR once (the Markdown files, not those under hidden
// directories such as .state/), then prints the total.
//
//	floor [-encoding cl100k_base|o200k_base] DIR
//
// A first `wake load --root DIR` (no .state/) in CPU time, divided by this
// command's, is the ratio of issue 15's third target; see
// BenchmarkFirstLoadFloor for the same floor inside one process.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wakeproto/wake/budget"
)

func main() {
	encoding := flag.String("encoding", "cl100k_base", "the tiktoken encoding")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: floor [-encoding NAME] DIR")
		os.Exit(2)
	}
	enc, err := budget.NewEncoder(*encoding)
	if err != nil {
		fmt.Fprintf(os.Stderr, "floor: error: -encoding: %v\n", err)
		os.Exit(2)
	}
	files, tokens := 0, 0
	err = filepath.WalkDir(flag.Arg(0), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != flag.Arg(0) && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".md") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		tokens += enc.Count(string(data))
		return nil
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "floor: error: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("%d files, %d tokens (%s)\n", files, tokens, *encoding)
}

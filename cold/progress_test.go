package cold

import (
	"testing"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/coldtree"
)

// TestScanProgress: a first scan reports reading every document it does
// not know, from 0 to the total, one call at a time, in order, on all
// its workers; a second scan through the same index reads nothing and
// reports nothing.
func TestScanProgress(t *testing.T) {
	defer func(old func() int) { readWorkers = old }(readWorkers)
	readWorkers = func() int { return 4 }
	enc := encoder(t)
	o := tocOptions(coldtree.FS(t, parallelTree()), budget.NewCache(enc.Name(), enc, nil))
	o.Index = NewIndex(enc.Name(), nil)
	var calls [][2]int
	inCall := false
	o.Progress = func(done, total int) {
		if inCall {
			t.Error("Progress called while a call is running")
		}
		inCall = true
		calls = append(calls, [2]int{done, total})
		inCall = false
	}
	buildTOC(t, o, NoFold)
	if len(calls) < 600 {
		t.Fatalf("%d progress calls for a first scan of over 600 documents", len(calls))
	}
	total := calls[0][1]
	for i, c := range calls {
		if c != [2]int{i, total} {
			t.Fatalf("call %d: %d of %d, want %d of %d", i, c[0], c[1], i, total)
		}
	}
	if len(calls) != total+1 {
		t.Errorf("%d calls for %d documents: the last is not done == total", len(calls), total)
	}
	calls = nil
	buildTOC(t, o, NoFold)
	// The racy documents (modified within the second) are read again.
	for _, c := range calls {
		if c[1] > 40 {
			t.Errorf("a second scan reads %d documents", c[1])
			break
		}
	}
}

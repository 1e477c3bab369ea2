package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// bigSession generates a Claude Code transcript of about size bytes, as a
// long session makes one: prompts, edits, large tool results, commands,
// and every few turns a line over the line cap (a huge file read back).
type bigSession struct {
	size, n int
	turn    int
	pending [][]byte // segments still to give, shared, never copied
}

func (g *bigSession) Read(p []byte) (int, error) {
	for len(g.pending) == 0 || len(g.pending[0]) == 0 {
		if len(g.pending) > 0 {
			g.pending = g.pending[1:]
			continue
		}
		if g.n >= g.size {
			return 0, io.EOF
		}
		g.pending = g.next()
	}
	k := copy(p, g.pending[0])
	g.pending[0] = g.pending[0][k:]
	g.n += k
	return k, nil
}

var (
	bigResult = []byte(strings.Repeat("file contents line, long enough to matter\\n", 6000)) // ~250 KB
	bigWrite  = []byte(strings.Repeat("package main // generated\\n", 2500))                 // ~65 KB
	hugeLine  = []byte(strings.Repeat("x", 9<<20))                                           // over the 8 MiB cap
)

func (g *bigSession) next() [][]byte {
	g.turn++
	i := g.turn
	ts := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano)
	out := [][]byte{
		fmt.Appendf(nil, `{"type":"user","message":{"role":"user","content":"prompt %d: keep going"},"timestamp":%q,"cwd":"/work/proj","sessionId":"s"}`+"\n", i, ts),
		fmt.Appendf(nil, `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"turn %d"},{"type":"tool_use","id":"w%d","name":"Write","input":{"file_path":"/work/proj/f%d.go","content":"`, i, i, i%300),
		bigWrite,
		fmt.Appendf(nil, `"}},{"type":"tool_use","id":"b%d","name":"Bash","input":{"command":"go test ./pkg%d"}}]},"timestamp":%q}`+"\n", i, i, ts),
		fmt.Appendf(nil, `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"w%d","type":"tool_result","content":"ok"},{"tool_use_id":"b%d","type":"tool_result","content":"`, i, i),
		bigResult,
		fmt.Appendf(nil, `"}]},"timestamp":%q}`+"\n", ts),
	}
	if i%40 == 0 {
		out = append(out, []byte(`{"type":"user","message":{"role":"user","content":"`), hugeLine, []byte("\"}}\n"))
	}
	return out
}

// heapPeaks are the peaks of the heap while a function ran, above what
// was live before it: live is the heap marked live at a collection (what
// the code held), total all the heap's objects, the garbage not yet
// collected too (what the process used).
type heapPeaks struct{ live, total uint64 }

func (p heapPeaks) String() string {
	return fmt.Sprintf("peak live heap %.1f MiB, peak heap %.1f MiB", float64(p.live)/(1<<20), float64(p.total)/(1<<20))
}

// peakHeap samples the heap while f runs.
func peakHeap(f func()) heapPeaks {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	base := s[0].Value.Uint64()
	var live, total atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > live.Load() {
				live.Store(v)
			}
			if v := s[1].Value.Uint64(); v > total.Load() {
				total.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	above := func(v uint64) uint64 { return v - min(base, v) }
	return heapPeaks{above(live.Load()), above(total.Load())}
}

// TestBoundedMemory reads a 200 MB transcript, with lines over the cap,
// and checks that the live heap stays far below the transcript's size:
// bounded by the line cap, not by the input.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a generated 200 MB transcript")
	}
	// Its bound on all the heap is the collector's pacing at Go's default,
	// whatever the suite sets for its other tests (package testmain).
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	const size = 200 << 20
	var s *Summary
	var err error
	start := time.Now()
	peak := peakHeap(func() { s, err = Read(&bigSession{size: size}, Claude, DefaultLimits(), Scope{}) })
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("read %d MB (%d lines, %d over the cap) in %v: %v", size>>20, s.Lines, s.TooLong, elapsed.Round(time.Millisecond), peak)
	if s.TooLong == 0 || s.PromptCount < 100 || len(s.Edits) != 100 || s.MoreEdits != 200 || s.CommandCount < 100 {
		t.Errorf("summary: %d over the cap, %d prompts, %d+%d edits, %d commands", s.TooLong, s.PromptCount, len(s.Edits), s.MoreEdits, s.CommandCount)
	}
	// What the reader holds is bounded by the line cap (8 MiB) and the
	// decoding of one line below it (the buffer grows past the cap before it
	// knows a line is too long); the garbage between collections by
	// the collector's pacing. Neither grows with the transcript. The
	// bounds leave room for a collection that lands mid-line on a loaded
	// machine (31.7 MiB live was seen with the suite running in
	// parallel); a reader holding the transcript would need 200 MiB.
	if peak.live > 48<<20 || peak.total > 128<<20 {
		t.Errorf("%v: over 48 MiB live or 128 MiB in all", peak)
	}
	peak = peakHeap(func() { s, err = ReadWork(&bigSession{size: size}, Claude, 0, Scope{}) })
	if err != nil || !s.DidWork() {
		t.Fatalf("ReadWork: %v", err)
	}
	t.Logf("ReadWork: %v, stopped after %d lines", peak, s.Lines)
}

// BenchmarkRead measures reading a long Claude Code transcript.
func BenchmarkRead(b *testing.B) {
	const size = 50 << 20
	b.SetBytes(size)
	for b.Loop() {
		if _, err := Read(&bigSession{size: size}, Claude, DefaultLimits(), Scope{}); err != nil {
			b.Fatal(err)
		}
	}
}

// codexRollout is a long Codex rollout: turns whose commands print a
// megabyte each, as a build or a test run does.
func codexRollout(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"timestamp":"2026-11-22T10:00:00.000Z","type":"session_meta","payload":{"id":"s1","timestamp":"2026-11-22T10:00:00.000Z","cwd":"/p"}}` + "\n")
	out := strings.Repeat(`ok  \tgithub.com/x/y\t0.01s\n`, 1<<20/24)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `{"timestamp":"2026-11-22T10:%02d:00.000Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"go test ./...\"}","call_id":"call_%d"}}`+"\n", i%60, i)
		// In Codex's order: the payload's type and call_id before its output.
		output, _ := json.Marshal(out)
		fmt.Fprintf(&b, `{"timestamp":"2026-11-22T10:00:01.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_%d","output":%s}}`+"\n", i, output)
	}
	return b.Bytes()
}

// BenchmarkReadCodex measures reading a long Codex rollout, whose
// commands' outputs are most of it: Codex gives the SessionEnd hook that
// reads it 3 seconds at most.
func BenchmarkReadCodex(b *testing.B) {
	data := codexRollout(200 << 20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s, err := Read(bytes.NewReader(data), Codex, DefaultLimits(), Scope{})
		if err != nil || s.CommandCount == 0 {
			b.Fatal(err)
		}
	}
}

// Command lifecost lives one project's memory for many sessions through
// the wake library, on a real directory, and prints what each everyday
// operation costs at a few points of its life: a hand-off, a decision,
// the start after either, wake check and a first load (no .state/), as
// CPU time (user + system) in the process, the median of a few samples.
// Each is made as the command line makes it: a start as `wake load`
// prints it, through the start cache; a hand-off as `wake handoff`, which
// then primes the start cache for the next session's start.
// Cost should follow the change, not the history: the issue "Memory that
// stays whole as it grows" asks for 1,000 sessions within 1.5x of 50 (a
// first load within 2x).
//
// With -inforce N the life keeps at most N decisions in force: once N
// stand, each new decision reverses the oldest in force, and compaction
// archives it, so most of the history is archived and 50 and 1,000
// sessions have about as many decisions in force: the ratio between them
// is then the history's alone.
//
//	go run ./scripts/lifecost [-at 50,1000] [-samples 5] [-inforce N] [-dir DIR] [-cpuprofile FILE]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

func main() {
	at := flag.String("at", "50,1000", "the sessions after which to measure, comma-separated")
	samples := flag.Int("samples", 5, "samples of each operation at each point")
	dir := flag.String("dir", "", "where to keep the memory (a temporary directory if empty); a later run with the same one goes on living it")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the measured sessions at the last point to this file")
	inforce := flag.Int("inforce", 0, "keep at most this many decisions in force, each new one reversing the oldest in force (0: every second decision reverses the one of the session before last)")
	flag.Parse()
	// As the command line runs (cmd/wake's main), unless GOGC says.
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(wake.GCPercent)
	}
	var points []int
	for _, s := range strings.Split(*at, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			log.Fatalf("-at %q: want session numbers", *at)
		}
		points = append(points, n)
	}
	slices.Sort(points)
	if *dir == "" {
		d, err := os.MkdirTemp("", "lifecost")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	l, err := newLife(*dir, *inforce)
	if err != nil {
		log.Fatal(err)
	}
	var rows [][]string
	for _, p := range points {
		for l.Session < p {
			if _, err := l.live(false); err != nil {
				log.Fatalf("session %d: %v", l.Session+1, err)
			}
		}
		if err := l.save(); err != nil {
			log.Fatal(err)
		}
		// A history's files were written sessions apart, hours by its
		// clock; by the system's, the sessions just lived, or the copy of
		// a life made to measure it again (cp gives every file a new
		// change time), are a second old. The start cache keys a file
		// changed within the racy window by its content, every cold
		// document of a fresh copy included: a cost no real start pays.
		time.Sleep(fsrecord.RacyWindow)
		var stop func()
		if *prof != "" && p == points[len(points)-1] {
			f, err := os.Create(*prof)
			if err != nil {
				log.Fatal(err)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				log.Fatal(err)
			}
			stop = func() { pprof.StopCPUProfile(); f.Close() }
		}
		row, err := l.measure(*samples)
		if stop != nil {
			stop()
		}
		if err == nil {
			err = l.save()
		}
		if err != nil {
			log.Fatal(err)
		}
		rows = append(rows, row)
	}
	print(rows)
}

// life is the project: its memory root, its clock, what it decided,
// which reminders are open, whether a decision stands contested. It is
// saved beside the memory (lifeFile) so a later run with the same -dir
// goes on from where the last one stopped.
type life struct {
	root      string
	o         wake.Options
	now       time.Time
	ctx       context.Context
	Session   int       `json:"session"`
	Decided   int       `json:"decided"`
	Reversed  int       `json:"reversed"`
	Now       time.Time `json:"now"`
	Open      []int     `json:"open"`      // open reminders, oldest first
	IDs       []string  `json:"ids"`       // every decision's ID, in order
	Contested string    `json:"contested"` // the ID of the decision contested, "" if none
	// InForceMax is -inforce: at most this many decisions in force, 0 for
	// the default life. InForce are those in force, oldest first (kept
	// only with InForceMax).
	InForceMax int      `json:"inforce,omitempty"`
	InForce    []string `json:"in_force,omitempty"`
}

const lifeFile = "lifecost.json"

func newLife(dir string, inforce int) (*life, error) {
	l := &life{root: filepath.Join(dir, ".wake"), now: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC), ctx: context.Background(), InForceMax: inforce}
	l.o = wake.Options{Env: map[string]string{"HOME": filepath.Join(dir, "home")}, Now: func() time.Time { return l.now }}
	if b, err := os.ReadFile(filepath.Join(dir, lifeFile)); err == nil {
		l.InForceMax = 0
		if err := json.Unmarshal(b, l); err != nil {
			return nil, fmt.Errorf("%s: %w", lifeFile, err)
		}
		if inforce != 0 && inforce != l.InForceMax {
			return nil, fmt.Errorf("%s: this life was lived with -inforce %d, not %d", lifeFile, l.InForceMax, inforce)
		}
		l.now = l.Now
		return l, nil
	}
	if _, err := wake.Init(l.ctx, l.root, skeleton.Params{Agent: "Ava", Project: "bakery"}, l.o); err != nil {
		return nil, err
	}
	main, err := os.ReadFile(filepath.Join(l.root, "main.md"))
	if err != nil {
		return nil, err
	}
	return l, os.WriteFile(filepath.Join(l.root, "main.md"), []byte(strings.Replace(string(main), "## Purpose\n", "## Purpose\nKeep the books of a bakery.\n", 1)), 0o644)
}

// save writes the life's state beside the memory.
func (l *life) save() error {
	l.Now = l.now
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(filepath.Dir(l.root), lifeFile), b, 0o644)
}

// costs are one session's operations, in CPU time.
type costs struct {
	decide, afterDecide, handoff, afterHandoff, check, first time.Duration
}

// live lives the next session, about ten ledger lines of it: a decision
// (every second reverses the one of the session before last: over a long
// life an agent reverses perhaps a fifth to a half; with -inforce, the
// oldest in force once that many stand), three or four
// reminders and as many closed, a decision contested one session and
// upheld the next, a hand-off; every 25th session runs wake compact, as
// an agent obeying the directive to compress would. Measured, it times
// the decision, the start after it, the hand-off, the start after it,
// wake check and a first load. Sessions are 25 hours apart: the ledger
// lines of one have left the digest's 24-hour window when the next
// starts, as they have at most hours of a real day; exactly a day apart,
// each would leave it at the very moment the next session's hand-off
// primed the start cache, and every start after a hand-off would be built.
func (l *life) live(measured bool) (costs, error) {
	var c costs
	l.Session++
	l.now = l.now.Add(25 * time.Hour)
	m, err := wake.Open(l.root, l.o)
	if err != nil {
		return c, err
	}
	if err := l.chores(m); err != nil {
		return c, err
	}
	l.Decided++
	d := store.NewDecision{What: fmt.Sprintf("Keep module m%d on plan p%d", l.Decided, l.Decided), Why: fmt.Sprintf("session %d needed it", l.Session)}
	var ch store.DecisionChange
	decide := func() (err error) { ch, err = m.Decide(l.ctx, d); return err }
	switch {
	case l.InForceMax > 0 && len(l.InForce) >= l.InForceMax:
		ref := store.DecisionRef{ID: l.InForce[0]}
		l.InForce = l.InForce[1:]
		decide = func() (err error) { ch, err = m.Reverse(l.ctx, ref, d); return err }
		l.Reversed++
	case l.InForceMax == 0 && l.Session%2 == 0 && l.Decided > 3:
		ref := store.DecisionRef{ID: l.IDs[l.Decided-3]}
		decide = func() (err error) { ch, err = m.Reverse(l.ctx, ref, d); return err }
		l.Reversed++
	}
	if c.decide, err = cpu("decide", decide); err != nil {
		return c, err
	}
	id := ch.ID
	if ch.AddedID != "" {
		id = ch.AddedID
	}
	l.IDs = append(l.IDs, id)
	if l.InForceMax > 0 {
		l.InForce = append(l.InForce, id)
	}
	if measured {
		if c.afterDecide, err = l.start("start after decide"); err != nil {
			return c, err
		}
	}
	s := fmt.Sprintf("Session %d moved the import on", l.Session)
	in := handoff.Input{}
	in.Session.Summary, in.Session.NextPriority = s, fmt.Sprintf("step %d", l.Session+1)
	in.Session.Happened.Items = []string{fmt.Sprintf("worked on part %d", l.Session)}
	if c.handoff, err = cpu("hand-off", func() error { return l.handoff(m, in) }); err != nil {
		return c, err
	}
	if l.Session%25 == 0 {
		if _, err := m.Compact(l.ctx, false); err != nil {
			return c, err
		}
	}
	if !measured {
		return c, nil
	}
	if c.afterHandoff, err = l.start("start after hand-off"); err != nil {
		return c, err
	}
	if c.check, err = cpu("wake check", func() error {
		m, err := wake.Open(l.root, l.o)
		if err == nil {
			_, err = m.Check(l.ctx)
		}
		return err
	}); err != nil {
		return c, err
	}
	// A first load finds no .state/ (a fresh clone); the project's own is
	// put back after it, as the next session would find it.
	state := filepath.Join(l.root, ".state")
	if err := os.Rename(state, state+".kept"); err != nil {
		return c, err
	}
	if c.first, err = l.start("first load"); err != nil {
		return c, err
	}
	if err := os.RemoveAll(state); err != nil {
		return c, err
	}
	return c, os.Rename(state+".kept", state)
}

// chores are the session's unmeasured ledger lines: reminders added and
// closed (about ten stay open), a decision contested or upheld.
func (l *life) chores(m *wake.Memory) error {
	n := 3 + l.Session%2
	for i := range n {
		r, err := m.Remember(l.ctx, store.NewReminder{Text: fmt.Sprintf("check the oven log of week %d, part %d", l.Session, i)})
		if err != nil {
			return err
		}
		l.Open = append(l.Open, r.N)
	}
	for range n {
		if len(l.Open) <= 10 {
			break
		}
		if _, err := m.CloseReminder(l.ctx, l.Open[0], "checked"); err != nil {
			return err
		}
		l.Open = l.Open[1:]
	}
	if l.Contested != "" {
		if _, err := m.Uphold(l.ctx, store.DecisionRef{ID: l.Contested}, "the user kept it"); err != nil {
			return err
		}
		l.Contested = ""
	} else if l.Decided > 0 {
		if _, err := m.Contest(l.ctx, store.DecisionRef{ID: l.IDs[l.Decided-1]}, "it costs too much", "drop it"); err != nil {
			return err
		}
		l.Contested = l.IDs[l.Decided-1]
	}
	return nil
}

// loadView renders a start as `wake load` prints it: the context's text.
// The start cache keys its entries by the view's name.
var loadView = wake.View{Name: "load", Render: func(st *wake.Start, _ afero.Fs, _ func(wake.Notice)) (string, error) {
	return st.Text, nil
}}

// start times a session start as `wake load` makes it: through the start
// cache, served from it when nothing it read has changed since the start
// or priming that filled it, built (and kept) otherwise.
func (l *life) start(op string) (time.Duration, error) {
	return cpu(op, func() error {
		m, err := wake.Open(l.root, l.o)
		if err == nil {
			_, err = m.StartView(l.ctx, wake.BootFiles{NoSkill: true}, loadView)
		}
		return err
	})
}

// handoff is a hand-off as `wake handoff` makes it: the session written,
// then the start cache primed for each way this root's sessions started,
// so that the next start is served from it (a priming that read a boot
// file it then wrote is not kept, and runs once more).
func (l *life) handoff(m *wake.Memory, in handoff.Input) error {
	if _, err := m.Handoff(l.ctx, in, wake.BootFiles{NoSkill: true}); err != nil {
		return err
	}
	for _, name := range m.StartViews() {
		if name != loadView.Name {
			continue
		}
		for range 2 {
			kept, err := m.PrimeStart(l.ctx, loadView)
			if err != nil || kept {
				break
			}
		}
	}
	return nil
}

// measure lives samples more sessions, measured, and returns the table's
// row of their medians.
func (l *life) measure(samples int) ([]string, error) {
	var all []costs
	for range samples {
		c, err := l.live(true)
		if err != nil {
			return nil, err
		}
		all = append(all, c)
	}
	med := func(f func(costs) time.Duration) string {
		ds := make([]time.Duration, len(all))
		for i, c := range all {
			ds[i] = f(c)
		}
		slices.Sort(ds)
		return fmt.Sprintf("%.1f", float64(ds[len(ds)/2].Microseconds())/1000)
	}
	ledger, _ := os.ReadFile(filepath.Join(l.root, "ledger.jsonl"))
	return []string{strconv.Itoa(l.Session), strconv.Itoa(l.Decided), strconv.Itoa(l.Reversed),
		strconv.Itoa(l.entries(tiers.DecisionsPath)), strconv.Itoa(l.entries(store.DecisionsArchive)),
		strconv.Itoa(strings.Count(string(ledger), "\n")),
		med(func(c costs) time.Duration { return c.handoff }), med(func(c costs) time.Duration { return c.decide }),
		med(func(c costs) time.Duration { return c.afterHandoff }), med(func(c costs) time.Duration { return c.afterDecide }),
		med(func(c costs) time.Duration { return c.check }), med(func(c costs) time.Duration { return c.first })}, nil
}

// entries counts the decision entries of a decision log or its archive.
func (l *life) entries(rel string) int {
	b, _ := os.ReadFile(filepath.Join(l.root, filepath.FromSlash(rel)))
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "[") && strings.Contains(line, "] DECISION: ") {
			n++
		}
	}
	return n
}

// cpu runs f and returns the CPU time (user + system) it took. A CPU
// profile's samples in f carry the label op (go tool pprof -tagfocus
// op=decide). The garbage the operations before f left is collected
// first, outside the time: a command runs in a process of its own, and
// should not pay for the collection of another's.
func cpu(op string, f func() error) (time.Duration, error) {
	var err error
	runtime.GC()
	before := usage()
	pprof.Do(context.Background(), pprof.Labels("op", op), func(context.Context) { err = f() })
	return usage() - before, err
}

func usage() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func print(rows [][]string) {
	host, _ := os.Hostname()
	fmt.Printf("lifecost on %s, %s; CPU ms (user + system), median\n\n", host, time.Now().UTC().Format(time.RFC3339))
	head := []string{"sessions", "decisions", "reversed", "warm", "archived", "ledger lines", "hand-off", "decide", "start after hand-off", "start after decide", "wake check", "first load"}
	fmt.Println("| " + strings.Join(head, " | ") + " |")
	fmt.Println("|" + strings.Repeat("---:|", len(head)))
	for _, r := range rows {
		fmt.Println("| " + strings.Join(r, " | ") + " |")
	}
	if len(rows) > 1 {
		first, last := rows[0], rows[len(rows)-1]
		ratio := []string{"ratio", "", "", "", "", ""}
		for i := 6; i < len(head); i++ {
			a, _ := strconv.ParseFloat(first[i], 64)
			b, _ := strconv.ParseFloat(last[i], 64)
			if a > 0 {
				ratio = append(ratio, fmt.Sprintf("%.2fx", b/a))
			} else {
				ratio = append(ratio, "")
			}
		}
		fmt.Println("| " + strings.Join(ratio, " | ") + " |")
	}
}

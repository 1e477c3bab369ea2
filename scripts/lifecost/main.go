// Command lifecost lives one project's memory for many sessions through
// the wake library, on a real directory, and prints what each everyday
// operation costs at a few points of its life: a hand-off, a decision,
// the start after either, wake check and a first load (no .state/), as
// CPU time (user + system) in the process, the median of a few samples.
// Cost should follow the change, not the history: the issue "Memory that
// stays whole as it grows" asks for 1,000 sessions within 1.5x of 50 (a
// first load within 2x).
//
//	go run ./scripts/lifecost [-at 50,1000] [-samples 5] [-dir DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
)

func main() {
	at := flag.String("at", "50,1000", "the sessions after which to measure, comma-separated")
	samples := flag.Int("samples", 5, "samples of each operation at each point")
	dir := flag.String("dir", "", "where to keep the memory (a temporary directory if empty)")
	flag.Parse()
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
	l, err := newLife(*dir)
	if err != nil {
		log.Fatal(err)
	}
	var rows [][]string
	for _, p := range points {
		for l.session < p {
			if _, err := l.live(false); err != nil {
				log.Fatalf("session %d: %v", l.session+1, err)
			}
		}
		row, err := l.measure(*samples)
		if err != nil {
			log.Fatal(err)
		}
		rows = append(rows, row)
	}
	print(rows)
}

// life is the project: its memory root, its clock, what it decided.
type life struct {
	root    string
	o       wake.Options
	now     time.Time
	session int
	decided int
	ctx     context.Context
}

func newLife(dir string) (*life, error) {
	l := &life{root: filepath.Join(dir, ".wake"), now: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC), ctx: context.Background()}
	l.o = wake.Options{Env: map[string]string{"HOME": filepath.Join(dir, "home")}, Now: func() time.Time { return l.now }}
	if _, err := wake.Init(l.ctx, l.root, skeleton.Params{Agent: "Ava", Project: "bakery"}, l.o); err != nil {
		return nil, err
	}
	main, err := os.ReadFile(filepath.Join(l.root, "main.md"))
	if err != nil {
		return nil, err
	}
	return l, os.WriteFile(filepath.Join(l.root, "main.md"), []byte(strings.Replace(string(main), "## Purpose\n", "## Purpose\nKeep the books of a bakery.\n", 1)), 0o644)
}

// costs are one session's operations, in CPU time.
type costs struct {
	decide, afterDecide, handoff, afterHandoff, check, first time.Duration
}

// live lives the next session: two decisions (every fifth reverses an
// earlier one), a reminder every third, a hand-off. Measured, it times
// the last decision, the start after it, the hand-off, the start after
// it, wake check and a first load.
func (l *life) live(measured bool) (costs, error) {
	var c costs
	l.session++
	l.now = l.now.Add(24 * time.Hour)
	m, err := wake.Open(l.root, l.o)
	if err != nil {
		return c, err
	}
	for range 2 {
		l.decided++
		d := store.NewDecision{What: fmt.Sprintf("Keep module m%d on plan p%d", l.decided, l.decided), Why: fmt.Sprintf("session %d needed it", l.session)}
		if l.decided%5 == 0 && l.decided > 5 {
			ref := store.DecisionRef{Number: l.decided - 4}
			if c.decide, err = cpu(func() error { _, err := m.Reverse(l.ctx, ref, d); return err }); err != nil {
				// The entry may be reversed already: decide instead.
				c.decide, err = cpu(func() error { _, err := m.Decide(l.ctx, d); return err })
			}
		} else {
			c.decide, err = cpu(func() error { _, err := m.Decide(l.ctx, d); return err })
		}
		if err != nil {
			return c, err
		}
	}
	if l.session%3 == 0 {
		if _, err := m.Remember(l.ctx, store.NewReminder{Text: fmt.Sprintf("check the oven log of week %d", l.session)}); err != nil {
			return c, err
		}
	}
	if measured {
		if c.afterDecide, err = l.start(); err != nil {
			return c, err
		}
	}
	s := fmt.Sprintf("Session %d moved the import on", l.session)
	in := handoff.Input{}
	in.Session.Summary, in.Session.NextPriority = s, fmt.Sprintf("step %d", l.session+1)
	in.Session.Happened.Items = []string{fmt.Sprintf("worked on part %d", l.session)}
	if c.handoff, err = cpu(func() error { _, err := m.Handoff(l.ctx, in, wake.BootFiles{NoSkill: true}); return err }); err != nil {
		return c, err
	}
	if !measured {
		return c, nil
	}
	if c.afterHandoff, err = l.start(); err != nil {
		return c, err
	}
	if c.check, err = cpu(func() error {
		m, err := wake.Open(l.root, l.o)
		if err == nil {
			_, err = m.Check(l.ctx)
		}
		return err
	}); err != nil {
		return c, err
	}
	if err := os.RemoveAll(filepath.Join(l.root, ".state")); err != nil {
		return c, err
	}
	c.first, err = l.start()
	return c, err
}

// start times a session start as `wake load` makes it.
func (l *life) start() (time.Duration, error) {
	return cpu(func() error {
		m, err := wake.Open(l.root, l.o)
		if err == nil {
			_, err = m.Start(l.ctx, wake.BootFiles{NoSkill: true})
		}
		return err
	})
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
	return []string{strconv.Itoa(l.session), strconv.Itoa(l.decided), strconv.Itoa(strings.Count(string(ledger), "\n")),
		med(func(c costs) time.Duration { return c.handoff }), med(func(c costs) time.Duration { return c.decide }),
		med(func(c costs) time.Duration { return c.afterHandoff }), med(func(c costs) time.Duration { return c.afterDecide }),
		med(func(c costs) time.Duration { return c.check }), med(func(c costs) time.Duration { return c.first })}, nil
}

// cpu runs f and returns the CPU time (user + system) it took.
func cpu(f func() error) (time.Duration, error) {
	before := usage()
	err := f()
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
	head := []string{"sessions", "decisions", "ledger lines", "hand-off", "decide", "start after hand-off", "start after decide", "wake check", "first load"}
	fmt.Println("| " + strings.Join(head, " | ") + " |")
	fmt.Println("|" + strings.Repeat("---:|", len(head)))
	for _, r := range rows {
		fmt.Println("| " + strings.Join(r, " | ") + " |")
	}
	if len(rows) > 1 {
		first, last := rows[0], rows[len(rows)-1]
		ratio := []string{"ratio", "", ""}
		for i := 3; i < len(head); i++ {
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

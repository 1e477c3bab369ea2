package campaign

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// initParams are the skeleton the init scenario lays out.
var initParams = skeleton.Params{Agent: "Ava", Project: "campaign"}

var initArgs = []string{"init", "--agent", initParams.Agent, "--project", initParams.Project}

// Scenarios are the commands the campaign kills, by name.
func Scenarios() []Scenario {
	return []Scenario{
		{Name: "init", Prepare: func(*Run) error { return nil }, Args: fixed(initArgs...),
			Next: [][]string{initArgs, {"load"}}, Check: (*Run).checkInit},
		{Name: "stub", Prepare: initRoot, Args: fixed("capsule", "prompt", "--stub"), Check: (*Run).checkStubs},
		{Name: "handoff", Prepare: initRoot, Args: func(r *Run) []string {
			return []string{"handoff", "--summary", "session " + r.Token, "--next", "continue " + r.Token}
		}, Check: func(r *Run) []string {
			return r.agree("the hand-off", r.inHandoffs("session "+r.Token), "handoff", "session "+r.Token)
		}},
		{Name: "decide", Prepare: initRoot, Args: func(r *Run) []string {
			return []string{"decide", "Use store " + r.Token + " for the cache", "--because", "it is fast"}
		}, Check: func(r *Run) []string {
			return r.agree("the decision", strings.Count(r.read(tiers.DecisionsPath), "store "+r.Token), "decide", "store "+r.Token)
		}},
		{Name: "reverse", Prepare: func(r *Run) error {
			if err := initRoot(r); err != nil {
				return err
			}
			_, err := r.MustWake("decide", "Use queue A"+r.Token+" for jobs", "--because", "it is there")
			return err
		}, Args: func(r *Run) []string {
			return []string{"reverse", "1", "--by", "Use queue B" + r.Token + " for jobs", "--because", "A dropped jobs"}
		}, Check: func(r *Run) []string {
			return r.agree("the reversal", strings.Count(r.read(tiers.DecisionsPath), "DECISION: Use queue B"+r.Token), "reverse", "queue B"+r.Token)
		}},
		{Name: "compact", Prepare: prepareCompact, Args: fixed("compact"), Check: (*Run).checkCompact},
		{Name: "capsule", Prepare: func(r *Run) error {
			if err := initRoot(r); err != nil {
				return err
			}
			_, err := r.MustWake("remember", "look at the oven "+r.Token)
			return err
		}, Args: func(r *Run) []string {
			return []string{"capsule", "--objective", "carry on " + r.Token, "--consume"}
		}, Check: (*Run).checkCapsule},
		{Name: "remember", Prepare: initRoot, Args: func(r *Run) []string {
			return []string{"remember", "look at the loader " + r.Token}
		}, Check: func(r *Run) []string {
			return r.agree("the reminder", strings.Count(r.read(tiers.InboxPath), "loader "+r.Token), "remember", "loader "+r.Token)
		}},
	}
}

// ScenarioNamed returns the scenario called name.
func ScenarioNamed(name string) (Scenario, bool) {
	for _, sc := range Scenarios() {
		if sc.Name == name {
			return sc, true
		}
	}
	return Scenario{}, false
}

func fixed(args ...string) func(*Run) []string { return func(*Run) []string { return args } }

func initRoot(r *Run) error {
	_, err := r.MustWake(initArgs...)
	return err
}

// agree checks that what a command writes is in the files exactly when
// its ledger line is: both none or both one.
func (r *Run) agree(what string, inFiles int, op, text string) []string {
	lines, err := r.opsNamed(op, text)
	if err != nil {
		return []string{err.Error()}
	}
	return r.recorded(what, inFiles, lines)
}

// checkInit: every skeleton file is whole and named by an init ledger
// line, and the root is trusted.
func (r *Run) checkInit() []string {
	files, err := skeleton.Files(initParams)
	if err != nil {
		return []string{err.Error()}
	}
	es, err := r.Ledger()
	if err != nil {
		return []string{err.Error()}
	}
	logged := map[string]bool{}
	for _, e := range es {
		if e.Op == "init" {
			for _, p := range e.Paths {
				logged[p] = true
			}
		}
	}
	var v []string
	for _, f := range files {
		if got := r.read(f.Path); got != string(f.Data) {
			v = append(v, fmt.Sprintf("%s holds %d bytes, not the skeleton's %d", f.Path, len(got), len(f.Data)))
		}
		if !logged[f.Path] {
			v = append(v, f.Path+" has no init ledger line")
		}
	}
	real, _ := filepath.EvalSymlinks(r.Root)
	if out, _, _ := r.Wake("trust", "--list"); !strings.Contains(out, "trusted  "+real+" ") {
		v = append(v, "the root is not trusted: "+firstLine(out))
	}
	return v
}

// checkStubs: every capsule file is named by exactly one capsule-stub
// line, and every such line names a file there.
func (r *Run) checkStubs() []string {
	es, err := r.Ledger()
	if err != nil {
		return []string{err.Error()}
	}
	lines := map[string]int{}
	for _, e := range es {
		if e.Op == "capsule-stub" && len(e.Paths) == 1 {
			lines[e.Paths[0]]++
		}
	}
	var v []string
	stubs := r.glob(tiers.ColdDir + "/capsules/*/*.md")
	for _, rel := range stubs {
		if lines[rel] != 1 {
			v = append(v, fmt.Sprintf("%s has %d capsule-stub ledger lines", rel, lines[rel]))
		}
	}
	for rel := range lines {
		if _, err := os.Stat(filepath.Join(r.Root, rel)); err != nil {
			v = append(v, "a capsule-stub line names a missing "+rel)
		}
	}
	return v
}

// glob lists the root's files matching pattern, relative and slashed.
func (r *Run) glob(pattern string) []string {
	ms, _ := filepath.Glob(filepath.Join(r.Root, filepath.FromSlash(pattern)))
	var out []string
	for _, m := range ms {
		rel, _ := filepath.Rel(r.Root, m)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// prepareCompact makes a root with a reversed decision for wake compact
// to move to the archive.
func prepareCompact(r *Run) error {
	if err := initRoot(r); err != nil {
		return err
	}
	if _, err := r.MustWake("decide", "Use queue A"+r.Token+" for jobs", "--because", "it is there"); err != nil {
		return err
	}
	_, err := r.MustWake("reverse", "1", "--by", "Use queue B"+r.Token+" for jobs", "--because", "A dropped jobs")
	return err
}

// checkCompact: the reversed decision is in the log or its archive, once
// where it stands; it left the log exactly when a compact line says so;
// and wake check finds nothing deleted or edited by hand.
func (r *Run) checkCompact() []string {
	entry := "DECISION: Use queue A" + r.Token
	inLog := strings.Count(r.read(tiers.DecisionsPath), entry)
	inArchive := strings.Count(r.read(store.DecisionsArchive), entry)
	var v []string
	if inLog+inArchive == 0 || inLog > 1 || inArchive > 1 {
		v = append(v, fmt.Sprintf("the reversed decision: %d in the log, %d in its archive", inLog, inArchive))
	}
	moved := 0
	if inLog == 0 && inArchive == 1 {
		moved = 1
	}
	lines, err := r.opsNamed("compact", store.DecisionsArchive)
	if err != nil {
		return append(v, err.Error())
	}
	v = append(v, r.recorded("the compaction", moved, lines)...)
	// The campaign's roots are skeletons, which wake check halts on
	// (no identity): only what it says of the log counts here.
	out, _, err := r.Wake("check")
	if err != nil {
		v = append(v, "wake check after the compaction: "+err.Error())
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "by hand") && !strings.Contains(line, ": pass.") {
			v = append(v, "wake check after the compaction: "+strings.TrimSpace(line))
		}
	}
	return v
}

// checkCapsule: the capsule is written exactly when its ledger line is,
// and the reminder is consumed exactly when that line names the inbox.
func (r *Run) checkCapsule() []string {
	capsules := 0
	filepath.WalkDir(filepath.Join(r.Root, tiers.ColdDir, "capsules"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.Contains(r.read(mustRel(r.Root, p)), "carry on "+r.Token) {
			capsules++
		}
		return nil
	})
	es, err := r.Ledger()
	if err != nil {
		return []string{err.Error()}
	}
	lines, consumedLines := 0, 0
	for _, e := range es {
		if e.Op == "capsule" {
			lines++
			if slices.Contains(e.Paths, tiers.InboxPath) {
				consumedLines++
			}
		}
	}
	v := r.recorded("the capsule", capsules, lines)
	consumed := strings.Count(r.read(tiers.InboxPath), "- consumed: ")
	return append(v, r.recorded("the consumed reminder", consumed, consumedLines)...)
}

// mustRel is p relative to root, with slashes.
func mustRel(root, p string) string {
	rel, _ := filepath.Rel(root, p)
	return filepath.ToSlash(rel)
}

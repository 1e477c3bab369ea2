package wake

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// HandoffResult is what a hand-off wrote, and the boot files it rewrote
// for the next session.
type HandoffResult struct {
	store.Result
	Boot boot.HookTarget
	// Compacted is what the hand-off then compacted of its own accord:
	// see [AutoCompaction].
	Compacted AutoCompaction
}

// Handoff ends a session (DESIGN section 2): see [handoff.Handoff]. A
// hand-off given no session id takes the one its client put in the
// environment ([SessionFromEnv]), so that its ledger line names the
// session it ends and another session's Stop and SessionEnd hooks do not
// count it as theirs (DESIGN section 12). When
// the input lists no changed files and the root is in a git work tree, the
// files changed since the previous hand-off are listed from git (the
// memory root's own files and what the policy holds back left out). Once
// the hand-off is durable, the session's cold accounting is closed and the
// boot files are rewritten from the new summary, so that the next session's
// imports already show it; failing at that is only a warning. Before
// that, a warm file over its share is compacted (see [AutoCompaction]).
func (m *Memory) Handoff(ctx context.Context, in handoff.Input, w BootFiles) (HandoffResult, error) {
	if in.SessionID == "" {
		in.SessionID = SessionFromEnv(m.o.Env)
	}
	m.sessionWork(ctx, &in)
	res, err := handoff.Handoff(ctx, m.Store(), in)
	m.reportRecovered(res.Recovered)
	out := HandoffResult{Result: res}
	if err != nil {
		return out, m.quotable(err)
	}
	m.warnLargeSummary(res.Summary)
	var counted bool
	out.Compacted, counted = m.autoCompact(ctx)
	out.Boot = m.afterHandoff(ctx, w, counted)
	return out, nil
}

// afterHandoff ends the session's cold accounting, so the next session has
// the whole cold budget, records the edits made outside wake during the
// session, and regenerates the boot files; under the root's lock, so that
// a concurrent hand-off, pull or session start cannot interleave. It
// counts first, unlocked, unless counted says that was done.
func (m *Memory) afterHandoff(ctx context.Context, w BootFiles, counted bool) boot.HookTarget {
	if !counted {
		m.precount()
	}
	unlock, err := m.o.Locker.Lock(ctx, m.root)
	if err != nil {
		m.warn(fmt.Sprintf("the cold session and boot files were not updated: %v", err))
		return boot.HookTarget{}
	}
	defer unlock()
	if err := store.EndColdSession(m.o.FS, m.root); err != nil {
		m.warn(fmt.Sprintf("ending the cold session: %v", err))
	}
	// Looking for edits here, the build having saved the cold index with
	// the session archived, spares the next start comparing every cold
	// document with wake's record, as it would for an index saved since
	// its last look.
	edits := m.startEdits(unlock, true)
	defer edits.save() // before the unlock: a failed build's looks
	edits.tiers(ctx)
	c, text, idx, err := m.bootContext(true)
	if err == nil && edits.cold(ctx, idx) {
		c, text, _, err = m.bootContext(true)
	}
	if err != nil {
		m.warn(fmt.Sprintf("the boot files were not regenerated: %v", err))
		return boot.HookTarget{}
	}
	m.recordOverBudget(c)
	return m.writeBootFiles(c, text, BootFiles{NoSkill: w.NoSkill, ForceSkill: w.ForceSkill})
}

// sessionWork fills in what the session did that in does not say: the
// files git shows changed and the session's commits, when in lists no
// changed files; and, for a hand-off given no decision, what the ledger
// shows the session decided, reversed, contested or upheld (issue 27,
// point 5). The session is the work since the previous hand-off, or, at
// the first, since the root was made: its commits and decisions are the
// first session's. Failing to read the ledger leaves "Decisions made" to
// the hand-off, with a warning.
func (m *Memory) sessionWork(ctx context.Context, in *handoff.Input) {
	since := m.lastHandoff()
	if since.IsZero() {
		since = store.LedgerStart(m.o.FS, m.root)
	}
	if in.Session.Changed.Empty() {
		var outside bool
		in.Session.Changed, outside = m.gitChangesOfRoot(ctx, since, nil)
		// Outside git, git log would fail too: it is not started.
		if !since.IsZero() && !outside {
			for _, c := range m.gitCommits(ctx, since) {
				c, _ = policy.Scrub(c)
				in.Session.Changed.Items = append(in.Session.Changed.Items, "commit "+c)
			}
		}
	}
	if in.Auto || len(in.Decisions) > 0 || !in.Session.Decisions.Empty() {
		return
	}
	items, err := store.SessionDecisionItems(m.o.FS, m.root, since, in.SessionID)
	if err != nil {
		m.warn(fmt.Sprintf("the session's decisions were not listed from the ledger: %v", err))
		return
	}
	in.Session.Decisions.Items = items
}

// lastHandoff is the previous hand-off's time: the HANDOFF block's updated,
// else the session of recent/latest.md; zero when neither says.
func (m *Memory) lastHandoff() time.Time {
	if d, err := tiers.ReadDoc(m.o.FS, m.root, tiers.MainPath); err == nil && d.Readable() {
		if t, err := time.Parse(time.RFC3339, tiers.ParseMain(d.Content).Handoff.Get(tiers.KeyUpdated)); err == nil {
			return t
		}
	}
	if d, err := tiers.ReadDoc(m.o.FS, m.root, tiers.LatestPath); err == nil && d.Readable() {
		sess, _ := tiers.ParseSession(d.Content)
		return sess.At
	}
	return time.Time{}
}

// warnLargeSummary warns when the summary is over the recent tier's
// per-file share, which a session start would compress. A text has at
// most as many tokens as bytes, so a small one is never counted.
func (m *Memory) warnLargeSummary(summary []byte) {
	share := m.cfg.Budget.Recent / 2
	if len(summary) <= share {
		return
	}
	if n := m.counter().Count(string(summary)); n > share {
		m.warn(fmt.Sprintf("%s is %s tokens, over its share of the recent budget (%s = budget.recent / 2); 'wake load' will show it compressed and ask for it to be compressed",
			tiers.LatestPath, budget.Thousands(n), budget.Thousands(share)))
	}
}

// SessionEnvVars are the environment variables that name the client
// session a command runs in, first found first: wake's own, for any
// client or script; Claude Code's (given to every Bash tool command since
// 2.1.132, the session_id its hooks receive); Codex's thread id (given to
// every shell command).
var SessionEnvVars = []string{"WAKE_SESSION_ID", "CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID"}

// SessionFromEnv is the client session id env names, "" when none: the
// first variable holding one line of at most 200 bytes.
func SessionFromEnv(env map[string]string) string {
	for _, k := range SessionEnvVars {
		// One that cannot be a session id is passed over for the next,
		// never taken for "none", which would count for every session.
		if v := strings.TrimSpace(env[k]); v != "" && len(v) <= 200 && !strings.ContainsAny(v, "\r\n") && store.CheckText(v, false) == nil {
			return v
		}
	}
	return ""
}

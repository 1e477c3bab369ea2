// Package wake is the library every front end of wake drives: the command
// line (cmd/wake) and an MCP server alike. [Open] opens a memory root (its
// configuration as the user's trust allows, the token counter and its
// cache, after finishing any write a crash interrupted) and returns a
// [Memory], whose methods are the operations: the session start with its
// boot files, cold pulls under the session's caps, the hand-off, the
// decision log, the checks, the status and the ledger.
//
// The packages below it do the work (tiers reads, policy filters, budget
// counts and fits, boot builds the context, cold and skill build their
// parts, handoff writes); this package strings them into the operations a
// session needs, so that no front end has to.
package wake

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// GCPercent is the garbage collector's setting (GOGC) of a wake command,
// which the command line sets when GOGC is not: a command allocates a few
// megabytes and exits, and collecting when the heap has tripled rather
// than doubled spares it a collection or two (about 3 of 40 ms of CPU on
// a first start). scripts/lifecost measures the library with it too.
const GCPercent = 200

// LockTimeout is how long an operation waits for another holding the
// memory root's lock, unless [Options.Locker] says otherwise.
const LockTimeout = 30 * time.Second

// Options is what a front end opens a memory root with. Every field may
// be left zero.
type Options struct {
	FS afero.Fs // nil: the operating system's
	// Env is the environment wake reads: HOME and XDG_CONFIG_HOME (the
	// user's files: skill.md's default place, config.toml, trust.json),
	// PATH and the rest for git.
	Env    map[string]string
	Now    func() time.Time // nil: time.Now
	Locker store.Locker     // nil: an OS file lock waiting LockTimeout
	// Notify receives what the user should hear of that is not an error:
	// warnings, and interrupted writes finished or rolled back. nil drops
	// them.
	Notify func(Notice)
	// Encoder makes the token counter of an encoding; nil means
	// budget.NewEncoder. A process that opens many roots may share one.
	Encoder func(name string) (*budget.Encoder, error)
	// WorkDir is the directory the session works in (the command's, or the
	// cwd a client's hook gives): a hand-off lists the changes of the git
	// work tree holding it, which in a linked worktree sharing the main
	// checkout's memory is not the root's. "" means the root's.
	WorkDir string
	// Writer is the writer id a root is given when it has none yet (see
	// [store.WriterID]); empty means a random one, as it should be but
	// for tests, which set it to make session names and ledger lines
	// repeatable. A root that has one keeps it.
	Writer string
	// Progress hears how long work goes: a first start, or any listing,
	// that reads and counts many cold documents the index does not know
	// yet. The library prints nothing; nil drops it. It is called from
	// one goroutine at a time and must be quick.
	Progress func(Progress)
}

// Progress is how far a long piece of work has gone: Done of Total, from
// 0 to Total, the last report of a piece of work having Done == Total.
type Progress struct {
	What  string // "reading cold documents"
	Done  int
	Total int
}

// A Notice is something an operation tells its user besides its result.
type Notice struct {
	Kind string // "warning" or "recovered"
	Msg  string
	Hint string // what the user can do about it; "" when nothing
}

// Memory is an open memory root.
type Memory struct {
	o     Options
	root  string
	cfg   tiers.Config
	trust tiers.Trust
	enc   *budget.Encoder
	// caches are read on first use and shared by the copies a start
	// served from the start cache makes of the Memory, so that what one
	// learns the other saves.
	caches *lazyCaches
	// prime, when set, marks a start run for the start cache alone (see
	// [Memory.PrimeStart]); the copies of the Memory a start makes share it.
	prime *priming
	// run, on the copy of the Memory a start recorded for the start cache
	// builds with, is that record (see [Memory.recordRun]).
	run *cachedRun
}

// priming is what a priming start learns: whether its output was kept,
// and whether it met something only a real start may do.
type priming struct {
	kept    bool
	spoiled bool // it would have said a thing said once: a real start must
}

// lazyCaches are the caches a Memory reads on first use.
type lazyCaches struct {
	mu sync.Mutex // guards both
	// count is the count cache (see [Memory.counter]).
	count *budget.Cache
	// contra keeps the contradiction check's findings between runs (see
	// [Memory.contradictions]).
	contra *checks.ContradictionCache
	// index is the cold index as the builds last parsed it, for the
	// next build of the same file (see [Memory.bootContext]); it guards
	// itself.
	index cold.ParsedIndex
}

// Find locates the memory root as DESIGN section 1 says: flagRoot, else
// envRoot ($WAKE_ROOT), else the nearest .wake above cwd.
func Find(fsys afero.Fs, flagRoot, envRoot, cwd string) (string, error) {
	if fsys == nil {
		fsys = afero.NewOsFs()
	}
	root, err := tiers.FindRoot(fsys, flagRoot, envRoot, cwd)
	var nr *tiers.NotRootError
	if errors.Is(err, tiers.ErrNoRoot) && !errors.As(err, &nr) {
		return "", hinted{err, "run 'wake init' to create one here, or pass --root DIR"}
	}
	return root, err
}

// hinted is an error with what the user can do about it.
type hinted struct {
	error
	hint string
}

func (e hinted) Unwrap() error { return e.error }
func (e hinted) Hint() string  { return e.hint }

// ConfigError is a wake.toml, or the user's config.toml, that wake cannot
// use: an error naming the file, line and key.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }

// Hint says what to do about it.
func (e *ConfigError) Hint() string {
	return "fix the key in that file; 'wake init' writes a commented copy of every wake.toml default"
}
func (e *ConfigError) Unwrap() error { return e.Err }

// Open opens the memory root at root, which [Find] located: it first
// finishes or rolls back a write a crash interrupted (saying so through
// Notify), then reads the configuration, settles what of it the user's
// trust allows, and makes the token counter (built on first use only).
func Open(root string, o Options) (*Memory, error) {
	m := bare(root, o)
	m.recover(context.Background())
	data, err := m.readConfig()
	if err != nil {
		return nil, err
	}
	cfg := tiers.DefaultConfig()
	if data != nil {
		if cfg, err = tiers.ParseConfig(m.path(tiers.ConfigPath), data); err != nil {
			return nil, &ConfigError{err}
		}
	}
	if m.cfg, m.trust, err = m.settleTrust(cfg, data, true); err != nil {
		return nil, err
	}
	newEncoder := o.Encoder
	if newEncoder == nil {
		newEncoder = budget.NewEncoder
	}
	if m.enc, err = newEncoder(m.cfg.Encoding); err != nil {
		return nil, err
	}
	return m, nil
}

// bare is a Memory of root with the options' defaults, not opened yet.
func bare(root string, o Options) *Memory {
	if o.FS == nil {
		o.FS = afero.NewOsFs()
	}
	if o.Env == nil {
		o.Env = map[string]string{}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Locker == nil {
		o.Locker = store.FileLocker{Timeout: LockTimeout}
	}
	return &Memory{o: o, root: root, caches: &lazyCaches{}}
}

// Recover finishes or rolls back, in the memory root at root, any write a
// crash interrupted, and says so through Notify: what every operation does
// first. [Open] does it; an operation that needs no open Memory (the
// decision log, the ledger) calls it.
func Recover(root string, o Options) { bare(root, o).recover(context.Background()) }

// Root is the memory root's path.
func (m *Memory) Root() string { return m.root }

// Config is the configuration in force: wake.toml's, with the settings
// that need trust settled (see [Memory.Trust]).
func (m *Memory) Config() tiers.Config { return m.cfg }

// Trust says what the user's trust made of wake.toml.
func (m *Memory) Trust() tiers.Trust { return m.trust }

// Store is the root's one place of writes, for the operations this
// package does not wrap.
func (m *Memory) Store() *store.Store {
	return &store.Store{FS: m.o.FS, Root: m.root, Now: m.o.Now, Locker: m.o.Locker, Guard: checks.Conflicts, Writer: m.o.Writer, Session: SessionFromEnv(m.o.Env)}
}

// bootOptions is what the boot pipeline reads with.
func (m *Memory) bootOptions() boot.Options {
	return boot.Options{FS: m.o.FS, Root: m.root, Config: m.cfg, Counter: m.counter(), Now: m.o.Now, Progress: m.coldProgress()}
}

// coldProgress is what the cold tier reports a scan's reading to: the
// caller's Progress, or nil.
func (m *Memory) coldProgress() func(done, total int) {
	report := m.o.Progress
	if report == nil {
		return nil
	}
	return func(done, total int) { report(Progress{What: "reading cold documents", Done: done, Total: total}) }
}

// contradictions is the cache of the contradiction check's findings, read
// from the state directory on first use.
func (m *Memory) contradictions() *checks.ContradictionCache {
	m.caches.mu.Lock()
	defer m.caches.mu.Unlock()
	if m.caches.contra == nil {
		m.caches.contra = checks.ReadContradictionCache(m.o.FS, m.root)
	}
	return m.caches.contra
}

// counter is the count cache, read from the state directory on first use:
// an operation that counts nothing (wake check) neither reads nor decodes
// it.
func (m *Memory) counter() *budget.Cache {
	m.caches.mu.Lock()
	defer m.caches.mu.Unlock()
	if m.caches.count == nil {
		m.caches.count = boot.OpenCache(m.o.FS, m.root, m.enc)
	}
	return m.caches.count
}

func (m *Memory) warn(msg string) { m.notify(Notice{Kind: "warning", Msg: msg}) }

func (m *Memory) warnAll(msgs []string) {
	for _, w := range msgs {
		m.warn(w)
	}
}

// notify hands n to the front end. A notice may quote a file's text or
// what a caller gave (a recovered hand-off's summary): it leaves wake
// scrubbed, as every output does.
func (m *Memory) notify(n Notice) {
	if m.o.Notify != nil {
		n.Msg, _ = policy.Scrub(n.Msg)
		m.o.Notify(n)
	}
}

// SaveCache keeps the counts learned and the contradiction check's
// findings; failing to is only worth a warning, since the caches are an
// optimisation.
func (m *Memory) SaveCache() {
	m.caches.mu.Lock()
	c, contra := m.caches.count, m.caches.contra
	m.caches.mu.Unlock()
	if contra != nil {
		if err := contra.Save(m.o.FS, m.root); err != nil {
			m.writeFailed(fmt.Sprintf("saving the contradiction check's findings: %v", err))
		}
	}
	if c == nil {
		return // never read, so nothing learned
	}
	if err := boot.SaveCache(m.o.FS, m.root, c); err != nil {
		m.writeFailed(fmt.Sprintf("saving the token cache: %v", err))
	}
}

// writeFailed warns of a file wake could not write, msg, and keeps the
// start being recorded out of the start cache: why a write fails (a full
// disk, a read-only mount, an immutable file) is no part of its key, so
// a start served from it would replay the warning after the cause is
// gone, and leave the file unwritten.
func (m *Memory) writeFailed(msg string) {
	m.run.spoil()
	m.warn(msg)
}

// recover finishes or rolls back a write a crash interrupted and says so.
// Failing to is a warning, not an error: every summary is still
// reachable, and a session start must still deliver its context; a
// hand-off itself refuses to go on.
func (m *Memory) recover(ctx context.Context) {
	rec, err := store.Recover(ctx, m.Store())
	m.reportRecovered(rec)
	if err != nil {
		m.warn(fmt.Sprintf("%v; wake's record of the interrupted write is under %s/ in the memory root", err, tiers.StateDir))
		return
	}
	// A merge the driver noted is settled before anything looks at the
	// files: otherwise the other branch's work reads as edits by hand.
	if store.MergePending(m.o.FS, m.root) {
		mg, err := m.Store().SettleMerge(ctx)
		switch {
		case err != nil:
			m.warn(fmt.Sprintf("settling the merge of the memory: %v; the next wake command tries again", err))
		case mg != nil:
			m.notify(Notice{Kind: "merged", Msg: fmt.Sprintf("settled the merge of %s from another branch: views rebuilt, %d session(s) arrived", strings.Join(mg.Paths, ", "), len(mg.Arrived))})
		}
	}
}

func (m *Memory) reportRecovered(rec []store.Recovery) {
	for _, r := range rec {
		m.notify(Notice{Kind: "recovered", Msg: r.String()})
	}
}

// ErrLocked is returned, wrapped, when another wake process held the
// memory root's lock for longer than the operation waits.
var ErrLocked = store.ErrLockTimeout

// home is the user's home directory as the environment gives it.
func (m *Memory) home() string { return m.o.Env["HOME"] }

// path is rel under the root.
func (m *Memory) path(rel string) string { return filepath.Join(m.root, filepath.FromSlash(rel)) }

// Init lays out a memory root at dir (the first wake): the skeleton files,
// each created only when missing, never overwriting; see [store.Init].
//
// A root this call lays out whole, every file its own, is the user's, so
// it is trusted as made (see [SetTrust]): its skill.md reaches the user's
// own directories. A root that already held a file (it came with a cloned
// repository, say) is not, until the user trusts it.
//
// An empty p.Project is named after the directory holding the root (dir
// itself when it is not the usual .wake).
func Init(ctx context.Context, dir string, p skeleton.Params, o Options) (store.InitResult, error) {
	m := bare(dir, o)
	if p.Project == "" {
		p.Project = projectName(dir)
	}
	// Anything already in the directory (a cloned repository's summary,
	// its cold notes) is not the user's making; what an interrupted init
	// left is, and this one finishes its trust step too.
	names, _ := afero.ReadDir(m.o.FS, dir)
	fresh := len(names) == 0 || store.InitLeftovers(m.o.FS, dir, p)
	res, err := store.Init(ctx, m.Store(), p)
	if err != nil || !fresh || tiers.UserDir(m.o.Env) == "" {
		return res, err
	}
	if _, err := SetTrust(ctx, dir, o, false); err != nil {
		m.warn(fmt.Sprintf("the new root was not recorded as trusted (%v); run 'wake trust' in it", err))
	}
	return res, nil
}

// projectName is the default project name of a root at dir: the name of
// the directory holding it, quoted as Go would where it holds what a
// one-line title cannot (a directory's name can hold anything).
func projectName(dir string) string {
	name := filepath.Base(dir)
	if name == tiers.DefaultDirName {
		name = filepath.Base(filepath.Dir(dir))
	}
	if store.CheckText(name, false) != nil || !utf8.ValidString(name) {
		q := strconv.Quote(name)
		name = q[1 : len(q)-1]
	}
	return name
}

// Package clients wires wake into the agent clients people run, and holds
// what every wiring shares, so that each client is a sibling package
// (clients/claude; Codex and OpenCode beside it) implementing [Client]
// and nothing else: a plan of file edits ([FileEdit]) applied atomically
// under the memory root's lock, the install manifest in the root that
// records what install added ([Record]), the exact uninstall of what it
// records, and the operations themselves, [Install] and [Uninstall], with
// their ledger line and the [Report] a front end renders.
package clients

import (
	"context"
	"errors"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/tiers"
)

// Client is an agent client wake can be wired into.
type Client interface {
	About() About
	// Wire is the client's wiring into the project env names. It does
	// not fail: what install cannot wire is [Wiring.Boot]'s error, and
	// uninstall works with what it could name.
	Wire(env Env) Wiring
}

// About names a client.
type About struct {
	// Name is the client's name on the command line ("claude"), in the
	// ledger and in the name of its manifest ([ManifestFile]).
	Name string
	// Title names the client in messages: "Claude Code".
	Title string
	// Unrecorded says what uninstall does where it has no record of an
	// install, for the hint of a manifest it cannot read: "removes
	// wake's hook alone and ...".
	Unrecorded string
}

// Env is what a wiring is made for: the project, the memory root and its
// configuration, the user's home directory and the file system.
type Env struct {
	FS                  afero.Fs
	Project, Root, Home string // absolute; Home "" when unknown
	Config              tiers.Config
	// Manifest is the path of the client's manifest, for messages.
	Manifest string
	// Warn tells the user of something that is not an error.
	Warn func(string)
	// Vars is the environment wake runs in (HOME, PATH, CODEX_HOME...),
	// for a wiring that runs the client itself; Cwd resolves its
	// relative PATH entries.
	Vars map[string]string
	Cwd  string
	// MCP asks install to register 'wake mcp' as an MCP server in the
	// client's own config, besides the hooks ([MCPCommand]).
	MCP bool
	// ProjectOnly asks install to wire the project alone: for Claude
	// Code, no relay of its hooks in the user's settings, so sessions
	// started in the project's subdirectories get no memory.
	ProjectOnly bool
	// Local asks install to write into the client's per-user settings,
	// which stay out of the repository, rather than the shared ones
	// (Claude Code's .claude/settings.local.json).
	Local bool
	// client is the client the Env was made for, by [Install] or
	// [Uninstall]: see [Env.Installed].
	client About
}

// Wiring is a client's wiring into one project: what install edits, and
// how uninstall takes it out.
type Wiring interface {
	// Boot is the boot file the client's sessions read through the
	// wiring, or why install cannot wire it.
	Boot() (Boot, error)
	// PlanInstall plans the edits that wire the client in. It runs
	// under the root's lock, once the boot files are written.
	PlanInstall() (InstallPlan, error)
	// PlanUninstall plans taking out what rec records of an install
	// into the project (nil: no record) and what [Env.Manifest] holds
	// for no other project. The record comes from the memory root,
	// which can come with a cloned repository: the wiring first drops
	// from rec, with a warning, whatever install could not have added
	// (see [Record.KeepCreated]). Without a record it takes out only
	// what it can tell is wake's.
	PlanUninstall(rec *Record) (UninstallPlan, error)
}

// Boot is what install must have written before it wires a client to
// read it.
type Boot struct {
	// Skill says the client reads the root's own skill.md
	// ([tiers.RootSkillPath]) rather than its boot.md.
	Skill bool
	// Into names, as the report does, the file the wiring adds the boot
	// file to: "CLAUDE.md".
	Into string
}

// InstallPlan is what install changes to wire a client in.
type InstallPlan struct {
	Edits []FileEdit
	// Record adds to the project's record (new, or as an earlier
	// install left it) what Edits add: see [Record.Decode] and
	// [Record.Encode].
	Record func(r *Record) error
	// Command is the bare command the wiring has the client run, for
	// install's warning when wake is not on PATH; "" when none.
	Command string
	// Done is said after the report's files when an edit changed
	// something, Unchanged when none did.
	Done, Unchanged string
	Notes           []string // said last
	// Then is a step the client takes itself once the edits are applied
	// and recorded, under the root's lock: Codex records its trust in
	// wake's hooks through its own app server, which reads the hooks from
	// the files the edits wrote. record adds to the project's record in
	// the manifest at once, so that Then records what it is about to
	// change before it changes it. Nil: no such step.
	Then func(ctx context.Context, record func(func(*Record) error) error) (Followup, error)
}

// Followup is what an [InstallPlan]'s Then step did.
type Followup struct {
	// Edits are the files it changed, already written, for the report
	// and the ledger line: Changed, Show and Done (or Kept) set.
	Edits []FileEdit
	// Warnings say what the user must still do for the wiring to work.
	Warnings []wake.Notice
	Notes    []string
}

// UninstallPlan is what uninstall changes. An edit's Remove says nothing
// is left in the file but what wake would create: it is deleted when the
// record says install created it, else written. An edit with Remove and
// no New is a file that is wake's whole (a plugin wake wrote, as it wrote
// it), which there is nothing to write back for: it is deleted.
type UninstallPlan struct {
	Edits []FileEdit
	Notes []string // said after the files
}

// MCPCommand and MCPArgs are the command an MCP registration runs: the
// bare command, as the hooks run it, so that it keeps working when wake
// is upgraded or moved.
const MCPCommand = "wake"

// MCPArgs are [MCPCommand]'s arguments.
var MCPArgs = []string{"mcp"}

// MCPName is the name wake's server is registered under.
const MCPName = "wake"

// hintedError is an error with what the user can do about it.
type hintedError struct {
	err  error
	hint string
}

func (e *hintedError) Error() string { return e.err.Error() }
func (e *hintedError) Unwrap() error { return e.err }

// Hint says what the user can do about the error.
func (e *hintedError) Hint() string { return e.hint }

// Hinted is err with a hint of what the user can do about it, which the
// front end shows with the error.
func Hinted(err error, hint string) error { return &hintedError{err, hint} }

// errUnchanged tells Mutate not to log a run that changed nothing.
var errUnchanged = errors.New("nothing changed")

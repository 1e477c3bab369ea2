package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/wakeproto/wake"

	"github.com/spf13/afero"
	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
)

// Exit statuses (DESIGN section 8).
const (
	exitOK     = 0
	exitError  = 1
	exitUsage  = 2
	exitFailed = 3 // wake check: a check failed
	exitHalt   = 4 // wake check: HALT
)

// app holds what every command needs: the file system, the environment and
// the standard streams. Nothing below it reads os.* directly.
type app struct {
	fs     afero.Fs
	env    map[string]string
	in     io.Reader
	out    io.Writer
	errOut io.Writer
	now    func() time.Time
	cwd    string // the process's working directory; never changed
	locker store.Locker

	rootFlag string
	// below is a relayed hook's --below: see [app.relayGoesOn].
	below string
	// relayImported is [app.relayImports]'s answer, once asked.
	relayImported *bool
	// newEncoder makes a session's encoder; nil means budget.NewEncoder.
	// Tests share one, since building it costs more than most of them.
	newEncoder func(name string) (*budget.Encoder, error)
	// writer is the writer id a root is given when it has none yet;
	// empty (always, but in tests) means a random one.
	writer string
	// exe is the wake binary's path, which git's merge driver runs; empty
	// means this process's own (os.Executable).
	exe string
	// progress renders long work's progress on stderr when it is a
	// terminal; nil otherwise (and in tests but the terminal's).
	progress *progressLine
}

// usageError marks a command-line mistake (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// hintError carries a hint the user can act on.
type hintError struct {
	err  error
	hint string
}

func (e hintError) Error() string { return e.err.Error() }
func (e hintError) Unwrap() error { return e.err }

// Hint is what the user can do about the error.
func (e hintError) Hint() string { return e.hint }

// hinter is an error that says what the user can do about it: the
// reporter prints the first hint in the error's chain.
type hinter interface{ Hint() string }

// exitStatus lets a command choose its exit status after printing its
// output (wake check).
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func run(args, environ []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runAs(linkedWriter, args, environ, stdin, stdout, stderr)
}

// linkedWriter is empty in every build but the one the command-line
// scenarios run (-ldflags -X main.linkedWriter=wtest), whose roots then
// get the same writer id, and so the same names and IDs, at every run.
var linkedWriter string

// runAs is run with the writer id a root is given when it has none yet;
// "" gives a random one, as it should be but in tests.
func runAs(writer string, args, environ []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "wake: error: %v\n", err)
		return exitError
	}
	return runIn(process{writer: writer, cwd: cwd}, args, environ, stdin, stdout, stderr)
}

// process is what a run of wake takes from the process it runs in: see
// the app fields of the same names. The command-line scenarios run wake
// in the test process, each in its own directory.
type process struct {
	writer     string
	cwd        string
	exe        string
	newEncoder func(name string) (*budget.Encoder, error)
}

// runIn runs wake as p: the command line args, with the environment
// environ (KEY=value) and the given streams. It returns the exit status.
func runIn(p process, args, environ []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	a := &app{
		fs: afero.NewOsFs(), env: env, in: stdin, out: stdout, errOut: stderr,
		now: time.Now, cwd: p.cwd, locker: store.FileLocker{Timeout: wake.LockTimeout}, writer: p.writer, exe: p.exe, newEncoder: p.newEncoder,
	}
	if p := newProgressLine(stderr, time.Now); p != nil {
		a.progress, a.errOut = p, p
		defer p.Close()
	}
	return a.run(args)
}

func (a *app) run(args []string) int {
	cmd := a.rootCmdFor(args)
	cmd.SetArgs(args)
	ran, err := cmd.ExecuteContextC(context.Background())
	var h hinter
	if isUsage(err) && !(errors.As(err, &h) && h.Hint() != "") {
		// The help to read is the command's own, not the whole tree's.
		err = hintError{err, helpHint(ran)}
	}
	return a.report(err)
}

func (a *app) report(err error) int {
	if err == nil {
		return exitOK
	}
	var st exitStatus
	if errors.As(err, &st) {
		return int(st)
	}
	// An error may quote what the caller gave (a path, a decision's
	// text): it leaves wake scrubbed, as every output does.
	msg, _ := policy.Scrub(err.Error())
	fmt.Fprintf(a.errOut, "wake: error: %s\n", msg)
	var h hinter
	hinted := errors.As(err, &h) && h.Hint() != ""
	if hinted {
		hint, _ := policy.Scrub(h.Hint())
		fmt.Fprintf(a.errOut, "wake: hint: %s\n", hint)
	}
	if ce := (*store.ConflictError)(nil); errors.As(err, &ce) {
		return exitFailed // rule 1: a check that would fail, caught before the write
	}
	if isUsage(err) {
		if !hinted {
			fmt.Fprintf(a.errOut, "wake: hint: run 'wake --help' for usage\n")
		}
		return exitUsage
	}
	return exitError
}

// isUsage tells a command-line mistake (exit 2) from a failure.
func isUsage(err error) bool {
	var u usageError
	var ie *store.InputError
	return err != nil && (errors.As(err, &u) || errors.As(err, &ie) || isCobraUsage(err))
}

// isCobraUsage recognises the usage errors cobra makes itself.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument", "accepts ", "requires at least", "required flag"} {
		if strings.HasPrefix(msg, p) || strings.Contains(msg, " "+p) {
			return true
		}
	}
	return false
}

// commands are wake's commands by name, in the order help lists them.
func (a *app) commands() []struct {
	name string
	make func() *cobra.Command
} {
	return []struct {
		name string
		make func() *cobra.Command
	}{
		{"init", a.initCmd}, {"load", a.loadCmd}, {"status", a.statusCmd}, {"cold", a.coldCmd}, {"log", a.logCmd},
		{"handoff", a.handoffCmd}, {"install", a.installCmd}, {"uninstall", a.uninstallCmd}, {"skill", a.skillCmd},
		{"check", a.checkCmd}, {"trust", a.trustCmd}, {"footprint", a.footprintCmd}, {"decide", a.decideCmd}, {"decisions", a.decisionsCmd},
		{"reverse", a.reverseCmd}, {"contest", a.contestCmd}, {"uphold", a.upholdCmd}, {"compact", a.compactCmd},
		{"hook", a.hookCmd}, {"merge-driver", a.mergeDriverCmd},
		{"wakeup", a.wakeupCmd}, {"mcp", a.mcpCmd}, {"remember", a.rememberCmd}, {"capsule", a.capsuleCmd},
		{"man", a.manCmd},
	}
}

// rootCmd is the whole command tree.
func (a *app) rootCmd() *cobra.Command { return a.rootCmdFor(nil) }

// rootCmdFor is the command tree args need: when the first argument names
// a command, that command alone under the root (what cobra runs and what
// its help and errors show is the same; a session start then builds one
// command, not two dozen with their help texts and flags); otherwise the
// whole tree, for the root's help, suggestions and errors.
func (a *app) rootCmdFor(args []string) *cobra.Command {
	root := a.bareRoot()
	add := func(name string, make func() *cobra.Command) {
		cmd := make()
		cmd.GroupID = commandGroup[name]
		root.AddCommand(cmd)
	}
	for _, c := range a.commands() {
		if len(args) > 0 && args[0] == c.name {
			add(c.name, c.make)
			return root
		}
	}
	for _, c := range a.commands() {
		add(c.name, c.make)
	}
	addCompletion(root)
	root.Version = version()
	return root
}

func (a *app) bareRoot() *cobra.Command {
	// The completion command and --version join the whole tree only
	// (rootCmdFor): the one-command tree a session start or a hook runs in
	// builds neither, nor reads the build information.
	root := &cobra.Command{
		Use:                        "wake",
		Short:                      "Continuity for AI coding agents through a plain-file memory",
		Long:                       help("wake"),
		SilenceErrors:              true,
		SilenceUsage:               true,
		Args:                       noArgs,
		CompletionOptions:          cobra.CompletionOptions{DisableDefaultCmd: true},
		SuggestionsMinimumDistance: 2,
		// Without a Run, cobra answers a mistyped command with the help
		// text on stdout and exit 0, which a client hook would hand to the
		// agent as if it were context.
		RunE: func(cmd *cobra.Command, args []string) error {
			return hintError{usageError{errors.New("no command given")}, "run 'wake --help' for the commands"}
		},
	}
	root.SetOut(a.out)
	root.SetErr(a.errOut)
	addGroups(root)
	root.SetFlagErrorFunc(flagError)
	root.PersistentFlags().StringVar(&a.rootFlag, "root", "", "memory root `DIR` (default: $WAKE_ROOT, else the nearest .wake/ above the working directory)")
	return root
}

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return unknownSubcommand(cmd, args[0])
}

func maxArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return usagef("%s takes at most %d argument(s), got %d", cmd.CommandPath(), n, len(args))
		}
		return nil
	}
}

// locate resolves the memory root, searching up from dir when neither
// --root nor $WAKE_ROOT names it, with a hint when there is none.
// Every command finds its root here: in a clone whose .wake/ asks for
// wake's merge driver and has none, the first says so (once a clone).
func (a *app) locate(dir string) (string, error) {
	root, err := wake.Find(a.fs, a.rootFlag, a.env["WAKE_ROOT"], dir)
	if err == nil {
		wake.NoticeMergeDriver(context.Background(), root, a.options())
	}
	return root, err
}

// options are the library's options for this invocation.
func (a *app) options() wake.Options {
	o := wake.Options{FS: a.fs, Env: a.env, Now: a.now, Locker: a.locker, Notify: a.notice, Encoder: a.newEncoder, WorkDir: a.cwd, Writer: a.writer}
	if a.progress != nil {
		o.Progress = a.progress.report
	}
	return o
}

// notice prints what the library tells the user.
func (a *app) notice(n wake.Notice) {
	fmt.Fprintf(a.errOut, "wake: %s: %s\n", n.Kind, n.Msg)
	if n.Hint != "" {
		fmt.Fprintf(a.errOut, "wake: hint: %s\n", n.Hint)
	}
}

// open finds and opens the memory root.
func (a *app) open() (*wake.Memory, error) { return a.openFrom(a.cwd) }

// openFrom is open with the search starting in dir (the project of an
// install, the cwd of a hook's input).
func (a *app) openFrom(dir string) (*wake.Memory, error) {
	root, err := a.locate(dir)
	if err != nil {
		return nil, err
	}
	o := a.options()
	o.WorkDir = dir
	return wake.Open(root, o)
}

// addFormat adds --format to cmd, taking one of allowed (the first is
// the default) and refusing anything else as a usage error before the
// command runs. what describes the choices for the help.
func addFormat(cmd *cobra.Command, v *string, what string, allowed ...string) {
	*v = allowed[0]
	cmd.Flags().StringVar(v, "format", allowed[0], "output `FORMAT`: "+what)
	cmd.PreRunE = func(*cobra.Command, []string) error {
		if slices.Contains(allowed, *v) {
			return nil
		}
		n := len(allowed)
		return usagef("--format %q: want %s or %s", *v, strings.Join(allowed[:n-1], ", "), allowed[n-1])
	}
}

// writeJSON writes a JSON answer the report package rendered.
func (a *app) writeJSON(data []byte, err error) error {
	if err != nil {
		return err
	}
	_, err = a.out.Write(data)
	return err
}

// helpFiles hold each command's long help, one file a command named after
// it: text a writer edits as text, apart from the code.
//
//go:embed help/*.txt
var helpFiles embed.FS

// help is the long help of the command named name. A missing file is a
// build mistake, which TestHelpFiles catches.
func help(name string) string {
	data, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic(fmt.Sprintf("no help for %q: %v", name, err))
	}
	return strings.TrimSuffix(string(data), "\n")
}

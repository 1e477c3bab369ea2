package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/mcpserver"
)

func (a *app) mcpCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "mcp",
		Short:   "Serve the memory to an MCP client over stdio (tools and resources)",
		Long:    help("mcp"),
		Example: "  wake mcp\n  claude mcp add wake -- wake mcp",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.mcpRun(cmd.Context())
		},
	}
}

func (a *app) mcpRun(ctx context.Context) error {
	root, err := a.locate(a.cwd)
	if err != nil {
		return err
	}
	// A hand-off over MCP primes the start cache as the command's does, so
	// that the next session's start (a hook, wake load) is a warm one.
	// A client whose hooks wake installed into this project gives each
	// session the boot context already: its sessions are not told to
	// load it again.
	hooked := func(client string) bool { return clients.Wired(a.fs, root, clients.MCPClient(client), a.cwd) }
	srv, err := mcpserver.New(mcpserver.Options{Root: root, Library: a.options(), Version: wakeVersion(), Cwd: a.cwd, AfterHandoff: a.primeStarts, Hooked: hooked})
	if err != nil {
		return err
	}
	// A write to a closed stdout must be an error the server handles (the
	// client has gone), not SIGPIPE killing wake in the middle of a
	// hand-off the client sent before it went. Notify, unlike Ignore, is
	// not inherited by the programs wake runs (git).
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	return srv.Run(ctx, a.in, a.out)
}

// wakeVersion is the module's version as the build recorded it.
func wakeVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

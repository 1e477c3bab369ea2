package main

import (
	"context"
	"runtime/debug"

	"github.com/spf13/cobra"

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
	srv, err := mcpserver.New(mcpserver.Options{Root: root, Library: a.options(), Version: wakeVersion(), Cwd: a.cwd})
	if err != nil {
		return err
	}
	return srv.Run(ctx, a.in, a.out)
}

// wakeVersion is the module's version as the build recorded it.
func wakeVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// closest is the candidate nearest to word, within two edits or sharing
// its first three letters; "" when none is near.
func closest(word string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		d := editDistance(strings.ToLower(word), strings.ToLower(c))
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" && len(word) >= 3 {
		for _, c := range candidates {
			if strings.HasPrefix(c, word) {
				return c
			}
		}
	}
	return best
}

// editDistance is the Levenshtein distance, with a swap of two
// neighbouring letters counted as one edit ("becuase" for "because").
func editDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}

// helpHint is the hint that points at a command's own help.
func helpHint(cmd *cobra.Command) string {
	if cmd == nil || !cmd.HasParent() {
		return "run 'wake --help' for usage"
	}
	return "run '" + cmd.CommandPath() + " --help' for usage"
}

// flagError makes pflag's errors usage errors, with the nearest flag of
// the command when one was mistyped.
func flagError(cmd *cobra.Command, err error) error {
	name, ok := unknownFlag(err)
	if !ok {
		return hintError{usageError{err}, helpHint(cmd)}
	}
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if s := closest(name, names); s != "" {
		return hintError{usageError{err}, fmt.Sprintf("did you mean --%s? (%s)", s, helpHint(cmd))}
	}
	return hintError{usageError{err}, helpHint(cmd)}
}

// unknownFlag is the long flag's name in pflag's "unknown flag: --x".
func unknownFlag(err error) (string, bool) {
	var nf *pflag.NotExistError
	if errors.As(err, &nf) && nf.GetSpecifiedName() != "" && len(nf.GetSpecifiedName()) > 1 {
		return nf.GetSpecifiedName(), true
	}
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok || name == "" {
		return "", false
	}
	name, _, _ = strings.Cut(name, "=")
	return name, true
}

// unknownSubcommand is the usage error for an argument given to a
// command that takes none: a mistyped subcommand gets its suggestion.
func unknownSubcommand(cmd *cobra.Command, arg string) error {
	if !cmd.HasSubCommands() {
		return hintError{usagef("%s takes no arguments, got %q", cmd.CommandPath(), arg), helpHint(cmd)}
	}
	err := usagef("unknown command %q for %q", arg, cmd.CommandPath())
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	if s := closest(arg, names); s != "" {
		return hintError{err, fmt.Sprintf("did you mean '%s %s'?", cmd.CommandPath(), s)}
	}
	if s := cmd.SuggestionsFor(arg); len(s) > 0 {
		return hintError{err, fmt.Sprintf("did you mean '%s %s'?", cmd.CommandPath(), s[0])}
	}
	return hintError{err, helpHint(cmd)}
}

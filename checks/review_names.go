package checks

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// The options and dependencies a decision's BECAUSE names, for the review
// of decisions (nostalgia). Recognition is deliberately narrow: only what
// is written the way a command line, a configuration or a manifest would
// write it counts, never an ordinary word.

var (
	// flagName is a long command-line flag: two dashes, then lower-case
	// words joined by dashes or underscores ("--dry-run").
	flagName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^--[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$`)
	})
	// envName is an environment variable: capitals and digits with at
	// least one underscore ("FOO_BAR"), so that no ordinary word (and no
	// acronym) is one.
	envName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)
	})
	// configKey is a configuration key between backticks: lower-case
	// words joined by dots ("server.timeout").
	configKey = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_-]*)+$`)
	})
	// depName is a package name as a manifest writes it.
	depName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:@[a-z0-9][a-z0-9._-]*/)?[A-Za-z0-9][A-Za-z0-9._-]*$`)
	})
	// scopedNpm is an npm package of a scope ("@types/node"), which only
	// a package is named like.
	scopedNpm = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^@[a-z0-9][a-z0-9._-]*/[a-z0-9][a-z0-9._-]*$`)
	})
	// npmPin is a package with its version as npm writes it
	// ("lodash@4.17.21", "@types/node@^20").
	npmPin = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^((?:@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*)@[\^~]?\d[\w.+-]*$`)
	})
	// pipPin is a requirement as pip writes it ("requests>=2.31",
	// "uvicorn[standard]==0.30").
	pipPin = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[\w,.-]+\])?(?:===|==|>=|<=|~=|!=)\d[\w.*+!-]*$`)
	})
	// depBefore is a package named between backticks after the tool or
	// registry it comes from ("the npm package `left-pad`", "cargo add
	// `serde`", "PyPI's `requests`").
	depBefore = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(?i)\\b(npm|yarn|pnpm|pip|pypi|cargo|crates\\.io)(?:'s)?(?:\\s+(?:install|add|package|crate|dependency|library))?\\s+`([^`\\s]+)`")
	})
	// depAfter is a package named between backticks before what it is
	// ("the `serde` crate", "the `left-pad` npm package").
	depAfter = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(?i)`([^`\\s]+)`\\s+(crates?\\b|(?:npm|pypi|pip)\\s+(?:package|dependency|library))")
	})
)

// fileExts are the extensions that make a dotted name between backticks a
// file ("config.toml") rather than a configuration key.
var fileExts = sync.OnceValue(func() map[string]bool {
	exts := map[string]bool{}
	for _, e := range strings.Fields(`go mod sum md markdown txt text rst adoc toml yaml yml json jsonc json5 xml
		ini cfg conf env properties lock js mjs cjs ts mts cts tsx jsx vue svelte py pyi ipynb rs rb
		java kt kts scala groovy gradle c h cc cpp cxx hpp hh m mm cs fs swift dart php pl pm lua r
		ex exs erl hrl hs ml mli clj zig nim jl sh bash zsh fish ps1 bat cmd sql html htm css scss sass
		less svg png jpg jpeg gif webp ico pdf csv tsv zip gz tgz tar bz2 xz zst wasm so dll dylib exe
		bin dat db sqlite proto graphql gql tf tfvars hcl mk make cmake dockerfile txtar golden tmpl
		tpl j2 patch diff log pem crt key pub service plist editorconfig gitignore gitattributes
		npmrc nvmrc yarnrc`) {
		exts[e] = true
	}
	return exts
})

// isConfigKey reports whether s, found between backticks, is a
// configuration key: dotted lower-case words whose last is not a file
// extension ("server.timeout", not "config.toml").
func isConfigKey(s string) bool {
	if !configKey().MatchString(s) {
		return false
	}
	return !fileExts()[s[strings.LastIndexByte(s, '.')+1:]]
}

// NamedOptions returns the options text names, each once, in order of
// first mention: long command-line flags ("--dry-run", a value after "="
// dropped), environment variables ("FOO_BAR", "$FOO_BAR"), bare or
// between backticks, and configuration keys between backticks
// ("server.timeout").
func NamedOptions(text string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		for _, m := range codeSpan().FindAllStringSubmatch(l, -1) {
			if isConfigKey(m[1]) {
				add(m[1])
			}
		}
		for _, tok := range strings.Fields(l) {
			tok = strings.TrimRight(strings.TrimLeft(tok, "([<\"'`"), ")]>\"'`,.;:!?")
			name, _, _ := strings.Cut(tok, "=")
			switch {
			case strings.HasPrefix(name, "--") && flagName().MatchString(name):
				add(name)
			case envName().MatchString(strings.Trim(strings.TrimPrefix(name, "$"), "{}")):
				add(strings.Trim(strings.TrimPrefix(name, "$"), "{}"))
			}
		}
	}
	return out
}

// OptionSpellings are the lower-case strings any of which, found in the
// project's files (case aside), shows it still has the option: a flag by
// its name with dashes, underscores or neither ("dry-run", "dry_run",
// "dryrun", as flag libraries declare it), a variable by its name and its
// key forms, a key by itself and by its last word (configuration files
// nest keys: "[server] timeout = 30").
func OptionSpellings(opt string) []string {
	var out []string
	add := func(s string) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	words := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	}
	switch {
	case strings.HasPrefix(opt, "--"):
		w := words(strings.ToLower(opt[2:]))
		add(strings.Join(w, "-"))
		add(strings.Join(w, "_"))
		add(strings.Join(w, ""))
	case envName().MatchString(opt):
		w := words(strings.ToLower(opt))
		add(strings.Join(w, "_"))
		add(strings.Join(w, "-"))
		add(strings.Join(w, "."))
	default:
		add(opt)
		add(strings.ReplaceAll(opt, ".", "_"))
		add(opt[strings.LastIndexByte(opt, '.')+1:])
	}
	return out
}

// rustBuiltin are the crates every Rust program has without a manifest
// naming them.
var rustBuiltin = map[string]bool{"std": true, "core": true, "alloc": true, "proc_macro": true, "test": true}

// NamedDependencies returns the dependencies text names, each once, in
// order of first mention: a scoped npm package ("@types/node"), a package
// with its version as npm or pip pins it between backticks
// ("lodash@4.17.21", "requests>=2.31"), and a package between backticks
// next to its registry or tool ("the `serde` crate", "the npm package
// `left-pad`"). A name in backticks with nothing to say it is a package is
// not one: it could be anything.
func NamedDependencies(text string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		s = strings.TrimRight(s, ".,;:")
		if s != "" && depName().MatchString(s) && !rustBuiltin[s] && !seen[DependencyKey(s)] {
			seen[DependencyKey(s)] = true
			out = append(out, s)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		for _, m := range depBefore().FindAllStringSubmatch(l, -1) {
			add(m[2])
		}
		for _, m := range depAfter().FindAllStringSubmatch(l, -1) {
			add(m[1])
		}
		for _, m := range codeSpan().FindAllStringSubmatch(l, -1) {
			if p := npmPin().FindStringSubmatch(m[1]); p != nil {
				add(p[1])
			} else if p := pipPin().FindStringSubmatch(m[1]); p != nil {
				add(p[1])
			}
		}
		for _, tok := range strings.Fields(l) {
			tok = strings.TrimRight(strings.TrimLeft(tok, "([<\"'`"), ")]>\"'`,.;:!?")
			if scopedNpm().MatchString(tok) {
				add(tok)
			}
		}
	}
	return out
}

// DependencyKey is the form in which dependency names are compared: lower
// case, with runs of "-", "_" and "." as one "-" (pip's normalisation,
// which also makes Cargo's "-" and "_" one).
func DependencyKey(name string) string {
	var b strings.Builder
	sep := false
	for _, r := range strings.ToLower(name) {
		if r == '-' || r == '_' || r == '.' {
			sep = true
			continue
		}
		if sep && b.Len() > 0 {
			b.WriteByte('-')
		}
		sep = false
		b.WriteRune(r)
	}
	return b.String()
}

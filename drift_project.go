package wake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/afero"

	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/gitwork"
	"github.com/wakeproto/wake/tiers"
)

// The project's files as the review of decisions (nostalgia) reads them:
// whether they still mention an option a decision's reason names, and
// the dependencies their manifests list. In a git work tree git lists and
// searches them (tracked and untracked, not ignored); elsewhere a bounded
// walk does. The memory root is left out (the decision log names every
// option it cites), but for its wake.toml, which is configuration.

const (
	// walkMaxFiles bounds the walk of a project outside git: past it the
	// search is incomplete, and nothing is reported gone.
	walkMaxFiles = 20000
	// walkMaxBytes bounds what the walk reads, likewise.
	walkMaxBytes = 64 << 20
	// walkMaxFile is the largest file the walk searches: larger ones are
	// data, not where an option is declared.
	walkMaxFile = 4 << 20
)

// walkSkip are the directories the walk never enters: version control's,
// and other tools' caches and installed dependencies.
var walkSkip = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true, "vendor": true, "target": true,
	"__pycache__": true, "venv": true, ".venv": true, ".tox": true}

// projectFiles looks up the project in dir, whose memory root is root.
type projectFiles struct {
	fs        afero.Fs
	git       gitwork.Git
	dir, root string
	inGit     func() bool
	walked    func() ([]string, bool)
	// searched, when set, is told that git searched or listed the
	// project: what it answered is in no start cache key.
	searched func()
}

// gitSearched tells p.searched that git is asked about the project.
func (p *projectFiles) gitSearched() {
	if p.searched != nil {
		p.searched()
	}
}

func newProjectFiles(fsys afero.Fs, g gitwork.Git, dir, root string) *projectFiles {
	p := &projectFiles{fs: fsys, git: g, dir: dir, root: root}
	p.inGit = sync.OnceValue(func() bool {
		return gitwork.Found() && p.git.InWorkTree(context.Background(), dir)
	})
	p.walked = sync.OnceValues(p.walk)
	return p
}

// rootExclude is the pathspec that leaves the memory root out of git's
// lists.
func (p *projectFiles) rootExclude() string {
	rel, err := filepath.Rel(p.dir, p.root)
	if err != nil {
		rel = tiers.DefaultDirName
	}
	return ":(exclude)" + filepath.ToSlash(rel)
}

// Mentioned reports which of the lower-case spellings the project's files
// hold, case aside; known is false when they could not all be searched.
func (p *projectFiles) Mentioned(spellings []string) (map[string]bool, bool) {
	found := map[string]bool{}
	if cfg, err := tiers.ReadOwn(p.fs, p.root, tiers.ConfigPath); err == nil {
		lower := bytes.ToLower(cfg)
		for _, s := range spellings {
			found[s] = bytes.Contains(lower, []byte(s))
		}
	}
	if p.inGit() {
		p.gitSearched()
		for _, s := range spellings {
			if found[s] {
				continue
			}
			_, err := p.git.Run(context.Background(), p.dir, "grep", "-q", "-I", "-F", "-i", "--untracked", "-e", s, "--", ".", p.rootExclude())
			var exit *exec.ExitError
			switch {
			case err == nil:
				found[s] = true
			case errors.As(err, &exit) && exit.ExitCode() == 1:
			default:
				return nil, false
			}
		}
		return found, true
	}
	files, complete := p.walked()
	if !complete {
		return nil, false
	}
	read := 0
	for _, f := range files {
		fi, err := p.fs.Stat(filepath.Join(p.dir, filepath.FromSlash(f)))
		if err != nil || fi.Size() > walkMaxFile {
			continue
		}
		if read += int(fi.Size()); read > walkMaxBytes {
			return nil, false
		}
		data, err := afero.ReadFile(p.fs, filepath.Join(p.dir, filepath.FromSlash(f)))
		if err != nil || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			continue // unreadable or binary: not where an option is written
		}
		lower := bytes.ToLower(data)
		for _, s := range spellings {
			if !found[s] && bytes.Contains(lower, []byte(s)) {
				found[s] = true
			}
		}
	}
	return found, true
}

// walk lists the project's files (slash-separated, relative to dir) but
// for the memory root and walkSkip; complete is false
// past walkMaxFiles.
func (p *projectFiles) walk() ([]string, bool) {
	var out []string
	complete := true
	err := afero.Walk(p.fs, p.dir, func(name string, fi fs.FileInfo, err error) error {
		if err != nil {
			return nil // an unreadable directory holds nothing to find
		}
		if fi.IsDir() {
			base := fi.Name()
			if name != p.dir && (name == p.root || walkSkip[base]) {
				return filepath.SkipDir
			}
			return nil
		}
		if !fi.Mode().IsRegular() {
			return nil
		}
		if len(out) == walkMaxFiles {
			complete = false
			return filepath.SkipAll
		}
		rel, err := filepath.Rel(p.dir, name)
		if err == nil {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out, complete && err == nil
}

// isManifest reports whether a file, by its name, is a manifest the review
// reads.
func isManifest(rel string) bool {
	base := path.Base(rel)
	switch base {
	case "go.mod", "package.json", "pyproject.toml", "Cargo.toml":
		return true
	}
	return strings.HasPrefix(base, "requirements") && strings.HasSuffix(base, ".txt")
}

// Dependencies reads every manifest of the project and returns the names
// they list (as [checks.DependencyKey]) and the manifests read; none when
// there is none, or when one cannot be read or parsed (the dependency
// might be in it).
func (p *projectFiles) Dependencies() (map[string]bool, []string) {
	var rels []string
	if p.inGit() {
		p.gitSearched()
		out, err := p.git.Run(context.Background(), p.dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--",
			":(glob)**/go.mod", ":(glob)**/package.json", ":(glob)**/pyproject.toml", ":(glob)**/Cargo.toml", ":(glob)**/requirements*.txt",
			":(exclude,glob)**/node_modules/**", p.rootExclude())
		if err != nil {
			return nil, nil
		}
		rels = gitwork.SplitNUL(out)
	} else {
		files, complete := p.walked()
		if !complete {
			return nil, nil
		}
		rels = files
	}
	names := map[string]bool{}
	var read []string
	for _, rel := range rels {
		if !isManifest(rel) || slices.Contains(read, rel) {
			continue
		}
		data, err := afero.ReadFile(p.fs, filepath.Join(p.dir, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted, not yet committed
		}
		if err != nil {
			return nil, nil
		}
		deps, err := manifestNames(path.Base(rel), data)
		if err != nil {
			return nil, nil
		}
		for _, d := range deps {
			names[checks.DependencyKey(d)] = true
		}
		read = append(read, rel)
	}
	slices.Sort(read)
	return names, read
}

// manifestNames are the names a manifest lists: the project's own and its
// dependencies'. name is the file's base name.
func manifestNames(name string, data []byte) ([]string, error) {
	switch {
	case name == "go.mod":
		var out []string
		for _, m := range goModPaths(string(data)) {
			out = append(out, m, goModName(m))
		}
		return out, nil
	case name == "package.json":
		return packageJSONNames(data)
	case name == "pyproject.toml":
		return pyprojectNames(data)
	case name == "Cargo.toml":
		return cargoNames(data)
	default:
		return requirementsNames(string(data)), nil
	}
}

// goModName is the name a module goes by: its path's last element, less
// a major version suffix ("github.com/a/b/v2" is b).
func goModName(p string) string {
	base := path.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		return path.Base(path.Dir(p))
	}
	return base
}

func packageJSONNames(data []byte) ([]string, error) {
	var pj struct {
		Name                 string         `json:"name"`
		Dependencies         map[string]any `json:"dependencies"`
		DevDependencies      map[string]any `json:"devDependencies"`
		PeerDependencies     map[string]any `json:"peerDependencies"`
		OptionalDependencies map[string]any `json:"optionalDependencies"`
	}
	if err := json.Unmarshal(data, &pj); err != nil {
		return nil, err
	}
	out := []string{pj.Name}
	for _, m := range []map[string]any{pj.Dependencies, pj.DevDependencies, pj.PeerDependencies, pj.OptionalDependencies} {
		for k := range m {
			out = append(out, k)
		}
	}
	return out, nil
}

// requirementName is the project name a PEP 508 requirement starts with.
func requirementName(s string) string {
	s = strings.TrimSpace(s)
	end := strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	})
	if end >= 0 {
		s = s[:end]
	}
	return s
}

// requirementsNames reads a requirements file: a requirement a line, "#"
// comments and pip's options ("-r", "-e", "--hash") aside.
func requirementsNames(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "-") {
			continue
		}
		if n := requirementName(l); n != "" {
			out = append(out, n)
		}
	}
	return out
}

func pyprojectNames(data []byte) ([]string, error) {
	var pp struct {
		Project struct {
			Name                 string              `toml:"name"`
			Dependencies         []string            `toml:"dependencies"`
			OptionalDependencies map[string][]string `toml:"optional-dependencies"`
		} `toml:"project"`
		DependencyGroups map[string][]any `toml:"dependency-groups"`
		Tool             struct {
			Poetry struct {
				Name            string         `toml:"name"`
				Dependencies    map[string]any `toml:"dependencies"`
				DevDependencies map[string]any `toml:"dev-dependencies"`
				Group           map[string]struct {
					Dependencies map[string]any `toml:"dependencies"`
				} `toml:"group"`
			} `toml:"poetry"`
		} `toml:"tool"`
	}
	if err := toml.Unmarshal(data, &pp); err != nil {
		return nil, err
	}
	out := []string{pp.Project.Name, pp.Tool.Poetry.Name}
	reqs := slices.Clone(pp.Project.Dependencies)
	for _, l := range pp.Project.OptionalDependencies {
		reqs = append(reqs, l...)
	}
	for _, l := range pp.DependencyGroups {
		for _, r := range l {
			if s, ok := r.(string); ok {
				reqs = append(reqs, s)
			}
		}
	}
	for _, r := range reqs {
		out = append(out, requirementName(r))
	}
	tables := []map[string]any{pp.Tool.Poetry.Dependencies, pp.Tool.Poetry.DevDependencies}
	for _, g := range pp.Tool.Poetry.Group {
		tables = append(tables, g.Dependencies)
	}
	for _, t := range tables {
		for k := range t {
			out = append(out, k)
		}
	}
	return out, nil
}

// cargoNames reads a Cargo.toml: the package's name, and every
// dependency table's keys (and the crate a renamed one stands for),
// the workspace's and the targets' included.
func cargoNames(data []byte) ([]string, error) {
	type deps struct {
		Dependencies      map[string]any `toml:"dependencies"`
		DevDependencies   map[string]any `toml:"dev-dependencies"`
		BuildDependencies map[string]any `toml:"build-dependencies"`
	}
	var c struct {
		Package struct {
			Name string `toml:"name"`
		} `toml:"package"`
		deps
		Workspace struct {
			Dependencies map[string]any `toml:"dependencies"`
		} `toml:"workspace"`
		Target map[string]deps `toml:"target"`
	}
	if err := toml.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	out := []string{c.Package.Name}
	tables := []map[string]any{c.Dependencies, c.DevDependencies, c.BuildDependencies, c.Workspace.Dependencies}
	for _, t := range c.Target {
		tables = append(tables, t.Dependencies, t.DevDependencies, t.BuildDependencies)
	}
	for _, t := range tables {
		for k, v := range t {
			out = append(out, k)
			if spec, ok := v.(map[string]any); ok {
				if real, ok := spec["package"].(string); ok {
					out = append(out, real)
				}
			}
		}
	}
	return out, nil
}

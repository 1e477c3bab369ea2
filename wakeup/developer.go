package wakeup

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// ProfileDeveloper is the developer profile: the user's own developer
// roots (wakeup.developer in ~/.config/wake/config.toml), merged with the
// project's preferences and constraints.
const ProfileDeveloper = "developer"

// MaxDeveloperDocs bounds the documents read of one developer root: a
// developer root is a few folders of curated notes, read whole each time.
const MaxDeveloperDocs = 2000

// DeveloperRoot is one developer root: its directory and its name as the
// user wrote it, which the packet's sources are named under.
type DeveloperRoot struct {
	Dir  string // absolute
	Name string // as written in config.toml, such as "~/.config/wake/developer"
}

// GatherDeveloper collects the developer profile's candidates: every
// Markdown document of the developer roots, as the policy admits it, and
// of the project's sources only its preferences, workflows, constraints
// and standing directives. The identity is the first document (by path)
// in a folder whose name says identity (such as 00-Identity) that
// declares no memory_type. Documents without a memory_type elsewhere are
// candidates for recommended_notes only. The warnings name what could not
// be read; they do not stop the packet.
func GatherDeveloper(fsys afero.Fs, roots []DeveloperRoot, project Sources) (Sources, []string) {
	src := Sources{
		Identity:   Identity{ProjectID: project.Identity.ProjectID, Root: project.Identity.Root, Agent: project.Identity.Agent},
		Directives: project.Directives, MainLevel: project.MainLevel,
		Suppressed: project.Suppressed, Redactions: project.Redactions,
	}
	if project.ReadBody != nil {
		src.ReadBody = project.ReadBody
	}
	for _, d := range project.Docs {
		switch d.MemoryType {
		case TypePreference, TypeWorkflow, TypeConstraint:
			src.Docs = append(src.Docs, d)
		}
	}
	var warns []string
	for _, r := range roots {
		docs, suppressed, w := readDeveloperRoot(fsys, r)
		warns = append(warns, w...)
		src.Suppressed += suppressed
		for _, d := range docs {
			if d.MemoryType == "" && src.Identity.Source == "" && isIdentityDoc(d.Path, r.Name) {
				src.Identity.Source = d.Path
				src.Identity.Name = d.Title
				src.Identity.Summary = d.Summary
				src.Identity.Role = firstParagraph(d.Body)
				src.IdentityLevel, src.IdentityBasis = d.Sensitivity, "the first document of the developer root's identity folder"
				continue
			}
			src.Docs = append(src.Docs, d)
		}
	}
	return src, warns
}

// isIdentityDoc reports whether the document at p (under the root named
// name) sits in a folder whose name says identity.
func isIdentityDoc(p, name string) bool {
	rel := strings.TrimPrefix(p, name+"/")
	dir := path.Dir(rel)
	for _, part := range strings.Split(dir, "/") {
		if strings.Contains(strings.ToLower(part), "identity") {
			return true
		}
	}
	return false
}

// readDeveloperRoot reads the Markdown documents of one developer root in
// path order, hidden files and folders left out; it returns them as the
// policy admits them, and how many it held back.
func readDeveloperRoot(fsys afero.Fs, r DeveloperRoot) ([]Doc, int, []string) {
	var rels, warns []string
	err := afero.Walk(fsys, r.Dir, func(name string, fi fs.FileInfo, err error) error {
		if err != nil {
			warns = append(warns, fmt.Sprintf("developer root %s: %v", r.Name, err))
			if fi != nil && fi.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		base := fi.Name()
		if name != r.Dir && strings.HasPrefix(base, ".") {
			if fi.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if fi.IsDir() || !strings.EqualFold(filepath.Ext(base), ".md") {
			return nil
		}
		if len(rels) == MaxDeveloperDocs {
			warns = append(warns, fmt.Sprintf("developer root %s: more than %d documents; the rest are not read", r.Name, MaxDeveloperDocs))
			return filepath.SkipAll
		}
		rel, err := filepath.Rel(r.Dir, name)
		if err == nil {
			rels = append(rels, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		warns = append(warns, fmt.Sprintf("developer root %s: %v", r.Name, err))
	}
	slices.Sort(rels)
	var docs []Doc
	suppressed := 0
	for _, rel := range rels {
		d, err := tiers.ReadDoc(fsys, r.Dir, rel)
		switch {
		case err != nil:
			warns = append(warns, fmt.Sprintf("developer root %s: %v", r.Name, err))
			continue
		case !d.Readable():
			if d.Skipped != "" {
				warns = append(warns, fmt.Sprintf("developer root %s: %s: skipped: %s", r.Name, rel, d.Skipped))
			}
			continue
		}
		level, _ := policy.OfDoc(d)
		if level == policy.Secret {
			suppressed++
			continue
		}
		body := string(bodyOf(d.Content))
		summary, _ := policy.Scrub(tiers.ShortLine(d.Meta.Summary))
		doc := Doc{Path: r.Name + "/" + rel, Title: titleOf(rel, tiers.FirstHeading(body)), Summary: summary,
			MemoryType: strings.ToLower(d.Meta.MemoryType), ProjectID: d.Meta.ProjectID,
			SourceOfTruth: d.Meta.SourceOfTruth != nil && *d.Meta.SourceOfTruth, Sensitivity: level, ModTime: d.ModTime.UTC()}
		if level != policy.Confidential {
			doc.Body, _ = policy.Scrub(body)
			doc.Title, _ = policy.Scrub(doc.Title)
		} else {
			doc.Title = path.Base(rel)
		}
		docs = append(docs, doc)
	}
	return docs, suppressed, warns
}

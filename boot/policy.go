package boot

import (
	"fmt"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// Sensitivity is the level the policy of DESIGN section 7 applies to a
// readable document: its front matter's, internal when unset, and secret
// when the front matter cannot be read, since an unknown level must be
// treated as the strictest. It uses the front matter [tiers.ReadDoc]
// parsed.
func Sensitivity(d tiers.Doc) (string, error) {
	return policyLevel(d.Meta.Sensitivity, d.MetaErr)
}

// policyLevel is the policy's one rule: the declared level, internal when unset,
// secret when the front matter could not be read.
func policyLevel(declared string, metaErr error) (string, error) {
	if metaErr != nil {
		return tiers.Secret, metaErr
	}
	return tiers.FrontMatter{Sensitivity: declared}.Level(), nil
}

// admitFile applies the sensitivity policy to a tier file, once, for every
// output built from the context: a secret document is not shown at all, a
// confidential one by its one-line summary only, and the context counts
// both. The file's document stays whole for the checks, whose findings are
// redacted instead.
func (c *Context) admitFile(f *File, counter budget.Counter) {
	lvl, err := Sensitivity(f.doc)
	switch lvl {
	case tiers.Secret:
		c.HeldBack.Secret++
		f.Held, f.Content = tiers.Secret, ""
		if err != nil {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: held back as secret: %v, so its sensitivity is unknown", f.Path, err))
		}
	case tiers.Confidential:
		c.HeldBack.Confidential++
		f.Held = tiers.Confidential
		f.Content = fmt.Sprintf("Summary: %s\n", tiers.OneLine(f.doc.Meta.Summary))
	}
	f.full = f.Content
	f.Tokens = counter.Count(f.Content)
	f.ShownTokens = f.Tokens
}

// held maps the paths of held-back tier files to their level.
func (c *Context) held() map[string]string {
	out := map[string]string{}
	for _, f := range c.Files() {
		if f.Held != "" {
			out[f.Path] = f.Held
		}
	}
	return out
}

package cold

// foldedDirs returns how many directories of the fold order are folded,
// shown or inside a folded one.
func (t *TOC) foldedDirs() int { return t.folds }

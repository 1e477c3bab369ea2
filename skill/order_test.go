package skill

// cutOrder lists the items compression may drop to fit the total, in the
// order the spec fixes for it: first what the spec excludes, bottom up;
// then History from its oldest line, Last Session from its last bullet,
// How We Work from its last line. The tests hold the Fitter's priorities
// to it.
func (s *File) cutOrder() []cut {
	var out []cut
	bottomUp := []string{SkillHistory, SkillRecent, SkillProtocols}
	for _, excl := range []bool{true, false} {
		for _, title := range bottomUp {
			out = append(out, sectionCuts(s.section(title), excl)...)
		}
	}
	return out
}

// sectionCuts lists a section's items whose Excluded is excl, last first.
func sectionCuts(sec *Section, excl bool) []cut {
	var out []cut
	for i := len(sec.Items) - 1; i >= sec.mustKeep(); i-- {
		if sec.Items[i].Excluded == excl {
			out = append(out, cut{sec, i})
		}
	}
	return out
}

// cut is item i of section sec.
type cut struct {
	sec *Section
	i   int
}

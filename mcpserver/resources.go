package mcpserver

import (
	"github.com/wakeproto/wake"
)

// The resources' URIs.
const (
	BootURI  = "wake://boot"
	SkillURI = "wake://skill"
)

func (s *server) addResources() {
	s.addResource(resourceInfo{URI: BootURI, Name: "boot", Title: "wake boot context", MIMEType: "text/markdown",
		Description: "The boot context as it stands now, read without starting a session (no boot files written, no pull budget opened): what wake_load returns, whole."},
		func(m *wake.Memory) (string, error) {
			_, text, err := m.BootContext(false)
			return text, err
		})
	s.addResource(resourceInfo{URI: SkillURI, Name: "skill", Title: "wake skill.md", MIMEType: "text/markdown",
		Description: "skill.md: how this memory works and how to keep it (the protocol, the commands, the layout of the root), as wake skill prints it."},
		func(m *wake.Memory) (string, error) {
			data, err := m.Skill()
			return string(data), err
		})
}

// addResource adds the text resource r whose text read gives.
func (s *server) addResource(r resourceInfo, read func(m *wake.Memory) (string, error)) {
	s.resources = append(s.resources, &resource{r, func(string) (string, error) {
		var text string
		err := s.with(nil, func(m *wake.Memory) error {
			var err error
			text, err = read(m)
			return err
		})
		if err != nil {
			return "", toolError(err, nil)
		}
		return text, nil
	}})
}

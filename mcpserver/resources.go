package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wakeproto/wake"
)

// The resources' URIs.
const (
	BootURI  = "wake://boot"
	SkillURI = "wake://skill"
)

func (s *server) addResources(srv *mcp.Server) {
	srv.AddResource(&mcp.Resource{URI: BootURI, Name: "boot", Title: "wake boot context", MIMEType: "text/markdown",
		Description: "The boot context as it stands now, read without starting a session (no boot files written, no pull budget opened): what wake_load returns, whole."},
		s.resource(BootURI, func(m *wake.Memory) (string, error) {
			_, text, err := m.BootContext(false)
			return text, err
		}))
	srv.AddResource(&mcp.Resource{URI: SkillURI, Name: "skill", Title: "wake skill.md", MIMEType: "text/markdown",
		Description: "skill.md: how this memory works and how to keep it (the protocol, the commands, the layout of the root), as wake skill prints it."},
		s.resource(SkillURI, func(m *wake.Memory) (string, error) {
			data, err := m.Skill()
			return string(data), err
		}))
}

// resource is the handler of a text resource whose text read gives.
func (s *server) resource(uri string, read func(m *wake.Memory) (string, error)) mcp.ResourceHandler {
	return func(_ context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		var text string
		err := s.with(nil, func(m *wake.Memory) error {
			var err error
			text, err = read(m)
			return err
		})
		if err != nil {
			return nil, toolError(err, nil)
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: text}}}, nil
	}
}

package boot

// Markdown renders the boot context as the agent reads it.
func Markdown(c *Context) string {
	return markdownHead(c) + outputLine(c)
}

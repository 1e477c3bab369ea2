package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/report"
)

// addPage adds --page to a listing that answers within a page by
// default.
func addPage(cmd *cobra.Command, page *int) {
	cmd.Flags().IntVar(page, "page", 1, "print page `N` of the listing (each about 4,000 tokens)")
}

// pager pages a listing of the root's records with its encoding.
func (a *app) pager(root string, page int) (report.Pager, error) {
	c, err := wake.ListingCounter(root, a.options())
	if err != nil {
		return report.Pager{}, err
	}
	return report.Pager{Counter: c, Page: page}, nil
}

// pageErr makes a page past the last a usage error, with the listing's
// page count.
func pageErr(err error) error {
	var pe *report.PageError
	if errors.As(err, &pe) {
		return usageError{err}
	}
	return err
}

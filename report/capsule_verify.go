package report

import (
	"fmt"
	"strings"

	"github.com/wakeproto/wake"
)

// CapsulePrompt is the JSON of `wake capsule prompt --format json`.
type CapsulePrompt struct {
	Version int    `json:"version"`
	Path    string `json:"path"`  // the capsule, relative to the memory root
	Shown   string `json:"shown"` // as the prompt names it
	Branch  string `json:"branch"`
	Session string `json:"session"`
	// TokenBudget is the body's budget the front matter carries
	// (capsule.max_tokens).
	TokenBudget int  `json:"token_budget"`
	Stubbed     bool `json:"stubbed"` // this call wrote the skeleton
	Exists      bool `json:"exists"`  // the file is there
	// OpenReminders counts the inbox's open reminders; -1 when it could
	// not be read.
	OpenReminders int        `json:"open_reminders"`
	Git           CapsuleGit `json:"git"`
	// Plans are the branch's plan and progress notebooks the prompt
	// names, relative to the project ([capsule] plans); none, left out.
	Plans  []string `json:"plans,omitempty"`
	Prompt string   `json:"prompt"`
}

// CapsuleGit is the work tree's state the prompt asks the capsule to agree
// with.
type CapsuleGit struct {
	Branch     string `json:"branch"`
	Changed    int    `json:"changed"`
	LastCommit string `json:"last_commit"`
	Note       string `json:"note,omitempty"` // why git told nothing
}

// CapsulePromptJSON renders p.
func CapsulePromptJSON(p wake.CapsulePrompt) ([]byte, error) {
	return marshal(CapsulePrompt{Version: Version, Path: p.Path, Shown: p.Shown, Branch: p.Front.Branch, Session: p.Front.SourceSession,
		TokenBudget: p.Front.TokenBudget, Stubbed: p.Stubbed, Exists: p.Exists, OpenReminders: p.OpenReminders,
		Git:   CapsuleGit{Branch: p.Git.Branch, Changed: p.Git.Changed, LastCommit: p.Git.LastCommit, Note: p.Git.Note},
		Plans: p.Plans, Prompt: p.Text})
}

// CapsuleVerify is the JSON of `wake capsule verify --format json`.
type CapsuleVerify struct {
	Version     int              `json:"version"`
	Path        string           `json:"path"` // the capsule, relative to the memory root
	OK          bool             `json:"ok"`   // no findings
	Tokens      int              `json:"tokens"`
	TokenBudget int              `json:"token_budget"`
	MaxTokens   int              `json:"max_tokens"`
	Findings    []CapsuleFinding `json:"findings"`
	// Files are the files the capsule names or its record holds, each
	// with its state: recorded, unchanged, changed, missing, unrecorded.
	Files    []CapsuleFile `json:"files"`
	Commits  []string      `json:"commits"` // the commits it names, found
	Recorded bool          `json:"recorded"`
	Notes    []string      `json:"notes"`
}

// CapsuleFinding is one problem of a capsule.
type CapsuleFinding struct {
	Kind    string `json:"kind"`
	Line    int    `json:"line"`
	Subject string `json:"subject,omitempty"`
	Message string `json:"message"`
}

// CapsuleFile is one file a capsule names.
type CapsuleFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	State  string `json:"state"`
}

// CapsuleVerifyJSON renders v.
func CapsuleVerifyJSON(v wake.CapsuleVerification) ([]byte, error) {
	out := CapsuleVerify{Version: Version, Path: v.Path, OK: v.OK(), Tokens: v.Tokens, TokenBudget: v.Budget, MaxTokens: v.MaxTokens,
		Findings: []CapsuleFinding{}, Files: []CapsuleFile{}, Commits: strs(v.Commits), Recorded: v.Recorded, Notes: strs(v.Notes)}
	for _, f := range v.Findings {
		out.Findings = append(out.Findings, CapsuleFinding{Kind: f.Kind, Line: f.Line, Subject: f.Subject, Message: f.Message})
	}
	for _, f := range v.Files {
		out.Files = append(out.Files, CapsuleFile{Path: f.Path, SHA256: f.SHA256, State: f.State})
	}
	return marshal(out)
}

// CapsuleVerifyText is the terminal's account of v: one line a finding,
// "path:line: kind: message", then the verdict; shown is the capsule's
// path as the user named it.
func CapsuleVerifyText(v wake.CapsuleVerification, shown string) string {
	var b strings.Builder
	for _, f := range v.Findings {
		if f.Line > 0 {
			fmt.Fprintf(&b, "%s:%d: %s: %s\n", shown, f.Line, f.Kind, f.Message)
		} else {
			fmt.Fprintf(&b, "%s: %s: %s\n", shown, f.Kind, f.Message)
		}
	}
	for _, n := range v.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	counts := map[string]int{}
	for _, f := range v.Files {
		counts[f.State]++
	}
	var files []string
	for _, st := range []string{wake.FileRecorded, wake.FileUnchanged, wake.FileChanged, wake.FileMissing, wake.FileUnrecorded} {
		if counts[st] > 0 {
			files = append(files, fmt.Sprintf("%d %s", counts[st], st))
		}
	}
	fileLine := "no files named"
	if len(files) > 0 {
		fileLine = "files: " + strings.Join(files, ", ")
	}
	verdict := "ok"
	if !v.OK() {
		verdict = fmt.Sprintf("%d finding(s)", len(v.Findings))
	}
	fmt.Fprintf(&b, "%s: %s; body %d tokens (token_budget %d, capsule.max_tokens %d); %s; %d commit(s) found\n",
		shown, verdict, v.Tokens, v.Budget, v.MaxTokens, fileLine, len(v.Commits))
	if v.Recorded {
		fmt.Fprintf(&b, "Recorded the sha256 of the files it names in its front matter; a later verify reports their drift.\n")
	}
	return b.String()
}

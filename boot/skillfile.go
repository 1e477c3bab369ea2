package boot

// Whose says whose skill.md a file is. The file at skill.path is shared:
// every memory root whose skill.path names it writes there, so it names
// its root in wake's marker, and wake writes it only for that root.
type Whose string

// What a skill.md file can be, for the root looking at it.
const (
	WhoseThis    Whose = "this"    // this root's: wake writes it
	WhoseOther   Whose = "other"   // another root's, which still exists: left as it is
	WhoseGone    Whose = "gone"    // wake's, naming a root that is gone (or none): wake takes it over
	WhoseForeign Whose = "foreign" // not wake's (no marker): left as it is
	WhoseNone    Whose = "absent"  // no file there
)

// SkillFile is one skill.md file of a memory root's and whose it is.
type SkillFile struct {
	Path string
	// Shared says the file is the one at skill.path, which other roots
	// may write to as well, rather than the root's own copy.
	Shared bool
	Whose  Whose
	// Owner is the memory root the file names in its marker; "" when it
	// names none.
	Owner string
	// Changed says this run wrote it.
	Changed bool
}

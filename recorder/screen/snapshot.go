package screen

import "fmt"

// The ARIA snapshot text: the form in which people and models read a screen.
//
// Trailpin writes and reads the format of Playwright's ARIA snapshots, so a
// model that knows Playwright's snapshots reads Trailpin's, and Playwright's
// own output can be compared with Trailpin's line by line:
//
//	- heading "Cart" [level=2] [ref=e7]
//	- list [ref=e8]:
//	  - listitem [ref=e9]: Coffee beans
//	- link "Checkout" [ref=e12]:
//	  - /url: https://shop.example/checkout
//	- text: 3 items
//
// Playwright's text is YAML, and YAML misreads some element lines, so
// Playwright wraps those in single quotes and writes each ' inside as '':
//
//	- 'button "It''s: here" [ref=e7]'
//
// A model that reads that line may copy the doubled quote into an argument.
// So the text shown to a model is always the unquoted form (the zero
// SnapshotOptions), which writes the same line as
//
//	- button "It's: here" [ref=e7]
//
// The unquoted form is not YAML; read it with ParseSnapshot, which reads
// both forms and everything else Playwright writes.

// SnapshotOptions choose the form RenderSnapshot and FormatSnapshot write.
// The zero value is the form to show a model: every element, never a line
// wrapped in single quotes.
type SnapshotOptions struct {
	// Mode chooses which of Playwright's two renderings to write: the AI
	// snapshot (the zero value, what a model reads) or ariaSnapshot().
	Mode SnapshotMode
	// Interactive writes only what a model needs to act: interactive
	// elements (buttons, links, fields, checkboxes, radios, comboboxes,
	// options, tabs, menu items, switches, sliders…) with their states,
	// refs and values; the landmarks, dialogs, menus and frames that hold
	// them, as lines without refs; each heading followed by one of them,
	// with its level; and the rows, list items and groups that hold them,
	// with the text they show, so that no two controls read the same where
	// the page tells them apart (CheckDistinguishable). Other text, lists,
	// tables, images and wrappers are left out. A nameless
	// control keeps its /url and the first named element inside it. On a
	// product listing it is about a third of Playwright's AI snapshot.
	Interactive bool
	// Depth, when above zero, stops the outline that many levels below its
	// top lines, as Playwright's depth option does: an element at the last
	// level keeps its text and properties but not its children.
	Depth int
	// Quoted writes element lines exactly as Playwright does: a line YAML
	// would misread is wrapped in single quotes, with '' for each '. Use it
	// to compare with Playwright's output or to hand the text to a YAML
	// reader; never for text a model reads.
	Quoted bool
}

// A SnapshotMode is one of Playwright's renderings of a page.
type SnapshotMode int

const (
	// ModeAI is Playwright's AI snapshot (page.ariaSnapshot({mode: "ai"})):
	// refs on every element, the focused one marked [active], generic
	// elements kept where they group more than one element, visible
	// descendants of hidden elements shown.
	ModeAI SnapshotMode = iota
	// ModeAria is Playwright's ariaSnapshot() of the body, the form its
	// toMatchAriaSnapshot assertions read: no refs, no generic elements
	// (their content goes to their parent), nothing hidden from assistive
	// technology.
	ModeAria
)

// ParseSnapshotMode reads a mode's name: "ai" or "aria".
func ParseSnapshotMode(s string) (SnapshotMode, error) {
	switch s {
	case "ai":
		return ModeAI, nil
	case "aria":
		return ModeAria, nil
	}
	return 0, fmt.Errorf("snapshot mode %q: use ai (Playwright's AI snapshot, with refs) or aria (its ariaSnapshot())", s)
}

// String is the mode's name as ParseSnapshotMode reads it.
func (m SnapshotMode) String() string {
	if m == ModeAria {
		return "aria"
	}
	return "ai"
}

// SnapshotTextRole is the Role of a SnapshotNode that is a run of text (a
// "- text: …" line, or the text after an element's colon). It is not an ARIA
// role, so it never clashes with an element.
const SnapshotTextRole = "text"

// A SnapshotNode is one entry of an ARIA snapshot: an element with its
// states and children, or a run of text (Role == SnapshotTextRole, the text
// in Text, nothing else set).
type SnapshotNode struct {
	Role string
	// Name is the accessible name. A name Playwright writes as /…/ (it does
	// so for any name that starts and ends with a slash) is read literally,
	// slashes included: in a snapshot of a page it is the name, not a
	// pattern.
	Name string
	// Text is the text of a text node; empty for elements.
	Text string
	Ref  string

	// Checked and Pressed are "true", "mixed", or "" when not stated
	// ("false" when a snapshot says [checked=false]).
	Checked  string
	Pressed  string
	Disabled bool
	Expanded bool
	Selected bool
	// Active marks the focused element.
	Active bool
	// Invalid is "true", "grammar", "spelling", or "".
	Invalid string
	Level   int

	// URL is a link's /url property.
	URL string
	// Props are the other property lines ("- /placeholder: …"), in order.
	Props []SnapshotProp
	// Extra holds the marks this package does not model, such as
	// [cursor=pointer] or [box=…], in the order read. They are written
	// after [ref=…].
	Extra []SnapshotAttr

	Children []*SnapshotNode

	// pointer is set on a node built from a screen whose element has a
	// pointer cursor; the [cursor=pointer] mark is written from it.
	pointer bool
	// namedBy are the nodes of the elements a screen node's
	// aria-labelledby names (nil where one is not shown); seq is the
	// node's place in document order, and last the greatest seq below it.
	namedBy   []*SnapshotNode
	seq, last int
	// nameFromBlank is the screen node's NameFromBlank: the name keeps a
	// part no node shows.
	nameFromBlank bool

	// Line is the 1-based line the node was read from; 0 when built from a
	// screen.
	Line int
}

// A SnapshotProp is a property line: "- /placeholder: Search" is
// {Name: "placeholder", Value: "Search"}.
type SnapshotProp struct {
	Name  string
	Value string
}

// A SnapshotAttr is a mark in square brackets: [cursor=pointer] is
// {Name: "cursor", Value: "pointer"}; a mark without "=" has an empty Value.
type SnapshotAttr struct {
	Name  string
	Value string
}

// IsText reports whether n is a run of text rather than an element.
func (n *SnapshotNode) IsText() bool { return n.Role == SnapshotTextRole }

// RenderSnapshot writes the ARIA snapshot text of a screen: the elements a
// person could see, as Playwright's AI snapshot shows them. It starts at the
// body; hidden elements are left out (their visible descendants stay),
// presentational elements and nameless generic wrappers give way to their
// content, adjacent text merges into one whitespace-normalised run, and a
// field shows its value. The focused element is marked [active]. Lines are
// joined by "\n" with no newline at the end; a screen with nothing to show
// gives "". (snapshot_tree.go lists where the outline can differ from
// Playwright's, for want of what a screen does not carry.)
//
// Secret nodes appear with their role and name but without their value or
// any text inside them.
func RenderSnapshot(s *Screen, o SnapshotOptions) string {
	return FormatSnapshot(snapshotTree(s, o.Mode, o.Interactive), o)
}

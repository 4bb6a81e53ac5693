package screen

// ScreenSchema is the version of the screen format written by the page model
// (extension/pagemodel.js) and read here. Bump it when a field changes meaning;
// adding an optional field does not need a bump.
const ScreenSchema = 1

// A Screen is one capture of a page by the page model: what a person or a
// model could see at one moment. Recording and replay both read screens, so a
// selector that matched while recording is judged on the same model in CI.
type Screen struct {
	Schema int `json:"schema"`
	// Document identifies the captured document: it changes when the page
	// loads another one, even at the same URL. Refs are only valid within
	// one document.
	Document string   `json:"document,omitempty"`
	URL      string   `json:"url"`
	Title    string   `json:"title"`
	Viewport Viewport `json:"viewport"`
	// Focused is the ref of the focused element, empty when the body has focus.
	Focused string `json:"focused,omitempty"`
	// Partial marks a screen of only the nodes a selector could match
	// (replay's waits, docs/screen-schema.md): never the page as a whole.
	Partial bool `json:"partial,omitempty"`
	// Root is the document's root element (html); frames hang below their
	// iframe node.
	Root *Node `json:"root"`
}

// Viewport is the layout viewport in CSS pixels.
type Viewport struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// TextTag marks a Node that stands for a run of text between elements. It has
// no ref and no role; Text holds the normalised text.
const TextTag = "#text"

// A Node is an element of the page (or a run of text, see TextTag).
//
// Strings are already normalised by the page model: names and descriptions
// collapse all whitespace; Text keeps line breaks (see docs/screen-schema.md).
type Node struct {
	// Ref is e<N> in the top document and f<K>e<N> inside frame K. Empty for
	// text runs.
	Ref  string `json:"ref,omitempty"`
	Role string `json:"role,omitempty"`
	Name string `json:"name,omitempty"`
	// Description is the accessible description.
	Description string `json:"description,omitempty"`
	// Text is the node's rendered text, as a person reads it.
	Text string `json:"text,omitempty"`
	// Tag is the lower-case tag name, or TextTag.
	Tag string `json:"tag,omitempty"`
	ID  string `json:"id,omitempty"`
	// ScopedID is set when ID is from inside a shadow root: it is unique
	// only within that root (every instance of a component holds the same
	// ids), so it names no element of the document on its own.
	ScopedID    bool   `json:"scopedId,omitempty"`
	TestID      string `json:"testId,omitempty"`
	Label       string `json:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	Title       string `json:"title,omitempty"`
	// URL is a link's resolved href.
	URL string `json:"url,omitempty"`
	// Href is a link's href attribute as written, when that differs from
	// URL ("/cart" where URL is "https://shop.example/cart"). Snapshots
	// print it, as Playwright does.
	Href string `json:"href,omitempty"`
	// Owns lists the ids in the element's aria-owns that name an element
	// of its document, in order: those elements are its children in the
	// snapshot, wherever they are in the page.
	Owns []string `json:"owns,omitempty"`
	// SpacedBreak is set on a <br> that the page's source writes white
	// space beside ("one.\n<br>\ntwo"): no one sees that space, but the AI
	// snapshot, which reads the document's text as Playwright's does, keeps
	// a space there where "one<br>two" reads "onetwo".
	SpacedBreak bool `json:"spacedBreak,omitempty"`
	// NameFromBlank is set on an element named by its content when a plain
	// element inside gave the name text that shows nothing: spaces alone,
	// as an empty block ::after drawing an icon gives (Swagger UI's schema
	// buttons). The name reads the same without it, but Playwright's AI
	// snapshot keeps a name that an element it does not show gave a part of.
	// A plain element holding an element the snapshot shows (a box around
	// a field) is shown itself, and sets no NameFromBlank.
	NameFromBlank bool `json:"nameFromBlank,omitempty"`
	// LabelledBy lists the ids in a named element's aria-labelledby that
	// name an element of its document: the elements its name came from.
	LabelledBy []string `json:"labelledBy,omitempty"`
	// Value is a form control's current value; never set on a secret node.
	Value string `json:"value,omitempty"`

	// Checked and Pressed are "true", "false" or "mixed"; empty when the
	// state does not apply.
	Checked  string `json:"checked,omitempty"`
	Pressed  string `json:"pressed,omitempty"`
	Expanded *bool  `json:"expanded,omitempty"`
	Selected *bool  `json:"selected,omitempty"`
	Disabled bool   `json:"disabled,omitempty"`
	Level    int    `json:"level,omitempty"`
	// ImpliedLevel is set when Level is ARIA's default for role=heading (2),
	// which no aria-level gives: snapshots print no level then, as
	// Playwright does.
	ImpliedLevel bool `json:"impliedLevel,omitempty"`
	Required     bool `json:"required,omitempty"`
	ReadOnly     bool `json:"readonly,omitempty"`
	// Editable marks text edited in place: the editing host of
	// contenteditable text that is not an input or a text area (a tree
	// editor's value). It is a field, whatever its role: typing replaces
	// its text.
	Editable bool `json:"editable,omitempty"`
	Invalid  bool `json:"invalid,omitempty"`

	Box     *Box `json:"box,omitempty"`
	Visible bool `json:"visible,omitempty"`
	// InTree is set on an element that is rendered and not hidden from
	// assistive technology although a person cannot see it: a box of no
	// area, content clipped away, an option of a closed drop-down. The ARIA
	// snapshot lists it; Visible is false.
	InTree bool `json:"inTree,omitempty"`
	// PointerCursor is set when the element's computed cursor is a
	// pointer, which Playwright's AI snapshot reads as a click target
	// ([cursor=pointer]).
	PointerCursor bool `json:"pointerCursor,omitempty"`
	// NoPointerEvents is set when the element takes no pointer events
	// (pointer-events: none): a click passes through it.
	NoPointerEvents bool `json:"noPointerEvents,omitempty"`
	// Block is set on a rendered element whose computed display is not
	// inline (block, flex, inline-block, table cell, contents…): Playwright
	// reads its text apart from the text beside it.
	Block bool `json:"block,omitempty"`
	// AriaHidden is set when the node is out of the accessibility tree although
	// it may be seen: aria-hidden="true" on it or an ancestor, or inert.
	AriaHidden bool `json:"ariaHidden,omitempty"`
	// Inert nodes cannot be focused or clicked: the inert attribute on them or
	// an ancestor, or content behind an open modal dialog.
	Inert bool `json:"inert,omitempty"`
	// Covered is whether another element receives a click at the node's
	// centre. Computed for interactive nodes and on request; nil otherwise.
	Covered *bool `json:"covered,omitempty"`
	// Secret nodes carry no value, no text and no name derived from their
	// value: passwords, one-time codes, card numbers, and elements the
	// session marked sensitive.
	Secret bool `json:"secret,omitempty"`

	// Frame is set on iframe nodes: the ref prefix (f<K>) of the nodes of the
	// frame's document, which is the node's only child.
	Frame string `json:"frame,omitempty"`
	// CrossOrigin iframe nodes are filled by a separate capture in that frame
	// (browser.Capture does it); the page model alone leaves them empty.
	CrossOrigin bool `json:"crossOrigin,omitempty"`
	// Origin is set on a cross-origin iframe node whose document was
	// captured: that document's origin (scheme://host[:port]), which the
	// page model cannot read from the parent. The agent acts in a frame
	// only when it knows the frame's origin.
	Origin string `json:"origin,omitempty"`
	// RevealedBy is the ref of the element whose hover alone shows this node
	// now (a row's delete button under `.row:hover .remove {display:
	// block}`): it would not show without the pointer there, so a step
	// reaches it by hovering that element first, and an end state never
	// counts it as something the step changed.
	RevealedBy string `json:"revealedBy,omitempty"`

	Children []*Node `json:"children,omitempty"`
}

// Box is a bounding box in CSS pixels relative to the top-level viewport.
type Box struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// IsText reports whether n is a run of text rather than an element.
func (n *Node) IsText() bool { return n.Tag == TextTag }

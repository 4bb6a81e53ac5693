package selector

// A Selector is a conjunction of properties matched against one screen
// (docs/selectors.md). Every set property must hold; matching is case-sensitive and
// uses normalised text. Without Index a selector must match exactly one node.
type Selector struct {
	Role        string `json:"role,omitempty" yaml:"role,omitempty"`
	Name        string `json:"name,omitempty" yaml:"name,omitempty"`
	Text        string `json:"text,omitempty" yaml:"text,omitempty"`
	TextRegex   string `json:"textRegex,omitempty" yaml:"textRegex,omitempty"`
	TestID      string `json:"testId,omitempty" yaml:"testId,omitempty"`
	ID          string `json:"id,omitempty" yaml:"id,omitempty"`
	Label       string `json:"label,omitempty" yaml:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty" yaml:"placeholder,omitempty"`
	// Within requires the node to lie inside a node matching this selector.
	Within *Selector `json:"within,omitempty" yaml:"within,omitempty"`
	// Index is the 0-based position among the nodes that match every other
	// property, in document order; nil means "exactly one".
	Index *int `json:"index,omitempty" yaml:"index,omitempty"`
}

// Purpose is what a selector is generated for; it decides what is pinned.
type Purpose string

const (
	PurposeTap    Purpose = "tap"
	PurposeType   Purpose = "type"
	PurposeSelect Purpose = "select"
	PurposeAssert Purpose = "assert"
)

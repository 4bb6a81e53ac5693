package screendiff

import (
	"strconv"

	"github.com/trailpin/trailpin/recorder/screen"
)

// A field reads one compared property of a node as a Delta writes it.
type field struct {
	name string
	get  func(t *tree, p int32) string
	// inherited fields follow a change of the parent (a disabled
	// fieldset disables what is inside): the change is the parent's.
	inherited bool
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func optBool(b *bool) string {
	if b == nil {
		return ""
	}
	return boolString(*b)
}

func node(get func(n *screen.Node) string) func(*tree, int32) string {
	return func(t *tree, p int32) string { return get(t.nodes[p]) }
}

var contentFields = []field{
	{name: "name", get: node(func(n *screen.Node) string { return n.Name })},
	{name: "description", get: node(func(n *screen.Node) string { return n.Description })},
	{name: "value", get: node(func(n *screen.Node) string { return n.Value })},
	{name: "placeholder", get: node(func(n *screen.Node) string { return n.Placeholder })},
	{name: "text", get: func(t *tree, p int32) string { return t.ownText[p] }},
}

var stateFields = []field{
	{name: "checked", get: node(func(n *screen.Node) string { return n.Checked })},
	{name: "pressed", get: node(func(n *screen.Node) string { return n.Pressed })},
	{name: "expanded", get: node(func(n *screen.Node) string { return optBool(n.Expanded) })},
	{name: "selected", get: node(func(n *screen.Node) string { return optBool(n.Selected) })},
	{name: "disabled", get: node(func(n *screen.Node) string { return boolString(n.Disabled) }), inherited: true},
	{name: "level", get: node(func(n *screen.Node) string {
		if n.Level == 0 {
			return ""
		}
		return strconv.Itoa(n.Level)
	})},
	{name: "required", get: node(func(n *screen.Node) string { return boolString(n.Required) })},
	{name: "readonly", get: node(func(n *screen.Node) string { return boolString(n.ReadOnly) })},
	{name: "invalid", get: node(func(n *screen.Node) string { return boolString(n.Invalid) })},
}

var styleFields = []field{
	{name: "visible", get: node(func(n *screen.Node) string { return boolString(n.Visible) }), inherited: true},
	// covered is nil where the page model did not hit-test the node
	// (hidden, off-screen, not interactive): unknown is no change.
	{name: "covered", get: node(func(n *screen.Node) string { return optBool(n.Covered) })},
}

func fieldNames(fs []field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

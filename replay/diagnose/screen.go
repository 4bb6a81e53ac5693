package diagnose

import (
	"fmt"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
)

// Evidence from screens: the snapshot line of the node an action landed on,
// what changed on the screen during a step, and names of nodes for
// messages.

// NodeLine is a node's line in the unquoted snapshot form, with its own
// text (or a field's value) after the colon:
// `- button "Sign in" [ref=e20]`, `- paragraph [ref=e37]: $799.00`.
func NodeLine(n *screen.Node) string {
	if n == nil {
		return ""
	}
	sn := snapshotNode(n)
	text := ""
	switch {
	case n.Secret:
	case n.Value != "" && (n.Tag == "input" || n.Tag == "textarea") && n.Checked == "":
		text = n.Value
	case n.Text != "" && n.Text != n.Name:
		text = strings.ReplaceAll(n.Text, "\n", " ")
	}
	if text != "" {
		sn.Children = []*screen.SnapshotNode{{Role: screen.SnapshotTextRole, Text: screen.Clip(text, maxLineText)}}
	}
	return screen.FormatSnapshot([]*screen.SnapshotNode{sn}, screen.SnapshotOptions{})
}

// maxLineText bounds the text a node line carries.
const maxLineText = 200

func snapshotNode(n *screen.Node) *screen.SnapshotNode {
	role := n.Role
	if role == "" || role == "none" || role == "presentation" || n.IsText() {
		role = "generic"
	}
	sn := &screen.SnapshotNode{
		Role: role, Name: screen.Clip(n.Name, maxLineText), Ref: n.Ref, Disabled: n.Disabled,
		Expanded: n.Expanded != nil && *n.Expanded, Selected: n.Selected != nil && *n.Selected, Level: n.Level,
	}
	if n.Checked == "true" || n.Checked == "mixed" {
		sn.Checked = n.Checked
	}
	if n.Pressed == "true" || n.Pressed == "mixed" {
		sn.Pressed = n.Pressed
	}
	return sn
}

// Describe names a node in a sentence: button "Sign in", paragraph "$799.00".
func Describe(n *screen.Node) string {
	if n == nil {
		return "nothing"
	}
	role := n.Role
	if role == "" || role == "none" || role == "presentation" {
		role = "element"
	}
	switch {
	case n.Name != "":
		return fmt.Sprintf("%s %q", role, screen.Clip(n.Name, 60))
	case n.Text != "" && !n.Secret:
		return fmt.Sprintf("%s %q", role, screen.Clip(strings.ReplaceAll(n.Text, "\n", " "), 60))
	case n.ID != "":
		return fmt.Sprintf("%s #%s", role, n.ID)
	}
	return fmt.Sprintf("%s [ref=%s]", role, n.Ref)
}

// maxChanges bounds a step's summary of what changed on the screen.
const maxChanges = 30

// ScreenChanges summarises what changed between two screens of a step, one
// line per node: "+ " for a node that appeared, "- " for one that went
// away, "~ " for one whose name, text, value or state changed (with what it
// was). Wrappers whose text changed only because of their content are left
// out. Screens of different documents are compared by their URLs, which
// path writes as the trail does.
func ScreenChanges(before, after *screen.Screen, path func(string) string) []string {
	switch {
	case after == nil:
		return nil
	case before == nil:
		return []string{"opened " + path(after.URL)}
	case before.Document != after.Document:
		return []string{fmt.Sprintf("left %s for %s", path(before.URL), path(after.URL))}
	}
	old := shownByRef(before)
	now := shownByRef(after)
	var out []string
	more := 0
	emit := func(s string) {
		if len(out) < maxChanges {
			out = append(out, s)
		} else {
			more++
		}
	}
	if before.URL != after.URL {
		emit(fmt.Sprintf("moved to %s", path(after.URL)))
	}
	walkShown(after.Root, func(n *screen.Node, parentNew bool) bool {
		o, existed := old[n.Ref]
		switch {
		case !existed:
			if !parentNew && worthShowing(n) {
				emit("+ " + NodeLine(n))
			}
			return true
		case changedOwn(o, n, old):
			emit("~ " + NodeLine(n) + " (was " + strings.TrimPrefix(NodeLine(o), "- ") + ")")
		}
		return false
	})
	walkShown(before.Root, func(n *screen.Node, parentGone bool) bool {
		if _, still := now[n.Ref]; still {
			return false
		}
		if !parentGone && worthShowing(n) {
			emit("- " + NodeLine(n))
		}
		return true
	})
	if more > 0 {
		out = append(out, fmt.Sprintf("… and %d more", more))
	}
	return out
}

// shownByRef indexes the shown element nodes of a screen by ref.
func shownByRef(s *screen.Screen) map[string]*screen.Node {
	m := map[string]*screen.Node{}
	walkShown(s.Root, func(n *screen.Node, _ bool) bool {
		m[n.Ref] = n
		return false
	})
	return m
}

// walkShown calls fn for each visible element with a ref, parents first;
// fn's result is passed to the node's children as flag (a new subtree).
func walkShown(n *screen.Node, fn func(n *screen.Node, flag bool) bool) {
	var walk func(n *screen.Node, flag bool)
	walk = func(n *screen.Node, flag bool) {
		if n == nil {
			return
		}
		f := flag
		if n.Ref != "" && n.Visible && !n.IsText() {
			f = fn(n, flag) || flag
		}
		for _, c := range n.Children {
			walk(c, f)
		}
	}
	walk(n, false)
}

// worthShowing leaves out nameless, textless wrappers.
func worthShowing(n *screen.Node) bool {
	return n.Name != "" || n.Text != "" || (n.Role != "" && n.Role != "generic" && n.Role != "none" && n.Role != "presentation")
}

// changedOwn reports a change of the node itself: its name, value or a
// state, or its text when no child element carries the change. old indexes
// the earlier screen.
func changedOwn(o, n *screen.Node, old map[string]*screen.Node) bool {
	if o.Name != n.Name || o.Value != n.Value || o.Checked != n.Checked || o.Pressed != n.Pressed ||
		o.Disabled != n.Disabled || !sameBool(o.Expanded, n.Expanded) || !sameBool(o.Selected, n.Selected) {
		return true
	}
	if o.Text == n.Text {
		return false
	}
	for _, c := range n.Children {
		if c.IsText() || c.Ref == "" {
			continue
		}
		if oc := old[c.Ref]; oc == nil || oc.Text != c.Text {
			return false // a child element carries the change; it is reported there
		}
	}
	return true
}

func sameBool(a, b *bool) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

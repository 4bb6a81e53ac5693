package screen

import (
	"strings"
	"unicode/utf8"
)

// Which elements of a screen appear in its snapshot follows Playwright's AI
// snapshot (page.ariaSnapshot({mode: "ai"}) in playwright-core 1.62.1), so a
// model sees the same outline from either tool:
//
//   - the outline starts at the body; a hidden element is left out, but its
//     visible descendants still appear, and text runs directly inside it do
//     not (a text run is as visible as its element);
//   - presentational elements (role none or presentation) give their content
//     to their parent, and so does a generic inline element holding nothing
//     but one text run (the <b> in "Hello <b>bold</b> text.");
//   - adjacent text merges into one run, whitespace-normalised;
//   - a generic element without a name that wraps at most one element is
//     replaced by that element (so nested <div>s vanish), and one with
//     nothing left inside is dropped; so is an image without a name;
//   - a generic child that only repeats its parent's name is dropped;
//   - a field shows its value as text, except a secret one, which shows
//     neither value nor any text inside it.
//
// Where the screen lacks what Playwright looks at, the outline differs:
//
//   - inline versus block layout is taken from the tag (the screen has no
//     computed display);
//   - text runs arrive trimmed, so two runs that meet without whitespace are
//     joined with a space ("Hello" + "world" reads "Hello world"; Playwright
//     would write "Helloworld" only if the page had no space there);
//   - the screen has no cursor style, so there is no [cursor=pointer] mark,
//     and a nameless empty element Playwright keeps because it looks
//     clickable is dropped here;
//   - the screen does not say which descendants a name came from, so a name
//     is never blanked for repeating its children's text;
//   - a link's /url is the resolved href, not the attribute as written.

// inlineTags are the elements whose default CSS display is inline. Custom
// elements (a tag with a hyphen) are inline too until styled otherwise.
var inlineTags = map[string]bool{
	"a": true, "abbr": true, "acronym": true, "b": true, "bdi": true, "bdo": true,
	"big": true, "cite": true, "code": true, "data": true, "del": true, "dfn": true,
	"em": true, "font": true, "i": true, "img": true, "ins": true, "kbd": true,
	"label": true, "mark": true, "nobr": true, "q": true, "s": true, "samp": true,
	"small": true, "span": true, "strike": true, "strong": true, "sub": true,
	"sup": true, "time": true, "tt": true, "u": true, "var": true, "wbr": true,
	"slot": true, TextTag: true,
}

func isInlineTag(tag string) bool { return inlineTags[tag] || strings.Contains(tag, "-") }

// snapshotTree builds the snapshot nodes of a screen.
func snapshotTree(s *Screen) []*SnapshotNode {
	if s == nil || s.Root == nil {
		return nil
	}
	body := documentBody(s.Root)
	b := treeBuilder{focused: s.Focused, body: body}
	fragment := &SnapshotNode{}
	b.visit(fragment, body, true, false, true)
	distil(fragment)
	mergeText(fragment)
	return fragment.Children
}

// documentBody returns the body (or frameset) of a document's root element,
// where Playwright starts its snapshot; any other node is returned as is.
func documentBody(n *Node) *Node {
	if n == nil || n.Tag != "html" {
		return n
	}
	for _, c := range n.Children {
		if c != nil && (c.Tag == "body" || c.Tag == "frameset") {
			return c
		}
	}
	return n
}

type treeBuilder struct {
	focused string
	// body is the top document's body, which is focused when no element is.
	body *Node
}

// visit adds n to parent: as an element of its own, or by giving its content
// to parent. A document's body is shown even when it has no layout box of
// its own (all its content positioned), as in Playwright.
func (b *treeBuilder) visit(parent *SnapshotNode, n *Node, parentVisible, inSecret, isBody bool) {
	if n == nil {
		return
	}
	if n.IsText() {
		if parentVisible && !inSecret && parent.Role != "textbox" {
			parent.Children = append(parent.Children, &SnapshotNode{Role: SnapshotTextRole, Text: n.Text})
		}
		return
	}
	secret := inSecret || n.Secret
	visible := n.Visible || isBody
	into := parent
	var el *SnapshotNode
	if visible {
		el = b.element(n)
	}
	if el != nil {
		parent.Children = append(parent.Children, el)
		into = el
		if showsValue(n, el) && !secret {
			el.Children = append(el.Children, &SnapshotNode{Role: SnapshotTextRole, Text: n.Value})
		}
	}
	block := !isInlineTag(n.Tag)
	if block {
		into.Children = append(into.Children, textGap)
	}
	frame := isFrame(n)
	for _, c := range n.Children {
		if frame {
			b.visit(into, documentBody(c), visible, secret, true)
			continue
		}
		b.visit(into, c, visible, secret, false)
	}
	if block {
		into.Children = append(into.Children, textGap)
	}
	if el != nil {
		if el.Role == "link" && n.URL != "" {
			el.URL = truncateDataURL(n.URL)
		}
		if el.Role == "textbox" && n.Placeholder != "" && n.Placeholder != el.Name {
			el.Props = append(el.Props, SnapshotProp{Name: "placeholder", Value: n.Placeholder})
		}
	}
}

// textGap separates the text of a block from its neighbours. One node
// serves every gap: mergeText replaces all text children with new nodes, so
// it never reaches the output and is never changed.
var textGap = &SnapshotNode{Role: SnapshotTextRole, Text: " "}

// element returns n's own snapshot node, or nil when n gives its content to
// its parent.
func (b *treeBuilder) element(n *Node) *SnapshotNode {
	active := (n.Ref != "" && n.Ref == b.focused) || (n == b.body && b.focused == "")
	if isFrame(n) {
		return &SnapshotNode{Role: "iframe", Ref: n.Ref, Active: active}
	}
	role := n.Role
	if !isRoleWord(role) {
		role = "generic"
	}
	if role == "presentation" || role == "none" {
		return nil
	}
	if role == "generic" && isInlineTag(n.Tag) && len(n.Children) == 1 && n.Children[0] != nil && n.Children[0].IsText() {
		return nil
	}
	el := &SnapshotNode{
		Role:     role,
		Name:     normalizeSnapshotSpace(n.Name),
		Ref:      n.Ref,
		Disabled: n.Disabled,
		Expanded: n.Expanded != nil && *n.Expanded,
		Selected: n.Selected != nil && *n.Selected,
		Active:   active,
		Level:    max(n.Level, 0),
	}
	if n.Checked == "true" || n.Checked == "mixed" {
		el.Checked = n.Checked
	}
	if n.Pressed == "true" || n.Pressed == "mixed" {
		el.Pressed = n.Pressed
	}
	if n.Invalid {
		el.Invalid = "true"
	}
	return el
}

func isFrame(n *Node) bool { return n.Tag == "iframe" || n.Tag == "frame" }

// showsValue reports whether a form control shows its value as text, as
// Playwright does for inputs and text areas other than checkboxes and radios.
func showsValue(n *Node, el *SnapshotNode) bool {
	if n.Tag != "input" && n.Tag != "textarea" {
		return false
	}
	switch el.Role {
	case "checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio":
		return false
	}
	return n.Value != ""
}

// isRoleWord reports whether role can be written as the role of a snapshot
// line: ASCII letters only. Anything else is shown as generic.
func isRoleWord(role string) bool {
	if role == "" || role == SnapshotTextRole {
		return false
	}
	for i := 0; i < len(role); i++ {
		c := role[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// truncateDataURL shortens a data: URL to its header, as Playwright does:
// the payload is bytes, not something to read.
func truncateDataURL(u string) string {
	if !strings.HasPrefix(u, "data:") {
		return u
	}
	if comma := strings.IndexByte(u, ','); comma >= 0 {
		return u[:comma+1] + "…"
	}
	return u
}

// distil applies Playwright's AI-mode clean-up to parent's children, deepest
// first.
func distil(parent *SnapshotNode) {
	out := make([]*SnapshotNode, 0, len(parent.Children))
	for _, c := range parent.Children {
		if c.IsText() {
			out = append(out, c)
			continue
		}
		distil(c)
		mergeText(c)
		if c.Role == "img" && c.Name == "" && len(c.Children) == 0 {
			continue
		}
		inlineTextIntoGeneric(c)
		if repeatsParentName(c, parent) {
			continue
		}
		if isWrapperGeneric(c) {
			out = append(out, c.Children...)
			continue
		}
		out = append(out, c)
	}
	parent.Children = out
}

// mergeText joins adjacent text children into one normalised run and drops
// text that only repeats the element's name.
func mergeText(n *SnapshotNode) {
	out := make([]*SnapshotNode, 0, len(n.Children))
	var run strings.Builder
	flush := func() {
		if t := normalizeSnapshotSpace(run.String()); t != "" {
			out = append(out, &SnapshotNode{Role: SnapshotTextRole, Text: t})
		}
		run.Reset()
	}
	for _, c := range n.Children {
		if !c.IsText() {
			flush()
			out = append(out, c)
			continue
		}
		joinText(&run, c.Text)
	}
	flush()
	if len(out) == 1 && out[0].IsText() && out[0].Text == n.Name {
		out = out[:0]
	}
	n.Children = out
}

// joinText appends t to a run of text, with a space where two runs meet
// without one (runs arrive trimmed; see above).
func joinText(run *strings.Builder, t string) {
	if run.Len() > 0 && t != "" {
		last, _ := utf8.DecodeLastRuneInString(run.String())
		first, _ := utf8.DecodeRuneInString(t)
		if !isJSSpace(last) && !isJSSpace(first) {
			run.WriteByte(' ')
		}
	}
	run.WriteString(t)
}

// inlineTextIntoGeneric lets a generic element take the text of a nameless
// generic child that holds nothing else.
func inlineTextIntoGeneric(n *SnapshotNode) {
	if n.Role != "generic" || hasProps(n) || len(n.Children) != 1 {
		return
	}
	c := n.Children[0]
	if c.IsText() || c.Role != "generic" || c.Name != "" || c.Active || hasProps(c) {
		return
	}
	if len(c.Children) == 1 && c.Children[0].IsText() {
		n.Children = c.Children
	}
}

// repeatsParentName reports whether n is a generic element whose only
// content is its parent's name.
func repeatsParentName(n, parent *SnapshotNode) bool {
	if parent.Name == "" || n.Role != "generic" || n.Active || hasProps(n) {
		return false
	}
	var text string
	switch {
	case n.Name != "":
		if len(n.Children) == 0 {
			text = n.Name
		}
	case len(n.Children) == 1 && n.Children[0].IsText():
		text = n.Children[0].Text
	}
	return text != "" && text == parent.Name
}

// isWrapperGeneric reports whether n is a nameless generic element that
// wraps at most one element with a ref, and so is replaced by it.
func isWrapperGeneric(n *SnapshotNode) bool {
	if n.Role != "generic" || n.Name != "" || len(n.Children) > 1 {
		return false
	}
	for _, c := range n.Children {
		if c.IsText() || c.Ref == "" {
			return false
		}
	}
	return true
}

func hasProps(n *SnapshotNode) bool { return n.URL != "" || len(n.Props) > 0 }

// normalizeSnapshotSpace normalises text as Playwright does before writing
// it: zero-width spaces and soft hyphens go, whitespace runs become one
// space, and the ends are trimmed.
func normalizeSnapshotSpace(s string) string {
	clean := true
	prevSpace := true
	for _, r := range s {
		space := isJSSpace(r)
		if r == 0x200b || r == 0xad || (space && (r != ' ' || prevSpace)) {
			clean = false
			break
		}
		prevSpace = space
	}
	if clean && !prevSpace {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	pending := false
	for _, r := range s {
		switch {
		case r == 0x200b || r == 0xad:
			continue
		case isJSSpace(r):
			pending = b.Len() > 0
			continue
		}
		if pending {
			b.WriteByte(' ')
			pending = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

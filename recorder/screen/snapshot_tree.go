package screen

import "strings"

// Which elements of a screen appear in its snapshot follows Playwright
// (playwright-core 1.62.1), so a model sees the same outline from either
// tool. The AI snapshot (page.ariaSnapshot({mode: "ai"}), ModeAI):
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
// ariaSnapshot() (ModeAria) is the same walk without generic elements, refs
// or the focus mark, and with nothing hidden from assistive technology.
//
// Where the screen lacks what Playwright looks at, the outline differs:
//
//   - the text between children comes from lining the element's text up
//     with theirs (textGaps); where that fails, runs are read apart;
//   - which elements a name was computed from is known only for
//     aria-labelledby; otherwise a name counts as shown when the content
//     below reads exactly the name (nameIsShown);
//   - a screen written by hand, without display marks, takes inline versus
//     block from the tag.

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

// snapshotTree builds the snapshot nodes of a screen in the given mode.
func snapshotTree(s *Screen, mode SnapshotMode, interactive bool) []*SnapshotNode {
	if s == nil || s.Root == nil {
		return nil
	}
	body := documentBody(s.Root)
	b := treeBuilder{focused: s.Focused, body: body, mode: mode, interactive: interactive, visited: map[*Node]bool{}, ids: map[string][]*Node{}, made: map[*Node]*SnapshotNode{}}
	b.knowsDisplay = indexIDs(s.Root, b.ids)
	fragment := &SnapshotNode{}
	b.visit(fragment, body, true, false, true, false)
	b.resolveNamedBy(fragment.Children)
	if mode == ModeAria {
		normalizeAria(fragment)
	} else {
		// The interactive form keeps every name: it shows a control
		// without the content that repeats its name.
		distil(fragment, false, !interactive)
	}
	mergeText(fragment)
	if mode == ModeAI {
		markPointers(fragment.Children, false)
	}
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
	mode SnapshotMode
	// interactive is set for the interactive form, which keeps every name.
	interactive bool
	// visited holds the nodes already placed: an element aria-owns moves
	// appears once, under its owner, as in Playwright.
	visited map[*Node]bool
	// ids finds the elements an id names, per document (the key is the
	// document's ref prefix, a space, and the id), in document order: the
	// first is the one aria-owns names; shadow roots may each hold one.
	ids map[string][]*Node
	// made maps the screen's elements to their snapshot nodes, and seq
	// numbers those in document order (see nameIsShown).
	made map[*Node]*SnapshotNode
	seq  int
	// pendingNames are the nodes whose names come from aria-labelledby.
	pendingNames []pendingName
	// knowsDisplay is set when the screen says which elements are blocks
	// (the page model marks at least the body; a screen written by hand
	// may not).
	knowsDisplay bool
}

// A pendingName is a node named by aria-labelledby, resolved once the
// whole tree is built (the elements may come later in the page).
type pendingName struct {
	el *SnapshotNode
	n  *Node
}

func (b *treeBuilder) resolveNamedBy([]*SnapshotNode) {
	for _, p := range b.pendingNames {
		for _, id := range p.n.LabelledBy {
			p.el.namedBy = append(p.el.namedBy, b.labelFor(p.el, b.ids[refDocument(p.n.Ref)+" "+id]))
		}
	}
}

// labelFor picks, of the elements with the id an aria-labelledby of el
// names, the snapshot node of the one it means: one inside el (the heading
// of a component's section, where each component's shadow root has its
// own), else the first.
func (b *treeBuilder) labelFor(el *SnapshotNode, found []*Node) *SnapshotNode {
	for _, n := range found {
		if m := b.made[n]; m != nil && m.seq > el.seq && m.seq <= el.last {
			return m
		}
	}
	if len(found) == 0 {
		return nil
	}
	return b.made[found[0]]
}

// isInline reports whether n's display is inline: from the screen, or from
// its tag where the screen does not say.
func (b *treeBuilder) isInline(n *Node) bool {
	if b.knowsDisplay {
		return !n.Block
	}
	return isInlineTag(n.Tag)
}

// boxIsInline reports whether Playwright counts n's box as inline where
// it folds a generic holding only text into its parent: an inline element,
// or a display:contents one (rendered, yet without a box of its own) whose
// first shown child is a run of text, as a slot's fallback text is.
func (b *treeBuilder) boxIsInline(n *Node) bool {
	if !b.knowsDisplay || !n.Block || n.Box != nil {
		return b.isInline(n)
	}
	for _, c := range n.Children {
		if c != nil && c.Visible {
			return c.IsText()
		}
	}
	return false
}

// indexIDs records the elements of each id in each document, and reports
// whether any element is marked as a block.
func indexIDs(n *Node, ids map[string][]*Node) bool {
	if n == nil || n.IsText() {
		return false
	}
	if n.ID != "" {
		key := refDocument(n.Ref) + " " + n.ID
		ids[key] = append(ids[key], n)
	}
	block := n.Block
	for _, c := range n.Children {
		if indexIDs(c, ids) {
			block = true
		}
	}
	return block
}

// refDocument is the frame prefix of a ref ("f2" of "f2e7", "" in the top
// document).
func refDocument(ref string) string {
	if i := strings.LastIndexByte(ref, 'e'); i >= 0 {
		return ref[:i]
	}
	return ""
}

// visit adds n to parent: as an element of its own, or by giving its content
// to parent. A document's body is shown even when it has no layout box of
// its own (all its content positioned), as in Playwright. aligned says that
// parent's text already placed the spaces around n (see textGaps).
func (b *treeBuilder) visit(parent *SnapshotNode, n *Node, parentVisible, inSecret, isBody, aligned bool) {
	if n == nil || b.visited[n] {
		return
	}
	b.visited[n] = true
	if n.IsText() {
		if parentVisible && !inSecret && parent.Role != "textbox" {
			parent.Children = append(parent.Children, &SnapshotNode{Role: SnapshotTextRole, Text: n.Text})
		}
		return
	}
	secret := inSecret || n.Secret
	visible := isBody || b.shows(n)
	if b.mode == ModeAria && !visible {
		// Playwright's ariaSnapshot() leaves out the whole subtree of an
		// element hidden from assistive technology.
		return
	}
	into := parent
	var el *SnapshotNode
	if visible {
		el = b.element(n)
	}
	if el != nil {
		parent.Children = append(parent.Children, el)
		into = el
		b.seq++
		el.seq = b.seq
		b.made[n] = el
		if len(n.LabelledBy) > 0 {
			b.pendingNames = append(b.pendingNames, pendingName{el, n})
		}
		if showsValue(n, el) && !secret {
			el.Children = append(el.Children, &SnapshotNode{Role: SnapshotTextRole, Text: n.Value})
		}
	}
	if isFrame(n) {
		// ariaSnapshot() lists a frame without its content; the AI
		// snapshot shows the frame's document inside it.
		if b.mode == ModeAI {
			for _, c := range n.Children {
				b.visit(into, documentBody(c), visible, secret, true, false)
			}
		}
		return
	}
	b.content(into, n, visible, secret, aligned)
	if el != nil {
		el.last = b.seq
		if el.Role == "link" && (n.URL != "" || n.Href != "") {
			el.URL = truncateDataURL(writtenHref(n))
		}
		if el.Role == "textbox" && n.Placeholder != "" && n.Placeholder != el.Name {
			el.Props = append(el.Props, SnapshotProp{Name: "placeholder", Value: n.Placeholder})
		}
	}
}

// content adds what n holds to into: its children, the elements it owns
// (aria-owns), and the text between them. The text between comes from n's
// own text where it can be lined up with the children's (textGaps): that
// text knows whether two runs met with or without a space, and holds the
// ::before and ::after content a person sees. Where it cannot, a block
// element is surrounded by spaces, as Playwright surrounds every element
// that is not inline.
func (b *treeBuilder) content(into *SnapshotNode, n *Node, visible, secret, aligned bool) {
	gaps := textGaps(n)
	// Playwright surrounds every element that is not inline with spaces.
	block := !b.isInline(n) && (b.knowsDisplay || !aligned)
	if block {
		into.Children = append(into.Children, textGap)
	}
	for i, c := range n.Children {
		switch {
		case b.mode == ModeAI && (isLineBreak(c) || i > 0 && isLineBreak(n.Children[i-1])) && (gaps == nil || strings.TrimSpace(gaps[i]) == ""):
			// The AI snapshot keeps a <br> as an element of its own, which
			// takes the space it puts around itself with it when it goes:
			// "later<br>(2 Items)" reads "later(2 Items)" there. White
			// space the source writes beside it stays in the text around
			// it: "later\n<br>(2 Items)" reads "later (2 Items)".
			if spacedBreak(c) || i > 0 && spacedBreak(n.Children[i-1]) {
				into.Children = append(into.Children, textGap)
			}
		case gaps == nil && i > 0:
			// Without n's text to say how two runs met, they are read
			// apart, the more common reading.
			into.Children = append(into.Children, textGap)
		case gaps != nil && gaps[i] != "":
			into.Children = append(into.Children, &SnapshotNode{Role: SnapshotTextRole, Text: gaps[i]})
		}
		b.visit(into, c, visible, secret, false, gaps != nil)
	}
	for _, id := range n.Owns {
		if owned := b.ids[refDocument(n.Ref)+" "+id]; len(owned) > 0 && !owned[0].IsText() {
			b.visit(into, owned[0], visible, secret, false, false)
		}
	}
	if gaps != nil && gaps[len(n.Children)] != "" {
		into.Children = append(into.Children, &SnapshotNode{Role: SnapshotTextRole, Text: gaps[len(n.Children)]})
	}
	if block {
		into.Children = append(into.Children, textGap)
	}
}

// isLineBreak reports whether n is a <br>.
func isLineBreak(n *Node) bool { return n != nil && n.Tag == "br" }

// spacedBreak reports whether n is a <br> its source writes white space
// beside.
func spacedBreak(n *Node) bool { return isLineBreak(n) && n.SpacedBreak }

// shows reports whether n is part of the snapshot: for ariaSnapshot(), when
// assistive technology sees it; for the AI snapshot, also when a person
// does (Playwright shows a visible aria-hidden element there).
func (b *treeBuilder) shows(n *Node) bool {
	if b.mode == ModeAria {
		return inAriaTree(n)
	}
	return inAriaTree(n) || n.Visible
}

// inAriaTree reports whether assistive technology sees n, as Playwright
// judges it: inert content counts as seen (it only cannot be used).
func inAriaTree(n *Node) bool {
	return (!n.AriaHidden || n.Inert) && (n.Visible || n.InTree)
}

// writtenHref is a link's href as its page wrote it.
func writtenHref(n *Node) string {
	if n.Href != "" {
		return n.Href
	}
	return n.URL
}

// textGaps lines n's children up with n's text, which the page model read
// as a person does. It returns the text before each child and, last, the
// text after the last one (len(n.Children)+1 strings), or nil when n's text
// cannot be lined up: n has none, or it is not made of its children's
// (a drop-down shows its chosen option, a button-like input its caption).
//
// A gap of "" means two runs met without a space (<b>3</b><i>4</i> reads
// "34"), whitespace means they were apart, and other text is content the
// children do not hold: ::before and ::after strings.
func textGaps(n *Node) []string {
	if n.Text == "" || n.Secret || n.Tag == "select" || !n.Visible && !n.InTree {
		// An element that is not painted reads the text its content would
		// show; its runs are not part of the snapshot.
		return nil
	}
	if n.Tag == "input" && (n.Role == "button" || n.Value != "") {
		return nil
	}
	gaps := make([]string, len(n.Children)+1)
	text := n.Text
	at := 0
	// unpainted is set after a child that is not painted but may hold
	// painted descendants: their text is in n's, and is not a gap.
	unpainted := false
	for i, c := range n.Children {
		piece := paintedText(c)
		if piece == "" {
			unpainted = unpainted || !c.IsText() && c.Text != ""
			continue
		}
		j := strings.Index(text[at:], piece)
		if j < 0 {
			continue
		}
		gaps[i] = gapText(text[at:at+j], unpainted)
		unpainted = false
		at += j + len(piece)
	}
	if at == 0 && (!n.Visible || hasChildText(n)) {
		// Nothing of its children was found in its text (an option of a
		// closed drop-down reads what its runs would show): the text
		// cannot be lined up, and is not generated content.
		return nil
	}
	gaps[len(n.Children)] = gapText(text[at:], unpainted)
	return gaps
}

// hasChildText reports whether a child of n has text.
func hasChildText(n *Node) bool {
	for _, c := range n.Children {
		if c != nil && c.Text != "" {
			return true
		}
	}
	return false
}

// gapText is a gap as written, or only the space in it when it also holds
// text of an unpainted child's descendants.
func gapText(gap string, unpainted bool) string {
	if !unpainted {
		return gap
	}
	if strings.ContainsAny(gap, " \n") {
		return " "
	}
	return ""
}

// paintedText is the text c adds to its parent's text: a painted run's, or
// an element's when it is rendered.
func paintedText(c *Node) string {
	if c == nil || c.Secret {
		return ""
	}
	if c.IsText() || c.Visible || c.InTree {
		if c.IsText() && !c.Visible {
			return ""
		}
		return c.Text
	}
	return ""
}

// textGap separates the text of a block from its neighbours. One node
// serves every gap: mergeText replaces all text children with new nodes, so
// it never reaches the output and is never changed.
var textGap = &SnapshotNode{Role: SnapshotTextRole, Text: " "}

// element returns n's own snapshot node, or nil when n gives its content to
// its parent.
func (b *treeBuilder) element(n *Node) *SnapshotNode {
	// ariaSnapshot() carries neither refs nor the focus mark.
	ref := n.Ref
	active := (n.Ref != "" && n.Ref == b.focused) || (n == b.body && b.focused == "")
	switch {
	case b.mode == ModeAria:
		ref, active = "", false
	case n != b.body && (!n.Visible || n.NoPointerEvents):
		// The AI snapshot gives refs to what a pointer can reach.
		ref = ""
	}
	if isFrame(n) {
		return &SnapshotNode{Role: "iframe", Ref: ref, Active: active, pointer: n.PointerCursor}
	}
	role := n.Role
	if !isRoleWord(role) {
		role = "generic"
	}
	if role == "presentation" || role == "none" {
		return nil
	}
	if role == "generic" && (b.mode == ModeAria || b.boxIsInline(n) && len(n.Children) == 1 && n.Children[0] != nil && n.Children[0].IsText()) {
		// ariaSnapshot() has no generic nodes: their content goes to the
		// parent. The AI snapshot keeps them, but an inline one holding
		// only a run of text gives it to its parent.
		return nil
	}
	name := normalizeSnapshotSpace(n.Name)
	if !inAriaTree(n) {
		// Shown to a person only: Playwright gives it no name.
		name = ""
	}
	if n.Tag == "optgroup" && !b.interactive {
		// Playwright names no option group (its accname has no rule for
		// the label attribute); the interactive form keeps the name, which
		// tells the options of two groups apart.
		name = ""
	}
	el := &SnapshotNode{
		Role: role,
		Name: name,
		Ref:  ref,
		// Playwright does not count a disabled fieldset itself as
		// disabled, only the controls in it.
		Disabled: n.Disabled && n.Tag != "fieldset",
		Expanded: n.Expanded != nil && *n.Expanded && expandableRoles[role],
		Selected: n.Selected != nil && *n.Selected,
		Active:   active,
		Level:    max(n.Level, 0),
		pointer:  n.PointerCursor,

		nameFromBlank: n.NameFromBlank,
	}
	if n.ImpliedLevel && !b.interactive {
		// Playwright prints a level only where the page gives one.
		el.Level = 0
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

// expandableRoles are the roles whose expanded state Playwright prints (an
// open <details> is a group, and its state is not printed).
var expandableRoles = map[string]bool{
	"application": true, "button": true, "checkbox": true, "combobox": true,
	"gridcell": true, "link": true, "listbox": true, "menuitem": true, "row": true,
	"rowheader": true, "tab": true, "treeitem": true, "columnheader": true,
	"menuitemcheckbox": true, "menuitemradio": true, "switch": true,
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
func distil(parent *SnapshotNode, pointerAbove, dropShownNames bool) {
	out := make([]*SnapshotNode, 0, len(parent.Children))
	for _, c := range parent.Children {
		if c.IsText() {
			out = append(out, c)
			continue
		}
		// A click target that no clickable ancestor holds is kept even
		// when it shows nothing: it is how an icon button is reached.
		clickRoot := c.Ref != "" && c.pointer && !pointerAbove
		distil(c, pointerAbove || c.Ref != "" && c.pointer, dropShownNames)
		mergeText(c)
		if c.Role == "img" && c.Name == "" && len(c.Children) == 0 && !clickRoot {
			continue
		}
		if dropShownNames && c.Ref != "" && c.Name != "" && nameIsShown(c) {
			c.Name = ""
		}
		inlineTextIntoGeneric(c)
		if repeatsParentName(c, parent) {
			continue
		}
		if isWrapperGeneric(c) && !(len(c.Children) == 0 && clickRoot) {
			out = append(out, c.Children...)
			continue
		}
		out = append(out, c)
	}
	parent.Children = out
}

// nameIsShown reports whether n's name only repeats what its content
// already shows, so the AI snapshot leaves the name out (a heading whose
// name is its link's, a row named by its cells, a region named by its own
// heading). Playwright knows which elements a name was computed from; the
// screen does not, so the name counts as shown when n's content, read in
// order, is exactly the name and some element of it (not a bare run of text
// in a generic) gave part of it. (A name taken from elements elsewhere,
// aria-labelledby, is kept; Playwright drops it when those are shown.)
func nameIsShown(n *SnapshotNode) bool {
	if n.nameFromBlank {
		// An element inside that shows nothing gave part of the name
		// (spaces around an empty block icon): no content shows that
		// part, so the name stays, as Playwright keeps it.
		return false
	}
	if n.namedBy != nil {
		// Named by other elements: the name is shown when all of them are
		// shown inside n, as elements of their own. (Playwright counts a
		// name's sources from where n starts: a tab shown before its panel
		// leaves the panel its name.)
		for _, by := range n.namedBy {
			if by == nil || by.Ref == "" || by.seq <= n.seq || by.seq > n.last || isLeafGeneric(by) {
				return false
			}
		}
		return true
	}
	if n.Role == "table" && len(n.Children) > 0 && n.Children[0].Role == "caption" && n.Children[0].Ref != "" {
		c := n.Children[0]
		if len(c.Children) == 1 && c.Children[0].IsText() && c.Children[0].Text == n.Name {
			return true
		}
	}
	var content strings.Builder
	elements, loose := shownContent(&content, n.Children)
	return elements && !loose && squashSpace(content.String()) == squashSpace(n.Name)
}

// shownContent appends the text nodes show (an element's name, or its own
// content when it has none) and reports whether an element gave some of it,
// and whether a leaf generic (text alone, which the AI snapshot may still
// drop) did.
func shownContent(b *strings.Builder, nodes []*SnapshotNode) (elements, loose bool) {
	for _, c := range nodes {
		if v, ok := embeddedValue(c); ok {
			// A control inside a name gives it its value (accname 1.2,
			// step 2C), not its own name.
			b.WriteString(v)
			elements = true
			b.WriteByte(' ')
			continue
		}
		switch {
		case c.IsText():
			b.WriteString(c.Text)
		case c.Name != "":
			b.WriteString(c.Name)
			elements = true
		default:
			before := b.Len()
			e, l := shownContent(b, c.Children)
			if b.Len() > before {
				if c.Role == "generic" && !e {
					loose = true
				} else {
					elements = true
				}
			}
			loose = loose || l
		}
		b.WriteByte(' ')
	}
	return elements, loose
}

// embeddedValue is what a control gives the name of an element around it:
// a text field or range its value, a drop-down or list box its chosen
// options. ok is false for anything else.
func embeddedValue(c *SnapshotNode) (v string, ok bool) {
	switch c.Role {
	case "textbox", "searchbox", "slider", "spinbutton":
		return firstText(c), true
	case "combobox", "listbox":
		var chosen []string
		for _, o := range c.Children {
			if o.Role == "option" && o.Selected {
				chosen = append(chosen, o.Name)
			}
		}
		if len(chosen) == 0 {
			return firstText(c), true // a text field with a list
		}
		return strings.Join(chosen, " "), true
	}
	return "", false
}

// firstText is the first text child of n (a field's value), or "".
func firstText(n *SnapshotNode) string {
	for _, c := range n.Children {
		if c.IsText() {
			return c.Text
		}
	}
	return ""
}

// isLeafGeneric reports whether n is a generic holding text alone.
func isLeafGeneric(n *SnapshotNode) bool {
	if n.Role != "generic" {
		return false
	}
	for _, c := range n.Children {
		if !c.IsText() {
			return false
		}
	}
	return true
}

// squashSpace drops all white space, so names computed with and without
// spaces between inline parts compare equal.
func squashSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, isJSSpace), "")
}

// markPointers writes [cursor=pointer] on the outermost elements with a ref
// and a pointer cursor, as the AI snapshot does: the mark says where a
// click lands, and inside a click target it would only repeat that.
func markPointers(nodes []*SnapshotNode, inside bool) {
	for _, n := range nodes {
		if n.IsText() {
			continue
		}
		target := n.Ref != "" && n.pointer
		if target && !inside {
			n.Extra = append(n.Extra, SnapshotAttr{Name: "cursor", Value: "pointer"})
		}
		markPointers(n.Children, inside || target)
	}
}

// normalizeAria applies the clean-up of ariaSnapshot(): adjacent text
// merges, deepest first. (Playwright also unwraps single-child generic
// wrappers there, but only those holding elements with refs, and
// ariaSnapshot() gives no refs.)
func normalizeAria(parent *SnapshotNode) {
	for _, c := range parent.Children {
		if !c.IsText() {
			normalizeAria(c)
			mergeText(c)
		}
	}
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

// joinText appends t to a run of text. Runs arrive trimmed; the space
// between two (if any) is a text node of its own (see content).
func joinText(run *strings.Builder, t string) {
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

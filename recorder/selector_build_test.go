package recorder

import (
	"strconv"
	"strings"
)

// Screens for selector tests are built with a small vocabulary:
//
//	selEl("button", selRef("del2"), selName("Delete"), selKids(selTxt("Delete")))
//
// selScreen fills in what the page model would: refs (e1, e2, … in document
// order, unless selRef set one), text from the children (block children on
// their own lines, selInline children on one), names from content for the
// roles that take them, and visibility (shown unless selHidden).

type selOpt func(*selSpec)

type selSpec struct {
	node     *Node
	kids     []*selSpec
	hidden   bool
	inline   bool
	textSet  bool
	nameSet  bool
	isText   bool
	explicit bool // ref set by the test
}

func selEl(role string, opts ...selOpt) *selSpec {
	s := &selSpec{node: &Node{Role: role, Tag: "div"}}
	for _, o := range opts {
		o(s)
	}
	return s
}

func selTxt(text string) *selSpec {
	return &selSpec{node: &Node{Tag: TextTag, Text: text}, isText: true, textSet: true}
}

func selRef(ref string) selOpt { return func(s *selSpec) { s.node.Ref = ref; s.explicit = true } }
func selName(name string) selOpt {
	return func(s *selSpec) { s.node.Name = name; s.nameSet = true }
}
func selText(text string) selOpt {
	return func(s *selSpec) { s.node.Text = text; s.textSet = true }
}
func selID(id string) selOpt          { return func(s *selSpec) { s.node.ID = id } }
func selTestID(id string) selOpt      { return func(s *selSpec) { s.node.TestID = id } }
func selLabel(l string) selOpt        { return func(s *selSpec) { s.node.Label = l } }
func selPlaceholder(p string) selOpt  { return func(s *selSpec) { s.node.Placeholder = p } }
func selTag(tag string) selOpt        { return func(s *selSpec) { s.node.Tag = tag } }
func selHidden() selOpt               { return func(s *selSpec) { s.hidden = true } }
func selSecret() selOpt               { return func(s *selSpec) { s.node.Secret = true } }
func selInline() selOpt               { return func(s *selSpec) { s.inline = true } }
func selKids(kids ...*selSpec) selOpt { return func(s *selSpec) { s.kids = append(s.kids, kids...) } }
func selNode(f func(n *Node)) selOpt  { return func(s *selSpec) { f(s.node) } }
func selLeaf(role, text string, opts ...selOpt) *selSpec {
	return selEl(role, append([]selOpt{selKids(selTxt(text))}, opts...)...)
}

// selNameFromContent are the roles whose accessible name comes from their
// content when nothing else names them (accname 1.2, the common ones).
var selNameFromContent = map[string]bool{
	"button": true, "link": true, "heading": true, "cell": true, "columnheader": true,
	"rowheader": true, "row": true, "option": true, "tab": true, "menuitem": true,
	"checkbox": true, "radio": true, "switch": true, "treeitem": true, "tooltip": true,
	"menuitemcheckbox": true, "menuitemradio": true,
}

// selScreen turns a spec tree into a Screen the way the page model would
// capture it.
func selScreen(root *selSpec) *Screen {
	counter := 0
	var build func(s *selSpec, hidden bool) *Node
	build = func(s *selSpec, hidden bool) *Node {
		n := s.node
		if s.isText {
			return n
		}
		counter++
		if !s.explicit {
			n.Ref = "e" + strconv.Itoa(counter)
		}
		hidden = hidden || s.hidden
		n.Visible = !hidden
		n.Children = nil
		var parts []string
		for _, k := range s.kids {
			c := build(k, hidden)
			n.Children = append(n.Children, c)
			if c.Text != "" {
				parts = append(parts, c.Text)
			}
		}
		if !s.textSet && !n.Secret {
			sep := "\n"
			if s.inline {
				sep = " "
			}
			n.Text = normalizeSelectorText(strings.Join(parts, sep))
		}
		if !s.nameSet && selNameFromContent[n.Role] {
			n.Name = collapseSelectorSpace(n.Text)
		}
		return n
	}
	return &Screen{Schema: ScreenSchema, URL: "http://fixture.test/", Root: build(root, false)}
}

// selPage wraps body content in html > body, as every screen has.
func selPage(body ...*selSpec) *Screen {
	return selScreen(selEl("document", selTag("html"), selKids(selEl("generic", selTag("body"), selKids(body...)))))
}

func selIntp(i int) *int { return &i }

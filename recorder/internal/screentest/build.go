package screentest

import (
	"strconv"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
)

// Screen fills in what the page model would: refs (e1, e2, … in document
// order, unless Ref set one), text from the children (block children on
// their own lines, Inline children on one), names from content for the roles
// that take them, and visibility (shown unless Hidden).

// An Opt sets one property of a Spec.
type Opt func(*Spec)

// A Spec is an element or a text run of a screen being built.
type Spec struct {
	Node     *screen.Node
	kids     []*Spec
	hidden   bool
	inline   bool
	textSet  bool
	NameSet  bool
	isText   bool
	explicit bool // ref set by the test
}

// El is an element with role.
func El(role string, opts ...Opt) *Spec {
	s := &Spec{Node: &screen.Node{Role: role, Tag: "div"}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Txt is a text run.
func Txt(text string) *Spec {
	return &Spec{Node: &screen.Node{Tag: screen.TextTag, Text: text}, isText: true, textSet: true}
}

func Ref(ref string) Opt { return func(s *Spec) { s.Node.Ref = ref; s.explicit = true } }
func Name(name string) Opt {
	return func(s *Spec) { s.Node.Name = name; s.NameSet = true }
}
func Text(text string) Opt {
	return func(s *Spec) { s.Node.Text = text; s.textSet = true }
}
func ID(id string) Opt                { return func(s *Spec) { s.Node.ID = id } }
func TestID(id string) Opt            { return func(s *Spec) { s.Node.TestID = id } }
func Label(l string) Opt              { return func(s *Spec) { s.Node.Label = l } }
func Placeholder(p string) Opt        { return func(s *Spec) { s.Node.Placeholder = p } }
func Tag(tag string) Opt              { return func(s *Spec) { s.Node.Tag = tag } }
func Hidden() Opt                     { return func(s *Spec) { s.hidden = true } }
func Secret() Opt                     { return func(s *Spec) { s.Node.Secret = true } }
func Inline() Opt                     { return func(s *Spec) { s.inline = true } }
func Kids(kids ...*Spec) Opt          { return func(s *Spec) { s.kids = append(s.kids, kids...) } }
func Node(f func(n *screen.Node)) Opt { return func(s *Spec) { f(s.Node) } }

// Leaf is an element with role holding one text run.
func Leaf(role, text string, opts ...Opt) *Spec {
	return El(role, append([]Opt{Kids(Txt(text))}, opts...)...)
}

// selNameFromContent are the roles whose accessible name comes from their
// content when nothing else names them (accname 1.2, the common ones).
var selNameFromContent = map[string]bool{
	"button": true, "link": true, "heading": true, "cell": true, "columnheader": true,
	"rowheader": true, "row": true, "option": true, "tab": true, "menuitem": true,
	"checkbox": true, "radio": true, "switch": true, "treeitem": true, "tooltip": true,
	"menuitemcheckbox": true, "menuitemradio": true,
}

// Screen turns a spec tree into a Screen the way the page model would
// capture it.
func Screen(root *Spec) *screen.Screen {
	counter := 0
	var build func(s *Spec, hidden bool) *screen.Node
	build = func(s *Spec, hidden bool) *screen.Node {
		n := s.Node
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
			n.Text = screen.NormalizeText(strings.Join(parts, sep))
		}
		if !s.NameSet && selNameFromContent[n.Role] {
			n.Name = screen.CollapseSpace(n.Text)
		}
		return n
	}
	return &screen.Screen{Schema: screen.ScreenSchema, URL: "http://fixture.test/", Root: build(root, false)}
}

// Page wraps body content in html > body, as every screen has.
func Page(body ...*Spec) *screen.Screen {
	return Screen(El("document", Tag("html"), Kids(El("generic", Tag("body"), Kids(body...)))))
}

// Intp is a pointer to i, for selector indexes.
func Intp(i int) *int { return &i }

package screen

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The wire form is how the page model hands a screen to replay: the screen's
// own fields, with the node tree packed into arrays (captureWire in
// extension/pagemodel/wire.js; docs/screen-schema.md). It is a third of the size of the
// plain JSON, and the transfer out of the browser and the decoding here are
// most of a capture's cost on a large page.

// wireFlags are the node booleans packed into an element's flags, bit i for
// entry i; the order is the page model's WIRE_FLAGS.
var wireFlags = []func(n *Node) *bool{
	func(n *Node) *bool { return &n.Visible },
	func(n *Node) *bool { return &n.AriaHidden },
	func(n *Node) *bool { return &n.Inert },
	func(n *Node) *bool { return &n.Secret },
	func(n *Node) *bool { return &n.Disabled },
	func(n *Node) *bool { return &n.Required },
	func(n *Node) *bool { return &n.ReadOnly },
	func(n *Node) *bool { return &n.Invalid },
	func(n *Node) *bool { return &n.CrossOrigin },
	func(n *Node) *bool { return &n.InTree },
	func(n *Node) *bool { return &n.PointerCursor },
	func(n *Node) *bool { return &n.NoPointerEvents },
	func(n *Node) *bool { return &n.Block },
	func(n *Node) *bool { return &n.Editable },
}

// wireRoles and wireTags are the roles and tags an element's role and tag
// entries name by index; the order is the page model's WIRE_ROLES and
// WIRE_TAGS.
var wireRoles = []string{"generic", "document", "paragraph", "link", "button", "listitem", "list", "heading", "img",
	"textbox", "checkbox", "radio", "combobox", "option", "listbox", "cell", "row", "rowgroup", "columnheader",
	"rowheader", "table", "group", "region", "navigation", "banner", "main", "contentinfo", "complementary", "form",
	"search", "article", "dialog", "alert", "status", "separator", "spinbutton", "slider", "searchbox", "tab",
	"tablist", "tabpanel", "menu", "menuitem", "menubar", "strong", "emphasis", "code", "time", "figure", "term",
	"definition", "none", "presentation", "gridcell", "grid", "switch", "progressbar", "meter", "insertion", "deletion",
	"subscript", "superscript", "blockquote", "caption", "iframe", "mark", "math", "treegrid", "tree", "treeitem"}

var wireTags = []string{"div", "span", "a", "p", "li", "ul", "ol", "button", "input", "label", "img", "svg", "td", "tr",
	"th", "tbody", "thead", "table", "h1", "h2", "h3", "h4", "h5", "h6", "section", "header", "footer", "nav", "main",
	"article", "aside", "form", "select", "option", "textarea", "b", "i", "strong", "em", "small", "code", "pre", "time",
	"br", "hr", "html", "body", "iframe", "dialog", "details", "summary", "fieldset", "legend", "figure", "figcaption",
	"blockquote", "dl", "dt", "dd", "path", "g", "use", "canvas", "video", "audio", "picture", "source", "tfoot",
	"caption", "abbr", "sup", "sub", "mark", "u", "s", "cite", "q", "kbd", "optgroup", "progress", "meter", "output"}

// maxWireDepth bounds nesting while decoding; the DOM's own limit is far
// below, and a deeper answer means something is wrong.
const maxWireDepth = 10000

var errWire = errors.New("malformed screen from the page model")

// lenientWire reads the page model's JSON: text from a page may hold lone
// UTF-16 surrogates, which JSON.stringify escapes and a strict decoder
// refuses; a capture must not fail over one odd character.
var lenientWire = jsontext.AllowInvalidUTF8(true)

// DecodeWire reads a screen in the page model's wire form (captureWire,
// docs/screen-schema.md): what a capture in replay, and the recording host
// with each interaction, receive from the page model.
func DecodeWire(b []byte) (*Screen, error) {
	var top struct {
		Screen
		Root jsontext.Value `json:"root"`
	}
	if err := json.Unmarshal(b, &top, lenientWire); err != nil {
		return nil, fmt.Errorf("%w: %v", errWire, err)
	}
	s := top.Screen
	if len(top.Root) == 0 {
		return &s, nil
	}
	d := jsontext.NewDecoder(bytes.NewReader(top.Root), lenientWire)
	root, err := decodeWireNode(d, 0)
	if err != nil {
		return nil, err
	}
	s.Root = root
	return &s, nil
}

func decodeWireNode(d *jsontext.Decoder, depth int) (*Node, error) {
	if depth > maxWireDepth {
		return nil, fmt.Errorf("%w: nodes nested deeper than %d", errWire, maxWireDepth)
	}
	tok, err := d.ReadToken()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errWire, err)
	}
	switch tok.Kind() {
	case '"':
		return &Node{Tag: TextTag, Text: tok.String(), Visible: true}, nil
	case '0':
		return &Node{Tag: TextTag, Secret: true, Visible: tok.Int() == 1}, nil
	case '[':
	default:
		return nil, fmt.Errorf("%w: unexpected %v for a node", errWire, tok.Kind())
	}
	if d.PeekKind() == '0' { // an element whose ref is "e<N>", written as N
		tok, err := d.ReadToken()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errWire, err)
		}
		num, err := strconv.ParseUint(tok.String(), 10, 63)
		if err != nil || num == 0 {
			return nil, fmt.Errorf("%w: ref number %s", errWire, tok.String())
		}
		return decodeWireElement(d, "e"+strconv.FormatUint(num, 10), depth)
	}
	first, err := readString(d)
	if err != nil {
		return nil, err
	}
	if d.PeekKind() == ']' { // a hidden text run
		d.ReadToken()
		return &Node{Tag: TextTag, Text: first}, nil
	}
	return decodeWireElement(d, first, depth)
}

// decodeWireElement reads the rest of an element whose ref was read.
func decodeWireElement(d *jsontext.Decoder, ref string, depth int) (*Node, error) {
	n := &Node{Ref: ref}
	var err error
	if n.Role, err = readCoded(d, wireRoles, "role"); err != nil {
		return nil, err
	}
	if n.Tag, err = readCoded(d, wireTags, "tag"); err != nil {
		return nil, err
	}
	var codes wireCodes
	for field := 3; d.PeekKind() != ']'; field++ {
		if err := decodeWireField(d, n, field, depth, &codes); err != nil {
			return nil, err
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return nil, fmt.Errorf("%w: %v", errWire, err)
	}
	if codes.join > 0 {
		visibleOnly := codes.join > len(wireJoins)
		n.Text = joinedText(n.Children, wireJoins[(codes.join-1)%len(wireJoins)], visibleOnly)
	}
	if codes.nameIsText {
		n.Name = n.Text
	}
	return n, nil
}

// wireCodes are what an element's entries say by a number, resolved once its
// children are read: the text's join code, and a name that is the text.
type wireCodes struct {
	join       int
	nameIsText bool
}

// readCoded reads a string, or the index of one in table.
func readCoded(d *jsontext.Decoder, table []string, what string) (string, error) {
	if d.PeekKind() != '0' {
		return readString(d)
	}
	tok, err := d.ReadToken()
	if err != nil {
		return "", fmt.Errorf("%w: %v", errWire, err)
	}
	i, err := strconv.ParseUint(tok.String(), 10, 31)
	if err != nil || i >= uint64(len(table)) {
		return "", fmt.Errorf("%w: %s code %s", errWire, what, tok.String())
	}
	return table[i], nil
}

// wireJoins are the separators a wire text code 1, 2, 3 joins the children's
// texts with, and 4, 5, 6 the visible children's alone (the page model's
// WIRE_JOINS).
var wireJoins = []string{"\n", " ", ""}

// joinedText joins the non-empty texts of nodes, or of the visible ones.
func joinedText(nodes []*Node, sep string, visibleOnly bool) string {
	var b strings.Builder
	for _, c := range nodes {
		if c.Text == "" || visibleOnly && !c.Visible {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(c.Text)
	}
	return b.String()
}

// decodeWireField reads the element field at position i; 0 stands for empty,
// a number in the text field is a join code and 1 in the name field the
// element's text, both stored in codes.
func decodeWireField(d *jsontext.Decoder, n *Node, i, depth int, codes *wireCodes) error {
	if d.PeekKind() == '0' {
		tok, err := d.ReadToken()
		if err != nil {
			return fmt.Errorf("%w: %v", errWire, err)
		}
		switch i {
		case 3:
			flags := tok.Int()
			for bit, field := range wireFlags {
				if flags&(1<<bit) != 0 {
					*field(n) = true
				}
			}
		case 5:
			switch tok.Int() {
			case 0:
			case 1:
				codes.nameIsText = true
			default:
				return fmt.Errorf("%w: name code %s", errWire, tok.String())
			}
		case 6:
			code := int(tok.Int())
			if code < 0 || code > 2*len(wireJoins) {
				return fmt.Errorf("%w: text join code %d", errWire, code)
			}
			codes.join = code
		}
		return nil
	}
	switch i {
	case 4:
		var box [4]float64
		if err := json.UnmarshalDecode(d, &box); err != nil {
			return fmt.Errorf("%w: box: %v", errWire, err)
		}
		n.Box = &Box{X: box[0], Y: box[1], Width: box[2], Height: box[3]}
	case 5:
		s, err := readString(d)
		n.Name = s
		return err
	case 6:
		s, err := readString(d)
		n.Text = s
		return err
	case 7:
		// The rarer fields keep their screen names: decode into the node.
		if err := json.UnmarshalDecode(d, n, lenientWire); err != nil {
			return fmt.Errorf("%w: fields: %v", errWire, err)
		}
	case 8:
		if _, err := d.ReadToken(); err != nil { // [
			return fmt.Errorf("%w: %v", errWire, err)
		}
		for d.PeekKind() != ']' {
			c, err := decodeWireNode(d, depth+1)
			if err != nil {
				return err
			}
			n.Children = append(n.Children, c)
		}
		if _, err := d.ReadToken(); err != nil { // ]
			return fmt.Errorf("%w: %v", errWire, err)
		}
	default:
		return fmt.Errorf("%w: element has more than 9 fields", errWire)
	}
	return nil
}

func readString(d *jsontext.Decoder) (string, error) {
	tok, err := d.ReadToken()
	if err != nil {
		return "", fmt.Errorf("%w: %v", errWire, err)
	}
	if tok.Kind() != '"' {
		return "", fmt.Errorf("%w: want a string, got %v", errWire, tok.Kind())
	}
	return tok.String(), nil
}

package recorder

import (
	"fmt"
	"strings"
	"testing"
)

// Screen builders for tests. Elements are visible unless set otherwise.

func el(tag, role, name string, kids ...*Node) *Node {
	return &Node{Tag: tag, Role: role, Name: name, Visible: true, Children: kids}
}

func txt(s string) *Node { return &Node{Tag: TextTag, Text: s} }

func with(n *Node, set func(*Node)) *Node { set(n); return n }

func hidden(n *Node) *Node { return with(n, func(n *Node) { n.Visible = false }) }

func boolp(b bool) *bool { return &b }

// screenOf wraps body content in html/body and gives every element without a
// ref the next e<N> in document order (frames' content keeps its own refs).
func screenOf(focused string, content ...*Node) *Screen {
	body := el("body", "generic", "", content...)
	root := el("html", "document", "", body)
	next := 0
	var number func(*Node)
	number = func(n *Node) {
		if n.IsText() {
			return
		}
		if n.Ref == "" {
			next++
			n.Ref = fmt.Sprintf("e%d", next)
		}
		for _, c := range n.Children {
			number(c)
		}
	}
	number(body)
	return &Screen{Schema: ScreenSchema, URL: "https://app.example/", Root: root, Focused: focused}
}

func TestRenderSnapshotOutline(t *testing.T) {
	tests := []struct {
		name   string
		screen *Screen
		want   []string
	}{
		{"an empty page shows nothing",
			screenOf(""),
			nil},
		{"body with no focus elsewhere is active",
			screenOf("", el("p", "paragraph", "", txt("a")), el("p", "paragraph", "", txt("b"))),
			[]string{`- generic [active] [ref=e1]:`, `  - paragraph [ref=e2]: a`, `  - paragraph [ref=e3]: b`}},
		{"focused element is active, body is not",
			screenOf("e2", el("button", "button", "Save", txt("Save")), el("button", "button", "Undo", txt("Undo"))),
			[]string{`- generic [ref=e1]:`, `  - button "Save" [active] [ref=e2]`, `  - button "Undo" [ref=e3]`}},
		{"nested nameless generics give way to their one element",
			screenOf("e9", el("div", "generic", "", el("div", "generic", "", el("button", "button", "Go", txt("Go"))))),
			[]string{`- button "Go" [ref=e4]`}},
		{"empty generic is dropped",
			screenOf("e9", el("div", "generic", ""), el("p", "paragraph", "", txt("x"))),
			[]string{`- paragraph [ref=e3]: x`}},
		{"hidden element out, its visible child and its text kept apart",
			screenOf("e9", hidden(el("div", "generic", "", txt("hidden text"), el("button", "button", "Shown", txt("Shown")))),
				el("p", "paragraph", "", txt("after"))),
			[]string{`- generic [ref=e1]:`, `  - button "Shown" [ref=e3]`, `  - paragraph [ref=e4]: after`}},
		{"presentational table gives its text to the parent",
			screenOf("e9", el("div", "region", "Prices",
				el("table", "none", "", el("tr", "none", "", el("td", "presentation", "", txt("Beans")), el("td", "none", "", txt("$12")))))),
			[]string{`- region "Prices" [ref=e2]: Beans $12`}},
		{"inline generic text joins the paragraph",
			screenOf("e9", el("p", "paragraph", "", txt("Hello"), el("b", "generic", "", txt("bold")), txt("text."))),
			[]string{`- paragraph [ref=e2]: Hello bold text.`}},
		{"block generic text stays its own",
			screenOf("e9", el("div", "generic", "", txt("one")), el("div", "generic", "", txt("two"))),
			[]string{`- generic [ref=e1]:`, `  - generic [ref=e2]: one`, `  - generic [ref=e3]: two`}},
		{"text equal to the name is not repeated",
			screenOf("e9", el("li", "listitem", "", el("button", "button", "Save all", txt("Save"), txt("all")))),
			[]string{`- listitem [ref=e2]:`, `  - button "Save all" [ref=e3]`}},
		{"generic child repeating the parent's name is dropped",
			screenOf("e9", el("button", "button", "Cart", el("div", "generic", "", txt("Cart")), el("span", "generic", "", txt("2 items")))),
			[]string{`- button "Cart" [ref=e2]: 2 items`}},
		{"nameless image is dropped, named one kept",
			screenOf("e9", el("img", "img", ""), el("img", "img", "Logo: Trailpin")),
			[]string{`- 'img "Logo: Trailpin" [ref=e3]'`}},
		{"field shows its value and a placeholder that is not its name",
			screenOf("e9", with(el("input", "textbox", "Email"), func(n *Node) { n.Value = "alice@example.com"; n.Placeholder = "you@work" }),
				with(el("input", "textbox", "Search"), func(n *Node) { n.Placeholder = "Search" })),
			[]string{`- generic [ref=e1]:`, `  - textbox "Email" [ref=e2]:`, `    - /placeholder: you@work`, `    - text: alice@example.com`, `  - textbox "Search" [ref=e3]`}},
		{"secret field shows no value and no text inside it",
			screenOf("e9", with(el("input", "textbox", "Password"), func(n *Node) { n.Secret = true; n.Value = "hunter2" }),
				with(el("div", "generic", "Card number", txt("4111 1111 1111 1111")), func(n *Node) { n.Secret = true })),
			[]string{`- generic [ref=e1]:`, `  - textbox "Password" [ref=e2]`, `  - generic "Card number" [ref=e3]`}},
		{"text in a text box is its value, not its children",
			screenOf("e9", with(el("textarea", "textbox", "Notes", txt("default")), func(n *Node) { n.Value = "typed" })),
			[]string{`- textbox "Notes" [ref=e2]: typed`}},
		{"checkbox value is not text",
			screenOf("e9", with(el("input", "checkbox", "Agree"), func(n *Node) { n.Value = "on"; n.Checked = "true" })),
			[]string{`- checkbox "Agree" [checked] [ref=e2]`}},
		{"states in Playwright's order",
			screenOf("e3",
				with(el("div", "treeitem", "Node"), func(n *Node) {
					n.Checked, n.Pressed, n.Disabled, n.Expanded, n.Selected, n.Level, n.Invalid = "mixed", "true", true, boolp(true), boolp(true), 2, true
				}),
				with(el("button", "button", "Closed"), func(n *Node) {
					n.Expanded, n.Selected, n.Checked, n.Pressed = boolp(false), boolp(false), "false", "false"
				})),
			[]string{`- generic [ref=e1]:`, `  - treeitem "Node" [checked=mixed] [disabled] [expanded] [invalid] [level=2] [pressed] [selected] [ref=e2]`, `  - button "Closed" [active] [ref=e3]`}},
		{"links carry their URL, data URLs cut to the header",
			screenOf("e9", with(el("a", "link", "Home", txt("Home")), func(n *Node) { n.URL = "https://app.example/#top" }),
				with(el("a", "link", "Download", txt("Download")), func(n *Node) { n.URL = "data:text/csv;base64,QUJD" })),
			[]string{`- generic [ref=e1]:`, `  - link "Home" [ref=e2]:`, `    - /url: https://app.example/#top`, `  - link "Download" [ref=e3]:`, `    - /url: data:text/csv;base64,…`}},
		{"frame content hangs below its iframe with its own refs",
			screenOf("e9", with(el("iframe", "iframe", "Payment"), func(n *Node) {
				n.Children = []*Node{with(el("html", "document", "", with(el("body", "generic", "",
					with(el("button", "button", "Pay: now", txt("Pay: now")), func(n *Node) { n.Ref = "f1e2" })), func(n *Node) { n.Ref = "f1e1" })), func(n *Node) { n.Ref = "f1e0" })}
			})),
			[]string{`- iframe [ref=e2]:`, `  - 'button "Pay: now" [ref=f1e2]'`}},
		{"a role that is not a word reads as generic",
			screenOf("e9", el("div", "x-widget", "Odd", txt("inside"))),
			[]string{`- generic "Odd" [ref=e2]: inside`}},
		{"names are whitespace-normalised",
			screenOf("e9", el("button", "button", " Save\u200b\u00a0 now ", txt("Save now"))),
			[]string{`- button "Save now" [ref=e2]`}},
		{"a name over 900 characters is left out",
			screenOf("e9", el("button", "button", strings.Repeat("n", 901), txt("x"))),
			[]string{`- button [ref=e2]: x`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RenderSnapshot(tt.screen, SnapshotOptions{Quoted: true})
			if want := strings.Join(tt.want, "\n"); got != want {
				t.Errorf("RenderSnapshot =\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestRenderSnapshotNilScreen(t *testing.T) {
	if got := RenderSnapshot(nil, SnapshotOptions{}); got != "" {
		t.Errorf("RenderSnapshot(nil) = %q, want \"\"", got)
	}
	if got := RenderSnapshot(&Screen{}, SnapshotOptions{}); got != "" {
		t.Errorf("RenderSnapshot(no root) = %q, want \"\"", got)
	}
}

func TestRenderSnapshotUnquotedIsDefault(t *testing.T) {
	s := screenOf("e9", el("button", "button", "It's: here", txt("x")), el("button", "button", "/a: b/", txt("y")))
	got := RenderSnapshot(s, SnapshotOptions{})
	want := strings.Join([]string{
		`- generic [ref=e1]:`,
		`  - button "It's: here" [ref=e2]: x`,
		`  - button "/a: b/" [ref=e3]: "y"`,
	}, "\n")
	if got != want {
		t.Errorf("RenderSnapshot(zero options) =\n%s\nwant\n%s", got, want)
	}
	quoted := RenderSnapshot(s, SnapshotOptions{Quoted: true})
	if !strings.Contains(quoted, `- 'button "It''s: here" [ref=e2]': x`) || !strings.Contains(quoted, `- 'button /a: b/ [ref=e3]': "y"`) {
		t.Errorf("RenderSnapshot(Quoted) does not wrap the keys as Playwright does:\n%s", quoted)
	}
}

func TestRenderSnapshotInteractive(t *testing.T) {
	s := screenOf("e9",
		el("header", "banner", "",
			with(el("a", "link", "", el("img", "img", "Bean Counter")), func(n *Node) { n.URL = "https://shop.example/" }),
			el("nav", "navigation", "Main", el("ul", "list", "", el("li", "listitem", "",
				with(el("a", "link", "Coffee", txt("Coffee")), func(n *Node) { n.URL = "https://shop.example/coffee" }))))),
		el("main", "main", "",
			el("h1", "heading", "Coffee", txt("Coffee")),
			el("p", "paragraph", "", txt("Fresh every Monday.")),
			el("h2", "heading", "Beans", txt("Beans")),
			el("div", "generic", "", el("p", "paragraph", "", txt("$12")), el("button", "button", "Add to cart", txt("Add to cart"))),
			with(el("input", "spinbutton", "Qty"), func(n *Node) { n.Value = "1" }),
			el("h2", "heading", "About", txt("About")),
			el("p", "paragraph", "", txt("Since 2020."))),
		el("footer", "contentinfo", "", el("p", "paragraph", "", txt("Bean Counter Ltd"))),
	)
	got := RenderSnapshot(s, SnapshotOptions{Interactive: true})
	want := strings.Join([]string{
		`- banner:`,
		`  - link [ref=e3]:`,
		`    - /url: https://shop.example/`,
		`    - img "Bean Counter"`,
		`  - navigation "Main":`,
		`    - link "Coffee" [ref=e8]`,
		`- main:`,
		`  - heading "Beans"`,
		`  - button "Add to cart" [ref=e15]`,
		`  - spinbutton "Qty" [ref=e16]: "1"`,
	}, "\n")
	if got != want {
		t.Errorf("RenderSnapshot(Interactive) =\n%s\nwant\n%s", got, want)
	}
	full := RenderSnapshot(s, SnapshotOptions{})
	if len(got) >= len(full) {
		t.Errorf("interactive form (%d bytes) is not smaller than the full one (%d)", len(got), len(full))
	}
}

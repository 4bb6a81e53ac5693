package screen

import (
	"fmt"
	"strings"
	"testing"
)

// Screen builders for tests. Elements are visible unless set otherwise.

func snapEl(tag, role, name string, kids ...*Node) *Node {
	return &Node{Tag: tag, Role: role, Name: name, Visible: true, Children: kids}
}

func snapText(s string) *Node { return &Node{Tag: TextTag, Text: s} }

func snapWith(n *Node, set func(*Node)) *Node { set(n); return n }

func snapHidden(n *Node) *Node { return snapWith(n, func(n *Node) { n.Visible = false }) }

func snapBool(b bool) *bool { return &b }

// screenOf wraps body content in html/body and gives every element without a
// ref the next e<N> in document order (frames' content keeps its own refs).
func snapScreen(focused string, content ...*Node) *Screen {
	body := snapEl("body", "generic", "", content...)
	root := snapEl("html", "document", "", body)
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
			snapScreen(""),
			nil},
		{"body with no focus elsewhere is active",
			snapScreen("", snapEl("p", "paragraph", "", snapText("a")), snapEl("p", "paragraph", "", snapText("b"))),
			[]string{`- generic [active] [ref=e1]:`, `  - paragraph [ref=e2]: a`, `  - paragraph [ref=e3]: b`}},
		{"focused element is active, body is not",
			snapScreen("e2", snapEl("button", "button", "Save", snapText("Save")), snapEl("button", "button", "Undo", snapText("Undo"))),
			[]string{`- generic [ref=e1]:`, `  - button "Save" [active] [ref=e2]`, `  - button "Undo" [ref=e3]`}},
		{"nested nameless generics give way to their one element",
			snapScreen("e9", snapEl("div", "generic", "", snapEl("div", "generic", "", snapEl("button", "button", "Go", snapText("Go"))))),
			[]string{`- button "Go" [ref=e4]`}},
		{"empty generic is dropped",
			snapScreen("e9", snapEl("div", "generic", ""), snapEl("p", "paragraph", "", snapText("x"))),
			[]string{`- paragraph [ref=e3]: x`}},
		{"hidden element out, its visible child and its text kept apart",
			snapScreen("e9", snapHidden(snapEl("div", "generic", "", snapText("hidden text"), snapEl("button", "button", "Shown", snapText("Shown")))),
				snapEl("p", "paragraph", "", snapText("after"))),
			[]string{`- generic [ref=e1]:`, `  - button "Shown" [ref=e3]`, `  - paragraph [ref=e4]: after`}},
		{"presentational table gives its text to the parent",
			snapScreen("e9", snapEl("div", "region", "Prices",
				snapEl("table", "none", "", snapEl("tr", "none", "", snapEl("td", "presentation", "", snapText("Beans")), snapEl("td", "none", "", snapText("$12")))))),
			[]string{`- region "Prices" [ref=e2]: Beans $12`}},
		{"inline generic text joins the paragraph",
			snapScreen("e9", snapEl("p", "paragraph", "", snapText("Hello"), snapEl("b", "generic", "", snapText("bold")), snapText("text."))),
			[]string{`- paragraph [ref=e2]: Hello bold text.`}},
		{"block generic text stays its own",
			snapScreen("e9", snapEl("div", "generic", "", snapText("one")), snapEl("div", "generic", "", snapText("two"))),
			[]string{`- generic [ref=e1]:`, `  - generic [ref=e2]: one`, `  - generic [ref=e3]: two`}},
		{"text equal to the name is not repeated",
			snapScreen("e9", snapEl("li", "listitem", "", snapEl("button", "button", "Save all", snapText("Save"), snapText("all")))),
			[]string{`- listitem [ref=e2]:`, `  - button "Save all" [ref=e3]`}},
		{"generic child repeating the parent's name is dropped",
			snapScreen("e9", snapEl("button", "button", "Cart", snapEl("div", "generic", "", snapText("Cart")), snapEl("span", "generic", "", snapText("2 items")))),
			[]string{`- button "Cart" [ref=e2]: 2 items`}},
		{"nameless image is dropped, named one kept",
			snapScreen("e9", snapEl("img", "img", ""), snapEl("img", "img", "Logo: Trailpin")),
			[]string{`- 'img "Logo: Trailpin" [ref=e3]'`}},
		{"field shows its value and a placeholder that is not its name",
			snapScreen("e9", snapWith(snapEl("input", "textbox", "Email"), func(n *Node) { n.Value = "alice@example.com"; n.Placeholder = "you@work" }),
				snapWith(snapEl("input", "textbox", "Search"), func(n *Node) { n.Placeholder = "Search" })),
			[]string{`- generic [ref=e1]:`, `  - textbox "Email" [ref=e2]:`, `    - /placeholder: you@work`, `    - text: alice@example.com`, `  - textbox "Search" [ref=e3]`}},
		{"secret field shows no value and no text inside it",
			snapScreen("e9", snapWith(snapEl("input", "textbox", "Password"), func(n *Node) { n.Secret = true; n.Value = "hunter2" }),
				snapWith(snapEl("div", "generic", "Card number", snapText("4111 1111 1111 1111")), func(n *Node) { n.Secret = true })),
			[]string{`- generic [ref=e1]:`, `  - textbox "Password" [ref=e2]`, `  - generic "Card number" [ref=e3]`}},
		{"text in a text box is its value, not its children",
			snapScreen("e9", snapWith(snapEl("textarea", "textbox", "Notes", snapText("default")), func(n *Node) { n.Value = "typed" })),
			[]string{`- textbox "Notes" [ref=e2]: typed`}},
		{"checkbox value is not text",
			snapScreen("e9", snapWith(snapEl("input", "checkbox", "Agree"), func(n *Node) { n.Value = "on"; n.Checked = "true" })),
			[]string{`- checkbox "Agree" [checked] [ref=e2]`}},
		{"states in Playwright's order",
			snapScreen("e3",
				snapWith(snapEl("div", "treeitem", "Node"), func(n *Node) {
					n.Checked, n.Pressed, n.Disabled, n.Expanded, n.Selected, n.Level, n.Invalid = "mixed", "true", true, snapBool(true), snapBool(true), 2, true
				}),
				snapWith(snapEl("button", "button", "Closed"), func(n *Node) {
					n.Expanded, n.Selected, n.Checked, n.Pressed = snapBool(false), snapBool(false), "false", "false"
				})),
			[]string{`- generic [ref=e1]:`, `  - treeitem "Node" [checked=mixed] [disabled] [expanded] [invalid] [level=2] [pressed] [selected] [ref=e2]`, `  - button "Closed" [active] [ref=e3]`}},
		{"links carry their URL, data URLs cut to the header",
			snapScreen("e9", snapWith(snapEl("a", "link", "Home", snapText("Home")), func(n *Node) { n.URL = "https://app.example/#top" }),
				snapWith(snapEl("a", "link", "Download", snapText("Download")), func(n *Node) { n.URL = "data:text/csv;base64,QUJD" })),
			[]string{`- generic [ref=e1]:`, `  - link "Home" [ref=e2]:`, `    - /url: https://app.example/#top`, `  - link "Download" [ref=e3]:`, `    - /url: data:text/csv;base64,…`}},
		{"frame content hangs below its iframe with its own refs",
			snapScreen("e9", snapWith(snapEl("iframe", "iframe", "Payment"), func(n *Node) {
				n.Children = []*Node{snapWith(snapEl("html", "document", "", snapWith(snapEl("body", "generic", "",
					snapWith(snapEl("button", "button", "Pay: now", snapText("Pay: now")), func(n *Node) { n.Ref = "f1e2" })), func(n *Node) { n.Ref = "f1e1" })), func(n *Node) { n.Ref = "f1e0" })}
			})),
			[]string{`- iframe [ref=e2]:`, `  - 'button "Pay: now" [ref=f1e2]'`}},
		{"a role that is not a word reads as generic",
			snapScreen("e9", snapEl("div", "x-widget", "Odd", snapText("inside"))),
			[]string{`- generic "Odd" [ref=e2]: inside`}},
		{"names are whitespace-normalised",
			snapScreen("e9", snapEl("button", "button", " Save\u200b\u00a0 now ", snapText("Save now"))),
			[]string{`- button "Save now" [ref=e2]`}},
		{"a name over 900 characters is left out",
			snapScreen("e9", snapEl("button", "button", strings.Repeat("n", 901), snapText("x"))),
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
	s := snapScreen("e9", snapEl("button", "button", "It's: here", snapText("x")), snapEl("button", "button", "/a: b/", snapText("y")))
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
	s := snapScreen("e9",
		snapEl("header", "banner", "",
			snapWith(snapEl("a", "link", "", snapEl("img", "img", "Bean Counter")), func(n *Node) { n.URL = "https://shop.example/" }),
			snapEl("nav", "navigation", "Main", snapEl("ul", "list", "", snapEl("li", "listitem", "",
				snapWith(snapEl("a", "link", "Coffee", snapText("Coffee")), func(n *Node) { n.URL = "https://shop.example/coffee" }))))),
		snapEl("main", "main", "",
			snapEl("h1", "heading", "Coffee", snapText("Coffee")),
			snapEl("p", "paragraph", "", snapText("Fresh every Monday.")),
			snapEl("h2", "heading", "Beans", snapText("Beans")),
			snapEl("div", "generic", "", snapEl("p", "paragraph", "", snapText("$12")), snapEl("button", "button", "Add to cart", snapText("Add to cart"))),
			snapWith(snapEl("input", "spinbutton", "Qty"), func(n *Node) { n.Value = "1" }),
			snapEl("h2", "heading", "About", snapText("About")),
			snapEl("p", "paragraph", "", snapText("Since 2020."))),
		snapEl("footer", "contentinfo", "", snapEl("p", "paragraph", "", snapText("Bean Counter Ltd"))),
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

// An option group is written without its name, as Playwright writes it,
// except in the interactive form, where its name tells two groups' options
// apart.
func TestOptionGroupName(t *testing.T) {
	s := snapScreen("", snapEl("select", "listbox", "Basket",
		snapEl("option", "option", "Bread", snapText("Bread")),
		snapEl("optgroup", "group", "Dairy",
			snapEl("option", "option", "Milk", snapText("Milk")))))
	for _, tc := range []struct {
		opts SnapshotOptions
		want string
	}{
		{SnapshotOptions{Mode: ModeAria}, "  - group:\n"},
		{SnapshotOptions{Mode: ModeAI}, "  - group [ref=e4]:\n"},
		{SnapshotOptions{Interactive: true}, `- group "Dairy":`},
	} {
		if got := RenderSnapshot(s, tc.opts); !strings.Contains(got, tc.want) {
			t.Errorf("RenderSnapshot(%+v) =\n%s\nwant a line %q", tc.opts, got, tc.want)
		}
	}
}

// A role=heading without aria-level has ARIA's default level 2 in the
// screen; Playwright prints no level for it, and neither does the snapshot
// but for the interactive form, which always says a heading's level.
func TestImpliedHeadingLevel(t *testing.T) {
	s := snapScreen("", snapWith(snapEl("div", "heading", "No level", snapText("No level")), func(n *Node) { n.Level, n.ImpliedLevel = 2, true }),
		snapEl("button", "button", "Go", snapText("Go")))
	for _, tc := range []struct {
		opts SnapshotOptions
		want string
	}{
		{SnapshotOptions{Mode: ModeAria}, "- heading \"No level\"\n"},
		{SnapshotOptions{Mode: ModeAI}, "- heading \"No level\" [ref=e2]\n"},
		{SnapshotOptions{Interactive: true}, "- heading \"No level\" [level=2]\n"},
	} {
		if got := RenderSnapshot(s, tc.opts); !strings.Contains(got, tc.want) {
			t.Errorf("RenderSnapshot(%+v) =\n%s\nwant a line %q", tc.opts, got, tc.want)
		}
	}
}

// A <br> reads as a space in ariaSnapshot() but as nothing in the AI
// snapshot, where it is an element of its own that takes its space with it.
func TestLineBreakText(t *testing.T) {
	shown := func(s string) *Node { return snapWith(snapText(s), func(n *Node) { n.Visible = true }) }
	heading := func() *Screen {
		return snapScreen("", snapWith(snapEl("h2", "heading", "Saved for later (2 Items)",
			shown("Saved for later"), snapEl("br", "generic", ""), shown("(2 Items)")),
			func(n *Node) { n.Level, n.Text, n.Block = 2, "Saved for later\n(2 Items)", true }))
	}
	for _, tc := range []struct {
		mode SnapshotMode
		want string
	}{
		{ModeAria, "- heading \"Saved for later (2 Items)\" [level=2]"},
		{ModeAI, "- heading \"Saved for later (2 Items)\" [level=2] [ref=e2]: Saved for later(2 Items)"},
	} {
		if got := RenderSnapshot(heading(), SnapshotOptions{Mode: tc.mode}); got != tc.want {
			t.Errorf("RenderSnapshot(--mode %s) = %q, want %q", tc.mode, got, tc.want)
		}
	}
}

// A <br> its source writes white space beside ("later\n<br>(2 Items)")
// keeps a space in the AI snapshot, as Playwright's reading of the
// document's text does; in ariaSnapshot() every <br> reads as a space.
func TestSpacedLineBreakText(t *testing.T) {
	shown := func(s string) *Node { return snapWith(snapText(s), func(n *Node) { n.Visible = true }) }
	heading := func(spaced bool) *Screen {
		br := snapWith(snapEl("br", "generic", ""), func(n *Node) { n.SpacedBreak = spaced })
		return snapScreen("", snapWith(snapEl("h2", "heading", "Saved for later (2 Items)",
			shown("Saved for later"), br, shown("(2 Items)")),
			func(n *Node) { n.Level, n.Text, n.Block = 2, "Saved for later\n(2 Items)", true }))
	}
	for _, tc := range []struct {
		mode   SnapshotMode
		spaced bool
		want   string
	}{
		{ModeAria, true, "- heading \"Saved for later (2 Items)\" [level=2]"},
		{ModeAI, true, "- heading \"Saved for later (2 Items)\" [level=2] [ref=e2]"},
		{ModeAI, false, "- heading \"Saved for later (2 Items)\" [level=2] [ref=e2]: Saved for later(2 Items)"},
	} {
		if got := RenderSnapshot(heading(tc.spaced), SnapshotOptions{Mode: tc.mode}); got != tc.want {
			t.Errorf("RenderSnapshot(--mode %s, spaced %v) = %q, want %q", tc.mode, tc.spaced, got, tc.want)
		}
	}
}

// A display:contents element (a slot showing its fallback text) whose first
// shown child is text folds into its parent as an inline one does, so a
// button reading "Open report" across a slot prints its name alone.
func TestContentsElementHoldingTextFolds(t *testing.T) {
	shown := func(s string) *Node { return snapWith(snapText(s), func(n *Node) { n.Visible = true }) }
	slot := snapWith(snapEl("slot", "generic", "", shown("report")), func(n *Node) { n.Block, n.Text = true, "report" })
	button := snapWith(snapEl("button", "button", "Open report", shown("Open"), slot), func(n *Node) {
		n.Block, n.Text, n.Box = true, "Open report", &Box{Width: 80, Height: 20}
	})
	if got, want := RenderSnapshot(snapScreen("", button), SnapshotOptions{Mode: ModeAI}), `- button "Open report" [ref=e2]`; got != want {
		t.Errorf("RenderSnapshot(button holding a slot's text) = %q, want %q", got, want)
	}
}

// Two components' shadow roots each hold a heading with id "t" that names
// their section: each section's name comes from its own heading, so the AI
// snapshot drops the name of the one whose heading shows, even when the
// other's heading (the first with that id) is hidden.
func TestLabelledByInsideTheNamedElement(t *testing.T) {
	shown := func(s string) *Node { return snapWith(snapText(s), func(n *Node) { n.Visible = true }) }
	section := func(title string, headingShown bool) *Node {
		h := snapWith(snapEl("h2", "heading", title, shown(title)), func(n *Node) { n.ID, n.Level, n.Text, n.Block = "t", 2, title, true })
		if !headingShown {
			h = snapWith(h, func(n *Node) { n.Visible, n.Box = false, nil })
		}
		return snapWith(snapEl("section", "region", title, h, snapEl("button", "button", "Enable", shown("Enable"))),
			func(n *Node) { n.LabelledBy, n.Block = []string{"t"}, true })
	}
	got := RenderSnapshot(snapScreen("", section("Dark mode", false), section("Notifications", true)), SnapshotOptions{Mode: ModeAI})
	for _, want := range []string{`- region "Dark mode" [ref=e2]:`, "- region [ref=e5]:\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("RenderSnapshot =\n%s\nwant a line %q", got, want)
		}
	}
}

// A panel named by a tab shown before it keeps its name in the AI
// snapshot: Playwright drops a name only when what gave it shows inside the
// named element.
func TestNameFromAnEarlierElementIsKept(t *testing.T) {
	shown := func(s string) *Node { return snapWith(snapText(s), func(n *Node) { n.Visible = true }) }
	tab := snapWith(snapEl("button", "tab", "Example Value", shown("Example Value")), func(n *Node) { n.ID, n.Text, n.Block = "t1", "Example Value", true })
	panel := snapWith(snapEl("div", "tabpanel", "Example Value", snapWith(snapEl("code", "code", "", shown("[1, 2]")), func(n *Node) { n.Text = "[1, 2]" })),
		func(n *Node) { n.LabelledBy, n.Text, n.Block = []string{"t1"}, "[1, 2]", true })
	got := RenderSnapshot(snapScreen("", snapEl("ul", "tablist", "", tab), panel), SnapshotOptions{Mode: ModeAI})
	if want := `- tabpanel "Example Value" [ref=e4]:`; !strings.Contains(got, want) {
		t.Errorf("RenderSnapshot =\n%s\nwant a line %q", got, want)
	}
}

// A cell named by its text and the value of the drop-down in it shows both:
// the AI snapshot drops the name, as the drop-down gives the name its
// chosen option, not its own name or every option.
func TestNameFromAControlsValueIsShown(t *testing.T) {
	shown := func(s string) *Node { return snapWith(snapText(s), func(n *Node) { n.Visible = true }) }
	option := func(name string, selected bool) *Node {
		return snapWith(snapEl("option", "option", name, shown(name)), func(n *Node) { n.Selected = snapBool(selected) })
	}
	cell := snapWith(snapEl("td", "cell", "Only plants with this status available",
		snapWith(snapEl("p", "paragraph", "", shown("Only plants with this status")), func(n *Node) { n.Text, n.Block = "Only plants with this status", true }),
		snapWith(snapEl("select", "combobox", "", option("--", false), option("available", true), option("sold", false)), func(n *Node) { n.Block, n.Value = true, "available" })),
		func(n *Node) { n.Block = true })
	got := RenderSnapshot(snapScreen("", snapEl("table", "table", "", snapEl("tr", "row", "", cell))), SnapshotOptions{Mode: ModeAI})
	if want := "- cell [ref=e4]:\n"; !strings.Contains(got, want) {
		t.Errorf("RenderSnapshot =\n%s\nwant a line %q", got, want)
	}
}

// A button named across an icon drawn by an empty block ::after keeps its
// name in the AI snapshot, though its content reads the same: the page
// model says a part of the name came from an element no line shows
// (Swagger UI's schema buttons, as Playwright writes them).
func TestNameFromABlankPartIsKept(t *testing.T) {
	shown := func(s string) *Node { return snapWith(snapText(s), func(n *Node) { n.Visible = true }) }
	button := func(name string, blank bool) *Node {
		strong := snapWith(snapEl("strong", "strong", "", shown(name)), func(n *Node) { n.Text = name })
		icon := snapWith(snapEl("span", "generic", ""), func(n *Node) { n.Block = true })
		return snapWith(snapEl("button", "button", name, strong, icon), func(n *Node) { n.Text, n.NameFromBlank = name, blank })
	}
	got := RenderSnapshot(snapScreen("", button("Plant", true), button("Order", false)), SnapshotOptions{Mode: ModeAI})
	for _, want := range []string{`- button "Plant" [ref=e2]:`, "- button [ref=e5]:\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("RenderSnapshot =\n%s\nwant a line %q", got, want)
		}
	}
}

package selector

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// selAccount is a page with an icon button, an image link, generated ids, a
// remembered sensitive value, a table with a Delete per row and a price.
func selAccount() *screen.Screen {
	row := func(ref, name, price string) *screentest.Spec {
		return screentest.El("row", screentest.Ref(ref), screentest.Inline(), screentest.Kids(
			screentest.Leaf("cell", name, screentest.Ref(ref+"-name")),
			screentest.Leaf("cell", price, screentest.Ref(ref+"-price")),
			screentest.El("cell", screentest.Ref(ref+"-actions"), screentest.Kids(screentest.Leaf("button", "Delete", screentest.Ref(ref+"-del"), screentest.ID(":r"+ref+":")))),
		))
	}
	return screentest.Page(
		screentest.El("banner", screentest.Ref("banner"), screentest.Kids(
			screentest.El("link", screentest.Ref("logo"), screentest.Name("Home"), screentest.Kids(screentest.El("img", screentest.Ref("logo-img"), screentest.Name("Home")))),
			screentest.El("button", screentest.Ref("close"), screentest.Name("Close"), screentest.ID("ember412"), screentest.Kids(screentest.El("img", screentest.Ref("close-icon")))),
			screentest.Leaf("generic", "alice@example.com", screentest.Ref("who"), screentest.TestID("user-email")),
			screentest.Leaf("generic", "bob@example.com", screentest.Ref("who2")),
		)),
		screentest.El("main", screentest.Ref("main"), screentest.Kids(
			screentest.El("table", screentest.Ref("orders"), screentest.Name("Orders"), screentest.Kids(
				row("o1", "iPhone 17", "$999"),
				row("o2", "iPhone 18", "$1,099"),
				row("o3", "iPhone 17 Pro", "$1,199"),
			)),
			screentest.Leaf("button", "Save", screentest.Ref("save"), screentest.ID("btn-8f3a2c")),
			screentest.Leaf("button", "Save", screentest.Ref("save2"), screentest.ID("save-draft")),
			screentest.El("generic", screentest.Ref("greeting"), screentest.Kids(screentest.Txt("Signed in as alice@example.com"))),
		)),
	)
}

func TestGenerate(t *testing.T) {
	shop, acct := selShop(), selAccount()
	sensitive := []string{"alice@example.com"}
	tests := []struct {
		name    string
		screen  *screen.Screen
		purpose Purpose
		ref     string
		want    string
	}{
		{"role and name for a link", shop, PurposeTap, "home", `{role: link, name: Home}`},
		{"stable id before role and name", shop, PurposeTap, "cart-link", `{id: cart-link}`},
		{"test id first", shop, PurposeTap, "signin", `{testId: sign-in}`},
		{"span in a button is the button, scoped by its row", shop, PurposeTap, "r17-del-span", `{role: button, name: Delete, within: {role: listitem, textRegex: "^iPhone 17\\n"}}`},
		{"second row", shop, PurposeTap, "r18-del", `{role: button, name: Delete, within: {role: listitem, textRegex: "^iPhone 18\\n"}}`},
		{"assert pins the price", shop, PurposeAssert, "r17-price", `{text: "$999"}`},
		{"assert pins exact text, not iPhone 18", shop, PurposeAssert, "r17-h", `{text: "iPhone 17"}`},
		{"count line may vary", shop, PurposeAssert, "summary", `{textRegex: "^Review sale\\n\\d+ items?$"}`},
		{"a count alone is the value", shop, PurposeAssert, "rs-count", `{text: "3 items"}`},
		{"wrapper names the text's element", shop, PurposeAssert, "toast-outer", `{text: Saved}`},
		{"field by role and name", shop, PurposeType, "email", `{role: textbox, name: Email}`},
		{"password field by its label", shop, PurposeType, "pw", `{role: textbox, name: Password}`},
		{"assert on a password field checks presence", shop, PurposeAssert, "pw", `{role: textbox, name: Password}`},
		{"assert on a button pins its text", shop, PurposeAssert, "signin", `{text: "Sign in"}`},
		{"icon button by name, generated id skipped", acct, PurposeTap, "close-icon", `{role: button, name: Close}`},
		{"icon button assert pins the name", acct, PurposeAssert, "close", `{role: button, name: Close}`},
		{"img in a link is the link", acct, PurposeTap, "logo-img", `{role: link, name: Home}`},
		{"table row by its first cell", acct, PurposeTap, "o2-del", `{role: button, name: Delete, within: {role: row, textRegex: "^iPhone 18\\s"}}`},
		// "iPhone 17 Pro" also starts with "iPhone 17 ": on one line the title
		// cannot be told from a longer one, so the position decides.
		{"title that prefixes another row's", acct, PurposeTap, "o1-del", `{role: button, name: Delete, index: 0}`},
		{"hash id skipped, stable id kept", acct, PurposeTap, "save", `{role: button, name: Save, index: 0}`},
		{"stable id", acct, PurposeTap, "save2", `{id: save-draft}`},
		{"sensitive text: presence only", acct, PurposeAssert, "who", `{testId: user-email}`},
		{"other text is fine", acct, PurposeAssert, "who2", `{text: "bob@example.com"}`},
		{"text containing a sensitive value is not pinned", acct, PurposeAssert, "greeting", `{role: generic, within: {role: main}}`},
	}
	review := screentest.Page(screentest.El("main", screentest.Kids(
		screentest.El("button", screentest.Ref("review"), screentest.Kids(screentest.Leaf("strong", "Review sale"), screentest.Leaf("generic", "3 items"))),
		screentest.El("navigation", screentest.Name("Breadcrumb"), screentest.Kids(screentest.El("list", screentest.Kids(
			screentest.El("listitem", screentest.Kids(screentest.Leaf("link", "Home", screentest.Ref("crumb-home")))),
			screentest.El("listitem", screentest.Kids(screentest.Leaf("link", "Blog"))),
		)))),
		screentest.El("banner", screentest.Kids(screentest.Leaf("link", "Home", screentest.Ref("top-home")))),
	)))
	recount := screentest.Page(
		screentest.Leaf("heading", "Delete"),
		screentest.Leaf("button", "Delete", screentest.Ref("b1")),
		screentest.Leaf("button", "Delete", screentest.Ref("b2")),
		screentest.Leaf("button", "Save draft", screentest.Ref("draft"), screentest.Name("Save")),
		screentest.Leaf("button", "Save post", screentest.Ref("post"), screentest.Name("Save")),
	)
	hiddenIcon := screentest.Page(screentest.El("button", screentest.Name("Close"), screentest.Kids(screentest.El("img", screentest.Ref("icon"), screentest.Hidden()))))
	tests = append(tests, []struct {
		name    string
		screen  *screen.Screen
		purpose Purpose
		ref     string
		want    string
	}{
		{"a control named with a count is tapped by its tolerant text", review, PurposeTap, "review", `{role: button, textRegex: "^Review sale\\n\\d+ items?$"}`},
		{"a row holding only the link does not scope it", review, PurposeTap, "crumb-home", `{role: link, name: Home, within: {role: navigation, name: Breadcrumb}}`},
		{"landmark by role alone", review, PurposeTap, "top-home", `{role: link, name: Home, within: {role: banner}}`},
		{"hidden icon in a button is the button", hiddenIcon, PurposeTap, "icon", `{role: button, name: Close}`},
		// The index counts among the nodes matching the final properties:
		// among the two buttons, not among everything that reads "Delete".
		{"index recounted for the final selector", recount, PurposeAssert, "b2", `{role: button, text: Delete, index: 1}`},
		{"no index when the text tells them apart", recount, PurposeTap, "post", `{text: "Save post"}`},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generate(tt.purpose, tt.ref, tt.screen, sensitive)
			if err != nil {
				t.Fatalf("Generate(%q) error: %v", tt.purpose+" "+Purpose(tt.ref), err)
			}
			if got.String() != tt.want {
				t.Errorf("Generate(%q) = %q, want %q", tt.purpose+" "+Purpose(tt.ref), got, tt.want)
			}
		})
	}
}

func TestGenerateNeverWritesASecret(t *testing.T) {
	acct := selAccount()
	sensitive := []string{"ALICE@example.com"} // compared without case
	m := NewMatcher(acct)
	for _, n := range m.nodes {
		if !n.Visible {
			continue
		}
		for _, p := range []Purpose{PurposeTap, PurposeAssert} {
			sel, err := Generate(p, n.Ref, acct, sensitive)
			if err != nil {
				t.Fatalf("Generate(%q) error: %v", p+" "+Purpose(n.Ref), err)
			}
			js, _ := json.Marshal(sel)
			if strings.Contains(strings.ToLower(string(js)), "alice") {
				t.Errorf("Generate(%q) = %s, which shows the sensitive value", p+" "+Purpose(n.Ref), js)
			}
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	shop := selShop()
	tests := []struct {
		purpose Purpose
		ref     string
		want    error
	}{
		{PurposeTap, "e999", ErrUnknownRef},
		{PurposeTap, "mhome", ErrHiddenTarget},
		{"hover", "home", ErrUnknownPurpose},
	}
	for _, tt := range tests {
		_, err := Generate(tt.purpose, tt.ref, shop, nil)
		if !errors.Is(err, tt.want) {
			t.Errorf("Generate(%q, %q) error %v, want %v", tt.purpose, tt.ref, err, tt.want)
		}
	}
}

func TestRetarget(t *testing.T) {
	shop, acct := selShop(), selAccount()
	tests := []struct {
		screen  *screen.Screen
		purpose Purpose
		ref     string
		want    string
	}{
		{shop, PurposeTap, "r17-del-span", "r17-del"},
		{shop, PurposeAssert, "r17-del-span", "r17-del-span"},
		{shop, PurposeAssert, "toast-outer", "toast-inner"},
		{shop, PurposeTap, "home", "home"},
		{acct, PurposeTap, "logo-img", "logo"},
	}
	for _, tt := range tests {
		got, err := Retarget(tt.purpose, tt.ref, tt.screen)
		if err != nil || got != tt.want {
			t.Errorf("Retarget(%s, %s) = %s, %v; want %s", tt.purpose, tt.ref, got, err, tt.want)
		}
	}
}

func TestPinText(t *testing.T) {
	tests := []struct {
		text, exact, pattern string
	}{
		{"Review sale\n3 items", "", `^Review sale\n\d+ items?$`},
		{"Review sale\n1 item", "", `^Review sale\n\d+ items?$`},
		{"Cart (total)\n(12 Items)", "", `^Cart \(total\)\n\(\d+ Items?\)$`},
		{"3 items", "3 items", ""},
		{"iPhone 17", "iPhone 17", ""},
		{"Review sale\n3 items left", "Review sale\n3 items left", ""},
		{"Review sale\n(3 items", "Review sale\n(3 items", ""},
		{"$5.00\nTotal", "$5.00\nTotal", ""},
	}
	for _, tt := range tests {
		exact, pattern := PinText(tt.text)
		if exact != tt.exact || pattern != tt.pattern {
			t.Errorf("pinText(%q) = %q, %q; want %q, %q", tt.text, exact, pattern, tt.exact, tt.pattern)
		}
	}
}

func TestRowScopeText(t *testing.T) {
	tests := []struct {
		row, title, exact, pattern string
	}{
		{"iPhone 17\n$999", "iPhone 17", "", `^iPhone 17\n`},
		{"INV-002 Paid", "INV-002", "", `^INV-002\s`},
		{"Feed the cat", "Feed the cat", "Feed the cat", ""},
		// A checkbox's glyph comes first: the title is pinned as a whole line.
		{"☐\nFeed the cat", "Feed the cat", "", `(?m)^Feed the cat$`},
		{"☑\nFeed the cat\n×", "Feed the cat", "", `(?m)^Feed the cat$`},
		{"☐\nFeed the cat twice", "Feed the cat", "", ""},
		{"iPhone 17s", "iPhone 17", "", ""}, // the title runs on: not a title
	}
	for _, tt := range tests {
		exact, pattern := rowScopeText(tt.row, tt.title)
		if exact != tt.exact || pattern != tt.pattern {
			t.Errorf("rowScopeText(%q, %q) = %q, %q; want %q, %q", tt.row, tt.title, exact, pattern, tt.exact, tt.pattern)
		}
	}
}

func TestIsDecoration(t *testing.T) {
	tests := []struct {
		node screen.Node
		want bool
	}{
		{screen.Node{Tag: "input", Role: "checkbox", Text: "☐"}, true},
		{screen.Node{Tag: "input", Role: "checkbox", Text: "Done"}, true}, // drawn by ::after all the same
		{screen.Node{Tag: "span", Text: "×"}, true},
		{screen.Node{Tag: "span", Text: "• ✓"}, true},
		{screen.Node{Tag: "span", Text: "$5"}, false},
		{screen.Node{Tag: "label", Text: "Feed the cat"}, false},
		{screen.Node{Tag: "span", Text: "日本"}, false},
		{screen.Node{Tag: "input", Role: "checkbox"}, false},
	}
	for _, tt := range tests {
		if got := IsDecoration(&tt.node); got != tt.want {
			t.Errorf("IsDecoration(<%s> %q) = %v, want %v", tt.node.Tag, tt.node.Text, got, tt.want)
		}
	}
}

func TestNameHolds(t *testing.T) {
	tests := []struct {
		name, value string
		want        bool
	}{
		{"Pears 7", "7", true},
		{"7", "7", true},
		{"Note: buy milk", "buy milk", true},
		{"Step 1 of 3", "12", false},
		{"Order 12345", "1", false},
		{"Pears", "", false},
	}
	for _, tt := range tests {
		if got := nameHolds(tt.name, tt.value); got != tt.want {
			t.Errorf("nameHolds(%q, %q) = %v, want %v", tt.name, tt.value, got, tt.want)
		}
	}
}

func TestCandidates(t *testing.T) {
	shop := selShop()
	menu, err := Candidates(PurposeTap, "r17-del-span", []*screen.Screen{shop}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(menu) < 3 {
		t.Fatalf("Candidates(tap r17-del-span) = %d entries, want several", len(menu))
	}
	first, err := Generate(PurposeTap, "r17-del-span", shop, nil)
	if err != nil {
		t.Fatal(err)
	}
	if menu[0].Selector.String() != first.String() {
		t.Errorf("Candidates[0] = %q, want Generate's %q", menu[0].Selector, first)
	}
	if menu[0].Checks != "role + name + structure" {
		t.Errorf("Candidates[0].Checks = %q, want %q", menu[0].Checks, "role + name + structure")
	}
	for i, c := range menu {
		got, err := Match(shop, c.Selector)
		if err != nil || got[0].Ref != "r17-del" {
			t.Errorf("menu[%d] %q does not resolve to r17-del: %v", i, c.Selector, err)
		}
		if i > 0 && c.Score < menu[i-1].Score {
			t.Errorf("menu[%d] scores %d, below menu[%d]'s %d: not ranked", i, c.Score, i-1, menu[i-1].Score)
		}
	}
	last := menu[len(menu)-1]
	if !strings.Contains(last.Checks, "index") {
		t.Errorf("last menu entry %q checks %q, want an index fallback last", last.Selector, last.Checks)
	}
}

func TestCandidatesAssertListsValueFirst(t *testing.T) {
	shop := selShop()
	menu, err := Candidates(PurposeAssert, "summary", []*screen.Screen{shop}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sawPresence := false
	hasPresence := false
	for _, c := range menu {
		if !c.ChecksValue {
			sawPresence, hasPresence = true, true
		} else if sawPresence {
			t.Errorf("value selector %q listed after a presence-only one", c.Selector)
		}
	}
	if !hasPresence {
		t.Errorf("menu %v has no presence-only choice (the test id)", menu)
	}
	js, err := json.Marshal(Suggestion{Selector: menu[0].Selector, Menu: menu[:1]})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"selector":{"textRegex":"^Review sale\\n\\d+ items?$"},"menu":[{"selector":{"textRegex":"^Review sale\\n\\d+ items?$"},"checks":"text","dependsOn":["text"],"checksValue":true,"score":1}]}`
	if string(js) != want {
		t.Errorf("Suggestion JSON =\n%s\nwant\n%s", js, want)
	}
}

// A selector on the menu must hold on every screen: a price that changed
// between two captures rules the text out, and the index must agree.
func TestCandidatesAcrossScreens(t *testing.T) {
	a := selShop()
	b := selShop()
	NewMatcher(b).Node("r17-price").Text = "$949"
	menu, err := Candidates(PurposeAssert, "r17-price", []*screen.Screen{a, b}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range menu {
		if strings.Contains(c.Selector.String(), "$999") {
			t.Errorf("menu lists %q, which fails on the second screen", c.Selector)
		}
	}
	if len(menu) == 0 {
		t.Fatalf("empty menu")
	}
	if _, err := Candidates(PurposeTap, "nope", []*screen.Screen{a}, nil); !errors.Is(err, ErrUnknownRef) {
		t.Errorf("Candidates with an unknown ref: %v, want ErrUnknownRef", err)
	}
}

func TestAnyNumber(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Cart 2 items", `^Cart \d+(?:[.,]\d+)* items?$`},
		{"Inbox 12 unread", `^Inbox \d+(?:[.,]\d+)* unread$`},
		{"Pay $1,042.50", `^Pay \$\d+(?:[.,]\d+)*$`},
		{"Page 2 of 9", `^Page \d+(?:[.,]\d+)* of \d+(?:[.,]\d+)*$`},
		{"Checkout", ""},
		{"Review sale\n3 items", ""},
	}
	for _, tt := range tests {
		got := AnyNumber(tt.text)
		if got != tt.want {
			t.Errorf("AnyNumber(%q) = %q, want %q", tt.text, got, tt.want)
			continue
		}
		if got == "" {
			continue
		}
		re := regexp.MustCompile(got)
		if !re.MatchString(tt.text) {
			t.Errorf("AnyNumber(%q) = %q does not read the text itself", tt.text, got)
		}
	}
	if re := regexp.MustCompile(AnyNumber("Cart 2 items")); !re.MatchString("Cart 1 item") || !re.MatchString("Cart 12 items") || re.MatchString("Cart items") {
		t.Errorf("AnyNumber(Cart 2 items) = %q: want it to read Cart 1 item and Cart 12 items, not Cart items", re)
	}
}

// A link named by a count ("Cart 2 items") that changes between the
// session's screens: the menu of a tap offers its role with the text read
// with any number, and Generate still picks the exact name on one screen.
func TestCandidatesOfferATapWithAnyNumber(t *testing.T) {
	shopWith := func(count string) *screen.Screen {
		return screentest.Page(
			screentest.El("navigation", screentest.Ref("nav"), screentest.Name("Main"), screentest.Kids(
				screentest.Leaf("link", "Home", screentest.Ref("home")),
				screentest.Leaf("link", "Cart "+count, screentest.Ref("cart")),
			)),
		)
	}
	one, two := shopWith("2 items"), shopWith("3 items")
	if sel, err := Generate(PurposeTap, "cart", one, nil); err != nil || sel.String() != (Selector{Role: "link", Name: "Cart 2 items"}).String() {
		t.Fatalf("Generate(tap cart) = %v, %v; want the exact role and name", sel, err)
	}
	menu, err := Candidates(PurposeTap, "cart", []*screen.Screen{one, two}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Selector{Role: "link", TextRegex: `^Cart \d+(?:[.,]\d+)* items?$`}
	found := false
	for _, c := range menu {
		if c.Selector.Name == "Cart 2 items" {
			t.Errorf("the menu lists %q, which misses the cart on the second screen", c.Selector)
		}
		found = found || c.Selector.String() == want.String()
	}
	if !found {
		t.Errorf("the menu %v lacks %q", menu, want)
	}
	// An assertion claims the count: it is never read with any number.
	amenu, err := Candidates(PurposeAssert, "cart", []*screen.Screen{one}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range amenu {
		if strings.Contains(c.Selector.TextRegex, `\d+(?:`) {
			t.Errorf("an assertion's menu lists %q, which does not check the count", c.Selector)
		}
	}
}

package recorder

import (
	"slices"
	"strings"
	"testing"
)

// A stepsCase is a recording and what BuildSteps must make of it.
type stepsCase struct {
	name  string
	rec   func() (*session, *Screen) // the interactions and the final screen
	opts  BuildOptions
	start string   // "" means /login is not checked
	want  []string // stepLine of each step
	// notes are substrings that must each appear in one note; with none,
	// there must be no note.
	notes   []string
	secrets []string // BuiltTrail.Secrets
}

func runStepsCases(t *testing.T, cases []stepsCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, final := c.rec()
			o := c.opts
			if o.BaseURL == "" {
				o.BaseURL = shopOrigin
			}
			bt, err := BuildSteps(s.recs, final, o)
			if err != nil {
				t.Fatalf("BuildSteps() failed: %v", err)
			}
			got := stepLines(bt.Steps)
			if !slices.Equal(got, c.want) {
				t.Errorf("BuildSteps() steps =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
			if c.start != "" && bt.Start != c.start {
				t.Errorf("BuildSteps().Start = %q, want %q", bt.Start, c.start)
			}
			checkNotes(t, bt.Notes, c.notes)
			if !slices.Equal(bt.Secrets, c.secrets) {
				t.Errorf("BuildSteps().Secrets = %q, want %q", bt.Secrets, c.secrets)
			}
			checkBuilt(t, s.recs, final, o, bt, append([]string{testPassword, testSensitive}, o.Sensitive...))
		})
	}
}

func checkNotes(t *testing.T, notes, want []string) {
	t.Helper()
	if len(want) == 0 && len(notes) > 0 {
		t.Errorf("BuildSteps().Notes = %q, want none", notes)
	}
	for _, w := range want {
		if !slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, w) }) {
			t.Errorf("BuildSteps().Notes = %q, want one saying %q", notes, w)
		}
	}
}

func TestBuildStepsGrouping(t *testing.T) {
	runStepsCases(t, []stepsCase{
		{
			name: "typing and Enter are one step, with the search navigation they caused",
			rec: func() (*session, *Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-q").typ(p, "products-q", "iphone").press(p, "Enter").nav("/products?q=iphone", "form")
				return s, productsPage("search", "iphone", 0, "")
			},
			start: "/products",
			want:  []string{"Type iphone into Search products and press Enter :: type, press => /products?q=iphone"},
		},
		{
			name: "two types on one field back to back: the last counts",
			rec: func() (*session, *Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().typ(p, "products-q", "ip").typ(p, "products-q", "iphone")
				return s, productsPage("products", "iphone", 0, "")
			},
			want: []string{"Type iphone into Search products :: type => /products?q=iphone"},
		},
		{
			name: "clicking a field's label before typing is dropped",
			rec: func() (*session, *Screen) {
				sc := shopPage("/newsletter", "news", "Newsletter",
					el("email-label", "generic", selTag("label"), selKids(selTxt("Email"))),
					el("email", "textbox", labelled("Email")),
					leaf("subscribe", "button", "Subscribe"))
				s := newSession().click(sc, "email-label").typ(sc, "email", "bob@example.org").click(sc, "subscribe")
				return s, sc
			},
			start: "/newsletter",
			want: []string{
				"Type bob@example.org into Email :: type => /newsletter",
				"Click the Subscribe button :: tap => /newsletter",
			},
		},
		{
			name: "a click on a select before choosing records only the select",
			rec: func() (*session, *Screen) {
				c := checkoutPage("co", checkoutState{})
				s := newSession().click(c, "co-country").click(c, "co-country").choose(c, "co-country", "Germany")
				return s, checkoutPage("co", checkoutState{country: "Germany"})
			},
			want: []string{"Select Germany in Country :: select => /checkout"},
		},
		{
			name: "a click on an option of a select is part of the select",
			rec: func() (*session, *Screen) {
				c := checkoutPage("co", checkoutState{})
				s := newSession().click(c, "co-opt-germany").choose(c, "co-country", "Germany")
				return s, checkoutPage("co", checkoutState{country: "Germany"})
			},
			want: []string{"Select Germany in Country :: select => /checkout"},
		},
		{
			name: "clicks on checkboxes record check and uncheck from their state",
			rec: func() (*session, *Screen) {
				off, on := loginPage("", "false", false), loginPage("", "true", false)
				s := newSession().click(off, "remember").click(on, "remember-label").click(off, "remember-label")
				return s, on
			},
			want: []string{
				"Check Remember me :: check => /login",
				"Uncheck Remember me :: uncheck => /login",
				"Check Remember me :: check => /login",
			},
		},
		{
			name: "a click and the check the extension reports for it are one check",
			rec: func() (*session, *Screen) {
				off := loginPage("", "false", false)
				s := newSession().click(off, "remember-label").check(off, "remember")
				return s, loginPage("", "true", false)
			},
			want: []string{"Check Remember me :: check => /login"},
		},
		{
			name: "a double click takes in the single clicks reported before it",
			rec: func() (*session, *Screen) {
				c := cartPage("cart")
				s := newSession().click(c, "cart-name-p17").after(150).click(c, "cart-name-p17").after(20).
					clickWith(c, "cart-name-p17", func(it *Interaction) { it.Count = 2 })
				return s, c
			},
			start: "/cart",
			want:  []string{"Double-click the iPhone 17 cell :: tap => /cart"},
		},
		{
			name: "a navigation caused by a click joins its step, redirects too",
			rec: func() (*session, *Screen) {
				l := loginPage("ada", "false", false)
				s := newSession().click(l, "signin").after(300).nav("/session", "form").after(100).nav("/products", "redirect")
				return s, productsPage("products", "", 0, "")
			},
			want: []string{"Click the Sign in button :: tap => /products {role: heading, name: Products} {role: list, name: Products} {role: searchbox, name: \"Search products\"}"},
		},
		{
			name: "a navigation long after the last action is a step of its own",
			rec: func() (*session, *Screen) {
				c := cartPage("cart")
				s := newSession().click(c, "cart-rm-case").after(60_000).nav("/login", "script")
				return s, loginPage("", "false", false)
			},
			want: []string{
				// The page moved on before anything captured the click's effect.
				"Click the Remove button in iPhone 17 Silicone Case :: tap",
				`Go to /login :: navigate => /login {role: heading, name: "Sign in"} {role: form, name: "Sign in"}`,
			},
		},
		{
			name: "typed URLs, back, forward and reload are navigate steps",
			rec: func() (*session, *Screen) {
				p := productsPage("products", "", 0, "")
				c := cartPage("cart")
				s := newSession().click(p, "products-h-p17").nav("/cart", "typed").assertURL(c).
					nav("/products", "back").nav("/cart", "forward").nav("/cart", "reload")
				return s, c
			},
			want: []string{
				"Click the iPhone 17 heading :: tap",
				`Go to /cart :: navigate => /cart {role: heading, name: Cart} {role: table, name: Cart} {role: link, textRegex: "^Review order\\n\\d+ items?$"}`,
				"Check that the URL is /cart :: assertUrl",
				"Go back :: navigate",
				"Go forward :: navigate",
				"Reload the page :: navigate => /cart",
			},
		},
		{
			name: "navigations before the first step only set the start",
			rec: func() (*session, *Screen) {
				l := loginPage("", "false", false)
				s := newSession().nav("/products", "typed").nav("/login", "typed").nav("/login?next=%2Fcart", "redirect").typ(l, "user", "ada")
				return s, loginPage("ada", "false", false)
			},
			start: "/login",
			want:  []string{"Type ada into Username :: type => /login"},
		},
		{
			name: "each assertion is a step of its own, without an end",
			rec: func() (*session, *Screen) {
				l := loginPage("ada", "true", true)
				s := newSession().assertVisible(l, "login-error").assertNotVisible(l, "Welcome back").assertURL(l).
					assertValue(l, "user", "ada").assertState(l, "remember", StateChecked, "true").
					assertState(l, "signin", StateDisabled, "false")
				return s, l
			},
			want: []string{
				`Check that "Wrong username or password." is shown :: assertVisible`,
				`Check that "Welcome back" is not shown :: assertNotVisible`,
				"Check that the URL is /login :: assertUrl",
				`Check that Username has the value "ada" :: assertValue`,
				"Check that the Remember me checkbox is checked :: assertState",
				"Check that the Sign in button is enabled :: assertState",
			},
		},
		{
			name: "a dialog right after the click that opened it joins its step",
			rec: func() (*session, *Screen) {
				c := checkoutPage("co", checkoutState{name: "Ada", country: "Germany"})
				s := newSession().click(c, "co-place").after(4000).dialog("confirm", "Place this order?", true, "").
					after(200).nav("/checkout/place", "form").nav("/orders/TP-1001", "redirect")
				return s, orderPage("order")
			},
			want: []string{`Click the Place order button and accept the dialog "Place this order?" :: tap, dialog => /orders/TP-1001 {role: heading, name: "Thank you for your order"} {role: link, name: "View receipt"}`},
		},
		{
			name: "a dialog nothing recorded opened is a step of its own, one it opened joins it",
			rec: func() (*session, *Screen) {
				c := checkoutPage("co", checkoutState{})
				s := newSession().assertVisible(c, "co-h1").dialog("prompt", "Name the order", true, "Birthday").
					dialog("alert", "", false, "")
				return s, c
			},
			want: []string{
				`Check that "Checkout" is shown :: assertVisible`,
				`Accept the dialog "Name the order" with Birthday and dismiss the dialog :: dialog, dialog => /checkout`,
			},
		},
		{
			name: "a switch to the tab a click opened joins its step and ends in that tab",
			rec: func() (*session, *Screen) {
				o := orderPage("order")
				r := receiptPage("receipt")
				s := newSession().click(o, "order-receipt").after(800).switchTab(2, "/orders/TP-1001/receipt", "Receipt").
					assertVisible(r, "receipt-total")
				return s, r
			},
			start: "/orders/TP-1001",
			want: []string{
				`Click the View receipt link and switch to the tab "Receipt" :: tap, switchTab => /orders/TP-1001/receipt {role: heading, name: Receipt}`,
				`Check that "Paid $943.20" is shown :: assertVisible`,
			},
		},
		{
			name: "an upload after the click on its file input is the upload alone",
			rec: func() (*session, *Screen) {
				c := checkoutPage("co", checkoutState{})
				s := newSession().click(c, "co-gift-note").upload(c, "co-gift-note", "/home/ada/Documents/gift-note.txt")
				return s, checkoutPage("co", checkoutState{note: "gift-note.txt"})
			},
			want: []string{`Upload gift-note.txt to Gift note :: upload => /checkout {role: paragraph, text: "Attached: gift-note.txt"}`},
		},
		{
			name: "an upload after a click on the button that opened the chooser joins its step",
			rec: func() (*session, *Screen) {
				sc := shopPage("/profile", "profile", "Profile",
					leaf("choose", "button", "Choose a photo"),
					el("photo", "button", labelled("Photo")),
				)
				s := newSession().click(sc, "choose").upload(sc, "photo", `C:\Users\ada\me.png`)
				return s, sc
			},
			start: "/profile",
			want:  []string{"Click the Choose a photo button and upload me.png to Photo :: tap, upload => /profile"},
		},
		{
			name: "undo removes the last step with its interactions",
			rec: func() (*session, *Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-add-case").undo().
					click(p, "products-q").typ(p, "products-q", "iphone").press(p, "Enter").undo().
					click(p, "products-add-p17")
				return s, productsPage("products", "", 1, "Added iPhone 17 to your cart.")
			},
			want: []string{"Click the Add to cart button in iPhone 17 :: tap => /products {role: status}"},
		},
		{
			name: "undo before any step is said in a note",
			rec: func() (*session, *Screen) {
				p := productsPage("products", "", 0, "")
				return newSession().undo().click(p, "products-home"), p
			},
			want:  []string{"Click the Trailpin Shop link :: tap => /products"},
			notes: []string{"there was nothing to undo"},
		},
		{
			name: "hover and shortcuts are steps of their own",
			rec: func() (*session, *Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().hover(p, "products-cart").press(p, "Escape").press(p, "k", "Meta").press(p, "K", "Meta", "Shift")
				return s, p
			},
			want: []string{
				"Hover over the Cart link :: hover => /products",
				"Press Escape :: press => /products",
				"Press Meta+k :: press => /products",
				"Press Meta+Shift+K :: press => /products",
			},
		},
		{
			name: "presses after typing, in that field, join its step",
			rec: func() (*session, *Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().typ(p, "products-q", "ip").press(p, "ArrowDown").press(p, "ArrowDown").press(p, "Enter").
					click(p, "products-home").press(p, "Tab")
				return s, p
			},
			want: []string{
				"Type ip into Search products and press ArrowDown, ArrowDown and Enter :: type, press, press, press => /products",
				"Click the Trailpin Shop link :: tap => /products",
				"Press Tab :: press => /products",
			},
		},
		{
			name: "modifiers and buttons of a click",
			rec: func() (*session, *Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().clickWith(p, "products-cart", func(it *Interaction) { it.Modifiers = []string{"Ctrl", "Shift"} }).
					clickWith(p, "products-h1", func(it *Interaction) { it.Button = "right" })
				return s, p
			},
			want: []string{
				"Click the Cart link with Control and Shift held :: tap => /products",
				`Right-click the Products heading :: tap => /products`,
			},
		},
		{
			name: "interactions re-sent or out of order count once, in order",
			rec: func() (*session, *Screen) {
				l := loginPage("", "false", false)
				s := newSession().typ(l, "user", "ada").click(l, "signin")
				s.recs = append([]RecordedInteraction{s.recs[1]}, s.recs...)
				return s, productsPage("products", "", 0, "")
			},
			want: []string{
				"Type ada into Username :: type => /login",
				"Click the Sign in button :: tap => /products {role: heading, name: Products} {role: list, name: Products} {role: searchbox, name: \"Search products\"}",
			},
		},
	})
}

package steps

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// A stepsCase is a recording and what BuildSteps must make of it.
type stepsCase struct {
	name  string
	rec   func() (*session, *screen.Screen) // the interactions and the final screen
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
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-q").typ(p, "products-q", "iphone").press(p, "Enter").nav("/products?q=iphone", "form")
				return s, productsPage("search", "iphone", 0, "")
			},
			start: "/products",
			want:  []string{"Type iphone into Search products and press Enter :: type, press => /products?q=iphone"},
		},
		{
			name: "two types on one field back to back: the last counts",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().typ(p, "products-q", "ip").typ(p, "products-q", "iphone")
				return s, productsPage("products", "iphone", 0, "")
			},
			want: []string{"Type iphone into Search products :: type => /products?q=iphone"},
		},
		{
			name: "clicking a field's label before typing is dropped",
			rec: func() (*session, *screen.Screen) {
				sc := shopPage("/newsletter", "news", "Newsletter",
					el("email-label", "generic", screentest.Tag("label"), screentest.Kids(screentest.Txt("Email"))),
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
			rec: func() (*session, *screen.Screen) {
				c := checkoutPage("co", checkoutState{})
				s := newSession().click(c, "co-country").click(c, "co-country").choose(c, "co-country", "Germany")
				return s, checkoutPage("co", checkoutState{country: "Germany"})
			},
			want: []string{"Select Germany in Country :: select => /checkout"},
		},
		{
			name: "a click on a select after a hover that showed nothing records only the select",
			rec: func() (*session, *screen.Screen) {
				// At a machine's pace the pointer enters the select while
				// the page still changes on its own: the extension sends
				// the entry as a hover before the click.
				c := checkoutPage("co", checkoutState{})
				s := newSession().hover(c, "co-country").click(c, "co-country").choose(c, "co-country", "Germany")
				return s, checkoutPage("co", checkoutState{country: "Germany"})
			},
			want: []string{"Select Germany in Country :: select => /checkout"},
		},
		{
			name: "a click on an option of a select is part of the select",
			rec: func() (*session, *screen.Screen) {
				c := checkoutPage("co", checkoutState{})
				s := newSession().click(c, "co-opt-germany").choose(c, "co-country", "Germany")
				return s, checkoutPage("co", checkoutState{country: "Germany"})
			},
			want: []string{"Select Germany in Country :: select => /checkout"},
		},
		{
			name: "clicks on checkboxes record check and uncheck from their state",
			rec: func() (*session, *screen.Screen) {
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
			rec: func() (*session, *screen.Screen) {
				off := loginPage("", "false", false)
				s := newSession().click(off, "remember-label").check(off, "remember")
				return s, loginPage("", "true", false)
			},
			want: []string{"Check Remember me :: check => /login"},
		},
		{
			name: "a click on a custom box that clicks its hidden input is one uncheck",
			rec: func() (*session, *screen.Screen) {
				on, off := customBoxPage("true", "true"), customBoxPage("false", "true")
				s := newSession().click(on, "news-box").after(3).uncheck(on, "news-input").
					click(off, "news-box").after(3).check(off, "news-input")
				return s, on
			},
			start: "/settings",
			want: []string{
				"Uncheck Newsletter :: uncheck => /settings",
				"Check Newsletter :: check => /settings",
			},
		},
		{
			name: "a click on a plain wrapper that clicks a hidden box is one tap",
			rec: func() (*session, *screen.Screen) {
				on := customBoxPage("true", "true")
				s := newSession().click(on, "news-wrap").after(3).uncheck(on, "news-input")
				return s, customBoxPage("false", "true")
			},
			start: "/settings",
			want:  []string{`Click "Receive the newsletter" :: tap => /settings`},
		},
		{
			name: "a box toggled on a screen of its own, or later, is a step of its own",
			rec: func() (*session, *screen.Screen) {
				on, off := customBoxPage("true", "true"), customBoxPage("false", "true")
				s := newSession().click(on, "news-box").after(3).uncheck(off, "offers").
					click(on, "news-box").after(1500).uncheck(on, "offers")
				return s, customBoxPage("false", "false")
			},
			start: "/settings",
			want: []string{
				"Uncheck Newsletter :: uncheck => /settings",
				"Uncheck Offers :: uncheck => /settings",
				"Uncheck Newsletter :: uncheck => /settings",
				"Uncheck Offers :: uncheck => /settings",
			},
		},
		{
			name: "a double click takes in the single clicks reported before it",
			rec: func() (*session, *screen.Screen) {
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
			rec: func() (*session, *screen.Screen) {
				l := loginPage("ada", "false", false)
				s := newSession().click(l, "signin").after(300).nav("/session", "form").after(100).nav("/products", "redirect")
				return s, productsPage("products", "", 0, "")
			},
			want: []string{"Click the Sign in button :: tap => /products {role: heading, name: Products} {role: list, name: Products} {role: searchbox, name: \"Search products\"}"},
		},
		{
			name: "a navigation long after the last action is a step of its own",
			rec: func() (*session, *screen.Screen) {
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
			rec: func() (*session, *screen.Screen) {
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
			rec: func() (*session, *screen.Screen) {
				l := loginPage("", "false", false)
				s := newSession().nav("/products", "typed").nav("/login", "typed").nav("/login?next=%2Fcart", "redirect").typ(l, "user", "ada")
				return s, loginPage("ada", "false", false)
			},
			start: "/login",
			want:  []string{"Type ada into Username :: type => /login"},
		},
		{
			name: "each assertion is a step of its own, without an end",
			rec: func() (*session, *screen.Screen) {
				l := loginPage("ada", "true", true)
				s := newSession().assertVisible(l, "login-error").assertNotVisible(l, "Welcome back").assertURL(l).
					assertValue(l, "user", "ada").assertState(l, "remember", trail.StateChecked, "true").
					assertState(l, "signin", trail.StateDisabled, "false")
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
			rec: func() (*session, *screen.Screen) {
				c := checkoutPage("co", checkoutState{name: "Ada", country: "Germany"})
				s := newSession().click(c, "co-place").after(4000).dialog("confirm", "Place this order?", true, "").
					after(200).nav("/checkout/place", "form").nav("/orders/TP-1001", "redirect")
				return s, orderPage("order")
			},
			want: []string{`Click the Place order button and accept the dialog "Place this order?" :: tap, dialog => /orders/TP-1001 {role: heading, name: "Thank you for your order"} {role: link, name: "View receipt"}`},
		},
		{
			name: "a dialog nothing recorded opened is a step of its own, one it opened joins it",
			rec: func() (*session, *screen.Screen) {
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
			rec: func() (*session, *screen.Screen) {
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
			name: "a switch to another tab after typing is a step of its own",
			rec: func() (*session, *screen.Screen) {
				c := checkoutPage("co", checkoutState{})
				r := receiptPage("receipt")
				s := newSession().typ(c, "co-fullname", "Ada").switchTab(2, "/orders/TP-1001/receipt", "Receipt").assertVisible(r, "receipt-h1")
				return s, r
			},
			start: "/checkout",
			want: []string{
				"Type Ada into Full name :: type",
				`Switch to the tab "Receipt" :: switchTab => /orders/TP-1001/receipt`,
				`Check that "Receipt" is shown :: assertVisible`,
			},
		},
		{
			name: "an upload after the click on its file input is the upload alone",
			rec: func() (*session, *screen.Screen) {
				c := checkoutPage("co", checkoutState{})
				s := newSession().click(c, "co-gift-note").upload(c, "co-gift-note", "/home/ada/Documents/gift-note.txt")
				return s, checkoutPage("co", checkoutState{note: "gift-note.txt"})
			},
			want: []string{`Upload gift-note.txt to Gift note :: upload => /checkout {role: paragraph, text: "Attached: gift-note.txt"}`},
		},
		{
			name: "an upload after a click on the button that opened the chooser joins its step",
			rec: func() (*session, *screen.Screen) {
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
			rec: func() (*session, *screen.Screen) {
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
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				return newSession().undo().click(p, "products-home"), p
			},
			want:  []string{"Click the Trailpin Shop link :: tap => /products"},
			notes: []string{"there was nothing to undo"},
		},
		{
			name: "hover and shortcuts are steps of their own",
			rec: func() (*session, *screen.Screen) {
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
			rec: func() (*session, *screen.Screen) {
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
			rec: func() (*session, *screen.Screen) {
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
			rec: func() (*session, *screen.Screen) {
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

func TestBuildStepsSecrets(t *testing.T) {
	runStepsCases(t, []stepsCase{
		{
			name: "a secret field is typed from its secret",
			rec: func() (*session, *screen.Screen) {
				l := loginPage("ada", "false", false)
				return newSession().click(l, "pass").secret(l, "pass", "password").click(l, "signin"), productsPage("products", "", 0, "")
			},
			want: []string{
				"Enter the password into Password :: type => /login",
				`Click the Sign in button :: tap => /products {role: heading, name: Products} {role: list, name: Products} {role: searchbox, name: "Search products"}`,
			},
			secrets: []string{"password"},
		},
		{
			name: "a secret name that is not a reference name is made one",
			rec: func() (*session, *screen.Screen) {
				l := loginPage("ada", "false", false)
				return newSession().secret(l, "pass", "demo password!"), l
			},
			want:    []string{"Enter the password into Password :: type => /login"},
			notes:   []string{`the secret name "demo password!" is not a reference name`, "${secret:demo-password}"},
			secrets: []string{"demo-password"},
		},
		{
			name: "a secret field's value sent by mistake is never written",
			rec: func() (*session, *screen.Screen) {
				l := loginPage("ada", "false", false)
				return newSession().typ(l, "pass", testPassword), l
			},
			want:    []string{"Enter the password into Password :: type => /login"},
			notes:   []string{"typed a secret or sensitive value into Password", "TRAILPIN_SECRET_PASSWORD"},
			secrets: []string{"password"},
		},
		{
			name: "text marked sensitive stays out of selectors, intents and ends",
			rec: func() (*session, *screen.Screen) {
				a := accountPage("acct", false)
				s := newSession().mark(a, "acct-who-email").assertVisible(a, "acct-who-email").assertVisible(a, "acct-addr-text-a").
					click(a, "acct-addr-rm-a")
				return s, accountPage("acct", true)
			},
			start: "/account",
			want: []string{
				// Found by the line that opens its container, not by its
				// position among the page's plain elements.
				"Check that the text marked sensitive in Signed in as is shown :: assertVisible",
				"Check that the text marked sensitive is shown :: assertVisible",
				`Click the first Remove button :: tap => /account {role: dialog, name: "Remove address"}`,
			},
		},
		{
			name: "a value typed before it was marked sensitive is typed from a secret",
			rec: func() (*session, *screen.Screen) {
				a := accountPage("acct", false)
				s := newSession().typ(a, "acct-new", "alic").click(a, "acct-h1").typ(a, "acct-new", testSensitive).
					mark(a, "acct-addr-text-a")
				return s, a
			},
			start: "/account",
			want: []string{
				"Enter the secret value into New address :: type => /account",
				"Click the Account heading :: tap => /account",
				"Enter the secret value into New address :: type => /account",
			},
			notes:   []string{"${secret:new-address}", "TRAILPIN_SECRET_NEW_ADDRESS"},
			secrets: []string{"new-address"},
		},
		{
			name: "assertions that would write a secret or sensitive value are left out",
			rec: func() (*session, *screen.Screen) {
				l := loginPage("ada", "false", false)
				a := accountPage("acct", false)
				s := newSession().assertValue(l, "pass", testPassword).mark(a, "acct-who-email").
					assertNotVisible(a, testSensitive).assertValue(a, "acct-new", testSensitive).assertURL(a)
				return s, a
			},
			want: []string{"Check that the URL is /account :: assertUrl"},
			notes: []string{
				"Interaction 1 (assertValue) was left out: a secret field's value is never written into a trail",
				"Interaction 3 (assertNotVisible) was left out: its text is a value marked sensitive",
				"Interaction 4 (assertValue) was left out: the value is marked sensitive",
			},
		},
		{
			name: "an end URL showing a sensitive value is left out of the end",
			rec: func() (*session, *screen.Screen) {
				a := accountPage("acct", false)
				b := accountPage("acct2", false)
				b.URL = shopOrigin + "/account?email=" + testSensitive
				return newSession().mark(a, "acct-who-email").click(a, "acct-h1").assertVisible(b, "acct2-h1"), b
			},
			want:  []string{"Click the Account heading :: tap", `Check that "Account" is shown :: assertVisible`},
			notes: []string{"Step 1 (Click the Account heading): its end URL would show a value marked sensitive and was left out."},
		},
		{
			name: "values the caller marks sensitive are kept out too",
			rec: func() (*session, *screen.Screen) {
				a := accountPage("acct", false)
				return newSession().assertVisible(a, "acct-addr-text-b").click(a, "acct-addr-rm-b"), a
			},
			opts: BuildOptions{Sensitive: []string{"billing@example.org"}},
			want: []string{
				"Check that the text marked sensitive is shown :: assertVisible",
				"Click the second Remove button :: tap => /account",
			},
		},
		{
			name: "a navigation to a URL showing a sensitive value is left out",
			rec: func() (*session, *screen.Screen) {
				a := accountPage("acct", false)
				return newSession().mark(a, "acct-addr-text-a").click(a, "acct-h1").nav("/users/alice%40example.com", "typed"), a
			},
			want:  []string{"Click the Account heading :: tap"},
			notes: []string{"Step 2 was left out: it would write down a value marked sensitive"},
		},
	})
}

func TestBuildStepsWhatCannotBeRecorded(t *testing.T) {
	runStepsCases(t, []stepsCase{
		{
			name: "an element missing from its screen is left out, with what it caused",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-home").click(p, "e999").dialog("confirm", "Sure?", true, "")
				return s, p
			},
			want: []string{
				"Click the Trailpin Shop link :: tap => /products",
			},
			notes: []string{"Interaction 2 (click) was left out with the rest of its step: its element e999 is not on the screen captured before it, and it cannot be said in words either"},
		},
		{
			name: "a hidden element no selector can name makes the step a goal",
			rec: func() (*session, *screen.Screen) {
				sc := shopPage("/help", "help", "Help",
					leaf("faq", "button", "Show answers"),
					el("answers", "region", screentest.Name("Answers"), screentest.Hidden(), screentest.Kids(leaf("answer-1", "button", "Contact support"))),
				)
				return newSession().click(sc, "answer-1").click(sc, "faq"), sc
			},
			start: "/help",
			want: []string{
				"Click the Contact support button :: act",
				"Click the Show answers button :: tap => /help",
			},
			notes: []string{"Step 1 (Click the Contact support button) is a goal for the agent to perform (act), not a recording: no selector names its element alone", "the element is hidden"},
		},
		{
			name: "a click without a screen is left out",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-home").click(p, "products-h1")
				s.recs[1].Before = nil
				return s, p
			},
			want:  []string{"Click the Trailpin Shop link :: tap"},
			notes: []string{"Interaction 2 (click) was left out with the rest of its step: the click has no screen captured before it"},
		},
		{
			name: "a key replay cannot press is left out, the typing stays",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().typ(p, "products-q", "iphone").press(p, "Unidentified").press(p, "Return")
				return s, p
			},
			want:  []string{"Type iphone into Search products and press Enter :: type, press => /products"},
			notes: []string{`Interaction 2 (press) was left out: replay cannot press the key "Unidentified"`},
		},
		{
			name: "a held key replay does not know is left out",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().clickWith(p, "products-home", func(it *Interaction) { it.Modifiers = []string{"Hyper"} }).
					click(p, "products-h1")
				return s, p
			},
			want:  []string{"Click the Products heading :: tap => /products"},
			notes: []string{`the held key "Hyper" is none of Alt, Control, Meta, Shift`},
		},
		{
			name: "an unknown kind and a select without options are said in notes",
			rec: func() (*session, *screen.Screen) {
				c := checkoutPage("co", checkoutState{})
				s := newSession().add("scroll", c, "co-h1", nil).choose(c, "co-country").click(c, "co-apply")
				return s, c
			},
			want: []string{"Click the Apply button :: tap => /checkout"},
			notes: []string{
				`Interaction 1 has a kind this host does not know ("scroll")`,
				"Interaction 2 (select) was left out: it lacks options",
			},
		},
		{
			name: "text holding ${ stays literal",
			rec: func() (*session, *screen.Screen) {
				sc := shopPage("/promo", "promo", "Promo",
					leaf("hint", "paragraph", "Type ${code} to save"),
					el("code", "textbox", labelled("Code ${x}")),
				)
				return newSession().typ(sc, "code", "${param:coupon}").assertVisible(sc, "hint"), sc
			},
			start: "/promo",
			want: []string{
				"Type ${param:coupon} into Code ${x} :: type => /promo",
				`Check that "Type ${code} to save" is shown :: assertVisible`,
			},
		},
		{
			name: "a box hidden behind its styled label is checked by clicking the label",
			rec: func() (*session, *screen.Screen) {
				sc := shopPage("/settings", "settings", "Settings",
					el("news-label", "generic", screentest.Tag("label"), screentest.Kids(
						el("news", "checkbox", screentest.Name("Newsletter"), screentest.Text(""), checked("false"), screentest.Hidden()),
						screentest.Txt("Newsletter"),
					)),
				)
				return newSession().check(sc, "news"), sc
			},
			start: "/settings",
			want:  []string{"Check Newsletter :: tap => /settings"},
		},
		{
			name: "a modifier key pressed alone is part of the key or click it goes with",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().typ(p, "products-q", "ip").
					press(p, "Control", "Control").press(p, "a", "Control").press(p, "Control").
					press(p, "Shift", "Shift").press(p, "AltGraph").press(p, "CapsLock").
					press(p, "Control", "Control").clickWith(p, "products-cart", func(it *Interaction) { it.Modifiers = []string{"Control"} }).
					press(p, "Meta", "Meta")
				return s, p
			},
			want: []string{
				"Type ip into Search products and press Control+a :: type, press => /products",
				"Click the Cart link with Control held :: tap => /products",
			},
		},
		{
			name: "notes never show a sensitive value, even in a secret's name",
			rec: func() (*session, *screen.Screen) {
				l := loginPage("ada", "false", false)
				return newSession().secret(l, "pass", "hunter7 pass").click(l, "signin"), l
			},
			opts: BuildOptions{Sensitive: []string{"hunter7"}},
			want: []string{"Click the Sign in button :: tap => /login"},
			notes: []string{
				"Something in the recording could not be said here without showing a value marked sensitive.",
				"Step 1 was left out: it would write down a value marked sensitive.",
			},
		},
		{
			name: "switches and radio buttons",
			rec: func() (*session, *screen.Screen) {
				sc := shopPage("/settings", "settings", "Settings",
					el("dark", "switch", screentest.Name("Dark mode"), screentest.Text(""), checked("true")),
					el("ship", "radiogroup", screentest.Name("Shipping"), screentest.Kids(
						el("std", "radio", screentest.Name("Standard"), screentest.Text(""), checked("true")),
						el("exp", "radio", screentest.Name("Express"), screentest.Text(""), checked("false")),
					)),
				)
				return newSession().click(sc, "dark").click(sc, "exp").uncheck(sc, "dark"), sc
			},
			start: "/settings",
			want: []string{
				"Turn off Dark mode :: uncheck => /settings",
				"Choose Express :: check => /settings",
				"Turn off Dark mode :: uncheck => /settings",
			},
		},
	})
}

func TestBuildStepsErrors(t *testing.T) {
	login := loginPage("ada", "false", false)
	tests := []struct {
		name  string
		rec   func() []RecordedInteraction
		base  string
		check func(error) bool
		say   string
	}{
		{"no interactions", func() []RecordedInteraction { return nil }, shopOrigin,
			func(err error) bool { return errors.Is(err, ErrNoSteps) }, "no steps"},
		{"every step undone", func() []RecordedInteraction {
			return newSession().typ(login, "user", "ada").undo().recs
		}, shopOrigin, func(err error) bool { return errors.Is(err, ErrNoSteps) }, "no steps"},
		{"only navigations", func() []RecordedInteraction {
			return newSession().nav("/login", "typed").nav("/cart", "typed").recs
		}, shopOrigin, func(err error) bool { return errors.Is(err, ErrNoSteps) }, "no steps"},
		{"a navigation to another origin", func() []RecordedInteraction {
			s := newSession().typ(login, "user", "ada").nav("/x", "typed")
			s.recs[1].URL = "https://evil.example/x"
			return s.recs
		}, shopOrigin, isForeign, "https://evil.example"},
		{"a start on another origin", func() []RecordedInteraction {
			s := newSession().typ(login, "user", "ada")
			s.recs[0].URL = "http://localhost:3000/login"
			return s.recs
		}, shopOrigin, isForeign, "not the app's origin " + shopOrigin},
		{"a step ending on another origin", func() []RecordedInteraction {
			other := loginPage("", "false", false)
			other.URL = "https://id.example/login"
			s := newSession().click(login, "signin").nav("/x", "link")
			s.recs = append(s.recs, RecordedInteraction{Interaction: Interaction{Seq: 3, Kind: InteractAssertURL, URL: other.URL}, Before: other})
			return s.recs
		}, shopOrigin, isForeign, "step 1 ends on another origin"},
		{"a base URL that is no origin", func() []RecordedInteraction {
			return newSession().typ(login, "user", "ada").recs
		}, "localhost:3000", func(err error) bool { return err != nil }, "is not an http or https origin"},
		{"a start showing a sensitive value", func() []RecordedInteraction {
			s := newSession().typ(login, "user", "ada")
			s.recs[0].URL = shopOrigin + "/login?user=" + testSensitive
			return s.recs
		}, shopOrigin, func(err error) bool { return err != nil }, "value marked sensitive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bt, err := BuildSteps(tt.rec(), nil, BuildOptions{BaseURL: tt.base, Sensitive: []string{testSensitive}})
			if err == nil || !tt.check(err) || !strings.Contains(err.Error(), tt.say) {
				t.Fatalf("BuildSteps() = %v, %v; want an error saying %q", bt, err, tt.say)
			}
			if strings.Contains(err.Error(), testSensitive) {
				t.Errorf("BuildSteps() error %q shows the sensitive value", err)
			}
		})
	}
}

func isForeign(err error) bool {
	var fo *trail.ForeignOriginError
	return errors.As(err, &fo)
}

func TestBuildStepsBaseURLFromTheRecording(t *testing.T) {
	l := loginPage("", "false", false)
	s := newSession().typ(l, "user", "ada").nav("/x", "typed")
	s.recs[1].URL = "http://127.0.0.1:9999/x"
	_, err := BuildSteps(s.recs, nil, BuildOptions{})
	if !isForeign(err) || !strings.Contains(err.Error(), shopOrigin) {
		t.Errorf("BuildSteps() without a base URL = %v, want a *ForeignOriginError against %s, the first URL's origin", err, shopOrigin)
	}
}

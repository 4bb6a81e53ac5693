package e2e

import (
	"encoding/json"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
)

// A recording session as the extension sends it, for the host-level
// recording tests: a login with a password typed into a secret field, a
// value marked sensitive, a click undone, and two assertions.

const (
	recOrigin = "http://shop.test:8080"
	// recPassword is what the person types into the password field. The
	// extension never sends it; the tests send it in requests the host must
	// refuse, and then search everything the host wrote for it.
	recPassword = `Q>?~"vörtex/Plum<42`
	// recEmail is shown on the home page and marked sensitive.
	recEmail = "ada.lovelace@example.com"
)

func recText(s string) *screen.Node {
	return &screen.Node{Tag: screen.TextTag, Text: s, Visible: true}
}

func recEl(ref, role, tag, name string, y float64, kids ...*screen.Node) *screen.Node {
	return &screen.Node{Ref: ref, Role: role, Tag: tag, Name: name, Visible: true,
		Box: &screen.Box{X: 40, Y: y, Width: 300, Height: 32}, Children: kids}
}

func recPage(doc, path, title string, main ...*screen.Node) *screen.Screen {
	return &screen.Screen{Schema: screen.ScreenSchema, Document: doc, URL: recOrigin + path, Title: title,
		Viewport: screen.Viewport{Width: 1280, Height: 800},
		Root: recEl(doc+"1", "document", "html", "", 0,
			recEl(doc+"2", "generic", "body", "", 0,
				recEl(doc+"3", "main", "main", "", 0, main...)))}
}

// recLogin is the login page; user is the username field's value.
func recLogin(user string) *screen.Screen {
	username := recEl("e5", "textbox", "input", "Username", 100)
	username.Label, username.Value = "Username", user
	password := recEl("e6", "textbox", "input", "Password", 140)
	password.Label, password.Secret = "Password", true
	h := recEl("e4", "heading", "h1", "Sign in", 40, recText("Sign in"))
	h.Text, h.Level = "Sign in", 1
	button := recEl("e7", "button", "button", "Sign in", 180, recText("Sign in"))
	button.Text = "Sign in"
	return recPage("e", "/login", "Sign in — Shop", h, username, password, button)
}

// recHome is the page after logging in.
func recHome(cart int) *screen.Screen {
	h := recEl("h4", "heading", "h1", "Welcome, Ada", 40, recText("Welcome, Ada"))
	h.Text, h.Level = "Welcome, Ada", 1
	email := recEl("h5", "paragraph", "p", "", 80, recText(recEmail))
	email.Text = recEmail
	add := recEl("h7", "button", "button", "Add to cart", 120, recText("Add to cart"))
	add.Text = "Add to cart"
	count := recEl("h8", "status", "span", "", 160, recText(cartText(cart)))
	count.Text = cartText(cart)
	return recPage("h", "/home", "Home — Shop", h, email, add, count)
}

func cartText(n int) string {
	if n == 1 {
		return "1 item in the cart"
	}
	return string(rune('0'+n)) + " items in the cart"
}

// A recStep is one message of a scripted recording and what the host must
// answer.
type recStep struct {
	typ  string
	body map[string]any
	// wantError is the error code the host must answer with, 0 for success.
	wantError int
	// seq is the interaction's seq for record.interaction.
	seq int64
}

func interactionStep(session string, seq int64, in map[string]any, screen *screen.Screen) recStep {
	in["seq"] = seq
	in["time"] = 1733072400000 + seq*1500
	in["tab"] = 7
	body := map[string]any{"session": session, "interaction": in}
	if screen != nil {
		body["screen"] = json.RawMessage(WireScreen(screen))
	}
	return recStep{typ: "record.interaction", body: body, seq: seq}
}

// recInteractions is the recording's interactions, each with the screen it
// carries the first time a screen id is used (and whenever it is re-sent).
func recInteractions(session string) []recStep {
	login, filled, home := recLogin(""), recLogin("ada"), recHome(0)
	u := func(path string) string { return recOrigin + path }
	return []recStep{
		interactionStep(session, 1, map[string]any{"kind": "click", "url": u("/login"), "title": "Sign in — Shop", "screen": "s1", "ref": "e5"}, login),
		interactionStep(session, 2, map[string]any{"kind": "type", "url": u("/login"), "screen": "s1", "ref": "e5", "value": "ada"}, nil),
		interactionStep(session, 3, map[string]any{"kind": "type", "url": u("/login"), "screen": "s2", "ref": "e6", "secret": "password"}, filled),
		interactionStep(session, 4, map[string]any{"kind": "click", "url": u("/login"), "screen": "s2", "ref": "e7"}, nil),
		interactionStep(session, 5, map[string]any{"kind": "navigate", "url": u("/home"), "title": "Home — Shop", "transition": "form"}, nil),
		interactionStep(session, 6, map[string]any{"kind": "markSensitive", "url": u("/home"), "screen": "s3", "ref": "h5"}, home),
		interactionStep(session, 7, map[string]any{"kind": "click", "url": u("/home"), "screen": "s3", "ref": "h7"}, nil),
		interactionStep(session, 8, map[string]any{"kind": "undo", "url": u("/home")}, nil),
		interactionStep(session, 9, map[string]any{"kind": "assertVisible", "url": u("/home"), "screen": "s3", "ref": "h4"}, nil),
		interactionStep(session, 10, map[string]any{"kind": "assertUrl", "url": u("/home")}, nil),
	}
}

// recStart is the record.start of the scripted recording.
func recStart(session string) map[string]any {
	return map[string]any{"tab": 7, "url": recOrigin + "/login", "title": "Sign in — Shop",
		"viewport": map[string]any{"width": 1280, "height": 800}, "locale": "en-GB", "timeZone": "Europe/London",
		"session": session}
}

func recStop(session string) map[string]any {
	return map[string]any{"session": session, "screen": json.RawMessage(WireScreen(recHome(0)))}
}

func recSave(session string) map[string]any {
	return map[string]any{"session": session, "title": "Log in and see the welcome",
		"secrets": map[string]any{"password": "shop_password"},
		"intents": map[string]any{"0": "Type the user name ada"}}
}

// expectOK fails unless m is the reply of type typ.
func expectOK(t testing.TB, m HostMsg, typ string) {
	t.Helper()
	if m.Type() != typ {
		t.Fatalf("%s: got %v", typ, m)
	}
}

// expectError fails unless m is an error with code.
func expectError(t testing.TB, m HostMsg, code int) {
	t.Helper()
	if m.Type() != "error" || m.Int("code") != int64(code) {
		t.Fatalf("want error %d, got %v", code, m)
	}
	if m.Str("message") == "" {
		t.Fatalf("error %d without a message", code)
	}
}

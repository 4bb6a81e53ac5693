package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// selectorPage is a shop page with what the selector commands must handle:
// repeated buttons in rows, the span inside a button, prices, a hidden
// element, a password field and a value the session marks sensitive.
const selectorPage = `<!doctype html><title>Phones</title>
<header><span class="who">Signed in as dana@example.com</span></header>
<main>
<h1>Phones</h1>
<ul>
  <li><h3>iPhone 17</h3><p>$999</p><button><span>Add to cart</span></button></li>
  <li><h3>iPhone 18</h3><p>$1,099</p><button><span>Add to cart</span></button></li>
</ul>
<p hidden>Sold out</p>
<form aria-label="Sign in" onsubmit="return false">
  <label>Password <input type="password" value="s3cret-value"></label>
  <button>Sign in</button>
</form>
</main>`

func serveSelectorPage(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, selectorPage)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// runSelectorCmd runs the host with args and returns its stdout and error.
func runSelectorCmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errOut bytes.Buffer
	err := Run(ctx, args, strings.NewReader(""), &out, &errOut)
	return out.String(), err
}

func exitCodeOf(err error) int {
	if err == nil {
		return 0
	}
	return exitCode(err)
}

var refInLine = regexp.MustCompile(`\[ref=(e\d+)\]`)

func TestParseSelectorArg(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // Selector.String(), or "" for an error
		err  string // a part of the error message
	}{
		{in: "{role: button, name: Save}", want: "{role: button, name: Save}"},
		{in: `{"role": "button", "name": "Add to cart", "index": 1}`, want: `{role: button, name: "Add to cart", index: 1}`},
		{in: "role: listitem\ntextRegex: '^iPhone 17\\n'", want: `{role: listitem, textRegex: "^iPhone 17\\n"}`},
		{in: `{"text": "Review sale\n3 items"}`, want: `{text: "Review sale\n3 items"}`},
		{in: "", err: "empty"},
		{in: "button", err: "must be a mapping"},
		{in: "{rol: button}", err: `did you mean "role"`},
		{in: "{role: Button}", err: `did you mean "button"`},
		{in: "{textRegex: '(['}", err: "regular expression"},
		{in: "{index: 2}", err: "pin at least one"},
		{in: "{text: 'Add  to cart'}", err: `write "Add to cart"`},
		{in: `{"role": "button", "colour": "red"}`, err: `unknown key "colour"`},
		{in: "{role: iframe, index: 1}", want: "{role: iframe, index: 1}"}, // what suggest-selector writes for a second frame
		{in: "{role: doc-chapter}", err: `role "doc-chapter" is unknown`},
	} {
		got, err := parseSelectorArg(tc.in)
		switch {
		case tc.want != "" && (err != nil || got.String() != tc.want):
			t.Errorf("parseSelectorArg(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		case tc.want == "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("parseSelectorArg(%q) error = %v, want one containing %q", tc.in, err, tc.err)
		}
	}
}

// TestMatchCommand runs `host match` against a loopback page in real
// headless Chromium.
func TestMatchCommand(t *testing.T) {
	browsertest.Need(t)
	url := serveSelectorPage(t)

	t.Run("one match", func(t *testing.T) {
		t.Parallel()
		out, err := runSelectorCmd(t, "match", url, `{role: button, name: Add to cart, within: {role: listitem, textRegex: '^iPhone 18\n'}}`)
		if err != nil {
			t.Fatalf("host match: %v", err)
		}
		if !regexp.MustCompile(`^- button "Add to cart" \[ref=e\d+\]\n$`).MatchString(out) {
			t.Errorf("host match printed %q, want the button's one snapshot line", out)
		}
	})
	t.Run("JSON selector", func(t *testing.T) {
		t.Parallel()
		out, err := runSelectorCmd(t, "match", url, `{"role": "paragraph", "text": "$1,099"}`)
		if err != nil {
			t.Fatalf("host match: %v", err)
		}
		if !regexp.MustCompile(`^- paragraph \[ref=e\d+\]: \$1,099\n$`).MatchString(out) {
			t.Errorf("host match printed %q, want the price's snapshot line", out)
		}
	})
	t.Run("ambiguous", func(t *testing.T) {
		t.Parallel()
		out, err := runSelectorCmd(t, "match", url, `{role: button, name: Add to cart}`)
		if code := exitCodeOf(err); code != exitAmbiguous {
			t.Fatalf("host match of two buttons: exit %d (%v), want %d", code, err, exitAmbiguous)
		}
		if n := len(refInLine.FindAllString(out, -1)); n != 2 || strings.Count(out, `- button "Add to cart"`) != 2 {
			t.Errorf("host match of two buttons printed %q, want both buttons' lines", out)
		}
		if !strings.Contains(err.Error(), "ambiguous") {
			t.Errorf("error %q does not say the selector is ambiguous", err)
		}
	})
	t.Run("hidden only", func(t *testing.T) {
		t.Parallel()
		out, err := runSelectorCmd(t, "match", url, `{text: Sold out}`)
		if code := exitCodeOf(err); code != exitNoMatch {
			t.Fatalf("host match of a hidden paragraph: exit %d (%v), want %d", code, err, exitNoMatch)
		}
		if out != "" || !strings.Contains(err.Error(), "1 hidden element matches") {
			t.Errorf("host match of a hidden paragraph: stdout %q, error %q; want nothing, and that one hidden element matches", out, err)
		}
	})
	t.Run("bad selector", func(t *testing.T) {
		t.Parallel()
		_, err := runSelectorCmd(t, "match", url, `{role: buton}`)
		if code := exitCodeOf(err); code != exitBadSelector {
			t.Fatalf("host match of a misspelt role: exit %d (%v), want %d", code, err, exitBadSelector)
		}
		if !strings.Contains(err.Error(), `did you mean "button"`) {
			t.Errorf("error %q does not say what to fix", err)
		}
	})
}

// TestSuggestSelectorCommand runs `host suggest-selector` against a
// loopback page in real headless Chromium, on refs found with `host match`.
func TestSuggestSelectorCommand(t *testing.T) {
	browsertest.Need(t)
	url := serveSelectorPage(t)
	refOf := func(t *testing.T, sel string) string {
		t.Helper()
		out, err := runSelectorCmd(t, "match", url, sel)
		m := refInLine.FindStringSubmatch(out)
		if err != nil || m == nil {
			t.Fatalf("host match %s: %q, %v", sel, out, err)
		}
		return m[1]
	}
	// The span inside the second row's button: the text is the span's, so
	// this names the span, which the snapshot folds into the button.
	span := refOf(t, `{text: Add to cart, within: {role: listitem, textRegex: '^iPhone 18\n'}}`)
	button := refOf(t, `{role: button, name: Add to cart, within: {role: listitem, textRegex: '^iPhone 18\n'}}`)
	want := selector.Selector{Role: "button", Name: "Add to cart", Within: &selector.Selector{Role: "listitem", TextRegex: `^iPhone 18\n`}}

	t.Run("text", func(t *testing.T) {
		t.Parallel()
		out, err := runSelectorCmd(t, "suggest-selector", url, span)
		if err != nil {
			t.Fatalf("host suggest-selector: %v", err)
		}
		lines := strings.Split(out, "\n")
		if len(lines) < 5 || lines[0] != `element: button "Add to cart" [ref=`+button+`]` ||
			lines[1] != `selector: {role: button, name: Add to cart, within: {role: listitem, textRegex: ^iPhone 18\n}}` ||
			lines[3] != "menu, best first:" || !strings.HasPrefix(lines[4], "  1. {role: button, name: Add to cart, within:") {
			t.Errorf("host suggest-selector %s printed:\n%s\nwant the button, its selector and the menu", span, out)
		}
	})

	t.Run("json", func(t *testing.T) {
		t.Parallel()
		out, err := runSelectorCmd(t, "suggest-selector", "--json", url, span)
		if err != nil {
			t.Fatalf("host suggest-selector --json: %v", err)
		}
		var got struct {
			Selector selector.Selector `json:"selector"`
			Menu     []struct {
				Selector selector.Selector `json:"selector"`
				Checks   string            `json:"checks"`
			} `json:"menu"`
		}
		dec := json.NewDecoder(strings.NewReader(out))
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("suggest-selector --json is not {selector, menu}: %v\n%s", err, out)
		}
		if got.Selector.String() != want.String() {
			t.Errorf("suggest-selector --json selector = %q, want %q", got.Selector, want)
		}
		if len(got.Menu) < 2 || got.Menu[0].Selector.String() != want.String() {
			t.Fatalf("suggest-selector --json menu = %+v, want the selector first and alternatives after it", got.Menu)
		}
		// Every entry names the button on the page, and says what it relies on.
		screenJSON, err := runSelectorCmd(t, "snapshot", "--json", url)
		if err != nil {
			t.Fatal(err)
		}
		var screen screen.Screen
		if err := json.Unmarshal([]byte(screenJSON), &screen); err != nil {
			t.Fatal(err)
		}
		for _, c := range got.Menu {
			nodes, err := selector.Match(&screen, c.Selector)
			if err != nil || nodes[0].Ref != button {
				t.Errorf("menu entry %q matches %v, %v; want the button %s", c.Selector, nodes, err, button)
			}
			if c.Checks == "" {
				t.Errorf("menu entry %q does not say what it checks", c.Selector)
			}
		}
	})

	t.Run("assert a price", func(t *testing.T) {
		t.Parallel()
		out, err := runSelectorCmd(t, "suggest-selector", "--purpose", "assert", url, refOf(t, `{text: "$999"}`))
		if err != nil {
			t.Fatalf("host suggest-selector --purpose assert: %v", err)
		}
		if !strings.Contains(out, "\nselector: {text: $999}\n") || !strings.Contains(out, "depends on text; checks the value") {
			t.Errorf("host suggest-selector --purpose assert on the price printed:\n%s\nwant the exact price, checking the value", out)
		}
	})

	t.Run("sensitive", func(t *testing.T) {
		t.Parallel()
		ref := refOf(t, `{role: generic, text: Signed in as dana@example.com}`)
		out, err := runSelectorCmd(t, "suggest-selector", "--purpose", "assert", "--sensitive", "dana@example.com", url, ref)
		if err != nil {
			t.Fatalf("host suggest-selector --sensitive: %v", err)
		}
		if strings.Contains(out, "dana@example.com") || !strings.Contains(out, "checks presence only") {
			t.Errorf("host suggest-selector with a sensitive value printed:\n%s\nwant nothing showing the value, and presence checks", out)
		}
		out, err = runSelectorCmd(t, "suggest-selector", "--purpose", "type", url, refOf(t, `{label: Password}`))
		if err != nil || !strings.Contains(out, "\nselector: {role: textbox, name: Password}\n") || strings.Contains(out, "s3cret-value") {
			t.Errorf("host suggest-selector --purpose type on the password printed %q, %v; want it named by its label, without its value", out, err)
		}
	})

	t.Run("bad input", func(t *testing.T) {
		t.Parallel()
		_, err := runSelectorCmd(t, "suggest-selector", url, "e9999")
		if err == nil || !errors.Is(err, selector.ErrUnknownRef) || !strings.Contains(err.Error(), "host snapshot") {
			t.Errorf("suggest-selector of an unknown ref: error %v, want ErrUnknownRef pointing at host snapshot", err)
		}
		_, err = runSelectorCmd(t, "suggest-selector", "--purpose", "click", url, button)
		if err == nil || !strings.Contains(err.Error(), "tap, type, select or assert") {
			t.Errorf("suggest-selector --purpose click: error %v, want the purposes listed", err)
		}
	})
}

package browser

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/screen"
)

func TestRefsStableAcrossCaptures(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/refs.html")
	first := refs(capture(t, ctx, CaptureOptions{}))
	second := refs(capture(t, ctx, CaptureOptions{}))
	if len(first) < 8 {
		t.Fatalf("first capture has %d refs, want at least 8: %v", len(first), first)
	}
	for ref, what := range first {
		if second[ref] != what {
			t.Errorf("second capture: ref %s = %q, want %q", ref, second[ref], what)
		}
	}
	if len(second) != len(first) {
		t.Errorf("second capture has %d refs, first had %d", len(second), len(first))
	}
}

func TestRefsStableAcrossReload(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/refs.html")
	s1 := capture(t, ctx, CaptureOptions{})
	first := refs(s1)
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	// A ref from the last load names the same element before any capture.
	save := byID(t, s1, "save").Ref
	n, err := chromedp.Run(ctx, Describe(save, CaptureOptions{}))
	if err != nil || n.ID != "save" {
		t.Errorf("Describe(%s) right after reload = %+v, %v; want the #save button", save, n, err)
	}
	s2 := capture(t, ctx, CaptureOptions{})
	second := refs(s2)
	if s2.Document == s1.Document {
		t.Errorf("document token %q unchanged by a reload", s2.Document)
	}
	if len(second) != len(first) {
		t.Errorf("after reload %d refs, before %d", len(second), len(first))
	}
	for ref, what := range first {
		if second[ref] != what {
			t.Errorf("after reload: ref %s = %q, want %q", ref, second[ref], what)
		}
	}
}

func TestRefsSurviveChangeElsewhere(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/refs.html")
	s1 := capture(t, ctx, CaptureOptions{})
	before := refs(s1)
	evalJS(t, ctx, `document.body.insertAdjacentHTML('afterbegin', '<nav id="new"><a href="#x">New link</a></nav>');
		document.getElementById('b').textContent = 'Blueberry';`)
	s2 := capture(t, ctx, CaptureOptions{})
	after := refs(s2)
	for ref, what := range before {
		if strings.Contains(what, "Banana") || strings.HasPrefix(what, "ul#list") || strings.HasPrefix(what, "body#") || strings.HasPrefix(what, "html#") {
			continue // their text changed on purpose
		}
		if after[ref] != what {
			t.Errorf("after a change elsewhere: ref %s = %q, want %q", ref, after[ref], what)
		}
	}
	if got, want := byID(t, s2, "b").Ref, byID(t, s1, "b").Ref; got != want {
		t.Errorf("changed item: ref %s, want it to keep %s", got, want)
	}
	nav := byID(t, s2, "new")
	if _, reused := before[nav.Ref]; reused {
		t.Errorf("new element got ref %s, which the first capture gave to %q", nav.Ref, before[nav.Ref])
	}
}

func TestRemovedElementRefIsStale(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/refs.html")
	s1 := capture(t, ctx, CaptureOptions{})
	gone := byID(t, s1, "b").Ref
	kept := byID(t, s1, "c").Ref
	evalJS(t, ctx, `document.getElementById('b').remove();
		document.getElementById('list').insertAdjacentHTML('beforeend', '<li id="d">Date</li>');`)

	_, err := chromedp.Run(ctx, Point(gone))
	if !errors.Is(err, ErrStaleRef) {
		t.Errorf("Point(%s) of a removed element: err = %v, want ErrStaleRef", gone, err)
	}
	_, err = chromedp.Run(ctx, Describe(gone, CaptureOptions{}))
	if !errors.Is(err, ErrStaleRef) {
		t.Errorf("Describe(%s) of a removed element: err = %v, want ErrStaleRef", gone, err)
	}
	if _, err := chromedp.Run(ctx, Point(kept)); err != nil {
		t.Errorf("Point(%s) of a kept element: %v", kept, err)
	}
	s2 := capture(t, ctx, CaptureOptions{})
	walk(s2.Root, func(n *screen.Node) {
		if n.Ref == gone {
			t.Errorf("ref %s of the removed element now names <%s id=%q>", gone, n.Tag, n.ID)
		}
	})
	if d := byID(t, s2, "d"); d.Ref == gone {
		t.Errorf("new element reuses the removed element's ref %s", gone)
	}
	_, err = chromedp.Run(ctx, Point("e9999"))
	if !errors.Is(err, ErrUnknownRef) {
		t.Errorf("Point(e9999): err = %v, want ErrUnknownRef", err)
	}
	_, err = chromedp.Run(ctx, Point("button"))
	if !errors.Is(err, ErrBadRef) {
		t.Errorf(`Point("button"): err = %v, want ErrBadRef`, err)
	}

	// After a navigation, refs of the old document are refused when the
	// caller says which document they came from.
	if _, err := chromedp.Run(ctx, Point(kept, InDocument(s2.Document))); err != nil {
		t.Errorf("Point(%s) in its own document: %v", kept, err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(site.URL+"/states.html")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, Point(kept, InDocument(s2.Document))); !errors.Is(err, ErrStaleRef) {
		t.Errorf("Point(%s) after navigating away: err = %v, want ErrStaleRef", kept, err)
	}
	s3 := capture(t, ctx, CaptureOptions{})
	if s3.Document == "" || s3.Document == s2.Document {
		t.Errorf("document token %q after navigating, was %q: want a new one", s3.Document, s2.Document)
	}
}

// typeInto focuses the element with this id and types with real key events.
func typeInto(t *testing.T, ctx context.Context, id, text string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID(id)), chromedp.KeyEvent(text)); err != nil {
		t.Fatalf("typing into #%s: %v", id, err)
	}
}

func TestSecretsNeverCaptured(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/secrets.html")
	secrets := map[string]string{
		"pw":   "hunter2-Kw9x",
		"otp":  "481516",
		"card": "4111111111111111",
		"cvc":  "737",
	}
	for id, text := range secrets {
		typeInto(t, ctx, id, text)
	}
	typeInto(t, ctx, "user", "ada")
	typeInto(t, ctx, "acct", "ACCT-7731-ZZ")
	typeInto(t, ctx, "revealed", "tiger-lily-42")

	s0 := capture(t, ctx, CaptureOptions{})
	acct := byID(t, s0, "acct").Ref
	s := capture(t, ctx, CaptureOptions{Sensitive: Sensitive{Refs: []string{acct}, Values: []string{"tiger-lily-42"}}})
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	// What leaves the page, before any decoding, and one node described alone.
	sens := CaptureOptions{Sensitive: Sensitive{Refs: []string{acct}, Values: []string{"tiger-lily-42"}}}.pageModelOptions()
	pageOut, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (string, error) {
		m, err := TopFrame(ctx, tg)
		if err != nil {
			return "", err
		}
		wire, err := m.callText(ctx, "captureWire", sens)
		if err != nil {
			return "", err
		}
		plain, err := m.invoke(ctx, callScript, pageModelVersion, "json", "capture", []any{sens})
		return wire + plain, err
	})
	if err != nil {
		t.Fatal(err)
	}
	pw, err := chromedp.Run(ctx, Describe(byID(t, s, "pw").Ref, CaptureOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	described, _ := json.Marshal(pw)
	for _, secret := range []string{"hunter2-Kw9x", "481516", "4111111111111111", "ACCT-7731-ZZ", "tiger-lily-42"} {
		for what, text := range map[string]string{"captured screen": string(raw), "page model's output": pageOut, "described node": string(described)} {
			if strings.Contains(text, secret) {
				t.Errorf("%s contains the secret %q", what, secret)
			}
		}
	}
	// "737" is short enough to appear by chance (a box coordinate), so the
	// CVC is checked on its node.
	for id, wantName := range map[string]string{"pw": "Password", "otp": "Code", "card": "Card number", "cvc": "Security code", "acct": "Account", "revealed": "Reveal"} {
		n := byID(t, s, id)
		if !n.Secret || n.Value != "" || n.Text != "" {
			t.Errorf("#%s: secret=%v value=%q text=%q, want secret with no value or text", id, n.Secret, n.Value, n.Text)
		}
		if n.Name != wantName {
			t.Errorf("#%s: name %q, want %q (from its label)", id, n.Name, wantName)
		}
	}
	if n := byID(t, s, "echoed"); !n.Secret {
		t.Errorf("#echoed shows a sensitive value but is not secret: %+v", n)
	}
	if n := byID(t, s, "user"); n.Secret || n.Value != "ada" {
		t.Errorf("#user: secret=%v value=%q, want an ordinary field with value ada", n.Secret, n.Value)
	}
	if n := byID(t, s, "go"); strings.Contains(n.Description, "tiger") {
		t.Errorf("#go description %q shows a sensitive value", n.Description)
	}
}

func TestShadowDOM(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/shadow.html")
	s := capture(t, ctx, CaptureOptions{})
	heading := byID(t, s, "heading")
	if heading.Role != "heading" || heading.Name != "Quarterly report" || heading.Text != "Quarterly report" {
		t.Errorf("heading in shadow root: role %q name %q text %q, want heading named by its slotted content", heading.Role, heading.Name, heading.Text)
	}
	if n := byID(t, s, "slotted"); !n.Visible {
		t.Errorf("slotted span is not visible")
	}
	walk(s.Root, func(n *screen.Node) {
		if n.ID == "unslotted" {
			t.Errorf("unslotted light child appears in the screen: %+v", n)
		}
	})
	if b := byID(t, s, "open"); b.Role != "button" || b.Name != "Open report" {
		t.Errorf("shadow button: role %q name %q, want button \"Open report\" (slot fallback)", b.Role, b.Name)
	}
	if q := byID(t, s, "q"); q.Role != "searchbox" || q.Name != "Search" || q.Label != "Search" {
		t.Errorf("shadow input: role %q name %q label %q, want searchbox \"Search\"", q.Role, q.Name, q.Label)
	}
	card := byID(t, s, "card")
	if card.Text != "Quarterly report\nOpen report" {
		t.Errorf("host text %q, want the flat tree's text", card.Text)
	}
	// Refs inside the shadow root resolve back to their element.
	p, err := chromedp.Run(ctx, Point(heading.Ref))
	if err != nil || p.Box.Width <= 0 {
		t.Errorf("Point(%s) in a shadow root = %+v, %v", heading.Ref, p, err)
	}
}

func TestSameOriginFrame(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/frames.html")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('same').contentDocument?.readyState === 'complete'`)); err != nil {
		t.Fatal(err)
	}
	s := capture(t, ctx, CaptureOptions{})
	frame := byID(t, s, "same")
	if frame.Frame != "f1" || frame.CrossOrigin || len(frame.Children) != 1 {
		t.Fatalf("iframe node: frame %q crossOrigin %v children %d, want f1 inline with one child", frame.Frame, frame.CrossOrigin, len(frame.Children))
	}
	inner := byID(t, s, "inner")
	if !strings.HasPrefix(inner.Ref, "f1e") {
		t.Errorf("ref inside frame = %q, want f1e…", inner.Ref)
	}
	// The iframe sits at 100,200 with a 5px border; the button at 10,20 in it.
	if inner.Box == nil || inner.Box.X != 115 || inner.Box.Y != 225 {
		t.Errorf("button box %+v, want it at 115,225 in the top viewport", inner.Box)
	}
	p, err := chromedp.Run(ctx, Point(inner.Ref))
	if err != nil {
		t.Fatalf("Point(%s): %v", inner.Ref, err)
	}
	if p.X != 165 || p.Y != 240 || p.Covered == nil || *p.Covered {
		t.Errorf("Point(%s) = %+v, want 165,240 uncovered", inner.Ref, p)
	}
	hit, err := chromedp.Run(ctx, Describe(inner.Ref, CaptureOptions{}))
	if err != nil || hit.Name != "Inner button" {
		t.Errorf("Describe(%s) = %+v, %v", inner.Ref, hit, err)
	}

	// A new document in the frame gets a new frame number; the old refs go stale.
	evalJS(t, ctx, `document.getElementById('same').src = 'refs.html'`)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('same').contentDocument?.getElementById('save') !== null && document.getElementById('same').contentDocument?.readyState === 'complete'`)); err != nil {
		t.Fatal(err)
	}
	s2 := capture(t, ctx, CaptureOptions{})
	if f := byID(t, s2, "same"); f.Frame == "f1" || f.Frame == "" {
		t.Errorf("after the frame loaded another page: frame prefix %q, want a new one", f.Frame)
	}
	if _, err := chromedp.Run(ctx, Point(inner.Ref)); !errors.Is(err, ErrStaleRef) {
		t.Errorf("Point(%s) after the frame navigated: err = %v, want ErrStaleRef", inner.Ref, err)
	}
}

func TestCrossOriginFrames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, src string }{
		{"same site, other port", crossSite.URL + "/inner.html"},
		{"other site, own process", otherSiteURL("/inner.html")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := newTab(t, site.URL+"/embed?src="+tc.src)
			var s *screen.Screen
			// The frame may still be loading: capture until its button shows.
			for range 100 {
				s = capture(t, ctx, CaptureOptions{})
				found := false
				walk(s.Root, func(n *screen.Node) { found = found || n.ID == "inner" })
				if found {
					break
				}
				if err := chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond)); err != nil {
					t.Fatal(err)
				}
			}
			frame := byID(t, s, "frame")
			if !frame.CrossOrigin || frame.Frame == "" {
				t.Fatalf("iframe node %+v, want a cross-origin frame", frame)
			}
			inner := byID(t, s, "inner")
			if !strings.HasPrefix(inner.Ref, frame.Frame+"e") {
				t.Errorf("ref inside the frame = %q, want %se…", inner.Ref, frame.Frame)
			}
			if inner.Box == nil || inner.Box.X != 60 || inner.Box.Y != 120 {
				t.Errorf("button box %+v, want 60,120 in the top viewport", inner.Box)
			}
			p, err := chromedp.Run(ctx, Point(inner.Ref))
			if err != nil {
				t.Fatalf("Point(%s): %v", inner.Ref, err)
			}
			if p.X != 110 || p.Y != 135 {
				t.Errorf("Point(%s) = %+v, want 110,135", inner.Ref, p)
			}

			// Another document in the frame: new prefix, old refs stale.
			evalJS(t, ctx, `document.getElementById('frame').src = document.getElementById('frame').src.replace('inner.html', 'refs.html')`)
			var s2 *screen.Screen
			for range 100 {
				s2 = capture(t, ctx, CaptureOptions{})
				found := false
				walk(s2.Root, func(n *screen.Node) { found = found || n.ID == "save" })
				if found {
					break
				}
				if err := chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond)); err != nil {
					t.Fatal(err)
				}
			}
			if f := byID(t, s2, "frame"); f.Frame == frame.Frame {
				t.Errorf("after the frame loaded another page: prefix still %q", f.Frame)
			}
			if save := byID(t, s2, "save"); !strings.HasPrefix(save.Ref, byID(t, s2, "frame").Frame+"e") {
				t.Errorf("button in the new document: ref %q", save.Ref)
			}
			if _, err := chromedp.Run(ctx, Point(inner.Ref)); !errors.Is(err, ErrStaleRef) {
				t.Errorf("Point(%s) after the frame navigated: err = %v, want ErrStaleRef", inner.Ref, err)
			}
		})
	}
}

func TestVisibility(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/visibility.html")
	s := capture(t, ctx, CaptureOptions{})
	for _, tc := range []struct {
		id                string
		visible, ariaHide bool
		inert             bool
		text              string
	}{
		{id: "shown", visible: true, text: "Shown"},
		{id: "none", text: "Display none child"},
		{id: "none-child", text: "child"},
		{id: "hidden", text: "Visibility hidden visible child"}, // hidden: its text as it reads once shown
		{id: "hidden-child", visible: true, text: "visible child"},
		{id: "cv", visible: true},
		{id: "cv-child", text: "Skipped content"},
		{id: "zero"},
		{id: "zero-child", text: "Clipped"},
		{id: "empty"},
		{id: "inert-button", visible: true, ariaHide: true, inert: true, text: "Inert"},
		{id: "aria-hidden-button", visible: true, ariaHide: true, text: "Aria hidden"},
		{id: "summary", visible: true, text: "More"},
		{id: "closed-child", text: "Inside"},
		{id: "open-child", visible: true, text: "Open inside"},
		{id: "offscreen", visible: true, text: "Far below"},
		{id: "transparent", visible: true, text: "See-through"},
		{id: "contents", visible: true, text: "Contents child"},
		{id: "contents-child", visible: true, text: "Contents child"},
		{id: "until-found-child", text: "Found later"},
	} {
		n := byID(t, s, tc.id)
		if n.Visible != tc.visible || n.AriaHidden != tc.ariaHide || n.Inert != tc.inert || n.Text != tc.text {
			t.Errorf("#%s: visible=%v ariaHidden=%v inert=%v text=%q, want visible=%v ariaHidden=%v inert=%v text=%q",
				tc.id, n.Visible, n.AriaHidden, n.Inert, n.Text, tc.visible, tc.ariaHide, tc.inert, tc.text)
		}
	}
	if n := byID(t, s, "closed"); n.Expanded == nil || *n.Expanded {
		t.Errorf("closed details: expanded %v, want false", n.Expanded)
	}
	if n := byID(t, s, "offscreen"); n.Box == nil || n.Box.Y < 720 {
		t.Errorf("off-screen box %+v, want it below the viewport", n.Box)
	}
	if got, want := byID(t, s, "text-lines").Text, "Review sale\n3 items\nnow on sale"; got != want {
		t.Errorf("text-lines text = %q, want %q", got, want)
	}
	if got, want := byID(t, s, "pre").Text, "line one\nline two"; got != want {
		t.Errorf("pre text = %q, want %q", got, want)
	}
	for id, want := range map[string]bool{"covered": true, "clear": false} {
		n := byID(t, s, id)
		if n.Covered == nil || *n.Covered != want {
			t.Errorf("#%s covered = %v, want %v", id, n.Covered, want)
		}
	}
	if n := byID(t, s, "shown"); n.Covered != nil {
		t.Errorf("a plain div got a hit test (covered = %v); only interactive nodes should", *n.Covered)
	}
	// On request, any node is hit-tested.
	shown := byID(t, s, "shown").Ref
	s2 := capture(t, ctx, CaptureOptions{CoverRefs: []string{shown}})
	if n := byID(t, s2, "shown"); n.Covered == nil || *n.Covered {
		t.Errorf("#shown with CoverRefs: covered = %v, want false", n.Covered)
	}
}

func TestFocusedAndInstallTwice(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/secrets.html")
	typeInto(t, ctx, "user", "x")
	s := capture(t, ctx, CaptureOptions{})
	if want := byID(t, s, "user").Ref; s.Focused != want {
		t.Errorf("focused = %q, want %q", s.Focused, want)
	}
	// A second copy of the script in the same world keeps the numbering.
	m, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (*Frame, error) { return TopFrame(ctx, tg) })
	if err != nil {
		t.Fatal(err)
	}
	if err := m.install(ctx); err != nil {
		t.Fatalf("installing again: %v", err)
	}
	if err := m.install(ctx); err != nil {
		t.Fatalf("installing a third time: %v", err)
	}
	s2 := capture(t, ctx, CaptureOptions{})
	if a, b := refs(s), refs(s2); len(a) != len(b) || a["e1"] != b["e1"] || byID(t, s2, "user").Ref != byID(t, s, "user").Ref {
		t.Errorf("refs changed after installing the page model again")
	}
}

func TestStatesRolesAndFields(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/states.html")
	evalJS(t, ctx, `document.getElementById('mixed').indeterminate = true`)
	s := capture(t, ctx, CaptureOptions{})
	tr, fa := true, false
	for _, tc := range []struct {
		id   string
		want screen.Node
	}{
		{"on", screen.Node{Role: "checkbox", Name: "On", Checked: "true"}},
		{"mixed", screen.Node{Role: "checkbox", Name: "Mixed", Checked: "mixed"}},
		{"aria-off", screen.Node{Role: "checkbox", Name: "Aria off", Checked: "false"}},
		{"switch", screen.Node{Role: "switch", Name: "Wi-Fi", Checked: "true"}},
		{"radio", screen.Node{Role: "radio", Name: "Radio", Checked: "false"}},
		{"pressed", screen.Node{Role: "button", Name: "Bold", Pressed: "true"}},
		{"plain", screen.Node{Role: "button", Name: "Plain"}},
		{"menu", screen.Node{Role: "button", Name: "Menu", Expanded: &fa}},
		{"pick", screen.Node{Role: "combobox", Name: "Colour", Value: "Green"}},
		{"green", screen.Node{Role: "option", Name: "Green", Selected: &tr}},
		{"red", screen.Node{Role: "option", Name: "Red", Selected: &fa}},
		{"tab", screen.Node{Role: "tab", Name: "Tab one", Selected: &tr}},
		{"locked", screen.Node{Role: "textbox", Name: "Locked field", Disabled: true}},
		{"aria-disabled", screen.Node{Role: "button", Name: "Soft disabled", Disabled: true}},
		{"h3", screen.Node{Role: "heading", Name: "Third", Level: 3}},
		{"heading-default", screen.Node{Role: "heading", Name: "No level", Level: 2}},
		{"heading-5", screen.Node{Role: "heading", Name: "Level five", Level: 5}},
		{"required", screen.Node{Role: "textbox", Name: "Needed", Required: true}},
		{"readonly", screen.Node{Role: "textbox", Name: "Notes", ReadOnly: true, Value: "fixed text"}},
		{"invalid", screen.Node{Role: "textbox", Name: "Bad", Invalid: true, Value: "oops"}},
		{"email", screen.Node{Role: "textbox", Name: "Email address", TestID: "email-field", Placeholder: "you@example.com", Title: "Email address"}},
		{"link", screen.Node{Role: "link", Name: "Next", URL: site.URL + "/next?x=1"}},
		{"range", screen.Node{Role: "slider", Name: "Volume", Value: "3"}},
		{"aria-slider", screen.Node{Role: "slider", Name: "Level", Value: "40 percent"}},
		{"none-list", screen.Node{Role: "none"}},
		{"none-item", screen.Node{Role: "none"}},
		{"decorative", screen.Node{Role: "presentation"}},
	} {
		n := byID(t, s, tc.id)
		got := screen.Node{Role: n.Role, Name: n.Name, Checked: n.Checked, Pressed: n.Pressed, Expanded: n.Expanded,
			Selected: n.Selected, Disabled: n.Disabled, Level: n.Level, Required: n.Required, ReadOnly: n.ReadOnly,
			Invalid: n.Invalid, Value: n.Value, TestID: n.TestID, Placeholder: n.Placeholder, Title: n.Title, URL: n.URL}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(tc.want)
		if string(gj) != string(wj) {
			t.Errorf("#%s = %s, want %s", tc.id, gj, wj)
		}
	}

	// A modal dialog makes the rest of the page inert.
	evalJS(t, ctx, `document.getElementById('dialog').showModal()`)
	s = capture(t, ctx, CaptureOptions{})
	if n := byID(t, s, "behind"); !n.Inert || !n.AriaHidden || !n.Visible {
		t.Errorf("button behind a modal: inert=%v ariaHidden=%v visible=%v, want inert, out of the accessibility tree, still seen", n.Inert, n.AriaHidden, n.Visible)
	}
	if n := byID(t, s, "in-dialog"); n.Inert || !n.Visible {
		t.Errorf("button in the modal: inert=%v visible=%v, want usable", n.Inert, n.Visible)
	}
}

func TestHiddenNodesKeepTheirNames(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/visibility.html")
	evalJS(t, ctx, `document.getElementById('none').insertAdjacentHTML('beforeend', '<button id="hidden-save">Save draft</button>')`)
	s := capture(t, ctx, CaptureOptions{})
	n := byID(t, s, "hidden-save")
	if n.Visible || n.Role != "button" || n.Name != "Save draft" || n.Text != "Save draft" {
		t.Errorf("hidden button: visible=%v role=%q name=%q text=%q, want a hidden button named and reading \"Save draft\"", n.Visible, n.Role, n.Name, n.Text)
	}
	// Shown later, it keeps its ref and becomes visible: what replay waits for.
	evalJS(t, ctx, `document.getElementById('none').style.display = 'block'`)
	s2 := capture(t, ctx, CaptureOptions{})
	if m := byID(t, s2, "hidden-save"); m.Ref != n.Ref || !m.Visible {
		t.Errorf("after showing: ref %s visible %v, want ref %s and visible", m.Ref, m.Visible, n.Ref)
	}
}

// TestCoverageLooksThroughOverlays: an element Trailpin lays over the page
// (the recording bar, marked with addOverlay) covers nothing, as replay never
// shows it: the button under it is not covered, and a hit test there finds
// the button; an element of the page's own still covers.
func TestCoverageLooksThroughOverlays(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/visibility.html")
	if n := byID(t, capture(t, ctx, CaptureOptions{}), "covered"); n.Covered == nil || !*n.Covered {
		t.Fatalf("#covered under the page's own overlay: covered = %v, want true", n.Covered)
	}
	m, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (*Frame, error) { return TopFrame(ctx, tg) })
	if err != nil {
		t.Fatal(err)
	}
	// The overlay becomes Trailpin's own, as the recording bar's host is.
	if _, err := m.CallFunction(ctx, `function () { globalThis.__trailpinPageModel.addOverlay(document.getElementById('overlay')); return true; }`, false); err != nil {
		t.Fatalf("addOverlay: %v", err)
	}
	s := capture(t, ctx, CaptureOptions{})
	n := byID(t, s, "covered")
	if n.Covered == nil || *n.Covered {
		t.Errorf("#covered under Trailpin's overlay: covered = %v, want false", n.Covered)
	}
	r, err := m.CallFunction(ctx, `function () { return globalThis.__trailpinPageModel.hitTest(440, 25).ref; }`, false)
	if err != nil {
		t.Fatalf("hitTest: %v", err)
	}
	if got := strings.Trim(string(r.Value), `"`); got != n.Ref {
		t.Errorf("hitTest under Trailpin's overlay = %q, want the button %q", got, n.Ref)
	}
}

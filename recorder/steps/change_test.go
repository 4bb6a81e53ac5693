package steps

import (
	"errors"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// menuPages are the shop page with its menu closed and open: the button's
// aria-expanded goes false → true and the menu is added.
func menuPages() (closed, open *screen.Screen) {
	expanded := func(v bool) screentest.Opt { return screentest.Node(func(n *screen.Node) { n.Expanded = &v }) }
	button := func(v bool) *screentest.Spec {
		return el("menu-button", "button", screentest.Name("Menu"), expanded(v), screentest.Kids(screentest.Txt("Menu")))
	}
	closed = shopPage("/", "d", "Shop", button(false))
	open = shopPage("/", "d", "Shop", button(true), el("menu", "menu", screentest.Name("Main"), screentest.Kids(
		el("item-settings", "menuitem", screentest.Kids(screentest.Txt("Settings"))),
		el("item-logout", "menuitem", screentest.Kids(screentest.Txt("Log out"))))))
	return closed, open
}

func (s *session) assertChange(after *screen.Screen, only bool, keys ...string) *session {
	return s.add(InteractAssertChange, after, "", func(it *Interaction) { it.Changes, it.Only = keys, only })
}

func offerByText(t *testing.T, p *ChangePreview, prefix string) ChangeOffer {
	t.Helper()
	for _, c := range p.Changes {
		if strings.HasPrefix(c.Text, prefix) {
			return c
		}
	}
	t.Fatalf("no change %q in the preview: %+v", prefix, p.Changes)
	return ChangeOffer{}
}

func TestPreviewChangeListsTheLastActionsDiff(t *testing.T) {
	closed, open := menuPages()
	s := newSession().click(closed, "menu-button")
	p, err := PreviewChange(s.recs, open, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("PreviewChange() failed: %v", err)
	}
	if p.Seq != 1 || len(p.Changes) != 2 || !p.Only {
		t.Fatalf("PreviewChange() = %+v, want the click's two changes, only offered", p)
	}
	state := offerByText(t, p, `state button "Menu"`)
	if want := "{change: state, selector: {role: button, name: Menu}, to: {expanded: true}}"; state.Matcher != want {
		t.Errorf("state change matcher = %q, want %q", state.Matcher, want)
	}
	if !strings.Contains(state.Text, "expanded false → true") {
		t.Errorf("state change in words = %q, want it to say expanded false → true", state.Text)
	}
	added := offerByText(t, p, `added menu "Main"`)
	if want := "{change: added, selector: {role: menu, name: Main}}"; added.Matcher != want {
		t.Errorf("added change matcher = %q, want %q", added.Matcher, want)
	}
	if !strings.Contains(p.Action, "Menu") {
		t.Errorf("the action in words = %q, want it to name the Menu button", p.Action)
	}

	// Nothing changed: no change to tick, and "nothing changes" offered.
	p, err = PreviewChange(s.recs, closed, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("PreviewChange(no change) failed: %v", err)
	}
	if len(p.Changes) != 0 || !p.Only {
		t.Errorf("PreviewChange(no change) = %+v, want no changes and only offered (changed: false)", p)
	}
}

func TestPreviewChangeRefusesWithoutAnAction(t *testing.T) {
	closed, open := menuPages()
	var nb *NoBaselineError
	for _, tc := range []struct {
		name string
		s    *session
		want func(error) bool
	}{
		{"nothing recorded", newSession(), func(err error) bool { return errors.Is(err, ErrNoAction) }},
		{"after a check", newSession().click(closed, "menu-button").assertVisible(open, "menu"), func(err error) bool { return errors.Is(err, ErrAfterAssertion) }},
		{"after a typed navigation", newSession().click(closed, "menu-button").nav("/help", "typed"), func(err error) bool { return errors.As(err, &nb) }},
	} {
		_, err := PreviewChange(tc.s.recs, open, BuildOptions{BaseURL: shopOrigin})
		if !tc.want(err) {
			t.Errorf("%s: PreviewChange() error = %v", tc.name, err)
		}
	}
}

func TestBuildStepsAssertChangeEndsTheActionsStep(t *testing.T) {
	closed, open := menuPages()
	p, err := PreviewChange(newSession().click(closed, "menu-button").recs, open, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{offerByText(t, p, "added menu").Key, offerByText(t, p, "state button").Key}
	s := newSession().click(closed, "menu-button").assertChange(open, true, keys...).click(open, "item-settings")
	bt, err := BuildSteps(s.recs, open, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	if len(bt.Steps) != 2 || len(bt.Steps[0].Actions) != 2 {
		t.Fatalf("steps = %+v, want the click and its assertChange in the first step, then the next click", bt.Steps)
	}
	ac, ok := bt.Steps[0].Actions[1].(trail.AssertChange)
	if !ok {
		t.Fatalf("second action = %T, want trail.AssertChange", bt.Steps[0].Actions[1])
	}
	if len(ac.MustInclude) != 2 || ac.MustInclude[0].Change != "added" || ac.MustInclude[0].Selector.String() != "{role: menu, name: Main}" ||
		ac.MustInclude[1].Change != "state" || len(ac.MustInclude[1].To) != 1 || ac.MustInclude[1].To[0] != (trail.ChangeTo{Field: "expanded", Value: "true"}) {
		t.Errorf("mustInclude = %+v, want the added menu and the button's expanded: true", ac.MustInclude)
	}
	if len(ac.Only) != 2 {
		t.Errorf("only = %+v, want both changes of the diff", ac.Only)
	}
	// The trail it makes is written and loads back.
	data, err := trail.MarshalTrail(&trail.Trail{Version: trail.TrailVersion, Title: "Open the menu", App: "shop", Start: bt.Start, Steps: bt.Steps})
	if err != nil {
		t.Fatalf("MarshalTrail() failed: %v", err)
	}
	if _, err := trail.LoadTrail("open.trail.yaml", data); err != nil {
		t.Fatalf("LoadTrail() failed: %v\n%s", err, data)
	}
	for _, want := range []string{"assertChange:", "{change: added, selector: {role: menu, name: Main}}", "to: {expanded: true}"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("trail lacks %q:\n%s", want, data)
		}
	}
}

func TestBuildStepsAssertChangeLeftOut(t *testing.T) {
	closed, open := menuPages()
	for _, tc := range []struct {
		name string
		s    *session
		note string
	}{
		{"a key the diff has not", newSession().click(closed, "menu-button").assertChange(open, false, "added::e99"), "did not make"},
		{"first of all", newSession().assertChange(open, false, "added::menu").click(open, "item-settings"), "follows no action"},
		{"after a check", newSession().click(closed, "menu-button").assertVisible(open, "menu").assertChange(open, false, "added::menu"), "follows no action"},
	} {
		bt, err := BuildSteps(tc.s.recs, open, BuildOptions{BaseURL: shopOrigin})
		if err != nil {
			t.Fatalf("%s: BuildSteps() failed: %v", tc.name, err)
		}
		for _, st := range bt.Steps {
			for _, a := range st.Actions {
				if _, ok := a.(trail.AssertChange); ok {
					t.Errorf("%s: an assertChange was recorded: %+v", tc.name, a)
				}
			}
		}
		if !strings.Contains(strings.Join(bt.Notes, "\n"), tc.note) {
			t.Errorf("%s: notes %q lack %q", tc.name, bt.Notes, tc.note)
		}
	}
}

// A change that would show a value marked sensitive is listed without it,
// cannot be ticked, and "nothing else changes" is not offered; the
// assertChange interaction that names it anyway records nothing.
func TestPreviewChangeKeepsSensitiveValuesOut(t *testing.T) {
	const email = "ada.lovelace@example.com"
	page := func(shown string) *screen.Screen {
		return shopPage("/", "d", "Shop",
			el("save", "button", screentest.Name("Save"), screentest.Kids(screentest.Txt("Save"))),
			el("who", "paragraph", screentest.Kids(screentest.Txt(shown))))
	}
	before, after := page("nobody"), page(email)
	s := newSession().click(before, "save")
	p, err := PreviewChange(s.recs, after, BuildOptions{BaseURL: shopOrigin, Sensitive: []string{email}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 1 || p.Only {
		t.Fatalf("PreviewChange() = %+v, want the one change, only not offered", p)
	}
	c := p.Changes[0]
	if strings.Contains(c.Text+c.Matcher+c.Why+p.OnlyWhy, email) || c.Matcher != "" {
		t.Errorf("the change shows the sensitive value or can be ticked: %+v (onlyWhy %q)", c, p.OnlyWhy)
	}
	s.assertChange(after, true, c.Key)
	bt, err := BuildSteps(s.recs, after, BuildOptions{BaseURL: shopOrigin, Sensitive: []string{email}})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range bt.Steps {
		for _, a := range st.Actions {
			if _, ok := a.(trail.AssertChange); ok {
				t.Errorf("an assertChange naming a sensitive change was recorded: %+v", a)
			}
		}
	}
	if strings.Contains(strings.Join(bt.Notes, "\n"), email) {
		t.Errorf("the notes show the sensitive value: %q", bt.Notes)
	}
}

// An element the person picked as one that must not change is written as a
// mustNotInclude matcher; one that did change in the action's own diff is
// refused with the change in words, as the assertion would fail where it
// was recorded.
func TestBuildStepsAssertChangeUnchangedPicks(t *testing.T) {
	closed, open := menuPages()
	unchanged := func(refs ...string) *session {
		return newSession().click(closed, "menu-button").add(InteractAssertChange, open, "", func(it *Interaction) { it.Unchanged = refs })
	}
	bt, err := BuildSteps(unchanged("d-home").recs, open, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	if len(bt.Steps) != 1 || len(bt.Steps[0].Actions) != 2 {
		t.Fatalf("steps = %+v, want the click and its assertChange", bt.Steps)
	}
	ac, ok := bt.Steps[0].Actions[1].(trail.AssertChange)
	if !ok || len(ac.MustNotInclude) != 1 || ac.MustNotInclude[0].Change != "" || !strings.Contains(ac.MustNotInclude[0].Selector.String(), "Trailpin Shop") {
		t.Fatalf("assertChange = %+v, want one mustNotInclude naming the home link, of any kind", bt.Steps[0].Actions[1])
	}
	if len(ac.MustInclude) != 0 || ac.Only != nil || ac.Changed != nil {
		t.Errorf("assertChange = %+v, want only the mustNotInclude", ac)
	}

	bt, err = BuildSteps(unchanged("menu-button").recs, open, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	if len(bt.Steps) != 1 || len(bt.Steps[0].Actions) != 1 {
		t.Errorf("steps = %+v, want the click alone: the button it picked did change", bt.Steps)
	}
	if notes := strings.Join(bt.Notes, "\n"); !strings.Contains(notes, "did change: state button \"Menu\"") {
		t.Errorf("notes = %q, want the refusal with the button's change in words", notes)
	}
}

// TestPreviewChangeLeavesWhatThePointerAloneShows: a control that shows only
// under the pointer (Swagger UI's "Copy path to clipboard" on an operation's
// summary) hides when a click elsewhere moves the pointer away. Replay moves
// the pointer only onto what the trail acts on, so that change cannot be
// ticked; the click's own change can.
func TestPreviewChangeLeavesWhatThePointerAloneShows(t *testing.T) {
	expanded := func(v bool) screentest.Opt { return screentest.Node(func(n *screen.Node) { n.Expanded = &v }) }
	copyButton := func(shown bool) *screentest.Spec {
		if !shown {
			return el("copy", "button", screentest.Name("Copy path"), screentest.Hidden())
		}
		return el("copy", "button", screentest.Name("Copy path"), screentest.Node(func(n *screen.Node) { n.RevealedBy = "summary" }))
	}
	page := func(open bool) *screen.Screen {
		return shopPage("/", "d", "Shop",
			el("summary", "button", screentest.Name("GET /plants"), screentest.Kids(screentest.Txt("GET /plants"))),
			copyButton(!open),
			el("menu-button", "button", screentest.Name("Menu"), expanded(open), screentest.Kids(screentest.Txt("Menu"))))
	}
	s := newSession().click(page(false), "menu-button")
	p, err := PreviewChange(s.recs, page(true), BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("PreviewChange() failed: %v", err)
	}
	hidden := offerByText(t, p, `style button "Copy path"`)
	if hidden.Matcher != "" || !strings.Contains(hidden.Why, "pointer") {
		t.Errorf("the copy button hiding as the pointer left: matcher %q, why %q; want it not tickable, because of the pointer", hidden.Matcher, hidden.Why)
	}
	if state := offerByText(t, p, `state button "Menu"`); state.Matcher == "" {
		t.Errorf("the click's own change cannot be ticked: %+v", state)
	}
}

// TestPreviewChangeLeavesWhatThePointerAloneSqueezes: Swagger UI's path
// text widens when the "Copy path" button beside it, shown only under the
// pointer, hides as a click elsewhere moves the pointer away (a random walk
// ticked that widening, and replay, whose pointer rests elsewhere, never
// saw it). A neighbour moved or squeezed by what the pointer alone shows is
// not tickable either; the click's own change still is.
func TestPreviewChangeLeavesWhatThePointerAloneSqueezes(t *testing.T) {
	expanded := func(v bool) screentest.Opt { return screentest.Node(func(n *screen.Node) { n.Expanded = &v }) }
	box := func(x, w float64) screentest.Opt {
		return screentest.Node(func(n *screen.Node) { n.Box = &screen.Box{X: x, Y: 10, Width: w, Height: 19} })
	}
	page := func(open bool) *screen.Screen {
		copyButton := el("copy", "button", screentest.Name("Copy path"), box(1060, 15), screentest.Node(func(n *screen.Node) { n.RevealedBy = "summary" }))
		pathWidth := 1052.0
		if open {
			copyButton = el("copy", "button", screentest.Name("Copy path"), screentest.Hidden())
			pathWidth = 1067.16
		}
		return shopPage("/", "d", "Shop",
			el("summary", "button", screentest.Name("GET /plants"), box(0, 1100),
				screentest.Kids(
					el("path", "generic", box(0, pathWidth), screentest.Kids(screentest.Txt("/plants"))),
					copyButton)),
			el("menu-button", "button", screentest.Name("Menu"), box(0, 60), expanded(open), screentest.Kids(screentest.Txt("Menu"))))
	}
	s := newSession().click(page(false), "menu-button")
	p, err := PreviewChange(s.recs, page(true), BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("PreviewChange() failed: %v", err)
	}
	squeezed := offerByText(t, p, `resized generic [path]`)
	if squeezed.Matcher != "" || !strings.Contains(squeezed.Why, "pointer") {
		t.Errorf("the path text widening as the copy button hid: matcher %q, why %q; want it not tickable, because of the pointer", squeezed.Matcher, squeezed.Why)
	}
	if state := offerByText(t, p, `state button "Menu"`); state.Matcher == "" {
		t.Errorf("the click's own change cannot be ticked: %+v", state)
	}
}

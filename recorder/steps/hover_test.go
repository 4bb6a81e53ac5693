package steps

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// choresScreen is a list of rows whose remove button shows only under the
// pointer; hovered names the row the pointer rests on ("" for none), whose
// button is shown and marked with the row it shows for.
func choresScreen(doc, hovered string, extra ...*screentest.Spec) *screen.Screen {
	return choresScreenWrapped(doc, hovered, false, extra...)
}

// choresScreenWrapped is choresScreen; with wrapped, each row's content is
// in a plain wrapper, and the wrapper's hover shows the button (TodoMVC's
// Polymer example: .view:hover .destroy).
func choresScreenWrapped(doc, hovered string, wrapped bool, extra ...*screentest.Spec) *screen.Screen {
	var rows []*screentest.Spec
	for _, r := range []struct{ key, title string }{{"feed", "Feed the cat"}, {"water", "Water the plants"}} {
		revealer := doc + "-" + r.key
		if wrapped {
			revealer += "-view"
		}
		remove := []screentest.Opt{screentest.Ref(doc + "-" + r.key + "-x"), screentest.Name("×"), screentest.Tag("button"), screentest.Kids(screentest.Txt("×"))}
		if r.title == hovered {
			remove = append(remove, screentest.Node(func(n *screen.Node) { n.RevealedBy = revealer }))
		} else {
			remove = append(remove, screentest.Hidden())
		}
		content := []*screentest.Spec{leaf(doc+"-"+r.key+"-l", "label", r.title), screentest.El("button", remove...)}
		if wrapped {
			content = []*screentest.Spec{el(revealer, "generic", screentest.Text(r.title), screentest.Kids(content...))}
		}
		rows = append(rows, el(doc+"-"+r.key, "listitem", screentest.Text(r.title), screentest.Kids(content...)))
	}
	body := append([]*screentest.Spec{
		el(doc+"-note", "textbox", labelled("Note")),
		el(doc+"-list", "list", screentest.Kids(rows...)),
	}, extra...)
	return shopPage("/chores", doc, "Chores", body...)
}

// TestBuildStepsHoverRevealed (issue 11, defects 1 and 2): a click on a
// button that only the pointer's hover shows records a hover over its row,
// then the tap within the row; a step ending while the pointer rests on a
// row does not pin the button the hover shows.
func TestBuildStepsHoverRevealed(t *testing.T) {
	hovered := choresScreen("d", "Water the plants")
	typedHovering := choresScreen("d", "Feed the cat", leaf("d-preview", "paragraph", "Preview: milk"))
	s := newSession().click(hovered, "d-water-x").typ(choresScreen("d", ""), "d-note", "milk").click(typedHovering, "d-feed-l")
	bt, err := BuildSteps(s.recs, typedHovering, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	if len(bt.Steps) < 2 {
		t.Fatalf("BuildSteps() gave %d steps, want at least 2: %+v", len(bt.Steps), bt.Steps)
	}
	var got []string
	for _, a := range bt.Steps[0].Actions {
		sel, _ := trail.ActionSelector(a)
		got = append(got, string(a.Kind())+" "+sel.String())
	}
	row := `{role: listitem, text: "Water the plants"}`
	want := []string{"hover " + row, `tap {role: button, name: "×", within: ` + row + "}"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("step 1 actions =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	typed := bt.Steps[1]
	if typed.End == nil {
		t.Fatalf("the typing step has no end: %+v", typed)
	}
	for _, sel := range typed.End.Shows {
		if sel.Name == "×" || strings.Contains(sel.Text, "×") || sel.Role == "button" {
			t.Errorf("the typing step ends showing %s: what the pointer revealed, not what the step changed", sel)
		}
	}
	if len(typed.End.Shows) == 0 {
		t.Errorf("the typing step's end shows nothing; want the preview it made")
	}
}

// TestBuildStepsHoverRevealedInWrapper: when the element whose hover shows
// the button is a plain wrapper inside the row, the button is still found
// within the row, and the hover goes over the wrapper's content; an
// assertion on what the pointer shows hovers first too.
func TestBuildStepsHoverRevealedInWrapper(t *testing.T) {
	hovered := choresScreenWrapped("d", "Water the plants", true)
	s := newSession().click(hovered, "d-water-x")
	s.add(InteractAssertVisible, choresScreen("d2", "Feed the cat"), "d2-feed-x", nil)
	bt, err := BuildSteps(s.recs, choresScreen("d2", ""), BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	var got []string
	for _, st := range bt.Steps {
		for _, a := range st.Actions {
			sel, _ := trail.ActionSelector(a)
			got = append(got, string(a.Kind())+" "+sel.String())
		}
	}
	want := []string{
		`hover {role: generic, text: "Water the plants"}`,
		`tap {role: button, name: "×", within: {role: listitem, text: "Water the plants"}}`,
		`hover {role: listitem, text: "Feed the cat"}`,
		`assertVisible {text: "×", within: {role: listitem, text: "Feed the cat"}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("actions =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestBuildStepsEndSkipsGlyphs: a node named only by a glyph (an icon
// font's "scroll to top" link that the page's scroll showed) is no end
// state; what the step made with words is.
func TestBuildStepsEndSkipsGlyphs(t *testing.T) {
	before := shopPage("/offices", "d", "Offices", el("d-q", "searchbox", labelled("Search")))
	after := shopPage("/offices", "d", "Offices", el("d-q", "searchbox", labelled("Search")),
		el("d-top", "link", screentest.Name("\uf106")),
		leaf("d-found", "paragraph", "Offices in London"),
		leaf("d-x", "button", "×"))
	s := newSession().typ(before, "d-q", "Lon")
	bt, err := BuildSteps(s.recs, after, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	end := bt.Steps[0].End
	if end == nil || len(end.Shows) != 1 || end.Shows[0].Text != "Offices in London" {
		t.Errorf("the step's end = %+v, want it to show the paragraph it made, and neither glyph", end)
	}
}

// TestBuildStepsHoverBeforeClick: a hover the extension reports before a
// click joins the click's step when the clicked element was not shown
// before it (a menu the pointer opened), and is dropped when it was.
func TestBuildStepsHoverBeforeClick(t *testing.T) {
	menu := func(doc string, open bool) *screen.Screen {
		panel := []screentest.Opt{screentest.Kids(leaf(doc+"-out", "button", "Sign out", screentest.ID("signout")))}
		if !open {
			panel = append(panel, screentest.Hidden())
		}
		return shopPage("/inbox", doc, "Inbox", leaf(doc+"-refresh", "button", "Refresh", screentest.ID("refresh")),
			el(doc+"-menu", "generic", screentest.Kids(leaf(doc+"-acct", "button", "Account", screentest.ID("account")), el(doc+"-panel", "generic", panel...))),
			el(doc+"-box", "checkbox", labelled("Keep me signed in"), checked("false")))
	}
	closed, open := menu("d", false), menu("d", true)
	s := newSession().
		add(InteractHover, closed, "d-acct", nil).click(open, "d-out").
		add(InteractHover, open, "d-acct", nil).click(open, "d-refresh").
		add(InteractHover, open, "d-acct", nil).click(open, "d-box").add(InteractCheck, open, "d-box", nil)
	bt, err := BuildSteps(s.recs, open, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	var got []string
	for _, st := range bt.Steps {
		var acts []string
		for _, a := range st.Actions {
			sel, _ := trail.ActionSelector(a)
			acts = append(acts, string(a.Kind())+" "+sel.String())
		}
		got = append(got, st.Intent+" :: "+strings.Join(acts, ", "))
	}
	want := []string{
		"Hover over the Account button and click the Sign out button :: hover {id: account}, tap {id: signout}",
		"Click the Refresh button :: tap {id: refresh}",
		`Check Keep me signed in :: check {role: checkbox, name: "Keep me signed in"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("BuildSteps() steps =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestBuildStepsHoverBeforeCheck: an outside agent's hover (recorded
// whatever follows) joins the assertVisible right after it when the check's
// element was not shown before it, as one step; before a check on what
// showed without it, and as the last thing recorded, it is a step of its
// own, so replay rests the pointer where the recording did.
func TestBuildStepsHoverBeforeCheck(t *testing.T) {
	menu := func(doc string, open bool) *screen.Screen {
		panel := []screentest.Opt{screentest.Kids(leaf(doc+"-out", "button", "Sign out", screentest.ID("signout")))}
		if !open {
			panel = append(panel, screentest.Hidden())
		}
		return shopPage("/inbox", doc, "Inbox", leaf(doc+"-refresh", "button", "Refresh", screentest.ID("refresh")),
			el(doc+"-menu", "generic", screentest.Kids(leaf(doc+"-acct", "button", "Account", screentest.ID("account")), el(doc+"-panel", "generic", panel...))))
	}
	closed, open := menu("d", false), menu("d", true)
	s := newSession().
		agentHover(closed, "d-acct", "claude").assertVisible(open, "d-out").
		agentHover(open, "d-acct", "claude").assertVisible(open, "d-refresh").
		agentHover(open, "d-refresh", "claude")
	want := []string{
		`hover {id: account}, assertVisible {text: "Sign out"}`,
		"hover {id: account}",
		"assertVisible {text: Refresh}",
		"hover {id: refresh}",
	}
	if got := stepActions(t, s, open); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("BuildSteps() steps =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}

	// A person's hover is sent only when entering the element changed the
	// page, right before the click or the check the bar's picker took: it
	// stays with a check on what it showed, and is left out before a check
	// on what showed without it, as before a click.
	s = newSession().
		hover(closed, "d-acct").assertVisible(open, "d-out").
		hover(open, "d-acct").assertVisible(open, "d-refresh")
	want = []string{
		`hover {id: account}, assertVisible {text: "Sign out"}`,
		"assertVisible {text: Refresh}",
	}
	if got := stepActions(t, s, open); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("BuildSteps() steps of a person's hovers =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// stepActions builds the session's steps and says each step's actions on a
// line, with their selectors.
func stepActions(t *testing.T, s *session, last *screen.Screen) []string {
	t.Helper()
	bt, err := BuildSteps(s.recs, last, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	var got []string
	for _, st := range bt.Steps {
		var acts []string
		for _, a := range st.Actions {
			sel, _ := trail.ActionSelector(a)
			acts = append(acts, string(a.Kind())+" "+sel.String())
		}
		got = append(got, strings.Join(acts, ", "))
	}
	return got
}

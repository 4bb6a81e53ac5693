package replay

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// peopleGrid is a grid of people, each row named by its cells, as a page
// model names a row without a name of its own; rows lists name, team and
// age.
func peopleGrid(document string, rows ...[3]string) *screen.Screen {
	cell := func(ref, text string) *screen.Node {
		return &screen.Node{Ref: ref, Role: "gridcell", Tag: "span", Name: text, Text: text, Visible: true}
	}
	grid := &screen.Node{Ref: "g", Role: "grid", Name: "People", Tag: "div", Visible: true, Children: []*screen.Node{
		{Ref: "h", Role: "row", Tag: "div", Name: "Name Team Age", Text: "Name Team Age", Visible: true},
	}}
	for i, r := range rows {
		ref := "r" + string(rune('1'+i))
		text := strings.Join(r[:], " ")
		grid.Children = append(grid.Children, &screen.Node{Ref: ref, Role: "row", Tag: "div", Name: text, Text: text, Visible: true,
			Children: []*screen.Node{cell(ref+"n", r[0]), cell(ref+"t", r[1]), cell(ref+"a", r[2])}})
	}
	return &screen.Screen{URL: "http://app.test/people", Document: document, Root: &screen.Node{Ref: "e1", Tag: "html", Visible: true, Children: []*screen.Node{
		{Ref: "e2", Role: "main", Tag: "main", Visible: true, Children: []*screen.Node{
			{Ref: "e3", Role: "heading", Tag: "h1", Name: "People", Text: "People", Visible: true},
			grid,
			{Ref: "del", Role: "button", Tag: "button", Name: "Delete selected", Text: "Delete selected", Visible: true},
		}},
	}}}
}

var (
	ada     = [3]string{"Ada Lovelace", "Research", "36"}
	ada37   = [3]string{"Ada Lovelace", "Research", "37"}
	adaOps  = [3]string{"Ada Lovelace", "Operations", "36"}
	bob     = [3]string{"Bob Jones", "Support", "44"}
	zed     = [3]string{"Zed Moor", "Legal", "51"}
	noRows  = [3]string{"No rows to show", "", ""}
	inAda36 = &selector.Selector{Role: "row", Name: "Ada Lovelace Research 36"}
)

// TestScopeEvidence: a selector whose scope (a row named by its cells)
// matched nothing because a value in the row changed is the app showing
// other values, expected vs actual; a scope gone, or that could be either
// of two rows, is selector-drift.
func TestScopeEvidence(t *testing.T) {
	tests := []struct {
		name             string
		screen           *screen.Screen
		sel              selector.Selector
		class            FailureClass
		expected, actual string
		says             string
	}{
		{"the age changed in its row", peopleGrid("d", ada37, bob), selector.Selector{Role: "gridcell", Text: "36", Within: inAda36},
			ClassAppBug, "36", "37", `gridcell "37" [ref=r1a] shows "37" in its place (the same text with other numbers); its scope {role: row, name: "Ada Lovelace Research 36"} is now row "Ada Lovelace Research 37" [ref=r1]`},
		{"the name still there in a row whose age changed", peopleGrid("d", ada37, bob), selector.Selector{Role: "gridcell", Text: "Ada Lovelace", Within: inAda36},
			ClassAppBug, "Ada Lovelace Research 36", "Ada Lovelace Research 37", `but row "Ada Lovelace Research 37" [ref=r1] is in its place (the same name with other numbers)`},
		{"a word changed in the row", peopleGrid("d", adaOps, bob), selector.Selector{Role: "gridcell", Text: "Research", Within: inAda36},
			ClassAppBug, "Ada Lovelace Research 36", "Ada Lovelace Operations 36", "(the same name with other words)"},
		{"the row is gone", peopleGrid("d", bob, zed), selector.Selector{Role: "gridcell", Text: "36", Within: inAda36}, ClassSelectorDrift, "", "", ""},
		{"two rows could be it", peopleGrid("d", ada37, [3]string{"Ada Lovelace", "Research", "35"}), selector.Selector{Role: "gridcell", Text: "36", Within: inAda36},
			ClassSelectorDrift, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			se := assertVisibleFailure(t, tc.screen, tc.sel, "")
			if got := classify(facts{err: se, screen: tc.screen}); got != tc.class {
				t.Fatalf("classify = %s (%s), want %s", got, se.Msg, tc.class)
			}
			if se.Expected != tc.expected || se.Actual != tc.actual || !strings.Contains(se.Msg, tc.says) {
				t.Errorf("expected %q, actual %q, message %q; want %q, %q and a message saying %q", se.Expected, se.Actual, se.Msg, tc.expected, tc.actual, tc.says)
			}
			if se.Selector == nil {
				t.Errorf("the error has no selector, so the failure would list no closest nodes")
			}
		})
	}
}

// TestStillThere: an end state whose node the step made did not show,
// and the page still shows, of that node's kind, only what it showed when
// the step began: the step did not do what it did when recorded (a delete
// that left a row), an app-bug. A new row in its place, no row at all, a
// control, a bare text or another document say nothing of the sort:
// selector-drift.
func TestStillThere(t *testing.T) {
	emptyRow := &selector.Selector{Role: "row", Name: "No rows to show"}
	tests := []struct {
		name           string
		before, now    *screen.Screen
		sel            selector.Selector
		class          FailureClass
		actual, reason string
	}{
		{"a delete that left one row of two", peopleGrid("d", ada, bob), peopleGrid("d", bob), *emptyRow,
			ClassAppBug, "Bob Jones Support 44", `row "Bob Jones Support 44" [ref=r1], as before`},
		{"a delete that did nothing", peopleGrid("d", ada, bob), peopleGrid("d", ada, bob), *emptyRow,
			ClassAppBug, "Bob Jones Support 44", `row "Bob Jones Support 44" [ref=r2], as before`},
		{"a row in its place that the step made", peopleGrid("d", ada, bob), peopleGrid("d", noRows2()), *emptyRow, ClassSelectorDrift, "", ""},
		{"a new row among the old", peopleGrid("d", ada, bob), peopleGrid("d", bob, zed), *emptyRow, ClassSelectorDrift, "", ""},
		{"a control the step should have shown", peopleGrid("d", ada, bob), peopleGrid("d", bob),
			selector.Selector{Role: "button", Name: "Undo delete"}, ClassSelectorDrift, "", ""},
		{"a bare text", peopleGrid("d", ada, bob), peopleGrid("d", bob), selector.Selector{Text: "No rows to show"}, ClassSelectorDrift, "", ""},
		{"another document", peopleGrid("d", ada, bob), peopleGrid("d2", bob), *emptyRow, ClassSelectorDrift, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := selector.NewMatcher(tc.now)
			_, err := m.Match(tc.sel)
			if err == nil {
				t.Fatalf("%s matches the screen; the test needs it to match nothing", tc.sel)
			}
			se := &stepError{Reason: StopEndMismatch, Selector: &tc.sel, Msg: "the step's end state did not show: " + err.Error()}
			p := &tab{r: &trailRun{stepStart: tc.before}, screen: tc.now, matcher: m}
			shownInPlace(se, m, p, tc.sel, err)
			if got := classify(facts{err: se, screen: tc.now}); got != tc.class {
				t.Fatalf("classify = %s (%s), want %s", got, se.Msg, tc.class)
			}
			if tc.class == ClassAppBug && (se.Expected != tc.sel.Name || se.Actual != tc.actual || !strings.Contains(se.Msg, tc.reason) ||
				!strings.Contains(se.Msg, "still shows what it showed when the step began")) {
				t.Errorf("expected %q, actual %q, message %q; want %q, %q and a message saying %q is still there", se.Expected, se.Actual, se.Msg, tc.sel.Name, tc.actual, tc.reason)
			}
		})
	}
}

// noRows2 is the empty-state row a grid shows, reworded.
func noRows2() [3]string { return [3]string{"Nothing here yet", "", ""} }

// TestControlRenamedIsDrift: a control that shows another name where an
// assertion expected its name was renamed (selector-drift), unless only
// its numbers or a word changed (a count on it, a name in it: app-bug);
// content in its place with other text stays an app-bug.
func TestControlRenamedIsDrift(t *testing.T) {
	page := func(n *screen.Node) *screen.Screen {
		return &screen.Screen{Root: &screen.Node{Ref: "e1", Tag: "html", Visible: true, Children: []*screen.Node{
			{Ref: "e2", Role: "main", Tag: "main", Visible: true, Children: []*screen.Node{n}},
		}}}
	}
	button := page(&screen.Node{Ref: "b", Role: "button", Tag: "button", Name: "Redeem", Text: "Redeem", Visible: true})
	cart := page(&screen.Node{Ref: "c", Role: "link", Tag: "a", Name: "Cart (2)", Text: "Cart (2)", Visible: true})
	pet := page(&screen.Node{Ref: "p", Role: "link", Tag: "a", Name: "Bire of paradise", Text: "Bire of paradise", Visible: true})
	status := page(&screen.Node{Ref: "s", Role: "status", Tag: "p", ID: "status", Text: "Failed to save", Visible: true})
	tests := []struct {
		name   string
		screen *screen.Screen
		sel    selector.Selector
		class  FailureClass
	}{
		{"a button renamed", button, selector.Selector{Role: "button", Name: "Apply"}, ClassSelectorDrift},
		{"a count on a link", cart, selector.Selector{Role: "link", Name: "Cart (3)"}, ClassAppBug},
		{"a word in a link", pet, selector.Selector{Role: "link", Name: "Bird of paradise"}, ClassAppBug},
		{"a status that says otherwise", status, selector.Selector{ID: "status", Text: "Saved"}, ClassAppBug},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			se := assertVisibleFailure(t, tc.screen, tc.sel, "")
			if got := classify(facts{err: se, screen: tc.screen}); got != tc.class {
				t.Fatalf("classify = %s (%s), want %s", got, se.Msg, tc.class)
			}
		})
	}
}

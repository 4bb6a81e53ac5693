package steps

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/selector"
)

// TestBuildStepsEnds checks what a step's end shows: the most telling nodes
// that appeared or changed, by selectors that find them without pinning a
// changing value, and nothing that was already there.
func TestBuildStepsEnds(t *testing.T) {
	page := func(doc string, kids ...*screentest.Spec) *screen.Screen {
		return shopPage("/orders", doc, "Orders", kids...)
	}
	runStepsCases(t, []stepsCase{
		{
			name: "messages first, then dialogs and headings; nothing inside what is chosen, no text with digits",
			rec: func() (*session, *screen.Screen) {
				before := page("d", leaf("rm", "button", "Remove"))
				after := page("d", leaf("rm", "button", "Remove"),
					leaf("gone", "paragraph", "3 items removed"),
					leaf("thanks", "generic", "Thanks"),
					leaf("saved", "status", "Saved"),
					el("confirm", "dialog", screentest.Name("Confirm"), screentest.Kids(
						leaf("confirm-h", "heading", "Confirm removal", level(2)),
						leaf("yes", "button", "Yes"))),
					leaf("details", "heading", "Details", level(2)),
					leaf("help", "link", "Help"),
				)
				return newSession().click(before, "rm"), after
			},
			start: "/orders",
			want:  []string{"Click the Remove button :: tap => /orders {role: status} {role: dialog, name: Confirm} {role: heading, name: Details}"},
		},
		{
			name: "a generated id is not used; a count line may change",
			rec: func() (*session, *screen.Screen) {
				before := page("d", leaf("add", "button", "Add"))
				after := page("d", leaf("add", "button", "Add"),
					el("cart", "link", screentest.ID("cart-7f3a9c2b"), screentest.Kids(leaf("cart-l", "generic", "Cart"), leaf("cart-n", "generic", "3 items"))))
				return newSession().click(before, "add"), after
			},
			start: "/orders",
			want:  []string{`Click the Add button :: tap => /orders {role: link, textRegex: "^Cart\\n\\d+ items?$"}`},
		},
		{
			name: "what changed counts only when it was not there before",
			rec: func() (*session, *screen.Screen) {
				before := page("d", leaf("follow", "button", "Follow"), leaf("count", "paragraph", "12 followers"), leaf("h", "heading", "Ada", level(1)))
				after := page("d", leaf("follow", "button", "Following"), leaf("count", "paragraph", "13 followers"), leaf("h", "heading", "Ada", level(1)))
				return newSession().click(before, "follow"), after
			},
			start: "/orders",
			want:  []string{"Click the Follow button :: tap => /orders {role: button, name: Following}"},
		},
		{
			name: "a test id before role and name, and never a sensitive text",
			rec: func() (*session, *screen.Screen) {
				before := page("d", leaf("who", "generic", testSensitive), leaf("go", "button", "Sign in"))
				after := page("d2", leaf("who2", "generic", testSensitive), leaf("hello", "heading", "Welcome back", level(1), screentest.TestID("welcome")),
					leaf("mail", "generic", "Mail for "+testSensitive))
				return newSession().mark(before, "who").click(before, "go"), after
			},
			start: "/orders",
			want:  []string{"Click the Sign in button :: tap => /orders {testId: welcome}"},
		},
		{
			name: "a new page is compared by what it shows",
			rec: func() (*session, *screen.Screen) {
				before := page("d", leaf("h", "heading", "Orders", level(1)), leaf("next", "link", "Next page"))
				after := page("d2", leaf("h2", "heading", "Orders", level(1)), leaf("prev", "link", "Previous page"), leaf("next2", "link", "Next page"))
				return newSession().click(before, "next"), after
			},
			start: "/orders",
			want:  []string{"Click the Next page link :: tap => /orders {role: link, name: \"Previous page\"}"},
		},
	})
}

// TestBuildStepsEndsLeaveChecksToAssertions: an end does not check first
// what the person's assertion right after the step checks (a changed text
// would stop the replay at the end, and the assertion would never run), and
// does not pin a text of many lines as one.
func TestBuildStepsEndsLeaveChecksToAssertions(t *testing.T) {
	page := func(doc string, kids ...*screentest.Spec) *screen.Screen {
		return shopPage("/form", doc, "Form", kids...)
	}
	before := page("d", leaf("go", "button", "Submit"))
	submitted := page("d", leaf("go", "button", "Submit"),
		leaf("msg", "generic", "Your form has been submitted!"),
		leaf("next", "link", "Fill in another"))
	menu := page("d", leaf("go", "button", "Submit"),
		el("menu", "generic", screentest.Kids(
			leaf("m1", "generic", "Reply"), leaf("m2", "generic", "Archive"),
			leaf("m3", "generic", "Delete"), leaf("m4", "generic", "Move"))))
	runStepsCases(t, []stepsCase{
		{
			name: "without an assertion after it, the end pins the message",
			rec: func() (*session, *screen.Screen) {
				return newSession().click(before, "go"), submitted
			},
			want: []string{`Click the Submit button :: tap => /form {role: link, name: "Fill in another"} {text: "Your form has been submitted!"}`},
		},
		{
			name: "the message the next step asserts is left to the assertion",
			rec: func() (*session, *screen.Screen) {
				return newSession().click(before, "go").assertVisible(submitted, "msg"), submitted
			},
			want: []string{
				`Click the Submit button :: tap => /form {role: link, name: "Fill in another"}`,
				`Check that "Your form has been submitted!" is shown :: assertVisible`,
			},
		},
		{
			name: "an assertion taken back by undo leaves the end as it was",
			rec: func() (*session, *screen.Screen) {
				return newSession().click(before, "go").assertVisible(submitted, "msg").undo(), submitted
			},
			want: []string{`Click the Submit button :: tap => /form {role: link, name: "Fill in another"} {text: "Your form has been submitted!"}`},
		},
		{
			name: "a menu is pinned by its lines, not as one text",
			rec: func() (*session, *screen.Screen) {
				return newSession().click(before, "go"), menu
			},
			want: []string{`Click the Submit button :: tap => /form {text: Reply} {text: Archive} {text: Delete}`},
		},
	})
}

// capturedScreen reads a screen the real page model captured from a
// fixture page of the diff's tests (recorder/screendiff/testdata).
func capturedScreen(t *testing.T, page, step string) *screen.Screen {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "screendiff", "testdata", "screens", page+"."+step+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var s screen.Screen
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// collapsedMenu is a menu of no area (its items float): hidden before,
// its items shown after. The menu itself shows the same both times, no
// area and not visible; each item became visible.
func collapsedMenu(open bool) (before, after *screen.Screen) {
	page := func(shown bool) *screen.Screen {
		item := func(ref, name string) *screentest.Spec {
			if shown {
				return leaf(ref, "menuitem", name)
			}
			return leaf(ref, "menuitem", name, screentest.Hidden())
		}
		s := shopPage("/orders", "d", "Orders",
			leaf("more", "button", "More"),
			el("actions", "menu", screentest.Name("Actions"), screentest.Kids(
				item("rename", "Rename"), item("delete", "Delete"), item("move", "Move"))))
		selector.NewMatcher(s).Node("actions").Visible = false
		return s
	}
	return page(false), page(open)
}

// TestEndAgreesWithDiff: every node a step's end pins is the after side of
// a change the diff of the two screens lists (what assertChange and the
// recording bar's Assert change read), of a kind that shows something new:
// added, possibly replaced, changed in content or state, or made visible.
func TestEndAgreesWithDiff(t *testing.T) {
	menuBefore, menuAfter := collapsedMenu(true)
	cases := []struct {
		name          string
		before, after *screen.Screen
		want          []string
	}{
		// The menu holds what changed but did not change itself: its
		// items became visible, and are what the end pins.
		{"collapsed menu opened", menuBefore, menuAfter, []string{"{role: menuitem, name: Rename}", "{role: menuitem, name: Delete}", "{role: menuitem, name: Move}"}},
		// Across documents the diff pairs nothing: the new page is one
		// added root, and what the page before showed too (the banner,
		// the heading) is no end.
		{"a new page", shopPage("/orders", "d", "Orders", leaf("h", "heading", "Orders", level(1)), leaf("next", "link", "Next page")),
			shopPage("/orders", "d2", "Orders", leaf("h2", "heading", "Orders", level(1)), leaf("prev", "link", "Previous page"), leaf("next2", "link", "Next page")),
			[]string{`{role: link, name: "Previous page"}`}},
	}
	// Screens the real page model captured.
	for page, want := range map[string][]string{
		// The menu was shown (its items with it); the button's expanded
		// state changed, but its name did not.
		"menu": {"{id: menu}"},
		// The status's text changed and a region was added: its heading
		// and a row of its table; the clock's time has digits.
		"details":    {`{role: status, text: "Details loaded"}`, "{role: heading, name: Details}", `{role: row, name: "Item Price"}`},
		"keyed-list": {`{role: listitem, text: "Call the bank"}`},
		// Moves, resizes and reordering show nothing new.
		"keyed-sort": nil,
		"layout":     {`{role: listitem, text: "Call the bank"}`},
		"soft-nav":   {"{role: article, name: Settings}"},
		"transition": nil,
	} {
		cases = append(cases, struct {
			name          string
			before, after *screen.Screen
			want          []string
		}{page, capturedScreen(t, page, "before"), capturedScreen(t, page, "after"), want})
	}
	shows := map[screendiff.Kind]bool{screendiff.Added: true, screendiff.PossibleReplacement: true,
		screendiff.Content: true, screendiff.State: true, screendiff.Style: true}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := newBuilder(nil, c.after, BuildOptions{BaseURL: c.after.URL})
			if err != nil {
				t.Fatal(err)
			}
			end := b.endShows(c.before, c.after, nil)
			res, err := screendiff.Diff(c.before, c.after, screendiff.Options{})
			if err != nil {
				t.Fatal(err)
			}
			changed := map[string]bool{}
			for k, ch := range res.Changes {
				if shows[ch.Kind] {
					for _, ref := range res.AfterRefs(k) {
						changed[ref] = true
					}
				}
			}
			ma := selector.NewMatcher(c.after)
			var got []string
			for _, sel := range end {
				got = append(got, sel.String())
				nodes, err := ma.Match(sel)
				var amb *selector.AmbiguousError
				if err != nil && !errors.As(err, &amb) {
					t.Errorf("end shows %s, which matches nothing after: %v", sel, err)
					continue
				}
				if !slices.ContainsFunc(nodes, func(n *screen.Node) bool { return changed[n.Ref] }) {
					t.Errorf("end shows %s, which the diff does not list as changed:\n%s", sel, res)
				}
				if amb == nil {
					if mr, err := res.Match(screendiff.Matcher{Selector: &sel}); err != nil || mr.Outcome == screendiff.NotFound {
						t.Errorf("the diff's matcher for %s says %v (%v)", sel, mr.Outcome, err)
					}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("end shows %q, want %q", got, c.want)
			}
		})
	}
}

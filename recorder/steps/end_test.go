package steps

import (
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
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

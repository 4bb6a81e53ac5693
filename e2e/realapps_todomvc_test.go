package e2e

import (
	"fmt"
	"testing"
)

// TodoMVC's plain-JavaScript example: a list whose rows have a checkbox, a
// delete button shown only under the pointer and a label edited by
// double-click, a counter split into <strong>3</strong> items left,
// filters in the URL's fragment, Enter and Escape in the edit box.
var todoMVC = &realApp{
	name: "todomvc", pkg: "todomvc", version: "0.1.1",
	start: "/examples/vanillajs/index.html",
	css:   []string{"examples/vanillajs/bower_components/todomvc-common/base.css"},
	pages: []string{"examples/vanillajs/index.html"},
	churnJS: []string{
		"examples/vanillajs/js/template.js", "examples/vanillajs/js/view.js", "examples/vanillajs/js/controller.js",
		"examples/vanillajs/js/helpers.js", "examples/vanillajs/bower_components/todomvc-common/base.js", "learn.json",
	},
	// "completed" is also the route #/completed the scripts compare the
	// fragment with.
	keep: []string{"completed"},
}

// todoRow is the CSS of the nth row (from 1).
func todoRow(n int) string { return fmt.Sprintf("#todo-list li:nth-child(%d)", n) }

func todoCount(text string) string { return textIs("#todo-count", text) }

var todoFlow = []flowAct{
	click("#new-todo", "document.activeElement.id === 'new-todo'"),
	typeText("Feed the cat\r", countIs("#todo-list li", 1)),
	typeText("Water the plants\r", countIs("#todo-list li", 2)),
	typeText("Buy milk\r", countIs("#todo-list li", 3)),
	typeText("Call the bank\r", all(countIs("#todo-list li", 4), todoCount("4 items left"))),
	assertVisible(todoRow(4) + " label"),
	// Row checkboxes.
	click(todoRow(1)+" .toggle", todoCount("3 items left")),
	click(todoRow(3)+" .toggle", all(todoCount("2 items left"), textIs("#clear-completed", "Clear completed (2)"))),
	assertVisible("#clear-completed"),
	// Filters.
	{Do: "click", CSS: `#filters a[href="#/active"]`, Wait: all("location.hash === '#/active'", countIs("#todo-list li", 2))},
	assertVisible(todoRow(2) + " label"),
	{Do: "click", CSS: `#filters a[href="#/completed"]`, Wait: all("location.hash === '#/completed'", countIs("#todo-list li", 2))},
	assertVisible(todoRow(1) + " label"),
	{Do: "click", CSS: `#filters a[href="#/"]`, Wait: all("location.hash === '#/'", countIs("#todo-list li", 4))},
	// The delete button shows under the pointer.
	hover(todoRow(4)),
	click(todoRow(4)+" .destroy", all(countIs("#todo-list li", 3), todoCount("1 item left"))),
	// Double-click editing: Control+A and a new title, then Enter.
	{Do: "dblclick", CSS: todoRow(2) + " label", Wait: countIs("#todo-list li.editing .edit", 1)},
	press("a", "(() => { const e = document.activeElement; return e.selectionStart === 0 && e.selectionEnd === e.value.length; })()", "Control"),
	typeText("Water the garden", valueIs(".edit", "Water the garden")),
	press("Enter", all(countIs(".editing", 0), textIs(todoRow(2)+" label", "Water the garden"))),
	assertVisible(todoRow(2) + " label"),
	// Escape leaves the title as it was.
	{Do: "dblclick", CSS: todoRow(3) + " label", Wait: countIs("#todo-list li.editing .edit", 1)},
	press("End", ""),
	typeText(" and eggs", valueIs(".edit", "Buy milk and eggs")),
	press("Escape", all(countIs(".editing", 0), textIs(todoRow(3)+" label", "Buy milk"))),
	// Mark all, unmark all.
	click("#toggle-all", todoCount("0 items left")),
	assertVisible("#clear-completed"),
	click("#toggle-all", todoCount("3 items left")),
	click(todoRow(1)+" .toggle", todoCount("2 items left")),
	assertVisible("#clear-completed"),
	click("#clear-completed", all(countIs("#todo-list li", 2), todoCount("2 items left"))),
	assertVisible(todoRow(2) + " label"),
	// A right-click on a row opens no menu of the app's: nothing changes.
	{Do: "rightclick", CSS: todoRow(1) + " label"},
	click("#new-todo", "document.activeElement.id === 'new-todo'"),
	typeText("Pay rent\r", all(countIs("#todo-list li", 3), todoCount("3 items left"))),
	{Do: "click", CSS: `#filters a[href="#/active"]`, Wait: all("location.hash === '#/active'", countIs("#todo-list li", 3))},
	assertVisible(todoRow(3) + " label"),
	{Do: "assertURL", Text: "/examples/vanillajs/index.html#/active"},
}

func TestRealAppTodoMVC(t *testing.T) {
	t.Parallel()
	runRealApp(t, todoMVC, todoFlow)
}

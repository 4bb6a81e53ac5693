package e2e

import (
	"fmt"
	"testing"
)

// JSONEditor's JSON schema validation example: a tree editor whose keys and
// values are contenteditable fields, with a row of icon buttons per node
// (drag, actions menu, expand) named only by their tooltips, a search box,
// an actions menu per row, a mode switch to a plain text editor, and schema
// validation that marks the invalid rows and lists its messages a moment
// (a debounce) after each change.
var jsonEditor = &realApp{
	name: "jsoneditor", pkg: "jsoneditor", version: "10.4.3",
	start: "/examples/07_json_schema_validation.html",
	// The page loads nothing from outside loopback (its link to
	// json-schema.org is only followed when clicked): no rewrites.
	css:     []string{"dist/jsoneditor.css"},
	pages:   []string{"examples/07_json_schema_validation.html"},
	churnJS: []string{"dist/jsoneditor.js"},
	keep: []string{
		// The editor builds these class names from data: 'jsoneditor-' + a
		// value's type, 'jsoneditor-type-' + a node's type and
		// 'jsoneditor-mode-' + the mode. A rebuild with hashed names would
		// keep them, and a rewrite of the literals cannot see them.
		"jsoneditor-array", "jsoneditor-boolean", "jsoneditor-date", "jsoneditor-null", "jsoneditor-number",
		"jsoneditor-object", "jsoneditor-string", "jsoneditor-url",
		"jsoneditor-type-array", "jsoneditor-type-auto", "jsoneditor-type-modes", "jsoneditor-type-object", "jsoneditor-type-string",
		"jsoneditor-mode-form", "jsoneditor-mode-preview", "jsoneditor-mode-view",
		// The bundle also holds Ace, Selectr and a colour picker, whose
		// class names are plain words the bundle uses as data too ("hidden"
		// an input's type, "multiple" and "selected" attributes, "svg" an
		// element): the churn renames only the editor's own names.
		"ace-jsoneditor", "ace_editor", "active", "autocomplete", "busy", "disabled", "dropdown", "excluded",
		"fadein", "has-main-menu-bar", "has-nav-bar", "has-selected", "has-status-bar", "hidden", "hint", "hover",
		"input-tag", "inverted", "item", "jump-to-line", "loading", "multiple", "native-open", "notice", "open",
		"optgroups", "ovh", "parse-error", "picker_wrapper", "pico-close", "pico-modal-header", "popup",
		"popup_bottom", "selected", "selectr-clear", "selectr-container", "selectr-desktop", "selectr-disabled",
		"selectr-empty", "selectr-hidden", "selectr-input", "selectr-input-clear", "selectr-input-container",
		"selectr-label", "selectr-match", "selectr-mobile", "selectr-notice", "selectr-optgroup",
		"selectr-optgroup--label", "selectr-option", "selectr-options", "selectr-options-container",
		"selectr-placeholder", "selectr-selected", "selectr-tag", "selectr-tag-input", "selectr-tag-remove",
		"selectr-tags", "selectr-visible", "show-all", "svg", "taggable", "visible", "validation-error",
	},
}

// jeRow is the CSS of the nth row (from 1) of the tree, and of rest
// inside it.
func jeRow(n int, rest string) string {
	return fmt.Sprintf("table.jsoneditor-tree > tbody > tr:nth-child(%d) %s", n, rest)
}

// jeValue and jeField are the editable value and key of the nth row.
func jeValue(n int) string { return jeRow(n, "div.jsoneditor-value") }
func jeField(n int) string { return jeRow(n, "div.jsoneditor-field") }

// jeFocused is a wait: the element css names has the focus.
func jeFocused(css string) string {
	return fmt.Sprintf("document.activeElement === document.querySelector(%s)", flowQuote(css))
}

// jeAllSelected is a wait: all of the focused field's text is selected.
const jeAllSelected = "getSelection().toString() === document.activeElement.textContent"

// jeRowValid is a wait: the validation, which runs a moment after a change,
// no longer marks the nth row.
func jeRowValid(n int) string {
	return fmt.Sprintf("!document.querySelector(%s).classList.contains('jsoneditor-validation-error')", flowQuote(jeRow(n, "")))
}

// jePathShows is a wait: the path bar, which follows the focus a moment
// (a debounce) after it moves, names key.
func jePathShows(key string) string {
	return fmt.Sprintf("[...document.querySelectorAll('.jsoneditor-navigation-bar .jsoneditor-treepath-element')].some((e) => e.textContent === %s)", flowQuote(key))
}

// jeEdit clicks the editable element css names, selects its text with
// Control+A and types text over it.
func jeEdit(css, text, wait string) []flowAct {
	return []flowAct{
		click(css, jeFocused(css)),
		press("a", jeAllSelected, "Control"),
		typeText(text, all(textIs(css, text), wait)),
	}
}

const jeMenu = ".jsoneditor-contextmenu"

var jsonEditorFlow = concatFlows(
	[]flowAct{
		// Rows: 1 the object, 2 firstName, 3 lastName, 4 gender, 5 age,
		// 6 availableToHire, 7 job (folded), which unfolds: 8 company,
		// 9 role, 10 salary. (The first click in the tree also shows the
		// path bar, a moment later: see docs/recording.md, Known limits of
		// the JSONEditor flow.)
		click(jeRow(7, "button.jsoneditor-collapsed"), textIs(jeField(10), "salary")),
	},
	// Values and a key, edited in place.
	jeEdit(jeValue(2), "Ada", "true"),
	jeEdit(jeValue(3), "Lovelace", "true"),
	jeEdit(jeValue(5), "36", "true"),
	// A key renamed, and checked: the path bar shows the new key a moment
	// later, and the check waits for it at a machine's pace too (see
	// docs/recording.md, Known limits of the JSONEditor flow).
	jeEdit(jeField(6), "hireable", jePathShows("hireable")),
	[]flowAct{assertVisible(jeField(6))},
	[]flowAct{
		// The actions menu of the last row appends a field after it, whose
		// key has the focus: the address the schema requires.
		click(jeRow(10, "button.jsoneditor-contextmenu-button"), "!!document.querySelector('"+jeMenu+"')"),
		click(jeMenu+" button.jsoneditor-append", all(textIs(jeField(11), ""), jeFocused(jeField(11)))),
		typeText("address", all(textIs(jeField(11), "address"), jePathShows("address"))),
		assertVisible(jeField(11)),
		// Fold everything, then unfold everything.
		click("button.jsoneditor-collapse-all", "!document.querySelector("+flowQuote(jeRow(2, ""))+") || !document.querySelector("+flowQuote(jeRow(2, ""))+").offsetParent"),
		click("button.jsoneditor-expand-all", textIs(jeField(11), "address")),
	},
	// A salary under the schema's minimum, raised: the row's mark goes.
	jeEdit(jeValue(10), "150", jeRowValid(10)),
	[]flowAct{
		click(jeValue(11), jeFocused(jeValue(11))),
		typeText("Main Street 1", all(textIs(jeValue(11), "Main Street 1"), jeRowValid(7))),
		// The search box finds the new last name.
		click(".jsoneditor-search input", jeFocused(".jsoneditor-search input")),
		typeText("Lovelace", textIs(".jsoneditor-results", "1 result")),
		assertVisible(".jsoneditor-results"),
		// The plain text editor lists what the schema still finds wrong:
		// the age was a string, and what is typed over it stays one.
		click("button.jsoneditor-modes", "!!document.querySelector('"+jeMenu+"')"),
		click(jeMenu+" li:nth-child(3) button", textIs(".jsoneditor-text-errors tr:nth-child(2) pre", "should be integer")),
		assertVisible(".jsoneditor-text-errors tr:nth-child(2) pre"),
		// Back to the tree, where the renamed key's row goes by its menu.
		click("button.jsoneditor-modes", "!!document.querySelector('"+jeMenu+"')"),
		click(jeMenu+" li:nth-child(4) button", textIs(jeField(6), "hireable")),
		click(jeRow(6, "button.jsoneditor-contextmenu-button"), "!!document.querySelector('"+jeMenu+"')"),
		click(jeMenu+" button.jsoneditor-remove", textIs(jeField(6), "job")),
		assertVisible(jeValue(5)),
	},
)

// concatFlows joins parts of a flow.
func concatFlows(parts ...[]flowAct) []flowAct {
	var out []flowAct
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestRealAppJSONEditor(t *testing.T) {
	t.Parallel()
	runRealApp(t, jsonEditor, jsonEditorFlow)
}

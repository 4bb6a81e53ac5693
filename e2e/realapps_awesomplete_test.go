package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// Awesomplete's demo page: autocomplete text fields (ARIA comboboxes) whose
// suggestions open in a list box under the field as a person types, chosen
// with the mouse or with the arrow keys and Enter; one that highlights its
// first suggestion, one that completes an e-mail address, one that takes
// several comma-separated values, and a combobox whose button opens all its
// choices. The list boxes all have the same label, their options are
// numbered by the order the widgets were made in (awesomplete_list_4_item_2)
// and the typed part of each suggestion is wrapped in a <mark>.
var awesomplete = &realApp{
	name: "awesomplete", pkg: "awesomplete", version: "1.1.7",
	start: "/index.html",
	rewrites: map[string]string{
		// The page's GitHub button, advertisement, Twitter button and
		// analytics come from outside, as does the country list of its
		// Ajax example (which then stays a plain text field).
		"https://ghbtns.com/github-btn.html*":      "/__empty?as=.html",
		"//cdn.carbonads.com/carbon.js*":           "/__empty?as=.js",
		"p+'://platform.twitter.com/widgets.js'":   "'/__empty?as=.js'",
		"//www.google-analytics.com/analytics.js":  "/__empty?as=.js",
		"https://restcountries.eu/rest/v1/lang/fr": "/__empty?as=.json",
	},
	css:     []string{"awesomplete.css", "style.css"},
	pages:   []string{"index.html"},
	churnJS: []string{"awesomplete.js", "index.js"},
	// Prism, which colours the page's code samples, reads its language
	// from class names ("language-markup"): a library the churn leaves.
	libraryJS: []string{"prism/prism.js"},
	// The page prints its own markup and the scripts it runs as code
	// samples (Prism colours a script's text where it stands): the class
	// names they hold are text a person reads, which the churned copy
	// shows renamed. The churn check reads them as <volatile>.
	volatile: []string{`class=\\?"[^"\\]*\\?"`, `'(?:input)?\.[\w-]+'`},
	// The widget's style sheet names two classes (its container and the
	// status line hidden from sight; a highlighted suggestion is marked by
	// an attribute), the page seven more: the churn renames all nine.
	fewClasses: "a 2 KB widget and its demo page: nine class names of their own",
}

// Where the widgets are: the field of each demo, and its list box (the
// widget wraps the field in a container and puts the list after it).
const (
	awFirst    = "input[autofocus]"
	awAutoFst  = "input[data-autofirst]"
	awEmail    = "input[type=email]"
	awTags     = "input[data-multiple]"
	awCombo    = "input.dropdown-input"
	awComboBtn = "button.dropdown-btn"
)

func awList(field string) string { return field + " ~ ul" }

// awOption is the CSS of the nth suggestion (from 1) under field.
func awOption(field string, n int) string {
	return fmt.Sprintf("%s > li:nth-child(%d)", awList(field), n)
}

// awShows is a wait: the list box under field is open and lists exactly
// these suggestions, in this order.
func awShows(field string, options ...string) string {
	return fmt.Sprintf("(() => { const u = document.querySelector(%s); return !!u && !u.hidden && [...u.children].map((li) => li.textContent).join('|') === %s; })()",
		flowQuote(awList(field)), flowQuote(strings.Join(options, "|")))
}

// awClosed is a wait: the list box under field is closed.
func awClosed(field string) string {
	return fmt.Sprintf("document.querySelector(%s).hidden", flowQuote(awList(field)))
}

// awHighlighted is a wait: the nth suggestion under field is the one the
// keys highlighted.
func awHighlighted(field string, n int) string {
	return fmt.Sprintf("document.querySelector(%s).getAttribute('aria-selected') === 'true'", flowQuote(awOption(field, n)))
}

func awFocused(css string) string {
	return fmt.Sprintf("document.activeElement === document.querySelector(%s)", flowQuote(css))
}

var awesompleteFlow = []flowAct{
	// The first field: two letters open the suggestions, the arrow keys
	// walk them, Enter takes one.
	click(awFirst, awFocused(awFirst)),
	typeText("ja", awShows(awFirst, "Java", "JavaScript")),
	press("ArrowDown", awHighlighted(awFirst, 1)),
	press("ArrowDown", awHighlighted(awFirst, 2)),
	press("Enter", all(valueIs(awFirst, "JavaScript"), awClosed(awFirst))),
	assertValue(awFirst),
	// Typed over, and Escape closes the suggestions without taking one.
	press("a", "document.activeElement.selectionStart === 0 && document.activeElement.selectionEnd === 10", "Control"),
	typeText("ru", awShows(awFirst, "Ruby on Rails")),
	press("Escape", all(awClosed(awFirst), valueIs(awFirst, "ru"))),
	// The field that highlights its first suggestion: Enter takes it.
	click(awAutoFst, awFocused(awAutoFst)),
	typeText("ru", all(awShows(awAutoFst, "Ruby on Rails"), awHighlighted(awAutoFst, 1))),
	press("Enter", all(valueIs(awAutoFst, "Ruby on Rails"), awClosed(awAutoFst))),
	assertValue(awAutoFst),
	// The e-mail field completes the domain; the mouse takes one.
	click(awEmail, awFocused(awEmail)),
	typeText("ada@ho", awShows(awEmail, "ada@hotmail.com", "ada@hotmail.co.uk")),
	click(awOption(awEmail, 2), all(valueIs(awEmail, "ada@hotmail.co.uk"), awClosed(awEmail))),
	assertValue(awEmail),
	// Several values, each chosen from its own suggestions.
	click(awTags, awFocused(awTags)),
	typeText("sv", awShows(awTags, "SVG")),
	click(awOption(awTags, 1), all(valueIs(awTags, "SVG, "), awClosed(awTags))),
	typeText("ml", awShows(awTags, "HTML", "MathML")),
	press("ArrowUp", awHighlighted(awTags, 2)),
	press("Enter", all(valueIs(awTags, "SVG, MathML, "), awClosed(awTags))),
	assertValue(awTags),
	// The combobox: its button lists every choice. The check of a listed
	// choice reads "MathML", which the closed list of the field above
	// still holds, hidden.
	click(awComboBtn, awShows(awCombo, "CSS", "SVG", "ARIA", "HTML", "MathML", "JavaScript")),
	assertVisible(awOption(awCombo, 5)),
	click(awOption(awCombo, 3), all(valueIs(awCombo, "ARIA"), awClosed(awCombo))),
	assertValue(awCombo),
	click(awComboBtn, awShows(awCombo, "CSS", "SVG", "ARIA", "HTML", "MathML", "JavaScript")),
	click(awOption(awCombo, 4), all(valueIs(awCombo, "HTML"), awClosed(awCombo))),
	assertValue(awCombo),
	// The field itself filters the same choices as it is typed into.
	click(awCombo, awFocused(awCombo)),
	press("a", "document.activeElement.selectionStart === 0 && document.activeElement.selectionEnd === 4", "Control"),
	typeText("ja", awShows(awCombo, "JavaScript")),
	press("ArrowDown", awHighlighted(awCombo, 1)),
	press("Enter", all(valueIs(awCombo, "JavaScript"), awClosed(awCombo))),
	// The page's table of contents.
	{Do: "click", CSS: `nav a[href="#advanced-examples"]`, Wait: "location.hash === '#advanced-examples'"},
	{Do: "assertURL", Text: "/index.html#advanced-examples"},
}

func TestRealAppAwesomplete(t *testing.T) {
	t.Parallel()
	runRealApp(t, awesomplete, awesompleteFlow)
}

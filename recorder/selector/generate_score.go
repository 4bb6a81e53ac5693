package selector

// Costs of the properties a generated selector may use. Lower is better: the
// generator picks the cheapest selector that names the target alone, and the
// review menu is ranked by the same sums. A selector costs the sum of its
// parts; a within scope costs its own parts plus costWithin.
const (
	// costTestID: a test id is written for tests and survives copy, layout
	// and styling changes.
	costTestID = 10
	// costID: a stable id is deliberate too, but ids double as styling and
	// script hooks and are renamed more often than test ids.
	costID = 20
	// costCountedID: an id that reads as a name and a counter (sl-tab-2,
	// theme_419, LooksCounted) changes when the library numbers its parts
	// otherwise or the page loads again; it is dearer than every property
	// and scope, so it is used only where nothing else names the element
	// alone, and still cheaper than a position.
	costCountedID = 500
	// costRoleName: what a person or a model sees the element as. It survives
	// any change of markup and breaks only when the control is reworded.
	costRoleName = 30
	// costLabel: a field's label, as meaningful as role + name; chosen when
	// the name is missing or shared.
	costLabel = 34
	// costPlaceholder: a hint, reworded more freely than labels.
	costPlaceholder = 38
	// costAdjacentLabel: the short text right before an unlabelled field
	// (<span>Country</span> <input>) names it only while the layout keeps
	// the two side by side; a row's title or a wrapper named by that text
	// is preferred, a position never.
	costAdjacentLabel = 150
	// costText: for an action, its text is what changes between runs
	// (prices, counts, names); used when nothing steadier is unique.
	costText = 60
	// costPinned: for an assertion the text is the claim, so keeping it
	// costs nothing; the cheapest way to make it unique is added to it.
	costPinned = 0
	// costCountTolerance: the count-tolerant form is a regex, a little
	// harder to read than plain text.
	costCountTolerance = 1
	// costAnyNumber: a name read with any number in place of its own
	// ("^Cart \d+ items?$") matches more than the exact name, so it costs
	// more: the review may prefer it for a tap whose count changes.
	costAnyNumber = 3
	// costRole: a role alone says little, since many elements share one; it
	// names the element only when nothing else on the screen has its role.
	costRole = 70
	// costRoleQualifier: a role added to text, a label or an id is cheap
	// and makes the selector read better.
	costRoleQualifier = 2
	// costGenericQualifier: "generic" adds little meaning; it tells a plain
	// div from a paragraph or a heading with the same text.
	costGenericQualifier = 8
	// costWithin: structure ties the element to a container and breaks when
	// the layout is reorganised.
	costWithin = 40
	// costRowTitle: a row found by its title breaks when the title changes,
	// and only then; cheaper than an index, dearer than a name.
	costRowTitle = 30
	// costFieldTitle: a plain wrapper found by the text that names the field
	// in it ("Size" beside an unlabelled drop-down) holds as long as that
	// text does, like a row's title, but a wrapper is more often rearranged
	// than a row; a row's title or a named group is preferred.
	costFieldTitle = 36
	// costRowSecondLine: a row found by its title and the line after it
	// depends on two lines staying the same; tried when the title alone is
	// shared.
	costRowSecondLine = 4
	// costHeadingTitle: a plain container found by the heading or legend
	// it opens with (a form under "Horizontal", a fieldset's "Shipping")
	// holds while that title does, like a row's title.
	costHeadingTitle = 30
	// costLabelTitle: a plain container found by the label-like line it
	// opens with (a field group's "Radio", a form's first field label) is
	// as steady as a field group's title.
	costLabelTitle = 36
	// costScopeDepth: among scopes that cost the same, the nearer container
	// is the one a reader expects.
	costScopeDepth = 1
	// costIndex: a position breaks on reordering and on any new sibling; it
	// is the last resort, after every property and scope.
	costIndex = 1000
	// costIndexCandidate: every element an index counts among is one more
	// that can be added, removed or moved; among index fallbacks, the one
	// counting among fewer elements (the buttons, not everything reading
	// "Delete") holds longer.
	costIndexCandidate = 5
)

// idCost is what an id or test id costs: cost, or costCountedID for one
// that reads as a name and a counter.
func idCost(id string, cost int) int {
	if LooksCounted(id) {
		return costCountedID
	}
	return cost
}

// maxScopeName is the longest name a container is scoped by: a dialog's,
// a region's or a group's name is a few words ("Remove address", "Shipping
// options"); a longer one is the container's content read out, which
// changes with it.
const maxScopeName = 60

// Roles that name nothing: "generic" is a plain div or span, "none" and
// "presentation" have had their role removed. Their name, if any, is not
// used with role.
var unnamedRoles = map[string]bool{"": true, "generic": true, "none": true, "presentation": true}

// controlRoles are what a click, a key press or a choice is aimed at. A click
// on anything inside one (the span in a button, the img in a link) is a click
// on it.
var controlRoles = map[string]bool{
	"button": true, "link": true, "checkbox": true, "radio": true, "switch": true,
	"menuitem": true, "menuitemcheckbox": true, "menuitemradio": true, "tab": true,
	"option": true, "treeitem": true, "textbox": true, "searchbox": true,
	"combobox": true, "spinbutton": true, "slider": true,
}

// scopeRoles are containers that can scope a selector by their role alone
// when the screen has one of them (one dialog, one main).
var scopeRoles = map[string]bool{
	"dialog": true, "alertdialog": true, "main": true, "navigation": true, "banner": true,
	"contentinfo": true, "complementary": true, "search": true, "form": true,
	"region": true, "table": true, "grid": true, "treegrid": true, "list": true,
	"listbox": true, "menu": true, "menubar": true, "toolbar": true, "tablist": true,
	"tabpanel": true, "tree": true, "radiogroup": true, "group": true, "figure": true,
	"article": true,
}

// rowRoles are repeated containers told apart by their title.
var rowRoles = map[string]bool{"listitem": true, "row": true, "article": true, "treeitem": true}

// IsUnnamedRole reports whether role is one whose name a selector does not
// pin beside the role: no role, generic, none or presentation.
func IsUnnamedRole(role string) bool { return unnamedRoles[role] }

// IsControlRole reports whether role is one a click, a key press or a
// choice is aimed at.
func IsControlRole(role string) bool { return controlRoles[role] }

// IsScopeRole reports whether role is a container that can scope a selector
// by its role alone.
func IsScopeRole(role string) bool { return scopeRoles[role] }

// IsRowRole reports whether role is a repeated container told apart by its
// title.
func IsRowRole(role string) bool { return rowRoles[role] }

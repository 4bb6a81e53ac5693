package selector

import "slices"

// roles are the roles a selector may name, sorted: the ARIA roles the page
// model reports, named as Playwright names them (with generic, none and
// presentation), and iframe, the role a screen gives a frame as Playwright's
// snapshots do. A role outside them matches nothing, so the generator never
// writes one, Validate and the trail loader refuse one as a typo, and
// docs/trail.schema.json lists exactly these (TestSchemaRolesAreTheSelectorRoles).
// The page model's list (ARIA_ROLES in extension/) is kept equal to it by
// TestRolesAreThePageModelRoles.
var roles = []string{
	"alert", "alertdialog", "application", "article", "banner", "blockquote", "button",
	"caption", "cell", "checkbox", "code", "columnheader", "combobox", "complementary",
	"contentinfo", "definition", "deletion", "dialog", "directory", "document", "emphasis",
	"feed", "figure", "form", "generic", "grid", "gridcell", "group", "heading", "iframe", "img",
	"insertion", "link", "list", "listbox", "listitem", "log", "main", "mark", "marquee",
	"math", "menu", "menubar", "menuitem", "menuitemcheckbox", "menuitemradio", "meter",
	"navigation", "none", "note", "option", "paragraph", "presentation", "progressbar",
	"radio", "radiogroup", "region", "row", "rowgroup", "rowheader", "scrollbar", "search",
	"searchbox", "separator", "slider", "spinbutton", "status", "strong", "subscript",
	"superscript", "switch", "tab", "table", "tablist", "tabpanel", "term", "textbox",
	"time", "timer", "toolbar", "tooltip", "tree", "treegrid", "treeitem",
}

// Roles returns the roles a selector may name, sorted.
func Roles() []string { return slices.Clone(roles) }

// IsRole reports whether a selector may name role.
func IsRole(role string) bool {
	_, found := slices.BinarySearch(roles, role)
	return found
}

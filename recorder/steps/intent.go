package steps

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Intents are written for a person, in the imperative, and stay editable:
// "Click the Checkout button", "Type SUMMER into Discount code", "Check that
// "Total $1,438.20" is shown". Elements are called what a person sees them
// as (name, label, placeholder, title, text); app text is quoted as it is,
// with nothing escaped (the trail writer quotes for YAML). Nothing marked
// sensitive and no secret's value is ever written into one.

// Lengths past which app text in an intent is cut with "…": an intent is
// one line a person reads at a glance; the action holds the whole text.
const (
	maxIntentName = 60
	maxIntentText = 80
)

// intentFrom joins the phrases of a step into its intent: "Type iphone
// into Search and press Enter".
func intentFrom(phrases []string) string {
	var s string
	switch len(phrases) {
	case 0:
		return ""
	case 1:
		s = phrases[0]
	default:
		s = strings.Join(phrases[:len(phrases)-1], ", ") + " and " + phrases[len(phrases)-1]
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// roleWords say what kind of element a role is, after its name: "the
// Checkout button". Roles without one are named by their text alone.
var roleWords = map[string]string{
	"button": "button", "link": "link", "tab": "tab", "menuitem": "menu item",
	"menuitemcheckbox": "menu item", "menuitemradio": "menu item", "option": "option",
	"treeitem": "item", "checkbox": "checkbox", "radio": "option", "switch": "switch",
	"textbox": "field", "searchbox": "search field", "combobox": "list", "listbox": "list",
	"spinbutton": "field", "slider": "slider", "img": "image", "heading": "heading",
	"dialog": "dialog", "alertdialog": "dialog", "status": "message", "alert": "message",
	"tooltip": "tooltip", "row": "row", "cell": "cell", "listitem": "item", "menu": "menu",
	"navigation": "navigation", "table": "table", "region": "section", "form": "form",
	"progressbar": "progress bar", "meter": "meter", "separator": "separator",
}

// usableText returns s with white space collapsed, without icon-font
// glyphs, and cut to max runes, or "" when it shows a sensitive value or
// nothing but glyphs (an icon drawn from a private-use character reads as
// nothing to a person: the intent names the control by what is around it).
func (b *builder) usableText(s string, max int) string {
	s = selector.StripIconGlyphs(screen.CollapseSpace(s))
	if s == "" || selector.IsIconGlyphsOnly(s) || b.taint.Leaks(s) {
		return ""
	}
	return screen.Clip(s, max)
}

// title is what a person calls an element: its name, label, placeholder,
// title or first line of text, the first of them that is shown and not
// sensitive.
func (b *builder) title(n *screen.Node) string {
	if n == nil {
		return ""
	}
	first, _, _ := strings.Cut(n.Text, "\n")
	if n.Secret || selector.HasGeneratedText(n) || n.Role == "combobox" {
		// A checkbox's ☐ drawn from ::after is its state, not its title; a
		// drop-down's text is the option it shows now.
		first = ""
	}
	name := n.Name
	if exact, pattern := selector.PinText(n.Text); exact == "" && pattern != "" && name == screen.CollapseSpace(n.Text) {
		// "Cart\n2 items" is the Cart link: the count changes.
		name = n.Text[:strings.LastIndexByte(n.Text, '\n')]
	}
	for _, s := range []string{name, n.Label, n.Placeholder, n.Title, first} {
		if t := b.usableText(s, maxIntentName); t != "" {
			return t
		}
	}
	return ""
}

// titleOn is title with the element's own name read as a person names it
// (ownName), and the row that then tells it apart, -1 for none.
func (b *builder) titleOn(s *screen.Screen, n *screen.Node) (string, int32) {
	if n == nil || n.Name == "" {
		return b.title(n), -1
	}
	name, row := b.ownName(s, n)
	if row < 0 && name == n.Name {
		return b.title(n), -1
	}
	if t := b.usableText(name, maxIntentName); t != "" {
		return t, row
	}
	return b.title(n), -1
}

// fieldTitle is what a person calls a field: its label before its name
// (a name may come from a description), then the rest as title does.
func (b *builder) fieldTitle(n *screen.Node) string {
	if n == nil {
		return ""
	}
	if t := b.usableText(n.Label, maxIntentName); t != "" {
		return t
	}
	return b.title(n)
}

// thing names an element with its kind and, when its selector needs one,
// the container or position that tells it apart: "the Checkout button",
// "the Add to cart button in iPhone 17", "the second Delete button",
// ""Free shipping"" (text without a kind). An element with no title of its
// own (an icon-only button) is named by its place when its selector does
// not scope it: "the button in the sidebar".
func (b *builder) thing(s *screen.Screen, n *screen.Node, sel selector.Selector) string {
	t, row := b.titleOn(s, n)
	word := roleWords[n.Role]
	scope := ""
	if sel.Within != nil {
		scope = b.scopeTitle(s, *sel.Within, t)
	}
	if scope == "" {
		// A help text or a name without its row's content is the same on
		// every row: the row says which.
		scope = b.rowPlace(s, row)
	}
	if m := clickTo.FindStringSubmatch(t); m != nil && isHelpText(n) && word != "" {
		out := "the " + ordinal(sel.Index) + word + " to " + m[1]
		if scope != "" {
			out += " in " + scope
		}
		return out
	}
	var out string
	switch {
	case t == "" && n.Secret && selector.IsControlRole(n.Role):
		out = "the secret field"
	case t == "" && (n.Secret || b.taint.Leaks(n.Text) || b.taint.Leaks(n.Name)):
		// Its index counts elements of its role, not sensitive texts.
		out = "the text marked sensitive"
	case t != "" && word != "":
		out = "the " + ordinal(sel.Index) + t + " " + word
	case t != "":
		out = quote(t)
		if sel.Index != nil {
			out = "the " + ordinal(sel.Index) + out
		}
	case word != "" && scope == "":
		if p := b.placePhrase(s, n, word); p != "" {
			return p
		}
		out = "the " + ordinal(sel.Index) + word
	case word != "":
		out = "the " + ordinal(sel.Index) + word
	default:
		out = "the " + ordinal(sel.Index) + "element"
	}
	if scope != "" {
		out += " in " + scope
	}
	return out
}

// placePhrase names a control with no title of its own by the part of the
// page it lies in and, when that part holds other such controls of its
// kind, its position among them: "the button in the sidebar", "the first
// button in the navigation". The part is the nearest container a person
// can point at: a row (by its title), a landmark or named group (by its
// name or kind), or an element whose stable id names a part of the page
// (SB Admin 2's accordionSidebar is "the sidebar"). It is "" when nothing
// around the control names a part.
func (b *builder) placePhrase(s *screen.Screen, n *screen.Node, word string) string {
	m := b.matcher(s)
	p, ok := m.Position(n.Ref)
	if !ok {
		return ""
	}
	for a := m.Parent(p); a >= 0; a = m.Parent(a) {
		place := b.placeTitle(m, a)
		if place == "" {
			continue
		}
		// Its position among the controls of its kind in that part that
		// have no title either (the titled ones are named by theirs).
		nth, count := 0, 0
		for j := a + 1; j < m.End(a); j++ {
			c := m.Nodes()[j]
			if c.Role != n.Role || !m.Shown(j) && j != p || b.title(c) != "" {
				continue
			}
			if j == p {
				nth = count
			}
			count++
		}
		if count > 1 {
			return "the " + ordinal(&nth) + word + " in " + place
		}
		return "the " + word + " in " + place
	}
	return ""
}

// placeWords name the landmarks a person calls by their kind when they
// have no name: "the header", "the sidebar".
var placeWords = map[string]string{
	"banner": "the header", "contentinfo": "the footer", "complementary": "the sidebar",
	"navigation": "the navigation", "main": "the main content", "search": "the search",
	"toolbar": "the toolbar", "menubar": "the menu bar", "menu": "the menu", "tablist": "the tabs",
	"dialog": "the dialog", "alertdialog": "the dialog",
}

// placeNouns are the words of an id that name a part of a page: an id
// whose words hold one ("accordionSidebar", "main-nav", "page_footer")
// names the part by it.
var placeNouns = map[string]string{
	"sidebar": "sidebar", "topbar": "topbar", "navbar": "navigation bar", "nav": "navigation",
	"navigation": "navigation", "header": "header", "footer": "footer", "toolbar": "toolbar",
	"menubar": "menu bar", "menu": "menu", "panel": "panel", "drawer": "drawer", "modal": "dialog",
	"dialog": "dialog", "breadcrumb": "breadcrumb", "breadcrumbs": "breadcrumbs",
	"pagination": "pagination", "tabs": "tabs", "tabbar": "tab bar", "statusbar": "status bar",
}

// placeTitle names the container at position a as a part of the page, or
// "" when a person would not point at it by itself.
func (b *builder) placeTitle(m *selector.Matcher, a int32) string {
	c := m.Nodes()[a]
	if selector.IsRowRole(c.Role) {
		return b.usableText(selector.RowTitle(m, a), maxIntentName)
	}
	if kind, ok := placeWords[c.Role]; ok {
		if t := b.usableText(c.Name, maxIntentName); t != "" {
			return "the " + t + " " + strings.TrimPrefix(kind, "the ")
		}
		return kind
	}
	if contextRoles[c.Role] {
		if t := b.usableText(c.Name, maxIntentName); t != "" {
			return "the " + t + " " + roleWords[c.Role]
		}
	}
	if c.ID != "" && !selector.LooksGenerated(c.ID) {
		for _, w := range idWords(c.ID) {
			if noun, ok := placeNouns[w]; ok {
				return "the " + noun
			}
		}
	}
	return ""
}

// idWords splits an id into its lower-case words at case changes and at
// - _ . : ("accordionSidebar" is accordion, sidebar), last word first: the
// head of a compound is its last word ("sidebarToggle" is a toggle).
func idWords(id string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range id {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	slices.Reverse(words)
	return words
}

// scopeTitle names the container a within selector resolves to: a row or
// card by its title ("iPhone 17"), another container by its name and kind
// ("the Remove address dialog"), less the control's own title own where
// the container's name ends with it.
func (b *builder) scopeTitle(s *screen.Screen, within selector.Selector, own string) string {
	m := b.matcher(s)
	got, err := m.Match(within)
	if err != nil || len(got) != 1 {
		return ""
	}
	n := got[0]
	name := n.Name
	if own != "" && strings.HasSuffix(name, " "+own) {
		// A heading that holds its collapse button is named with the
		// button's name last ("orders Orders and their delivery Collapse
		// operation"): that part says nothing of where the button is.
		name = strings.TrimSpace(strings.TrimSuffix(name, " "+own))
	}
	if t := b.usableText(name, maxIntentName); t != "" && !(selector.IsRowRole(n.Role) && strings.Contains(n.Name, screen.CollapseSpace(n.Text))) {
		if word := roleWords[n.Role]; word != "" && !selector.IsRowRole(n.Role) {
			return "the " + t + " " + word
		}
		return t
	}
	if p, ok := m.Position(n.Ref); ok {
		return b.usableText(selector.RowTitle(m, p), maxIntentName)
	}
	return ""
}

// namedField is what a person calls a field: its own title, or, for a field
// with no name of its own, what names it around it (contextTitle).
func (b *builder) namedField(s *screen.Screen, n *screen.Node) string {
	if n != nil && n.Editable {
		// Text edited in place (a tree editor's value) holds the value
		// typed over, which names nothing: its label, else what names it
		// beside it (the value's key), else its placeholder or tooltip.
		if t := b.usableText(n.Label, maxIntentName); t != "" {
			return t
		}
		if t := b.contextTitle(s, n); t != "" {
			return t
		}
		for _, t := range []string{n.Placeholder, n.Title} {
			if t = b.usableText(t, maxIntentName); t != "" {
				return t
			}
		}
		return ""
	}
	if t := b.fieldTitle(n); t != "" {
		return t
	}
	return b.contextTitle(s, n)
}

// contextTitle is what names a control that has no name of its own: the
// text beside it in the plain wrapper they share (selector.FieldGroup), the
// label-like text right before it (selector.AdjacentText), the
// title of the list item, table row or card it lies in (the checkbox of a
// todo row is "Feed the cat"), or the name of the field group it lies in
// (a fieldset's legend). It is "" when nothing around it names it.
func (b *builder) contextTitle(s *screen.Screen, n *screen.Node) string {
	m := b.matcher(s)
	p, ok := m.Position(n.Ref)
	if !ok {
		return ""
	}
	if a, title := selector.FieldGroup(m, p); a >= 0 {
		return b.usableText(title, maxIntentName)
	}
	if t := b.usableText(selector.AdjacentText(m, p), maxIntentName); t != "" {
		return t
	}
	for a := m.Parent(p); a >= 0; a = m.Parent(a) {
		c := m.Nodes()[a]
		switch {
		case selector.IsRowRole(c.Role):
			return b.usableText(selector.RowTitle(m, a), maxIntentName)
		case contextRoles[c.Role]:
			if t := b.usableText(c.Name, maxIntentName); t != "" {
				return t
			}
		}
	}
	return ""
}

// contextRoles are the groups whose name names the fields in them.
var contextRoles = map[string]bool{"group": true, "radiogroup": true, "region": true, "form": true, "dialog": true, "alertdialog": true}

// ordinalWords name positions 0 to 9 for "the second Delete button".
var ordinalWords = []string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}

func ordinal(index *int) string {
	switch {
	case index == nil:
		return ""
	case *index < len(ordinalWords):
		return ordinalWords[*index] + " "
	}
	return fmt.Sprintf("#%d ", *index+1)
}

// quote writes app text in double quotes, as it is: nothing inside is
// escaped. Icon-font glyphs read as nothing and are left out, as they are
// from names.
func quote(s string) string {
	return `"` + screen.Clip(selector.StripIconGlyphs(screen.CollapseSpace(s)), maxIntentText) + `"`
}

func (b *builder) clickPhrase(s *screen.Screen, n *screen.Node, sel selector.Selector, t trail.Tap) string {
	verb := "click"
	switch {
	case t.Count == 2:
		verb = "double-click"
	case t.Count > 2:
		verb = fmt.Sprintf("click %d times on", t.Count)
	}
	switch t.Button {
	case trail.ButtonRight:
		verb = "right-" + verb
	case trail.ButtonMiddle:
		verb = "middle-" + verb
	}
	p := verb + " " + b.thing(s, n, sel)
	if len(t.Modifiers) > 0 {
		p += " with " + andList(trail.ModifierStrings(t.Modifiers)) + " held"
	}
	return p
}

func (b *builder) togglePhrase(s *screen.Screen, n *screen.Node, check bool) string {
	t := b.fieldTitle(n)
	if l := b.usableText(n.Label, maxIntentName); l == "" || n.Label == n.Name {
		if own, row := b.titleOn(s, n); row >= 0 {
			t = own
			if place := b.rowPlace(s, row); place != "" {
				t += " in " + place
			}
		}
	}
	if t == "" {
		t = b.contextTitle(s, n)
	}
	if t == "" {
		t = "the " + roleWords[n.Role]
	}
	switch {
	case n.Role == "radio":
		return "choose " + t
	case n.Role == "switch" && check:
		return "turn on " + t
	case n.Role == "switch":
		return "turn off " + t
	case check:
		return "check " + t
	}
	return "uncheck " + t
}

func typePhrase(value, field string) string {
	into := ""
	if field != "" {
		into = " into " + field
	}
	if value == "" {
		if field == "" {
			return "clear the field"
		}
		return "clear " + field
	}
	return "type " + screen.Clip(screen.CollapseSpace(value), maxIntentText) + into
}

// enterSecretPhrase never says the value: "Enter the password into
// Password".
func enterSecretPhrase(n *screen.Node, field string) string {
	what := "the secret value"
	if strings.Contains(strings.ToLower(field+" "+n.Name), "password") {
		what = "the password"
	}
	if field == "" {
		return "enter " + what
	}
	return "enter " + what + " into " + field
}

// setPhrase: "set Volume to 30".
func setPhrase(value, field string) string {
	v := screen.Clip(screen.CollapseSpace(value), maxIntentText)
	if v == "" {
		v = "nothing"
	}
	if field == "" {
		return "set the control to " + v
	}
	return "set " + field + " to " + v
}

func selectPhrase(options []string, field string) string {
	var shown []string
	for _, o := range options {
		shown = append(shown, screen.Clip(selector.StripIconGlyphs(screen.CollapseSpace(o)), maxIntentName))
	}
	p := "select " + andList(shown)
	if field != "" {
		p += " in " + field
	}
	return p
}

func uploadPhrase(files []string, field string) string {
	p := "upload " + andList(files)
	if field != "" {
		p += " to " + field
	}
	return p
}

// keyChord writes a key with its modifiers: "Control+Shift+K".
func keyChord(p trail.Press) string {
	return strings.Join(append(trail.ModifierStrings(p.Modifiers), p.Key), "+")
}

func pressPhrase(p trail.Press, where string) string {
	s := "press " + keyChord(p)
	if where != "" {
		s += " in " + where
	}
	return s
}

func (b *builder) dialogPhrase(r *RecordedInteraction, d trail.Dialog) string {
	verb := "dismiss"
	if d.Accept {
		verb = "accept"
	}
	p := verb + " the dialog"
	if msg := b.usableText(r.Message, maxIntentText); msg != "" {
		p += " " + quote(msg)
	}
	if d.PromptText != "" && !strings.HasPrefix(d.PromptText, "${secret:") {
		p += " with " + screen.Clip(screen.CollapseSpace(r.PromptText), maxIntentName)
	}
	return p
}

// shownPhrase says what an assertVisible checks: the text its selector
// pins, or for an element checked for presence only, the element.
func (b *builder) shownPhrase(s *screen.Screen, n *screen.Node, sel selector.Selector) string {
	switch {
	case sel.Text != "":
		return fmt.Sprintf("check that %s is shown", quote(sel.Text))
	case sel.TextRegex != "" && !n.Secret:
		return fmt.Sprintf("check that %s is shown", quote(n.Text))
	}
	return fmt.Sprintf("check that %s is shown", b.thing(s, n, sel))
}

func valuePhrase(field, value string) string {
	if field == "" {
		field = "the field"
	}
	if value == "" {
		return "check that " + field + " is empty"
	}
	return fmt.Sprintf("check that %s has the value %s", field, quote(value))
}

// stateWords say a state and its value: checked true is "checked".
var stateWords = map[string]map[string]string{
	trail.StateChecked:  {"true": "checked", "false": "not checked", "mixed": "partly checked"},
	trail.StateDisabled: {"true": "disabled", "false": "enabled"},
	trail.StateExpanded: {"true": "expanded", "false": "collapsed"},
	trail.StateSelected: {"true": "selected", "false": "not selected"},
}

func (b *builder) statePhrase(s *screen.Screen, n *screen.Node, sel selector.Selector, a trail.AssertState) string {
	return fmt.Sprintf("check that %s is %s", b.thing(s, n, sel), stateWords[a.State][a.Want])
}

// andList joins words as "a", "a and b", "a, b and c".
func andList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

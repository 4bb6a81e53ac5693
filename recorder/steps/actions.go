package steps

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// The actions of one interaction each. Selectors come from Generate on the
// interaction's Before screen; every value a trail expands references in
// is escaped (EscapeRefs), so text a person typed or a page shows that
// happens to hold "${" stays literal.

// on returns the screen and the element interaction i is aimed at.
func (b *builder) on(i int) (*screen.Screen, *screen.Node, error) {
	r := &b.recs[i]
	if r.Before == nil {
		return nil, nil, unnamed("the %s has no screen captured before it", r.Kind)
	}
	if r.Ref == "" {
		return nil, nil, unnamed("the %s names no element", r.Kind)
	}
	n := b.matcher(r.Before).Node(r.Ref)
	if n == nil {
		return nil, nil, unnamed("its element %s is not on the screen captured before it", r.Ref)
	}
	return r.Before, n, nil
}

// selector generates the selector for ref on s, and the element it names.
func (b *builder) selector(purpose selector.Purpose, ref string, s *screen.Screen) (selector.Selector, *screen.Node, error) {
	sel, n, err := b.generate(purpose, ref, s)
	if err != nil {
		return selector.Selector{}, nil, unnamed("no selector names its element alone (%v)", err)
	}
	return sel, n, nil
}

// generate is Generate on the screen's Matcher, which the builder keeps for
// the whole recording: a recording names many elements on each screen, and
// indexing a 10k-element screen again for each costs more than the search
// itself. It returns the element Generate names (retargeted).
func (b *builder) generate(purpose selector.Purpose, ref string, s *screen.Screen) (selector.Selector, *screen.Node, error) {
	return selector.GenerateOn(b.matcher(s), purpose, ref, b.sensitive)
}

// retarget is Retarget on the screen's Matcher.
func (b *builder) retarget(purpose selector.Purpose, ref string, s *screen.Screen) (string, error) {
	return selector.RetargetOn(b.matcher(s), purpose, ref)
}

func (b *builder) click(i int) (built, error) {
	r := &b.recs[i]
	s, _, err := b.on(i)
	if err != nil {
		return built{}, err
	}
	if b.plainClick(i) {
		if box, check, ok := toggledBox(b.matcher(s), r.Ref); ok {
			return b.toggle(s, box, r.Ref, check)
		}
	}
	sel, n, err := b.selector(selector.PurposeTap, r.Ref, s)
	if err != nil {
		return built{}, err
	}
	tap := trail.Tap{Selector: escapeSelector(sel), Button: trail.MouseButton(r.Button)}
	switch r.Button {
	case "", string(trail.ButtonLeft):
		tap.Button = ""
	case string(trail.ButtonMiddle), string(trail.ButtonRight):
	default:
		return built{}, leftOut("its mouse button %q is none of left, middle, right", r.Button)
	}
	if r.Count >= 2 {
		tap.Count = r.Count
	}
	tap.Modifiers, err = modifiers(r.Modifiers)
	if err != nil {
		return built{}, err
	}
	hover, err := b.revealingHover(s, n, sel)
	if err != nil {
		return built{}, err
	}
	return built{action: tap, hover: hover, phrase: b.clickPhrase(s, n, sel, tap)}, nil
}

// revealingHover returns the hover that shows n, which acts on it by sel,
// when n shows only while the pointer rests on an element around it
// (screen.Node.RevealedBy): a row's delete button. Replay moves the
// pointer there first, as the person did. The hover names the row by the
// scope sel already finds n in, or by a selector of its own; nil when n
// shows without the pointer, or the pointer over n itself shows it (the
// tap moves the pointer there anyway).
func (b *builder) revealingHover(s *screen.Screen, n *screen.Node, sel selector.Selector) (*trail.Hover, error) {
	if n.RevealedBy == "" || n.RevealedBy == n.Ref {
		return nil, nil
	}
	m := b.matcher(s)
	row := m.Node(n.RevealedBy)
	if row == nil {
		return nil, nil
	}
	var scope *screen.Node
	if sel.Within != nil {
		if got, err := m.Match(*sel.Within); err == nil && len(got) == 1 {
			scope = got[0]
		}
	}
	if scope == row {
		return &trail.Hover{Selector: escapeSelector(*sel.Within)}, nil
	}
	over, _, err := b.generate(selector.PurposeTap, row.Ref, s)
	if err == nil {
		return &trail.Hover{Selector: escapeSelector(over)}, nil
	}
	if scope != nil && within(m, row, scope) {
		// A plain wrapper of the row's content: hovering the row's centre
		// rests the pointer on it too.
		return &trail.Hover{Selector: escapeSelector(*sel.Within)}, nil
	}
	return nil, unnamed("it shows only while the pointer is over %s, and no selector names that alone (%v)", b.thing(s, row, selector.Selector{}), err)
}

// within reports whether node n lies inside node outer on m's screen.
func within(m *selector.Matcher, n, outer *screen.Node) bool {
	p, ok1 := m.Position(n.Ref)
	q, ok2 := m.Position(outer.Ref)
	return ok1 && ok2 && m.Inside(p, q)
}

// toggledBox returns the checkbox, radio button or switch that a plain
// click on ref toggles (the box itself, or the one its label is for) and
// whether the click checks it. A box whose state the screen does not tell is
// not one.
func toggledBox(m *selector.Matcher, ref string) (string, bool, bool) {
	p, ok := m.Position(ref)
	if !ok {
		return "", false, false
	}
	box := int32(-1)
	for a := p; a >= 0; a = m.Parent(a) {
		if toggleRoles[m.Nodes()[a].Role] {
			box = a
			break
		}
		if selector.IsControlRole(m.Nodes()[a].Role) {
			return "", false, false // a click on another control
		}
	}
	if box < 0 {
		if label := labelAround(m, ref); label >= 0 {
			box = boxOfLabel(m, label)
		}
	}
	if box < 0 {
		return "", false, false
	}
	n := m.Nodes()[box]
	switch {
	case n.Role == "radio":
		return n.Ref, true, true
	case n.Checked == "true":
		return n.Ref, false, true
	case n.Checked == "false" || n.Checked == "mixed":
		return n.Ref, true, true
	}
	return "", false, false
}

// toggleRoles are the controls check and uncheck act on.
var toggleRoles = map[string]bool{"checkbox": true, "radio": true, "switch": true}

// boxOfLabel returns the one box inside a label, or else the one box on the
// screen whose label is the label's text; -1 for none or several.
func boxOfLabel(m *selector.Matcher, label int32) int32 {
	found := int32(-1)
	for p := label + 1; p < m.End(label); p++ {
		if toggleRoles[m.Nodes()[p].Role] {
			if found >= 0 {
				return -1
			}
			found = p
		}
	}
	if found >= 0 {
		return found
	}
	text := screen.CollapseSpace(m.Nodes()[label].Text)
	if text == "" {
		return -1
	}
	for p, n := range m.Nodes() {
		if toggleRoles[n.Role] && n.Label == text {
			if found >= 0 {
				return -1
			}
			found = int32(p)
		}
	}
	return found
}

// toggle records a check or uncheck of box, which a click on clicked
// toggled. A box hidden behind a styled label is recorded as the click on
// what the person clicked.
func (b *builder) toggle(s *screen.Screen, box, clicked string, check bool) (built, error) {
	n := b.matcher(s).Node(box)
	phrase := b.togglePhrase(s, n, check)
	sel, target, err := b.selector(selector.PurposeTap, box, s)
	if err != nil {
		sel, target, err = b.selector(selector.PurposeTap, clicked, s)
		if err != nil {
			return built{}, err
		}
		hover, err := b.revealingHover(s, target, sel)
		if err != nil {
			return built{}, err
		}
		return built{action: trail.Tap{Selector: escapeSelector(sel)}, hover: hover, phrase: phrase}, nil
	}
	hover, err := b.revealingHover(s, target, sel)
	if err != nil {
		return built{}, err
	}
	if check {
		return built{action: trail.Check{Selector: escapeSelector(sel)}, hover: hover, phrase: phrase}, nil
	}
	return built{action: trail.Uncheck{Selector: escapeSelector(sel)}, hover: hover, phrase: phrase}, nil
}

func (b *builder) checkBox(i int, check bool) (built, error) {
	r := &b.recs[i]
	s, _, err := b.on(i)
	if err != nil {
		return built{}, err
	}
	m := b.matcher(s)
	box := r.Ref
	if rt, err := b.retarget(selector.PurposeTap, r.Ref, s); err == nil {
		box = rt
	}
	if p, ok := m.Position(box); ok && !m.Shown(p) {
		// A box hidden behind its styled label: what a person clicks is the label.
		if label := labelFor(m, p); label >= 0 {
			return b.toggle(s, box, m.Nodes()[label].Ref, check)
		}
	}
	return b.toggle(s, box, box, check)
}

// labelFor returns a shown label element for the control at p: around it,
// or the one whose text is its label; -1 for none.
func labelFor(m *selector.Matcher, p int32) int32 {
	for a := m.Parent(p); a >= 0; a = m.Parent(a) {
		if m.Nodes()[a].Tag == "label" && m.Shown(a) {
			return a
		}
	}
	text := m.Nodes()[p].Label
	found := int32(-1)
	for q, n := range m.Nodes() {
		if n.Tag == "label" && m.Shown(int32(q)) && text != "" && screen.CollapseSpace(n.Text) == text {
			if found >= 0 {
				return -1
			}
			found = int32(q)
		}
	}
	return found
}

func (b *builder) typeInto(i int) (built, error) {
	r := &b.recs[i]
	s, _, err := b.on(i)
	if err != nil {
		return built{}, err
	}
	sel, n, err := b.selector(selector.PurposeType, r.Ref, s)
	if err != nil {
		return built{}, err
	}
	field := b.namedField(s, n)
	tt := trail.TypeText{Selector: escapeSelector(sel)}
	switch {
	case r.Secret != "":
		name := secretName(r.Secret)
		if name != r.Secret {
			b.note(fmt.Sprintf("Interaction %d: the secret name %q is not a reference name (letters, digits, '_', '-', '.'); it is recorded as ${secret:%s}.", r.Seq, r.Secret, name), "")
		}
		tt.Text = trail.Ref{Kind: trail.RefSecret, Name: name}.String()
		return built{action: tt, phrase: enterSecretPhrase(n, field)}, nil
	case r.Value == "" && n.Secret:
		// Clearing a secret field writes nothing secret: type "".
	case n.Secret || b.sensitiveTyped(r.Value):
		// The extension never sends a secret field's value, and a value
		// marked sensitive is never written down: both are typed from a
		// secret the person provides at replay.
		name := secretName(trail.Slug(firstNonEmpty(field, "value")))
		tt.Text = trail.Ref{Kind: trail.RefSecret, Name: name}.String()
		b.note(fmt.Sprintf("Interaction %d typed a secret or sensitive value into %s: it is recorded as ${secret:%s}; provide it as TRAILPIN_SECRET_%s when replaying.",
			r.Seq, firstNonEmpty(field, "a field"), name, secretEnvName(name)), "")
		return built{action: tt, phrase: enterSecretPhrase(n, field)}, nil
	}
	tt.Text = trail.EscapeRefs(r.Value)
	// Typed on the end of the value the field showed before: replay types
	// the rest after it (docs/trail-format.md, type).
	tt.Append = r.Append && n.Value != "" && len(r.Value) > len(n.Value) && strings.HasPrefix(r.Value, n.Value) && (n.Tag == "input" || n.Tag == "textarea")
	return built{action: tt, phrase: typePhrase(r.Value, field)}, nil
}

// setValue records the value a slider, spinner, date, time or colour
// control ended at.
func (b *builder) setValue(i int) (built, error) {
	r := &b.recs[i]
	s, _, err := b.on(i)
	if err != nil {
		return built{}, err
	}
	if b.taint.Leaks(r.Value) {
		return built{}, leftOut("the value it was set to is marked sensitive")
	}
	sel, n, err := b.selector(selector.PurposeType, r.Ref, s)
	if err != nil {
		return built{}, err
	}
	return built{action: trail.Set{Selector: escapeSelector(sel), Value: trail.EscapeRefs(r.Value)}, phrase: setPhrase(r.Value, b.namedField(s, n))}, nil
}

func (b *builder) selectIn(i int) (built, error) {
	r := &b.recs[i]
	s, _, err := b.on(i)
	if err != nil {
		return built{}, err
	}
	// Interaction.Check keeps a select without options out.
	for _, o := range r.Options {
		if b.taint.Leaks(o) {
			return built{}, leftOut("an option shows a value marked sensitive")
		}
	}
	sel, n, err := b.selector(selector.PurposeSelect, r.Ref, s)
	if err != nil {
		return built{}, err
	}
	opts := make([]string, len(r.Options))
	for k, o := range r.Options {
		opts[k] = trail.EscapeRefs(o)
	}
	return built{action: trail.SelectOption{Selector: escapeSelector(sel), Options: opts}, phrase: selectPhrase(r.Options, b.namedField(s, n))}, nil
}

func (b *builder) hover(i int) (built, error) {
	r := &b.recs[i]
	s, _, err := b.on(i)
	if err != nil {
		return built{}, err
	}
	sel, n, err := b.selector(selector.PurposeTap, r.Ref, s)
	if err != nil {
		return built{}, err
	}
	return built{action: trail.Hover{Selector: escapeSelector(sel)}, phrase: "hover over " + b.thing(s, n, sel)}, nil
}

func (b *builder) upload(i int) (built, error) {
	r := &b.recs[i]
	var files []string
	for _, f := range r.Files {
		// The person puts the files beside the trail: only the name counts.
		name := f[strings.LastIndexAny(f, `/\`)+1:]
		if name == "" || name == "." || name == ".." {
			return built{}, leftOut("a chosen file has no name (%q)", f)
		}
		files = append(files, name)
	}
	if len(files) == 0 {
		return built{}, leftOut("no file was chosen")
	}
	s, _, err := b.on(i)
	if err != nil {
		return built{}, err
	}
	sel, n, err := b.selector(selector.PurposeTap, r.Ref, s)
	if err != nil {
		return built{}, err
	}
	return built{action: trail.Upload{Selector: escapeSelector(sel), Files: files}, phrase: uploadPhrase(files, b.fieldTitle(n))}, nil
}

// press records a key press; first says it starts its step, so the intent
// names the element it went to.
func (b *builder) press(i int, first bool) (built, error) {
	r := &b.recs[i]
	key, err := keyName(r.Key)
	if err != nil {
		return built{}, err
	}
	mods, err := modifiers(r.Modifiers)
	if err != nil {
		return built{}, err
	}
	p := trail.Press{Key: key, Modifiers: mods, AtOnce: r.AtOnce}
	where := ""
	if first && r.Before != nil {
		ref := r.Ref
		if ref == "" {
			ref = r.Before.Focused
		}
		if n := b.matcher(r.Before).Node(ref); n != nil {
			where = b.fieldTitle(n)
		}
	}
	return built{action: p, phrase: pressPhrase(p, where)}, nil
}

// keyName returns a key as a trail writes it.
func keyName(k string) (string, error) {
	switch {
	case k == " ":
		return "Space", nil
	case slices.Contains(trail.NamedKeys, k) || utf8.RuneCountInString(k) == 1:
		return k, nil
	case trail.KeySynonyms[k] != "":
		return trail.KeySynonyms[k], nil
	}
	return "", leftOut("replay cannot press the key %q (a press is one character or one of %s)", k, strings.Join(trail.NamedKeys, ", "))
}

// modifiers returns the held keys as a trail writes them, each once.
func modifiers(held []string) ([]trail.Modifier, error) {
	var out []trail.Modifier
	for _, h := range held {
		m := trail.Modifier(h)
		if syn, ok := trail.ModifierSynonyms[h]; ok {
			m = syn
		}
		if !slices.Contains(trail.ModifierWords, string(m)) {
			return nil, leftOut("the held key %q is none of %s", h, strings.Join(trail.ModifierWords, ", "))
		}
		if !slices.Contains(trail.ModifierStrings(out), string(m)) {
			out = append(out, m)
		}
	}
	return out, nil
}

func (b *builder) navigate(i int) (built, error) {
	r := &b.recs[i]
	switch r.Transition {
	case transitionBack:
		return built{action: trail.Navigate{To: trail.NavigateBack}, phrase: "go back"}, nil
	case transitionForward:
		return built{action: trail.Navigate{To: trail.NavigateForward}, phrase: "go forward"}, nil
	case transitionReload:
		return built{action: trail.Navigate{To: trail.NavigateReload}, phrase: "reload the page"}, nil
	}
	p, err := b.appPath(r.URL)
	if err != nil {
		return built{}, fmt.Errorf("building steps: interaction %d (navigate): %w", r.Seq, err)
	}
	return built{action: trail.Navigate{To: trail.EscapeRefs(p)}, phrase: "go to " + p}, nil
}

func (b *builder) dialog(i int) (built, error) {
	r := &b.recs[i]
	d := trail.Dialog{Accept: r.Accept}
	if r.Accept && r.PromptText != "" {
		if b.sensitiveTyped(r.PromptText) {
			name := "dialog-answer"
			d.PromptText = trail.Ref{Kind: trail.RefSecret, Name: name}.String()
			b.note(fmt.Sprintf("Interaction %d answered a dialog with a value marked sensitive: it is recorded as ${secret:%s}; provide it as TRAILPIN_SECRET_%s when replaying.", r.Seq, name, secretEnvName(name)), "")
		} else {
			d.PromptText = trail.EscapeRefs(r.PromptText)
		}
	}
	return built{action: d, phrase: b.dialogPhrase(r, d)}, nil
}

func (b *builder) switchTab(i int) (built, error) {
	r := &b.recs[i]
	if t := screen.CollapseSpace(r.Title); t != "" && !b.taint.Leaks(t) {
		return built{action: trail.SwitchTab{Title: trail.EscapeRefs(r.Title)}, phrase: fmt.Sprintf("switch to the tab %q", t)}, nil
	}
	if r.URL == "" {
		return built{}, leftOut("the tab has neither a title nor a URL to find it by")
	}
	p, err := b.appPath(r.URL)
	if err != nil {
		return built{}, fmt.Errorf("building steps: interaction %d (switchTab): %w", r.Seq, err)
	}
	return built{action: trail.SwitchTab{URL: trail.EscapeRefs(p)}, phrase: "switch to the tab at " + p}, nil
}

// escapeSelector escapes "${" in the values of sel that a trail expands
// references in (not textRegex, which it does not expand).
func escapeSelector(sel selector.Selector) selector.Selector {
	for _, p := range []*string{&sel.Name, &sel.Text, &sel.TestID, &sel.ID, &sel.Label, &sel.Placeholder} {
		*p = trail.EscapeRefs(*p)
	}
	if sel.Within != nil {
		w := escapeSelector(*sel.Within)
		sel.Within = &w
	}
	return sel
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

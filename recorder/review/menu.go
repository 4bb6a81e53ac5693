package review

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// ErrNotOnScreen: the step's target is not on the screen it was recorded
// on. Test with errors.Is.
var ErrNotOnScreen = errors.New("the step's element is not on its screen")

// A Kind is what an option mainly finds its element by.
type Kind string

const (
	KindText        Kind = "text"
	KindTestID      Kind = "testId"
	KindID          Kind = "id"
	KindRoleName    Kind = "roleName"
	KindLabel       Kind = "label"
	KindPlaceholder Kind = "placeholder"
	KindName        Kind = "name"
	KindRole        Kind = "role"
)

// Kinds lists every kind, in the order options of the same cost are read.
var Kinds = []Kind{KindText, KindTestID, KindID, KindRoleName, KindLabel, KindPlaceholder, KindName, KindRole}

// An Option is one entry of a step's menu: a selector that names the step's
// element alone, and what it checks in words.
type Option struct {
	Selector selector.Selector `json:"selector"`
	Kind     Kind              `json:"kind"`
	// Within and Index say whether the selector ties the element to a
	// container or counts its position.
	Within bool `json:"within,omitempty"`
	Index  bool `json:"index,omitempty"`
	// ChecksValue: the selector pins the element's text (or, without text,
	// its name), so an assertion with it fails when the value changes.
	ChecksValue bool `json:"checksValue,omitempty"`
	// Presence: the step is an assertion and the option checks only that
	// the element is there.
	Presence bool `json:"presence,omitempty"`
	// Recorded: this is the recorder's choice, what the step keeps when no
	// pick applies.
	Recorded bool `json:"recorded,omitempty"`
	// Pins lists the volatile fragments the selector writes down.
	Pins []Volatile `json:"pins,omitempty"`
	// SameTextOnly: the option pins text that other screens of the session
	// show differently; it names the element on the screens where the text
	// reads as when the step was recorded, not on the others.
	SameTextOnly bool `json:"sameTextOnly,omitempty"`
	// Rank is the option's place in the generator's ranking (0: what the
	// generator writes); -1 for a recorder's choice the generator does not
	// list.
	Rank int `json:"rank"`
	// Description says in one line what the option checks and what it
	// survives.
	Description string `json:"description"`
}

// A Menu is the review's question for one step: its options, the recorder's
// choice first.
type Menu struct {
	Purpose Purpose `json:"purpose"`
	// Element is the element the options name, on the step's screen.
	Element *screen.Node `json:"-"`
	// Text is what the element shows (its name when it has no text).
	Text string `json:"text"`
	// Volatile lists the changing fragments of Text.
	Volatile []Volatile `json:"volatile,omitempty"`
	// Screens is how many of the session's screens show the element.
	Screens int       `json:"screens"`
	Options []Option  `json:"options"`
	intent  intentCue // read from the step's intent, for the engine
}

// Recorded returns the position of the recorder's choice on the menu.
func (m *Menu) Recorded() int {
	return slices.IndexFunc(m.Options, func(o Option) bool { return o.Recorded })
}

// BuildMenu lists the options for a step: every selector the generator
// considers that names the step's element alone on every screen of the
// session where the element is shown (selector.Candidates, which matches
// each with the one matcher), plus the recorder's choice. An option that
// pins the element's text is also listed when the text differs on some of
// the screens, checked on those that show it as the step saw it: a value
// assertion claims the value of its moment.
func BuildMenu(step Step) (*Menu, error) {
	if len(step.Screens) == 0 {
		return nil, errors.New("building the review menu: the step has no screens")
	}
	m0 := selector.NewMatcher(step.Screens[0])
	if m0.Node(step.Target) == nil {
		return nil, fmt.Errorf("building the review menu for %s: %w", step.Target, ErrNotOnScreen)
	}
	purpose, gp, err := purposeOf(step.Action, m0.Node(step.Target))
	if err != nil {
		return nil, err
	}
	named, err := selector.RetargetOn(m0, gp, step.Target)
	if err != nil {
		return nil, fmt.Errorf("building the review menu: %w", err)
	}
	pos0, _ := m0.Position(named)
	el := m0.Node(named)
	text := m0.Text(pos0)
	if text == "" || el.Secret {
		text = selector.StripIconGlyphs(el.Name)
	}

	// The screens that show the element, and those among them where it
	// reads as on the step's screen.
	shown := []*screen.Screen{step.Screens[0]}
	same := []*screen.Screen{step.Screens[0]}
	var others []string
	for _, s := range step.Screens[1:] {
		m := selector.NewMatcher(s)
		p, ok := m.Position(named)
		if !ok || !m.Shown(p) {
			continue
		}
		shown = append(shown, s)
		t := m.Text(p)
		if t == "" || m.Node(named).Secret {
			t = selector.StripIconGlyphs(m.Node(named).Name)
		}
		others = append(others, t)
		if t == text {
			same = append(same, s)
		}
	}

	cands, err := selector.Candidates(gp, step.Target, shown, step.Sensitive)
	if err != nil {
		return nil, fmt.Errorf("building the review menu: %w", err)
	}
	menu := &Menu{Purpose: purpose, Element: el, Text: text, Screens: len(shown)}
	if !el.Secret {
		menu.Volatile = volatileOf(text, others)
	}
	seen := map[string]bool{}
	for i, c := range cands {
		seen[c.Selector.String()] = true
		menu.Options = append(menu.Options, Option{Selector: c.Selector, ChecksValue: c.ChecksValue, Rank: i})
	}
	if len(same) < len(shown) {
		// The value of the moment: the text the step saw, on the screens
		// that show it.
		valued, err := selector.Candidates(gp, step.Target, same, step.Sensitive)
		if err != nil {
			return nil, fmt.Errorf("building the review menu: %w", err)
		}
		for _, c := range valued {
			if c.ChecksValue && !seen[c.Selector.String()] {
				seen[c.Selector.String()] = true
				menu.Options = append(menu.Options, Option{Selector: c.Selector, ChecksValue: true, SameTextOnly: true, Rank: len(menu.Options)})
			}
		}
	}
	if purpose == PurposeAssertVisible && !el.Secret {
		menu.addAnyNumber(named, shown, seen)
	}
	menu.addRecorded(step.Recorded, text, el)
	for i := range menu.Options {
		o := &menu.Options[i]
		o.Kind = kindOf(o.Selector)
		o.Within = o.Selector.Within != nil
		o.Index = hasIndex(o.Selector)
		o.Presence = purpose == PurposeAssertVisible && !o.ChecksValue
		o.Pins = pinned(o.Selector, menu.Volatile)
		o.Description = describe(menu, o)
	}
	menu.intent = readIntent(step.Intent, menu)
	return menu, nil
}

// addAnyNumber lists, for an assertion on a one-line text whose numbers
// change (a time, a price, a count), the element found by that text with
// any number in their place, when that names it alone on every screen that
// shows it: "Payment pending · updated 12:04:31" is checked whatever the
// time. The generator never writes it for an assertion (an assertion it
// writes checks what the page read); the review offers it for a step whose
// intent is about the element, not its number.
func (m *Menu) addAnyNumber(named string, shown []*screen.Screen, seen map[string]bool) {
	if !slices.ContainsFunc(m.Volatile, func(v Volatile) bool { return v.Kind != VolatileGeneratedID }) {
		return
	}
	pattern := selector.AnyNumber(m.Text)
	if pattern == "" {
		return
	}
	sel := selector.Selector{TextRegex: pattern}
	if seen[sel.String()] {
		return
	}
	for _, s := range shown {
		mt := selector.NewMatcher(s)
		nodes, err := mt.Match(sel)
		if err != nil || len(nodes) != 1 || nodes[0] != mt.Node(named) {
			return
		}
	}
	seen[sel.String()] = true
	m.Options = append(m.Options, Option{Selector: sel, Rank: len(m.Options)})
}

// addRecorded marks the recorder's choice on the menu, or puts it first
// when the generator does not list it (it was chosen on one screen, or by
// an older recorder).
func (m *Menu) addRecorded(rec selector.Selector, text string, el *screen.Node) {
	key := rec.String()
	if i := slices.IndexFunc(m.Options, func(o Option) bool { return o.Selector.String() == key }); i >= 0 {
		o := m.Options[i]
		o.Recorded = true
		m.Options = append([]Option{o}, slices.Delete(m.Options, i, i+1)...)
		return
	}
	checks := rec.Text != "" || rec.TextRegex != "" || rec.Name != "" && (el.Text == "" || rec.Name == screen.CollapseSpace(text))
	m.Options = append([]Option{{Selector: rec, ChecksValue: checks, Recorded: true, Rank: -1}}, m.Options...)
	for _, id := range []string{rec.ID, rec.TestID} {
		if selector.LooksGenerated(id) && !slices.ContainsFunc(m.Volatile, func(v Volatile) bool { return v.Fragment == id }) {
			m.Volatile = append(m.Volatile, Volatile{Kind: VolatileGeneratedID, Fragment: id})
		}
	}
}

// kindOf says what a selector mainly finds its element by: text when it
// has text, else the steadiest property it names.
func kindOf(s selector.Selector) Kind {
	switch {
	case s.Text != "" || s.TextRegex != "":
		return KindText
	case s.TestID != "":
		return KindTestID
	case s.ID != "":
		return KindID
	case s.Label != "":
		return KindLabel
	case s.Placeholder != "":
		return KindPlaceholder
	case s.Role != "" && s.Name != "":
		return KindRoleName
	case s.Name != "":
		return KindName
	}
	return KindRole
}

func hasIndex(s selector.Selector) bool {
	for p := &s; p != nil; p = p.Within {
		if p.Index != nil {
			return true
		}
	}
	return false
}

// pinned lists the volatile fragments that sel writes down, in its own
// properties or its scope's.
func pinned(sel selector.Selector, vol []Volatile) []Volatile {
	var out []Volatile
	strs := selectorStrings(sel)
	for _, v := range vol {
		for _, s := range strs {
			if strings.Contains(s, v.Fragment) {
				out = append(out, v)
				break
			}
		}
	}
	// A scope may pin volatile text of its own: a row found by the order
	// number it starts with.
	for w := sel.Within; w != nil; w = w.Within {
		for _, s := range selectorStrings(selector.Selector{Name: w.Name, Text: w.Text, TextRegex: w.TextRegex}) {
			for _, v := range findVolatile(s) {
				if !slices.Contains(out, v) {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// selectorStrings lists the values a selector writes, its scopes' too,
// with a pattern read back as the text it matches.
func selectorStrings(s selector.Selector) []string {
	var out []string
	for p := &s; p != nil; p = p.Within {
		for _, v := range []string{p.Name, p.Text, p.TestID, p.ID, p.Label, p.Placeholder} {
			if v != "" {
				out = append(out, v)
			}
		}
		if p.TextRegex != "" {
			out = append(out, patternText(p.TextRegex))
		}
	}
	return out
}

// patternText reads a generator-written pattern as the text it stands
// for: anchors and flags dropped, \n a line break, escaped punctuation
// plain. \d+ stays as it is, so a count-tolerant pattern pins no count.
func patternText(p string) string {
	p = strings.TrimPrefix(p, "(?m)")
	p = strings.TrimPrefix(p, "^")
	p = strings.TrimSuffix(p, "$")
	p = strings.ReplaceAll(p, `\n`, "\n")
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) && strings.IndexByte(`.+*?()|[]{}^$\`, p[i+1]) >= 0 {
			i++
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

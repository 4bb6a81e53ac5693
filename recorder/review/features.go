package review

import (
	"slices"
	"strings"
)

// The engine's features. Each is a product of one fact about the step (its
// context: what it is, what its intent says, how volatile its element's
// text is) and one fact about an option (what it finds the element by,
// what it pins, what it depends on). Facts about the step alone cannot
// tell options apart, so every feature involves the option; the context
// "any step" carries the option facts that hold whatever the step.
//
// Names are stable: they key the weights file. Renaming or removing one
// needs a refit; adding one leaves its weight at zero until the next fit.

type stepContext struct {
	name, words string
	holds       func(m *Menu) bool
}

type attribute struct {
	name, words string
	holds       func(m *Menu, o *Option) bool
}

var contexts = []stepContext{
	{"any", "", func(*Menu) bool { return true }},
	{"action", "the step acts on a control", func(m *Menu) bool { return m.Purpose == PurposeAction }},
	{"assertVisible", "the step checks what is shown", func(m *Menu) bool { return m.Purpose == PurposeAssertVisible }},
	{"assertValue", "the step checks a control's value apart from its selector", func(m *Menu) bool { return m.Purpose == PurposeAssertValue }},
	{"valueIntent", "the intent names a value", func(m *Menu) bool { return m.intent.value }},
	{"presenceIntent", "the intent asks only that it be there", func(m *Menu) bool { return m.intent.presence }},
	{"mentionsText", "the intent quotes the element's text", func(m *Menu) bool { return m.intent.mentionsText }},
	{"volatileText", "the element's text changes between runs", func(m *Menu) bool { return len(m.Volatile) > 0 }},
	// A heading whose words change is found by its words read with any
	// number ("Order 1042"); one whose words do not, by what it is.
	{"roleIntentSteady", "the intent calls the element by its role, and its text does not change", func(m *Menu) bool {
		return m.intent.role && !slices.ContainsFunc(m.Volatile, func(v Volatile) bool { return v.Kind != VolatileGeneratedID })
	}},
	{"volatileUnnamed", "the intent leaves out the part of the text that changes", func(m *Menu) bool {
		return !m.intent.value && slices.ContainsFunc(m.Volatile, func(v Volatile) bool { return v.Kind != VolatileGeneratedID })
	}},
}

var attributes = []attribute{
	// The recorder chose on one screen, without the intent: a choice that
	// pins text the intent leaves out is not one to lean on.
	{"recordedSteady", "it is the recorder's choice, and pins nothing the intent leaves out", func(m *Menu, o *Option) bool { return o.Recorded && !m.pinsUnnamed(o) }},
	{"text", "it finds the element by its text", func(_ *Menu, o *Option) bool { return o.Kind == KindText }},
	{"testId", "it finds the element by a test id", func(_ *Menu, o *Option) bool { return o.Kind == KindTestID }},
	{"id", "it finds the element by a stable id", func(_ *Menu, o *Option) bool { return o.Kind == KindID }},
	{"roleName", "it finds the element by role and name", func(_ *Menu, o *Option) bool { return o.Kind == KindRoleName }},
	{"label", "it finds the element by its label", func(_ *Menu, o *Option) bool { return o.Kind == KindLabel }},
	{"placeholder", "it finds the element by its placeholder", func(_ *Menu, o *Option) bool { return o.Kind == KindPlaceholder }},
	{"other", "it finds the element by its role or name alone", func(_ *Menu, o *Option) bool { return o.Kind == KindRole || o.Kind == KindName }},
	{"checksValue", "it checks the text", func(_ *Menu, o *Option) bool { return o.ChecksValue }},
	{"presence", "it checks presence only", func(_ *Menu, o *Option) bool { return o.Presence }},
	{"pinsVolatile", "it pins text that changes", func(_ *Menu, o *Option) bool { return len(o.Pins) > 0 }},
	{"pinsUnnamed", "it pins text that changes and the intent does not name", func(m *Menu, o *Option) bool { return m.pinsUnnamed(o) }},
	{"countTolerant", "it lets a count vary", func(_ *Menu, o *Option) bool { return strings.Contains(o.Selector.TextRegex, `\d+`) }},
	{"within", "it ties the element to a container", func(_ *Menu, o *Option) bool { return o.Within }},
	{"index", "it counts a position", func(_ *Menu, o *Option) bool { return o.Index }},
	// The generator ranks on the screens alone; what it would write if it
	// knew what changes between runs is its first option that pins none
	// of it.
	{"steadyFirst", "the generator ranks it first among the options that pin nothing the intent leaves out and count no position", func(m *Menu, o *Option) bool {
		return o == m.steadyFirst()
	}},
	{"namesRole", "it names the element's role", func(m *Menu, o *Option) bool {
		return o.Selector.Role != "" && (m.Element == nil || o.Selector.Role == m.Element.Role)
	}},
	{"sameTextOnly", "it holds only while the text reads as now", func(_ *Menu, o *Option) bool { return o.SameTextOnly }},
}

// A Feature is one named product of a context and an attribute.
type Feature struct {
	Name  string
	Words string
	ctx   int
	attr  int
}

// Features lists the engine's features in their fixed order.
var Features = func() []Feature {
	var out []Feature
	for ci, c := range contexts {
		for ai, a := range attributes {
			words := a.words
			if c.words != "" {
				words = c.words + ", and " + a.words
			}
			out = append(out, Feature{Name: c.name + "×" + a.name, Words: words, ctx: ci, attr: ai})
		}
	}
	return out
}()

// featureVectors computes every option's features: out[o][f] is 1 when
// feature f holds for option o, else 0.
func featureVectors(m *Menu) [][]float64 {
	ctx := make([]bool, len(contexts))
	for i, c := range contexts {
		ctx[i] = c.holds(m)
	}
	out := make([][]float64, len(m.Options))
	for oi := range m.Options {
		o := &m.Options[oi]
		attr := make([]bool, len(attributes))
		for i, a := range attributes {
			attr[i] = a.holds(m, o)
		}
		row := make([]float64, len(Features))
		for fi, f := range Features {
			if ctx[f.ctx] && attr[f.attr] {
				row[fi] = 1
			}
		}
		out[oi] = row
	}
	return out
}

// pinsUnnamed reports whether o pins a changing fragment of the element's
// text that the step's intent does not name: "Cart 2 items" for "open the
// cart", not "$42.00" for "the total is $42.00".
func (m *Menu) pinsUnnamed(o *Option) bool {
	return slices.ContainsFunc(o.Pins, func(v Volatile) bool { return v.Kind != VolatileGeneratedID && !slices.Contains(m.intent.named, v) })
}

// steadyFirst is the option the generator ranks first among those that pin
// nothing the intent leaves out and count no position: what the generator
// would write if it knew what changes between runs. Nil when there is none.
func (m *Menu) steadyFirst() *Option {
	var best *Option
	for i := range m.Options {
		o := &m.Options[i]
		if o.Rank < 0 || o.Index || m.pinsUnnamed(o) {
			continue
		}
		if best == nil || o.Rank < best.Rank {
			best = o
		}
	}
	return best
}

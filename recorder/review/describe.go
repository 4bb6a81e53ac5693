package review

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// Descriptions are read in a second in the review popup and the terminal:
// what the option checks, then after a dash what breaks it or what it
// survives. They are built from the option alone, so every option of a
// menu reads differently when its selectors differ.

// maxQuoted bounds a text quoted in a description: enough to recognise it.
const maxQuoted = 40

func describe(m *Menu, o *Option) string {
	what := checksWords(m, o)
	if o.Within {
		what += " inside " + scopeWords(*o.Selector.Within)
	}
	if o.Index {
		what += ", counted by position"
	}
	return what + " — " + fateWords(m, o)
}

// checksWords says what the option looks for.
func checksWords(m *Menu, o *Option) string {
	s := o.Selector
	if m.Purpose == PurposeAssertVisible && o.ChecksValue {
		switch {
		case s.TextRegex != "":
			return "checks the text " + quoted(displayPattern(s.TextRegex))
		case s.Text != "":
			return "checks the text " + quoted(s.Text)
		}
		if s.Role != "" {
			return "checks the " + roleWord(s.Role) + " " + quoted(s.Name) + " by role and name"
		}
		return "checks the name " + quoted(s.Name)
	}
	role := roleWord(m.Element.Role)
	var found string
	switch o.Kind {
	case KindText:
		found = "the " + role + " by its text " + quoted(textOf(s))
	case KindTestID:
		found = elementWords(m.Element, m.Text) + " by its test id " + s.TestID
	case KindID:
		found = elementWords(m.Element, m.Text) + " by its id " + s.ID
	case KindLabel:
		found = "the " + role + " by its label " + quoted(s.Label)
	case KindPlaceholder:
		found = "the " + role + " by its placeholder " + quoted(s.Placeholder)
	case KindRoleName:
		found = "the " + role + " " + quoted(s.Name) + " by role and name"
	case KindName:
		found = "the element named " + quoted(s.Name)
	default:
		found = article(role) + " " + role + " by its role alone"
	}
	if m.Purpose == PurposeAssertVisible {
		return "checks that " + strings.Replace(found, " by ", " is there, by ", 1)
	}
	return "finds " + found
}

func textOf(s selector.Selector) string {
	if s.TextRegex != "" {
		return displayPattern(s.TextRegex)
	}
	return s.Text
}

// displayPattern writes a pattern as a person reads it: a count-tolerant
// line as "N items".
func displayPattern(p string) string {
	t := patternText(p)
	t = strings.ReplaceAll(t, `\d+(?:[.,]\d+)*`, "N") // selector.AnyNumber's number
	t = strings.ReplaceAll(t, `\d+`, "N")
	t = strings.ReplaceAll(t, "tems?", "tems")
	return t
}

func roleWord(role string) string {
	if selector.IsUnnamedRole(role) {
		return "element"
	}
	return role
}

// fateWords says what breaks the option, or what it survives.
func fateWords(m *Menu, o *Option) string {
	if len(o.Pins) > 0 {
		return "fails when the " + joinKinds(o.Pins) + " changes"
	}
	var unpinned []Volatile
	for _, v := range m.Volatile {
		if v.Kind != VolatileGeneratedID {
			unpinned = append(unpinned, v)
		}
	}
	switch {
	case o.Index:
		return "fails when elements are added or reordered"
	case len(unpinned) > 0:
		return "survives a " + joinKinds(unpinned) + " change"
	case m.Purpose == PurposeAssertVisible && o.ChecksValue:
		return "fails when the text changes"
	case o.Kind == KindTestID || o.Kind == KindID:
		return "survives copy and layout changes"
	case o.Kind == KindPlaceholder:
		return "fails when the hint is reworded"
	case o.Kind == KindRole:
		return "fails when another one appears"
	case !o.ChecksValue && m.Purpose == PurposeAssertVisible:
		return "survives a change of its text"
	}
	return "fails only when it is reworded"
}

// elementWords names the element as a person sees it: the button "Pay".
func elementWords(n *screen.Node, text string) string {
	role := roleWord(n.Role)
	label := n.Name
	if label == "" || selector.IsUnnamedRole(n.Role) {
		label = text
	}
	if label == "" {
		label = n.Label
	}
	if label == "" {
		return "the " + role
	}
	return "the " + role + " " + quoted(label)
}

// scopeWords names a within scope: the listitem starting "iPhone 17".
func scopeWords(s selector.Selector) string {
	role := s.Role
	if role == "" || selector.IsUnnamedRole(role) {
		role = "container"
	}
	switch {
	case s.TestID != "":
		return "the " + role + " with test id " + s.TestID
	case s.ID != "":
		return "the " + role + " with id " + s.ID
	case s.Name != "":
		return "the " + role + " " + quoted(s.Name)
	case s.Text != "":
		return "the " + role + " " + quoted(s.Text)
	case s.TextRegex != "":
		first, _, _ := strings.Cut(strings.TrimSpace(patternText(s.TextRegex)), "\n")
		return "the " + role + " starting " + quoted(first)
	case s.Label != "":
		return "the " + role + " labelled " + quoted(s.Label)
	}
	return "the " + role
}

// quoted writes a text on one line, short, in double quotes.
func quoted(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", " / ")
	return strconv.Quote(screen.Clip(s, maxQuoted))
}

// joinKinds names the kinds of vs once each, in order: text that changed
// while recording is a number when it has digits, else text ("Pending"
// becoming "Paid").
func joinKinds(vs []Volatile) string {
	var words []string
	for _, v := range vs {
		w := string(v.Kind)
		if v.Kind == VolatileChanging {
			w = "text"
			if strings.ContainsFunc(v.Fragment, unicode.IsDigit) {
				w = "number"
			}
		}
		if !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	switch len(words) {
	case 0:
		return "text"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// String writes an option as the terminal lists it.
func (o Option) String() string {
	mark := ""
	if o.Recorded {
		mark = " (the recorder's choice)"
	}
	return fmt.Sprintf("%s%s: %s", o.Selector, mark, o.Description)
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

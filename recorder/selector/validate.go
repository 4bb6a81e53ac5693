package selector

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/yamlerr"
)

// An InvalidSelectorError says which property of a selector cannot work and
// what to write instead. Field is a path such as "textRegex" or
// "within.index".
type InvalidSelectorError struct {
	Field  string
	Reason string
}

func (e *InvalidSelectorError) Error() string {
	if e.Field == "" {
		return "invalid selector: " + e.Reason
	}
	return "invalid selector: " + e.Field + ": " + e.Reason
}

// Validate reports the first problem that would stop s from ever matching as
// its author meant, as an *InvalidSelectorError that says what to fix. The
// matcher validates every selector before it looks at a screen.
func (s Selector) Validate() error {
	return s.validate("")
}

func (s Selector) validate(path string) error {
	field := func(name string) string {
		if path == "" {
			return name
		}
		return path + "." + name
	}
	if s.Role == "" && s.Name == "" && s.Text == "" && s.TextRegex == "" && s.TestID == "" &&
		s.ID == "" && s.Label == "" && s.Placeholder == "" {
		reason := "it is empty: set at least one of role, name, text, textRegex, testId, id, label or placeholder"
		if s.Within != nil || s.Index != nil {
			reason = "within and index only narrow a selector down: also set at least one of role, name, text, textRegex, testId, id, label or placeholder"
		}
		return &InvalidSelectorError{Field: path, Reason: reason}
	}
	if s.Role != "" && !IsRole(s.Role) {
		reason := fmt.Sprintf("%q is not a role the page model reports, so it matches nothing: use one such as button, link or textbox", s.Role)
		if sug := yamlerr.DidYouMean(s.Role, roles); sug != "" {
			reason = fmt.Sprintf("%q is not a role the page model reports, so it matches nothing: did you mean %q?", s.Role, sug)
		}
		return &InvalidSelectorError{Field: field("role"), Reason: reason}
	}
	if s.Text != "" && s.TextRegex != "" {
		return &InvalidSelectorError{Field: field("text"), Reason: "text and textRegex are both set: keep text for the exact text, or textRegex for a pattern, not both"}
	}
	if s.Text != "" {
		if norm := screen.NormalizeText(s.Text); norm != s.Text {
			return &InvalidSelectorError{Field: field("text"), Reason: fmt.Sprintf(
				"%q can never match, because screen text is normalised (spaces collapsed, lines trimmed, empty lines dropped): write %q", s.Text, norm)}
		}
	}
	for _, f := range []struct{ name, value string }{{"name", s.Name}, {"label", s.Label}, {"placeholder", s.Placeholder}} {
		if f.value == "" {
			continue
		}
		if norm := screen.CollapseSpace(f.value); norm != f.value {
			return &InvalidSelectorError{Field: field(f.name), Reason: fmt.Sprintf(
				"%q can never match, because screen %ss have their whitespace collapsed to single spaces: write %q", f.value, f.name, norm)}
		}
	}
	if s.TextRegex != "" {
		if _, err := compileSelectorRegex(s.TextRegex); err != nil {
			return &InvalidSelectorError{Field: field("textRegex"), Reason: fmt.Sprintf(
				"%q is not a valid RE2 expression (%v): use Go/RE2 syntax, which has no lookaround or backreferences", s.TextRegex, err)}
		}
	}
	if s.Index != nil && *s.Index < 0 {
		return &InvalidSelectorError{Field: field("index"), Reason: fmt.Sprintf("%d is negative: index counts from 0 in document order", *s.Index)}
	}
	if s.Within != nil {
		if err := s.Within.validate(field("within")); err != nil {
			return err
		}
	}
	return nil
}

// ParseSelectorJSON reads a selector written as JSON (the form
// `host match` and scripts pass), rejecting unknown properties and anything
// Validate rejects, so a typo never silently widens a match.
func ParseSelectorJSON(data []byte) (Selector, error) {
	var s Selector
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Selector{}, fmt.Errorf("reading selector JSON: %w (properties are role, name, text, textRegex, testId, id, label, placeholder, within, index)", err)
	}
	if dec.More() {
		return Selector{}, fmt.Errorf("reading selector JSON: more than one value: pass exactly one selector object")
	}
	if err := s.Validate(); err != nil {
		return Selector{}, err
	}
	return s, nil
}

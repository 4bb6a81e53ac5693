package screen

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// NormalizeText applies the text normalisation of docs/screen-schema.md: runs of
// spaces and tabs collapse to one space, each line is trimmed, empty lines are
// dropped, line breaks stay.
func NormalizeText(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	out := lines[:0]
	for _, line := range lines {
		if line = CollapseSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// CollapseSpace collapses every run of ASCII whitespace (line breaks
// too) to one space and trims the ends, as names, labels and placeholders are.
// Other spaces (no-break space) are left alone: whether the page model folds
// them is its business, and validation must only reject what surely cannot
// match.
func CollapseSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, isASCIISpace), " ")
}

// OneLine keeps a message on one line: every run of white space, line
// breaks and no-break spaces included, becomes one space, and the ends are
// trimmed. It is the one rule for putting a reason, a summary or an error
// into a sentence; names that must match as the page model reads them use
// CollapseSpace.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func isASCIISpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\f', '\v':
		return true
	}
	return false
}

// Ellipsis marks where Clip and ClipBytes cut a text.
const Ellipsis = "…"

// Clip shortens s for a person to read (a message, an intent, a list of
// candidates) to at most n characters, the Ellipsis that marks the cut
// included. It is the one rule for shortening text shown to a person.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:max(n-1, 0)]) + Ellipsis
}

// ClipBytes is Clip for a budget in bytes (a status line a machine reads):
// at most n bytes, cut on a character boundary, the Ellipsis included.
func ClipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	end := max(n-len(Ellipsis), 0)
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + Ellipsis
}

// Describe names an element in a few words for a person, a model or a
// client: its role and name, or its text (never a secret field's), clipped
// to one short line: button "Add to cart", textbox "Email".
func Describe(n *Node) string {
	role := n.Role
	if role == "" || role == "none" || role == "presentation" {
		role = "element"
	}
	clip := func(s string) string { return Clip(strings.Join(strings.Fields(s), " "), 61) }
	switch {
	case n.Name != "":
		return fmt.Sprintf("%s %q", role, clip(n.Name))
	case n.Text != "" && !n.Secret:
		return fmt.Sprintf("%s %q", role, clip(n.Text))
	}
	return role
}

package screen

import "strings"

// NormalizeText applies the text normalisation of DESIGN §3: runs of
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

func isASCIISpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\f', '\v':
		return true
	}
	return false
}

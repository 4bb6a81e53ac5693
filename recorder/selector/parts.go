package selector

import (
	"maps"
	"slices"
)

// FieldRoles returns the roles IsField takes for fields, sorted: a partial
// capture keeps the text before such a field when a selector names it by
// label (AdjacentText).
func FieldRoles() []string { return slices.Sorted(maps.Keys(fieldRoles)) }

// Parts returns sel and each of its within scopes, innermost first, each
// with its own properties alone (no within, no index): what a node must
// have to match some part of sel.
func Parts(sel Selector) []Selector {
	var out []Selector
	for s := &sel; s != nil; s = s.Within {
		own := *s
		own.Within, own.Index = nil, nil
		out = append(out, own)
	}
	return out
}

package selector

import (
	"fmt"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
)

// A NotFoundError says that a selector, or its within scope, names nothing on
// the screen.
type NotFoundError struct {
	// Selector is the selector that was matched.
	Selector Selector
	// Part is what found nothing: Selector itself, or one of its within
	// scopes (then Scope is true).
	Part  Selector
	Scope bool
	// Matched is, when Part has an index, how many nodes matched its other
	// properties: the index was past the end.
	Matched int
	// Hidden is how many hidden nodes would have matched Part: it is there,
	// but a person cannot see it.
	Hidden int

	hidden bool // matched with IncludeHidden
}

func (e *NotFoundError) Error() string {
	what := "visible element"
	if e.hidden {
		what = "element"
	}
	var b strings.Builder
	if e.Part.Index != nil {
		fmt.Fprintf(&b, "index %d is past the end: %d %s", *e.Part.Index, e.Matched, plural(e.Matched, what))
		if e.Matched == 1 {
			b.WriteString(" matches ")
		} else {
			b.WriteString(" match ")
		}
		b.WriteString(withoutIndex(e.Part).String())
	} else {
		fmt.Fprintf(&b, "no %s matches %s", what, e.Part)
	}
	if e.Scope {
		fmt.Fprintf(&b, ", the within scope of %s", e.Selector)
	}
	if e.Hidden > 0 {
		fmt.Fprintf(&b, " (%d hidden %s %s)", e.Hidden, plural(e.Hidden, "element"), verb(e.Hidden, "matches", "match"))
	}
	return b.String()
}

// An AmbiguousError says that a selector without an index, or its within
// scope, matches several nodes. A selector names one element; replay never
// takes the first.
type AmbiguousError struct {
	Selector Selector
	// Part is what matched several: Selector itself, or one of its within
	// scopes (then Scope is true).
	Part  Selector
	Scope bool
	// Matches are the nodes Part matched, in document order.
	Matches []*screen.Node

	hidden bool
}

// ambiguousListLimit keeps the message readable; Matches holds them all.
const ambiguousListLimit = 10

func (e *AmbiguousError) Error() string {
	var b strings.Builder
	what := "visible elements"
	if e.hidden {
		what = "elements"
	}
	fmt.Fprintf(&b, "%s is ambiguous: %d %s match", e.Part, len(e.Matches), what)
	if e.Scope {
		fmt.Fprintf(&b, " (the within scope of %s)", e.Selector)
	}
	b.WriteString("; add a property, a within scope or an index to name one of them: ")
	for i, n := range e.Matches {
		if i == ambiguousListLimit {
			fmt.Fprintf(&b, "; and %d more", len(e.Matches)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(describeNode(n))
	}
	return b.String()
}

func withoutIndex(s Selector) Selector {
	s.Index = nil
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

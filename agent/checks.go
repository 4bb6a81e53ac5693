package agent

import (
	"errors"
	"fmt"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// A Check looks at one screen of the page for a Page's assertion: done when
// it holds; an error says what the page shows instead, or, wrapping
// ErrStaleRef, that the element or its document is gone.
type Check func(s *screen.Screen, m *selector.Matcher) (done bool, err error)

// StillVisible is AssertVisible's check: the element of ref, on a screen
// of document doc, is visible.
func StillVisible(doc, ref string) Check {
	return func(s *screen.Screen, m *selector.Matcher) (bool, error) {
		if s.Document != doc {
			return false, fmt.Errorf("%w: the page has loaded another document since", ErrStaleRef)
		}
		now := m.Node(ref)
		if now == nil {
			return false, fmt.Errorf("%w: %s is not on the page any more", ErrStaleRef, ref)
		}
		if !now.Visible {
			return false, fmt.Errorf("%s is not visible", screen.Describe(now))
		}
		return true, nil
	}
}

// NothingReads is AssertNotVisibleWithText's check: no visible element
// reads text, as its text or as its name.
func NothingReads(text string) Check {
	return func(s *screen.Screen, m *selector.Matcher) (bool, error) {
		for _, sel := range []selector.Selector{{Text: text}, {Name: text}} {
			nodes, err := m.Match(sel)
			var amb *selector.AmbiguousError
			if (err == nil || errors.As(err, &amb)) && len(nodes) > 0 {
				return false, fmt.Errorf("%s is visible", screen.Describe(nodes[0]))
			}
		}
		return true, nil
	}
}

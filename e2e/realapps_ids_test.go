package e2e

import (
	"fmt"

	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// idUses lists the ids and test ids of a trail's selectors (actions and end
// states, scopes included) that a framework made up (selector.LooksGenerated)
// or that read as a name and a counter (selector.LooksCounted): the first
// must never be written, the second only where nothing else names the
// element alone (docs/selectors.md).
func idUses(tr *trail.Trail) (generated, counted []string) {
	add := func(step int, where string, sel selector.Selector) {
		for s := &sel; s != nil; s = s.Within {
			for _, id := range []string{s.ID, s.TestID} {
				switch {
				case id == "":
				case selector.LooksGenerated(id):
					generated = append(generated, fmt.Sprintf("step %d %s: %s", step, where, sel))
				case selector.LooksCounted(id):
					counted = append(counted, fmt.Sprintf("step %d %s: %s", step, where, sel))
				}
			}
		}
	}
	for i, st := range tr.Steps {
		for _, a := range st.Actions {
			if sel, ok := actionSelector(a); ok {
				add(i+1, string(a.Kind()), sel)
			}
		}
		if st.End != nil {
			for _, sel := range st.End.Shows {
				add(i+1, "end.shows", sel)
			}
			for _, v := range st.End.Values {
				add(i+1, "end.values", v.Selector)
			}
		}
	}
	return generated, counted
}

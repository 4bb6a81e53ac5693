package replay

import (
	"context"
	"fmt"
	"slices"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// The action replay was unsure of. A recorded action that failed after its
// input reached the app (action-uncertain) may or may not have taken
// effect, and replay stops there without counting it. The healed flow is
// the replayed actions, then the agent's; whether the unsure action goes
// between them is decided from the evidence (docs/agent.md, Saving a
// heal): what the screen did after it, and what the agent did next.

// An uncertainAction is what is known of the recorded action replay
// stopped on with action-uncertain.
type uncertainAction struct {
	// n is its position in the step, from 1.
	n      int
	action trail.Action
	// target is the element it acted on, on the screen before it; nil for
	// an action on no element (press, navigate).
	target *screen.Node
	before *screen.Screen
	// changes is what changed from before to the screen the agent was
	// handed; nil without a screen before, or when the page could not be
	// read.
	changes *screendiff.Result
	// wentTo is the page the tab's top frame went to while the action ran
	// (its path), "" when it stayed.
	wentTo string
	// expand fills in a selector's references (params, secrets), as replay
	// does before it matches one.
	expand func(selector.Selector) (selector.Selector, error)
	// redact hides secret values in what is said of the screen's changes.
	redact func(string) string
}

// uncertainEvidence gathers, before the agent starts, what is known of the
// action step i's replay stopped on with action-uncertain: its screen
// before, and what changed on the page since (once the page is quiet, as
// the agent is shown it). Nil when the stop was not action-uncertain.
func (r *trailRun) uncertainEvidence(ctx context.Context, i int, run stepRun) *uncertainAction {
	st := r.trail.Steps[i]
	at := run.performed
	if run.reason != StopActionUncertain || at >= len(st.Actions) || at >= len(run.done) {
		return nil
	}
	d := run.done[at]
	red := agentRedactor(r.secrets)
	u := &uncertainAction{n: at + 1, action: st.Actions[at], before: d.on,
		expand: func(sel selector.Selector) (selector.Selector, error) { return expandSelector(sel, r.vals) },
		redact: red.String}
	if d.navigations > 0 {
		u.wentTo = r.appPath(r.page.location(ctx))
	}
	if d.on != nil {
		u.target = d.node
		r.page.awaitQuiet(ctx, agentQuiet, agentQuietMax)
		if now, _, err := r.page.look(ctx); err == nil {
			u.changes, _ = screendiff.Diff(d.on, now, screendiff.Options{})
		}
	}
	return u
}

// shownChanges is how many changes of the evidence are named in words.
const shownChanges = 2

// judge says whether the unsure action belongs in the healed flow, before
// the agent's actions acts, and why, in one sentence:
//   - the agent did it again (an action on the same element, the same key,
//     the same path): the agent, warned to check first, saw it had not
//     taken effect, and its own action takes its place;
//   - otherwise, when the page changed after it (the screen diff to the
//     screen the agent was handed, or a page it went to): it took effect,
//     and the flow keeps it, or the next run would lack it;
//   - otherwise nothing showed it took effect, and the agent reached the
//     goal without it: the flow leaves it out.
func (u *uncertainAction) judge(acts []trail.Action) (keep bool, why string) {
	what := fmt.Sprintf("recorded action %d (%s) failed after its input reached the app", u.n, u.action.Kind())
	for _, a := range acts {
		if u.redoneBy(a) {
			return false, fmt.Sprintf("%s; the agent did it again (%s), so the new flow has the agent's action in its place", what, a.Kind())
		}
	}
	switch {
	case u.wentTo != "":
		return true, what + "; it took effect (the page went to " + u.redact(u.wentTo) + ") and the agent did not do it again, so the new flow keeps it"
	case u.changes != nil && u.changes.Changed():
		return true, fmt.Sprintf("%s; it took effect (the screen changed after it: %s) and the agent did not do it again, so the new flow keeps it", what, u.changedWords())
	}
	return false, what + "; nothing showed that it took effect (the screen did not change after it) and the agent reached the goal without it, so the new flow leaves it out"
}

// redoneBy reports whether the agent's action a does again what the
// unsure action did: the same key, the same path, or any action on the
// element it acted on (a tap on a checkbox redoes a check of it; typing
// into the field replaces what it typed).
func (u *uncertainAction) redoneBy(a trail.Action) bool {
	if a == nil || a.Kind().IsAssertion() {
		return false
	}
	switch ua := u.action.(type) {
	case trail.Navigate:
		n, ok := a.(trail.Navigate)
		return ok && n.To == ua.To
	case trail.Press:
		p, ok := a.(trail.Press)
		return ok && p.Key == ua.Key && slices.Equal(p.Modifiers, ua.Modifiers)
	}
	if u.target == nil || u.before == nil {
		return false
	}
	sel, ok := trail.ActionSelector(a)
	if !ok {
		return false
	}
	sel, err := u.expand(sel)
	if err != nil {
		return false
	}
	nodes, err := selector.NewMatcher(u.before).Match(sel)
	return err == nil && len(nodes) == 1 && nodes[0].Ref == u.target.Ref
}

// changedWords names the first changes in words, secrets redacted.
func (u *uncertainAction) changedWords() string {
	n := len(u.changes.Changes)
	at := make([]int, min(n, shownChanges))
	for k := range at {
		at[k] = k
	}
	words := screen.OneLine(u.redact(u.changes.Words(at)))
	if n > len(at) {
		words += fmt.Sprintf(", and %d more", n-len(at))
	}
	return words
}

package steps

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// causedNavigationWindow is how long after an action a navigation by link,
// form, script or redirect still counts as caused by it. A click's
// navigation starts at once; a form post to a slow server, a chain of
// redirects or a "you are being redirected" page take seconds. Longer than
// this, the page moved on its own (a timer) and the navigation is a step of
// its own.
const causedNavigationWindow = 10 * time.Second

// doubleClickWindow is how close before a double click the single clicks
// the browser reports as part of it come: the system double-click interval
// is at most about half a second on common desktops; this leaves room.
const doubleClickWindow = time.Second

// The navigation transitions of Interaction.Transition.
const (
	transitionTyped    = "typed"
	transitionLink     = "link"
	transitionReload   = "reload"
	transitionBack     = "back"
	transitionForward  = "forward"
	transitionRedirect = "redirect"
	transitionScript   = "script"
	transitionForm     = "form"
)

// A group is the interactions that make one step, as indexes into
// builder.recs in recording order.
type group struct {
	kind groupKind
	recs []int
	// goal is the goal the agent performed in this one step ("" for a
	// person's); by is trail.ByAgent for the agent's input.
	goal, by string
	// checks are the agent's passed checks of the goal the group's
	// interactions belong to (every group of a goal it did not reach
	// shares them): each goes after the last action of the group built
	// from what the page recorded of the action it checked.
	checks []*agentCheck
}

// An agentSpan is the agent's goal being recorded: its interactions make
// the groups from index from on.
type agentSpan struct {
	from int
	// at is the index of its agentStart in the interactions.
	at   int
	seq  int64
	goal string
}

type groupKind int

const (
	// groupAction starts with an action (click, type, dialog, …).
	groupAction groupKind = iota
	// groupNavigate starts with a navigation nothing recorded caused.
	groupNavigate
	// groupAssert is one assertion.
	groupAssert
)

func (g *group) last() int { return g.recs[len(g.recs)-1] }

// group puts the interactions into the groups that become steps (the rules
// are listed on BuildSteps).
func (b *builder) group() []*group {
	var groups []*group
	prev := -1 // the interaction before this one (marks and unknown kinds do not count)
	var agent *agentSpan
	for i := range b.recs {
		r := &b.recs[i]
		var last *group
		if len(groups) > 0 {
			last = groups[len(groups)-1]
		}
		// follows: this interaction comes right after the last group's.
		follows := last != nil && last.last() == prev
		push := func(kind groupKind) { groups = append(groups, &group{kind: kind, recs: []int{i}}) }
		switch r.Kind {
		case InteractMarkSensitive:
			continue // its values were read by markedValues
		case InteractAgentStart:
			if agent != nil {
				if left := b.agentLeft(agent, i, ""); left != "" {
					groups = b.agentLeftApp(groups, agent, left)
				} else {
					groups = b.agentEnded(groups, agent, AgentFailed, "another goal started before it ended", nil)
				}
			}
			// Nothing the agent does joins a person's step before it, and
			// nothing after it joins the agent's.
			agent, prev = &agentSpan{from: len(groups), at: i, seq: r.Seq, goal: r.Text}, -1
			continue
		case InteractAgentEnd:
			if agent != nil {
				if left := b.agentLeft(agent, i, r.Left); left != "" {
					groups = b.agentLeftApp(groups, agent, left)
				} else {
					groups = b.agentEnded(groups, agent, r.State, r.Message, b.agentChecks(r, agent.goal))
				}
			}
			agent, prev = nil, -1
			continue
		case InteractUndo:
			if last == nil {
				b.note(fmt.Sprintf("Undo last step (interaction %d) came before any step: there was nothing to undo.", r.Seq), "")
			} else {
				groups = groups[:len(groups)-1]
			}
		case InteractClick:
			if r.Count >= 2 {
				groups = b.dropClicksOfDoubleClick(groups, i)
			}
			if follows && len(last.recs) == 1 && b.is(last.recs[0], InteractHover) && last.kind == groupAction {
				// The pointer entered an element and the page changed (a
				// menu opened): the click it led to is the same step.
				last.recs = append(last.recs, i)
			} else {
				push(groupAction)
			}
		case InteractHover, InteractDrag:
			push(groupAction)
		case InteractType:
			if follows && len(last.recs) == 1 && b.selectsAllIn(last.recs[0], i) {
				// Control+A in the field right before typing into it:
				// type replaces what the field holds, so the press says
				// nothing of its own, and the click that put the focus
				// there before it joins the typing as ever.
				groups = groups[:len(groups)-1]
				press := last.recs[0]
				last, follows = nil, false
				if len(groups) > 0 {
					last = groups[len(groups)-1]
					follows = b.adjacent(last.last(), press)
				}
			}
			switch {
			case follows && last.kind == groupAction && b.soleAction(last) && b.focusedBy(last.last(), i):
				// The click only put the focus in the field: the typing is
				// the step. A hover before the click stays only when it
				// showed the field (as step leaves it out otherwise): the
				// pointer that passed over the field on its way to the
				// click while the page changed on its own (a machine's
				// pace) makes no step of the click.
				if click := b.recs[last.last()].Before; click != nil {
					b.clickedFrom[i] = click
				}
				if len(last.recs) == 2 && b.hoverRevealed(last.recs[0], last.last()) {
					last.recs[1] = i
				} else {
					last.recs = []int{i}
				}
			case follows && b.is(last.last(), InteractType) && b.sameTarget(last.last(), i, selector.PurposeType):
				// The last value typed counts, and the screen before the
				// first typing is the screen before the step.
				if first := b.recs[last.last()].Before; first != nil {
					r.Before = first
				}
				// Typed on the end only when the first typing was too:
				// the step's screen before is the first typing's.
				r.Append = r.Append && b.recs[last.last()].Append
				if click := b.clickedFrom[last.last()]; click != nil {
					b.clickedFrom[i] = click
				}
				last.recs[len(last.recs)-1] = i
			default:
				push(groupAction)
			}
		case InteractSelect:
			for follows && b.passingClick(last) && b.sameTarget(last.last(), i, selector.PurposeSelect) {
				// The clicks that opened the select's list (and a hover
				// before one that showed nothing, as before typing).
				groups = groups[:len(groups)-1]
				click := last.recs[0]
				last, follows = nil, false
				if len(groups) > 0 {
					last = groups[len(groups)-1]
					follows = b.adjacent(last.last(), click)
				}
			}
			if follows && b.is(last.last(), InteractSelect) && b.sameTarget(last.last(), i, selector.PurposeSelect) {
				last.recs[len(last.recs)-1] = i
			} else {
				push(groupAction)
			}
		case InteractSet:
			// One setting of a control, however many drags and keys it
			// took: the value it ended at counts, and the screen before
			// the first is the screen before the step.
			if follows && b.is(last.last(), InteractSet) && b.sameTarget(last.last(), i, selector.PurposeType) {
				if first := b.recs[last.last()].Before; first != nil {
					r.Before = first
				}
				last.recs[len(last.recs)-1] = i
			} else {
				push(groupAction)
			}
		case InteractCheck, InteractUncheck:
			switch {
			case follows && b.soleAction(last) && (b.is(last.last(), InteractClick) && b.checkedBy(last.last(), i) ||
				b.is(last.last(), InteractCheck, InteractUncheck) && b.sameTarget(last.last(), i, selector.PurposeTap)):
				last.recs[len(last.recs)-1] = i
			case follows && b.madeByClick(last, i):
				// The page's own handler of the click toggled a box (a
				// custom check box that clicks its hidden input): the
				// click is the step, and the box's state is in its end.
				last.recs = append(last.recs, i)
				b.clickEffects[i] = true
			default:
				push(groupAction)
			}
		case InteractUpload:
			switch {
			case follows && b.is(last.last(), InteractClick) && b.sameTarget(last.last(), i, selector.PurposeTap):
				last.recs[len(last.recs)-1] = i // the click on the file input itself
			case follows && b.is(last.last(), InteractClick) && last.kind == groupAction:
				last.recs = append(last.recs, i) // the button that opened the file chooser
			default:
				push(groupAction)
			}
		case InteractPress:
			if follows && b.keysJoin(last, i) {
				last.recs = append(last.recs, i)
			} else {
				push(groupAction)
			}
		case InteractNavigate:
			if follows && last.kind != groupAssert && b.causedBy(last, i) {
				last.recs = append(last.recs, i)
			} else {
				push(groupNavigate)
			}
		case InteractDialog:
			// A dialog blocks its page: the interaction right before it
			// opened it.
			if follows && last.kind != groupAssert {
				last.recs = append(last.recs, i)
			} else {
				push(groupAction)
			}
		case InteractSwitchTab:
			// Tabs and popups open on a click or a key (or on the page a
			// click or a dialog's answer loads); a switch after typing or
			// checking was the person's own.
			if follows && last.kind != groupAssert && b.is(last.last(), InteractClick, InteractPress, InteractNavigate, InteractDialog) &&
				b.within(last.last(), i, causedNavigationWindow) {
				last.recs = append(last.recs, i)
			} else {
				push(groupAction)
			}
		case InteractAssertVisible:
			if follows && len(last.recs) == 1 && b.is(last.recs[0], InteractHover) && last.kind == groupAction &&
				(b.recs[last.recs[0]].Client == "" || b.hoverShows(last.recs[0], i)) {
				// The pointer rests where it showed what is checked (a
				// menu's item): the check needs the hover, so the two are
				// one step, the check's. A person's hover comes only before
				// what it may have shown (the element the pointer entered
				// changed the page); like one before a click, it is left
				// out when the check's element showed without it (step).
				last.recs = append(last.recs, i)
				last.kind = groupAssert
			} else {
				push(groupAssert)
			}
		case InteractAssertNotVisible, InteractAssertURL, InteractAssertValue, InteractAssertState:
			push(groupAssert)
		case InteractAssertChange:
			// It checks what the step's last action changed, so it ends
			// that step.
			if !follows || last.kind == groupAssert {
				b.note(fmt.Sprintf("Assert change (interaction %d) follows no action and was left out: press it right after an action.", r.Seq), "")
				continue
			}
			a, err := b.observedAction(last)
			if err != nil {
				b.note(fmt.Sprintf("Assert change (interaction %d) was left out: %v.", r.Seq, err), "")
				continue
			}
			b.observed[i] = a
			last.recs = append(last.recs, i)
		default:
			b.note(fmt.Sprintf("Interaction %d has a kind this host does not know (%q) and was left out; update the host.", r.Seq, r.Kind), "")
			continue
		}
		prev = i
	}
	if agent != nil {
		if left := b.agentLeft(agent, len(b.recs), ""); left != "" {
			groups = b.agentLeftApp(groups, agent, left)
		} else {
			groups = b.agentEnded(groups, agent, AgentFailed, "the recording stopped before the agent finished", nil)
		}
	}
	return groups
}

// agentLeft is the origin off the app that the agent's goal from span up
// to interaction end reached, "" when it stayed on the app: what the host
// said (an agentEnd's Left: a screen the agent was shown), else the first
// page an interaction of the goal was on, or, when nothing follows the
// goal, the final screen, that is on neither the app's origin nor one of
// the origins the app trusts (BuildOptions.Origins).
func (b *builder) agentLeft(span *agentSpan, end int, said string) string {
	if said != "" {
		return said
	}
	if b.origin == "" {
		return ""
	}
	urls := []string{}
	for _, r := range b.recs[span.at+1 : end] {
		urls = append(urls, r.URL, screenURL(r.Before))
	}
	if end >= len(b.recs) {
		urls = append(urls, screenURL(b.final))
	}
	for _, u := range urls {
		if u == "" {
			continue
		}
		o := u
		if p, err := url.Parse(u); err == nil && p.Host != "" {
			o = trail.OriginOf(p)
		}
		if o != b.origin && !slices.Contains(b.trusted, o) {
			return o
		}
	}
	return ""
}

// agentLeftApp leaves out every step of a goal whose flow left the app
// (docs/agent.md, What the agent may and may not do): a flow that went
// elsewhere is never written into a trail, where every later run would
// repeat it without a model. The note says where it went.
func (b *builder) agentLeftApp(groups []*group, span *agentSpan, origin string) []*group {
	from := min(span.from, len(groups))
	n := len(groups) - from
	if n == 0 {
		b.note(fmt.Sprintf("The agent left the app while performing %q: it reached %s, which is not one of the app's origins. It recorded nothing.", span.goal, origin),
			"The agent left the app while performing its goal. It recorded nothing.")
		return groups
	}
	b.note(fmt.Sprintf("The agent left the app while performing %q: it reached %s, which is not one of the app's origins, so what it did (%d step%s) is not written into the trail. Record that part yourself, or ask the agent again.",
		span.goal, origin, n, plural(n)), "The agent left the app while performing its goal, so what it did is not written into the trail.")
	return groups[:from]
}

// agentEnded makes the groups the agent's goal left (from span.from on)
// its step: one step whose intent is the goal when the agent reached it,
// else the steps a person's input would make, each marked as the agent's,
// with a note saying the goal was not reached.
func (b *builder) agentEnded(groups []*group, span *agentSpan, state, why string, checks []*agentCheck) []*group {
	from := min(span.from, len(groups))
	if from == len(groups) {
		b.note(fmt.Sprintf("The agent recorded nothing for %q (%s).", span.goal, agentOutcome(state, why)), "The agent recorded nothing for its goal.")
		return groups
	}
	if state != AgentDone {
		for _, g := range groups[from:] {
			g.by, g.checks = trail.ByAgent, checks
		}
		n := len(groups) - from
		b.note(fmt.Sprintf("The agent did not reach %q (%s): what it did is kept as %d step%s of its own, marked by: agent, with intents written for its actions. Edit them, or undo them and record the goal again.",
			span.goal, agentOutcome(state, why), n, plural(n)), "The agent did not reach its goal: what it did is kept as steps of their own, marked by: agent.")
		return groups
	}
	one := &group{kind: groupAction, goal: span.goal, by: trail.ByAgent, checks: checks}
	for _, g := range groups[from:] {
		one.recs = append(one.recs, g.recs...)
	}
	return append(groups[:from], one)
}

// agentOutcome says how a goal ended that was not reached.
func agentOutcome(state, why string) string {
	s := map[string]string{AgentStopped: "it was stopped", AgentFailed: "it failed", AgentDone: "it said it was done"}[state]
	if s == "" {
		s = "it ended"
	}
	if why != "" {
		s += ": " + why
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// soleAction reports whether group g holds one action, after the hover
// that may have led to it.
func (b *builder) soleAction(g *group) bool {
	return len(g.recs) == 1 || len(g.recs) == 2 && b.is(g.recs[0], InteractHover)
}

// hoverRevealed reports whether hover h showed what action a, right after
// it, is aimed at: a's element is not on h's screen, or is there hidden (a
// menu that opened when the pointer entered h). A hover that showed
// nothing a's element needs is no action of its own; nor is one before an
// element that a :hover rule shows (RevealedBy), which a's own action
// hovers over exactly.
func (b *builder) hoverRevealed(h, a int) bool {
	rh := &b.recs[h]
	purpose := selector.PurposeTap
	if b.is(a, InteractAssertVisible) {
		purpose = selector.PurposeAssert
	}
	t, ok := b.targetOf(a, purpose)
	if !ok || rh.Before == nil || documentOf(rh.Before) != t.doc {
		return false
	}
	if n := b.matcher(b.recs[a].Before).Node(t.ref); n != nil && n.RevealedBy != "" {
		return false
	}
	m := b.matcher(rh.Before)
	p, found := m.Position(t.ref)
	return !found || !m.Shown(p)
}

// hoverShows reports whether hover h, right before assertion a, is what
// shows a's element: the hover revealed it (hoverRevealed), or a :hover
// rule shows it (RevealedBy), for which a's own action hovers over the
// element around it, as a click's does.
func (b *builder) hoverShows(h, a int) bool {
	if b.hoverRevealed(h, a) {
		return true
	}
	t, ok := b.targetOf(a, selector.PurposeAssert)
	if !ok || b.recs[h].Before == nil || documentOf(b.recs[h].Before) != t.doc {
		return false
	}
	n := b.matcher(b.recs[a].Before).Node(t.ref)
	return n != nil && n.RevealedBy != ""
}

// is reports whether interaction i is of one of the kinds.
func (b *builder) is(i int, kinds ...InteractionKind) bool {
	for _, k := range kinds {
		if b.recs[i].Kind == k {
			return true
		}
	}
	return false
}

// adjacent reports whether nothing that counts came between interactions i
// and j (i < j).
func (b *builder) adjacent(i, j int) bool {
	for k := i + 1; k < j; k++ {
		if b.recs[k].Kind != InteractMarkSensitive {
			return false
		}
	}
	return true
}

// within reports whether interaction j happened at most d after i. Without
// times (0), it counts as within.
func (b *builder) within(i, j int, d time.Duration) bool {
	ti, tj := b.recs[i].Time, b.recs[j].Time
	if ti == 0 || tj == 0 {
		return true
	}
	return tj-ti <= d.Milliseconds()
}

// causedBy reports whether navigation i was caused by the last group: a
// link, form, script or redirect navigation right after it, within
// causedNavigationWindow. A redirect follows navigations too.
func (b *builder) causedBy(last *group, i int) bool {
	switch b.recs[i].Transition {
	case transitionLink, transitionForm, transitionScript:
		return last.kind == groupAction && b.within(last.last(), i, causedNavigationWindow)
	case transitionRedirect:
		return b.within(last.last(), i, causedNavigationWindow)
	}
	return false
}

// dropClicksOfDoubleClick removes the single clicks on the same element
// that the browser reported just before double click i.
func (b *builder) dropClicksOfDoubleClick(groups []*group, i int) []*group {
	for len(groups) > 0 {
		last := groups[len(groups)-1]
		j := last.recs[0]
		r := &b.recs[j]
		if len(last.recs) != 1 || r.Kind != InteractClick || r.Count >= b.recs[i].Count ||
			!b.within(j, i, doubleClickWindow) || !b.sameTarget(j, i, selector.PurposeTap) {
			break
		}
		groups = groups[:len(groups)-1]
	}
	return groups
}

// A target is the element an interaction is aimed at, by document and ref.
type target struct{ doc, ref string }

// targetOf returns the element interaction i is aimed at, retargeted for
// purpose as Generate would (the button around a clicked span).
func (b *builder) targetOf(i int, purpose selector.Purpose) (target, bool) {
	r := &b.recs[i]
	if r.Before == nil || r.Ref == "" {
		return target{}, false
	}
	ref := r.Ref
	if rt, err := b.retarget(purpose, r.Ref, r.Before); err == nil {
		ref = rt
	}
	return target{doc: documentOf(r.Before), ref: ref}, true
}

// documentOf names the document a screen shows; refs compare only within
// one. A screen without a Document is told apart by its URL.
func documentOf(s *screen.Screen) string {
	if s.Document != "" {
		return s.Document
	}
	u, _, _ := strings.Cut(s.URL, "#")
	return "url " + u
}

func (b *builder) sameTarget(i, j int, purpose selector.Purpose) bool {
	ti, ok1 := b.targetOf(i, purpose)
	tj, ok2 := b.targetOf(j, purpose)
	return ok1 && ok2 && ti == tj
}

// plainClick: one left click without modifiers, which only focuses a field
// or toggles a box.
func (b *builder) plainClick(i int) bool {
	r := &b.recs[i]
	return r.Kind == InteractClick && r.Count <= 1 && len(r.Modifiers) == 0 && (r.Button == "" || r.Button == string(trail.ButtonLeft))
}

// passingClick reports whether group g is one click, alone or after a
// hover that showed nothing the click needed (the pointer passed over the
// element on its way while the page changed on its own): a step leaves
// such a hover out, so the group says no more than the click.
func (b *builder) passingClick(g *group) bool {
	if g.kind != groupAction || !b.soleAction(g) || !b.is(g.last(), InteractClick) {
		return false
	}
	return len(g.recs) == 1 || !b.hoverRevealed(g.recs[0], g.last())
}

// focusedBy reports whether click i only put the focus in the field that
// interaction j types into: a plain click on the field or on its label.
func (b *builder) focusedBy(i, j int) bool {
	return b.plainClick(i) && (b.sameTarget(i, j, selector.PurposeType) || b.sameField(i, j) || b.labelOf(i, j, selector.PurposeType))
}

// sameField reports whether interactions i and j aim at one field that the
// app rewrote in between: another element on j's screen, in the same
// document, that the selector i's field has on i's screen names on j's
// (a tree editor renders its rows again a debounce after each change, so
// the field clicked is replaced before the typing into it is captured).
// Replay would find one element by that selector for both.
func (b *builder) sameField(i, j int) bool {
	ti, ok1 := b.targetOf(i, selector.PurposeType)
	tj, ok2 := b.targetOf(j, selector.PurposeType)
	if !ok1 || !ok2 || ti.doc != tj.doc || ti.ref == tj.ref {
		return false
	}
	sel, _, err := b.generate(selector.PurposeType, ti.ref, b.recs[i].Before)
	if err != nil {
		return false
	}
	found, err := b.matcher(b.recs[j].Before).Match(sel)
	return err == nil && len(found) == 1 && found[0].Ref == tj.ref
}

// clickEffectWindow bounds how long after a click a check or uncheck can
// be that click's own effect: the page toggles the box while it handles
// the click, in the same task, so both reach the host within milliseconds;
// this leaves room for a page busy re-rendering on a loaded machine.
const clickEffectWindow = time.Second

// madeByClick reports whether check or uncheck j is the effect of the
// click that group g is (after a hover, and with the effects already
// taken in): the click was plain, j came right after it, and it came on
// the click's screen, within clickEffectWindow. The extension reports a
// box's change with the screen of the click being handled when a click
// made it, so a change that came on the click's screen came while the
// page showed nothing new since: a script's input.click() in the page's
// click handler, as custom check boxes drawn over a hidden input do. (A
// click on the box or its label is checkedBy's.)
func (b *builder) madeByClick(g *group, j int) bool {
	k := 0
	if len(g.recs) > 1 && b.is(g.recs[0], InteractHover) {
		k = 1
	}
	click := g.recs[k]
	for _, e := range g.recs[k+1:] {
		if !b.clickEffects[e] {
			return false
		}
	}
	rc, rj := &b.recs[click], &b.recs[j]
	return b.plainClick(click) && rc.Before != nil && rj.Before == rc.Before && b.within(click, j, clickEffectWindow)
}

// checkedBy reports whether click i is the click that the check or uncheck
// j reports: on the box itself or on its label.
func (b *builder) checkedBy(i, j int) bool {
	return b.plainClick(i) && (b.sameTarget(i, j, selector.PurposeTap) || b.labelOf(i, j, selector.PurposeTap))
}

// labelOf reports whether interaction i clicked the label of the control
// interaction j is aimed at: a label element around it, or one whose text
// is the control's label.
func (b *builder) labelOf(i, j int, purpose selector.Purpose) bool {
	ri := &b.recs[i]
	if ri.Before == nil || ri.Ref == "" {
		return false
	}
	tj, ok := b.targetOf(j, purpose)
	if !ok || tj.doc != documentOf(ri.Before) {
		return false
	}
	m := b.matcher(ri.Before)
	label := labelAround(m, ri.Ref)
	if label < 0 {
		return false
	}
	ctl, ok := m.Position(tj.ref)
	if !ok {
		return false
	}
	return m.Inside(ctl, label) || screen.CollapseSpace(m.Nodes()[label].Text) == m.Nodes()[ctl].Label && m.Nodes()[ctl].Label != ""
}

// labelAround returns the position of the label element ref is or lies in,
// -1 for none.
func labelAround(m *selector.Matcher, ref string) int32 {
	p, ok := m.Position(ref)
	if !ok {
		return -1
	}
	for ; p >= 0; p = m.Parent(p) {
		if m.Nodes()[p].Tag == "label" {
			return p
		}
		if selector.IsControlRole(m.Nodes()[p].Role) {
			return -1 // a control inside a label is not the label
		}
	}
	return -1
}

// selectsAllIn reports whether interaction p is a press of Control+A (or
// Meta+A) in the field that interaction i types into.
func (b *builder) selectsAllIn(p, i int) bool {
	r := &b.recs[p]
	if r.Kind != InteractPress || !strings.EqualFold(r.Key, "a") {
		return false
	}
	held, err := modifiers(r.Modifiers)
	if err != nil || len(held) != 1 || (held[0] != trail.ModifierControl && held[0] != trail.ModifierMeta) {
		return false
	}
	tp, okp := b.keyTarget(p)
	ti, oki := b.keyTarget(i)
	return okp && oki && tp == ti
}

// keysJoin reports whether press j joins group g: g types into a field and
// goes on with key presses in it ("type iphone and press Enter"), or g is
// key presses in one field. Keys pressed with the focus nowhere in
// particular (shortcuts) are steps of their own.
func (b *builder) keysJoin(g *group, j int) bool {
	if g.kind != groupAction || !b.is(g.last(), InteractType, InteractPress) {
		return false
	}
	typed := b.is(g.recs[0], InteractType)
	if !typed && !b.is(g.recs[0], InteractPress) {
		return false
	}
	tj, okj := b.keyTarget(j)
	ti, oki := b.keyTarget(g.recs[0])
	if !okj || !oki {
		// A press that does not say where it went, right after typing,
		// goes to the field typed into.
		return typed && !okj
	}
	return ti == tj
}

// keyTarget returns the field a type or press went to: its Ref, or for a
// press the focus of its screen. ok is false when it is not known or the
// focus was on the page itself.
func (b *builder) keyTarget(i int) (target, bool) {
	r := &b.recs[i]
	if r.Before == nil {
		return target{}, false
	}
	ref := r.Ref
	if ref == "" && r.Kind == InteractPress {
		ref = r.Before.Focused
	}
	if ref == "" {
		return target{}, false
	}
	if rt, err := b.retarget(selector.PurposeType, ref, r.Before); err == nil {
		ref = rt
	}
	return target{doc: documentOf(r.Before), ref: ref}, true
}

// start takes the navigations (and switches to the tab the recording goes
// on in) before the first other step out of the groups: they only say
// where the trail starts, and replay opens a fresh tab there. It returns
// the start path: the page of the first remaining step's first interaction.
func (b *builder) start(groups []*group) (string, []*group, error) {
	for len(groups) > 0 && b.onlyMoves(groups[0]) {
		groups = groups[1:]
	}
	if len(groups) == 0 {
		return "", nil, ErrNoSteps
	}
	first := &b.recs[groups[0].recs[0]]
	raw := b.pageOf(groups[0].recs[0])
	if raw == "" {
		return "", nil, fmt.Errorf("building steps: interaction %d, the first of the trail, has no URL, so the trail has no start; the extension must report the page's URL with every interaction", first.Seq)
	}
	p, err := b.appPath(raw)
	if err != nil {
		return "", nil, fmt.Errorf("building steps: the start page: %w", err)
	}
	if b.taint.Leaks(p) || b.leaksURL(p) {
		return "", nil, errors.New("building steps: the trail would start at a URL that shows a value marked sensitive; record it from a page whose address holds none")
	}
	return p, groups, nil
}

// pageOf returns the URL of the page interaction i happened on: its own,
// else the last one known before it, else the first one known after it (a
// dialog reported without one shows on the page the next interaction is
// on). A tab switch reports the new tab's URL, which is not where it
// happened, unless nothing else is known.
func (b *builder) pageOf(i int) string {
	url := func(r *RecordedInteraction) string {
		if r.URL != "" {
			return r.URL
		}
		return screenURL(r.Before)
	}
	for k := i; k >= 0; k-- {
		r := &b.recs[k]
		if r.Kind == InteractSwitchTab && k == i {
			continue
		}
		if u := url(r); u != "" {
			return u
		}
	}
	for k := i + 1; k < len(b.recs); k++ {
		if u := url(&b.recs[k]); u != "" {
			return u
		}
	}
	return ""
}

// onlyMoves reports whether g only goes somewhere: navigations and tab
// switches.
func (b *builder) onlyMoves(g *group) bool {
	for _, i := range g.recs {
		if !b.is(i, InteractNavigate, InteractSwitchTab) {
			return false
		}
	}
	return true
}

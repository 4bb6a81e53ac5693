package steps

import (
	"errors"
	"fmt"
	"slices"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Assert change, in the recording bar (docs/screen-diffs.md): after an action the
// person asks what it changed (PreviewChange: the diff of the screen before
// the action and the screen now, each change in words with the matcher it
// would record), ticks what must be included and whether nothing else may
// change, and the bar sends an assertChange interaction naming the ticked
// changes by key. BuildSteps diffs the same two screens again and writes an
// assertChange right after the action, in its step.

// A ChangeOffer is one change of an action's diff, as the bar lists it.
type ChangeOffer struct {
	// Key names the change in its diff (ChangeKey); the assertChange
	// interaction sends the keys of the ticked changes.
	Key string `json:"key"`
	// Text is the change in words (screendiff's form), or a plain sentence
	// when the words would show a value marked sensitive.
	Text string `json:"text"`
	// Matcher is the matcher the trail would record for the change, written
	// as the trail writes it; empty when no selector names the change's
	// node alone (Why says so) and the change cannot be ticked.
	Matcher string `json:"matcher,omitempty"`
	Why     string `json:"why,omitempty"`

	match *trail.ChangeMatch
}

// A ChangePreview is the diff of the last action, for the recording bar.
type ChangePreview struct {
	// Seq is the action's interaction; Action says in words what it was.
	Seq    int64  `json:"seq"`
	Action string `json:"action"`
	// Navigated is set when the page's URL changed with the action.
	Navigated bool          `json:"navigated"`
	Changes   []ChangeOffer `json:"changes"`
	// Only says whether "nothing else changes" can be recorded: every
	// change must have a matcher. With no changes it records "nothing
	// changes" (changed: false). OnlyWhy says why not.
	Only    bool   `json:"only"`
	OnlyWhy string `json:"onlyWhy,omitempty"`
}

// Errors of PreviewChange and of the assertChange interaction, in words for
// the person.
var (
	ErrNoAction = errors.New("no action recorded yet: do something in the page (click, type, choose), then press Assert change")
	// ErrAfterAssertion: the last step is an assertion, which changes
	// nothing.
	ErrAfterAssertion = errors.New("the last thing recorded is a check, which changes nothing: Assert change checks what an action did, so press it right after an action")
)

// A NoBaselineError says that the action has no screen captured before it
// (a navigation the person typed, a dialog): there is nothing to diff.
type NoBaselineError struct{ Kind InteractionKind }

func (e *NoBaselineError) Error() string {
	return fmt.Sprintf("the last action (%s) has no screen captured before it, so what it changed is unknown: Assert change works after a click, typing, a key or a choice on the page", e.Kind)
}

// ChangeKey names a change within its diff: its kind and the refs of its
// node on each side. A node has at most one change of each kind.
func ChangeKey(c screendiff.Change) string {
	var b, a string
	if c.Before != nil {
		b = c.Before.Ref
	}
	if c.After != nil {
		a = c.After.Ref
	}
	return string(c.Kind) + ":" + b + ":" + a
}

// PreviewChange lists what the last action of the recording changed: the
// diff of the screen captured before it and after (the screen now, once
// the page settled). recs are the session's interactions, as BuildSteps
// takes them. The errors are ErrNoAction, ErrAfterAssertion and
// *NoBaselineError, and a foreign origin as BuildSteps gives it.
func PreviewChange(recs []RecordedInteraction, after *screen.Screen, o BuildOptions) (*ChangePreview, error) {
	if after == nil || after.Root == nil {
		return nil, screendiff.ErrNoScreen
	}
	b, err := newBuilder(recs, nil, o)
	if err != nil {
		return nil, err
	}
	groups := b.group()
	if len(groups) == 0 {
		return nil, ErrNoAction
	}
	g := groups[len(groups)-1]
	if g.kind == groupAssert {
		return nil, ErrAfterAssertion
	}
	a, err := b.observedAction(g)
	if err != nil {
		return nil, err
	}
	r := &b.recs[a]
	res, offers, err := b.changeOffers(b.changeBase(a), after)
	if err != nil {
		return nil, err
	}
	// With no change at all, Only records that nothing changes (changed:
	// false): the action must keep doing nothing.
	p := &ChangePreview{Seq: r.Seq, Action: b.actionWords(a), Navigated: res.Navigated, Changes: offers, Only: true}
	for _, c := range offers {
		if c.match == nil {
			p.Only, p.OnlyWhy = false, "“Nothing else changes” needs every change named, and one cannot be: "+c.Text
			break
		}
	}
	if p.Changes == nil {
		p.Changes = []ChangeOffer{}
	}
	return p, nil
}

// actionWords says interaction i in words, as its step's intent would.
func (b *builder) actionWords(i int) string {
	out, err := b.convert(0, i)
	if err != nil || out.phrase == "" {
		return string(b.recs[i].Kind)
	}
	if b.taint.Leaks(out.phrase) {
		return string(b.recs[i].Kind)
	}
	return out.phrase
}

// observedAction is the interaction of group g whose action an assertChange
// at its end would follow: its last action (a navigation the action caused
// and earlier assertChanges add none).
func (b *builder) observedAction(g *group) (int, error) {
	for k := len(g.recs) - 1; k >= 0; k-- {
		i := g.recs[k]
		r := &b.recs[i]
		switch {
		case r.Kind == InteractAssertChange, r.Kind == InteractNavigate && k > 0:
			continue
		case r.Before == nil:
			return -1, &NoBaselineError{Kind: r.Kind}
		}
		return i, nil
	}
	return -1, ErrNoAction
}

// changeBase is the screen the diff of interaction a's action runs from:
// the screen before it, or, for a typing that a click into its field
// joined, the click's, since replay's type clicks the field first and
// what the click set off (a tree editor's path bar written for the
// focused key) happens within it. From the typing's screen, the bar
// written again with the typed key is a possible replacement that replay,
// which diffs from before its click, never sees (docs/recording.md,
// JSONEditor's walk seed 8).
func (b *builder) changeBase(a int) *screen.Screen {
	if s := b.clickedFrom[a]; s != nil {
		return s
	}
	return b.recs[a].Before
}

// changeOffers diffs before and after and gives each change its words and
// the matcher a trail would record for it.
func (b *builder) changeOffers(before, after *screen.Screen) (*screendiff.Result, []ChangeOffer, error) {
	res, err := screendiff.Diff(before, after, screendiff.Options{})
	if err != nil {
		return nil, nil, err
	}
	var offers []ChangeOffer
	seen := map[string]bool{}
	alone := make([]bool, len(res.Changes))
	for k, c := range res.Changes {
		alone[k] = b.pointerAlone(before, after, c)
	}
	for k, c := range res.Changes {
		o := ChangeOffer{Key: ChangeKey(c), Text: c.String()}
		if seen[o.Key] {
			// Not expected of a diff; a key must name one change.
			o.Key = fmt.Sprintf("%s#%d", o.Key, k)
		}
		seen[o.Key] = true
		if b.taint.Leaks(o.Text) {
			o.Text = fmt.Sprintf("%s of an element showing a value marked sensitive", c.Kind)
			o.Why = "it shows a value marked sensitive, which is never written down"
			offers = append(offers, o)
			continue
		}
		if alone[k] {
			// A control that shows only under the pointer (a row's copy
			// button under .row:hover) comes and goes with where the
			// pointer rests, which replay does not reproduce: it moves the
			// pointer only onto what the trail acts on.
			o.Why = "the pointer alone shows it, and replay moves the pointer only onto what the trail acts on"
			offers = append(offers, o)
			continue
		}
		if b.besidePointerAlone(before, after, res, k, alone) {
			// Its neighbour's coming or going (the copy button) moved or
			// squeezed it: what replay does not reproduce of the one, it
			// does not of the other.
			o.Why = "it moved or changed size as an element the pointer alone shows came or went beside it, and replay moves the pointer only onto what the trail acts on"
			offers = append(offers, o)
			continue
		}
		m, why := b.changeMatch(res, before, after, k)
		if m == nil {
			o.Why = why
		} else {
			o.match = m
			o.Matcher = m.String()
		}
		offers = append(offers, o)
	}
	return res, offers, nil
}

// pointerAlone reports whether change c is of a node that the pointer
// alone shows on either screen (screen.Node.RevealedBy).
func (b *builder) pointerAlone(before, after *screen.Screen, c screendiff.Change) bool {
	revealed := func(s *screen.Screen, n *screendiff.NodeRef) bool {
		if s == nil || n == nil {
			return false
		}
		m := b.matcher(s)
		p, ok := b.refPositions(m)[n.Ref]
		return ok && m.Nodes()[p].RevealedBy != ""
	}
	return revealed(before, c.Before) || revealed(after, c.After)
}

// besidePointerAlone reports whether change k moves or resizes a node that
// shares its parent or grandparent with a node whose change the pointer
// alone made (alone): Swagger UI's path text widens when the "Copy path"
// button beside it, shown only under the pointer, hides.
func (b *builder) besidePointerAlone(before, after *screen.Screen, res *screendiff.Result, k int, alone []bool) bool {
	c := res.Changes[k]
	if c.Kind != screendiff.Moved && c.Kind != screendiff.Resized {
		return false
	}
	// near gives the refs of n's parent and grandparent on s.
	near := func(s *screen.Screen, n *screendiff.NodeRef, into map[string]bool) {
		if s == nil || n == nil {
			return
		}
		m := b.matcher(s)
		p, ok := b.refPositions(m)[n.Ref]
		for up := 0; ok && up < 2; up++ {
			if p = m.Parent(p); p < 0 {
				return
			}
			into[m.Nodes()[p].Ref] = true
		}
	}
	mine := map[string]bool{}
	near(before, c.Before, mine)
	near(after, c.After, mine)
	for j, o := range res.Changes {
		if !alone[j] || j == k {
			continue
		}
		theirs := map[string]bool{}
		near(before, o.Before, theirs)
		near(after, o.After, theirs)
		for ref := range theirs {
			if mine[ref] {
				return true
			}
		}
	}
	return false
}

// changeMatch makes the matcher of change k: its kind, a selector made by
// the selector generator (sidesAndPurposes) on the screen its kind reads (the after screen for
// added, the before screen for removed; the after screen first for the
// others, where the node is as it ended), and for a state or style change
// the values it ended at. A matcher is offered only when it finds that
// change, plainly, in the diff it came from.
func (b *builder) changeMatch(res *screendiff.Result, before, after *screen.Screen, k int) (*trail.ChangeMatch, string) {
	c := res.Changes[k]
	type side struct {
		s   *screen.Screen
		ref string
	}
	var sides []side
	if c.After != nil && c.Kind != screendiff.Removed {
		sides = append(sides, side{after, c.After.Ref})
	}
	if c.Before != nil && c.Kind != screendiff.Added {
		sides = append(sides, side{before, c.Before.Ref})
	}
	var to map[string]string
	var tos []trail.ChangeTo
	if c.Kind == screendiff.State || c.Kind == screendiff.Style {
		for _, d := range c.Deltas {
			if d.To == "" {
				continue // an absent field: nothing a trail can write it ends at
			}
			if to == nil {
				to = map[string]string{}
			}
			to[d.Field] = d.To
			tos = append(tos, trail.ChangeTo{Field: d.Field, Value: d.To})
		}
	}
	why := "no selector names its element alone"
	for _, try := range sidesAndPurposes(len(sides)) {
		sd := sides[try.side]
		sel, _, err := b.generate(try.purpose, sd.ref, sd.s)
		if err != nil {
			why = fmt.Sprintf("no selector names its element alone (%v)", err)
			continue
		}
		mr, err := res.Match(screendiff.Matcher{Change: c.Kind, Selector: &sel, To: to})
		if err != nil {
			why = fmt.Sprintf("its selector %s does not name one element on both screens", sel)
			continue
		}
		if mr.Outcome != screendiff.Found || !slices.Contains(mr.Changes, k) {
			why = fmt.Sprintf("its selector %s does not find this change", sel)
			continue
		}
		esc := escapeSelector(sel)
		return &trail.ChangeMatch{Change: string(c.Kind), Selector: &esc, To: tos}, ""
	}
	return nil, why
}

type sideAndPurpose struct {
	side    int
	purpose selector.Purpose
}

// sidesAndPurposes is the order changeMatch tries selectors in: on each
// screen, first as a step acting on the node names it (its role and name:
// who it is, not what it shows, which is what the change is about), then
// as an assertion names it (its text pinned), for a node with no name.
func sidesAndPurposes(n int) []sideAndPurpose {
	var out []sideAndPurpose
	for i := range n {
		out = append(out, sideAndPurpose{i, selector.PurposeTap}, sideAndPurpose{i, selector.PurposeAssert})
	}
	return out
}

// assertChange builds the assertChange interaction i asks for: the ticked
// changes (Interaction.Changes, by key) must be included, and with Only
// nothing but the changes of the diff may happen.
func (b *builder) assertChange(i int) (built, error) {
	r := &b.recs[i]
	a, ok := b.observed[i]
	if !ok {
		return built{}, leftOut("it follows no action of its step")
	}
	if r.AssertChange != nil {
		return b.wholeCheck(r.AssertChange)
	}
	res, offers, err := b.changeOffers(b.changeBase(a), r.Before)
	if err != nil {
		return built{}, leftOut("the screens around its action cannot be compared (%v)", err)
	}
	byKey := map[string]ChangeOffer{}
	for _, o := range offers {
		byKey[o.Key] = o
	}
	var ac trail.AssertChange
	for _, key := range r.Changes {
		o, ok := byKey[key]
		switch {
		case !ok:
			return built{}, leftOut("it names a change (%s) the action did not make", screen.Clip(key, 80))
		case o.match == nil:
			return built{}, leftOut("a change it names cannot be written as a matcher: %s", o.Why)
		}
		ac.MustInclude = append(ac.MustInclude, *o.match)
	}
	if r.Only {
		if len(offers) == 0 {
			f := false
			ac.Changed = &f
		}
		for _, o := range offers {
			if o.match == nil {
				return built{}, leftOut("“nothing else changes” needs every change named, and one cannot be: %s", o.Why)
			}
			ac.Only = append(ac.Only, *o.match)
		}
	}
	for _, ref := range r.Unchanged {
		m, err := b.unchangedMatch(res, r.Before, ref)
		if err != nil {
			return built{}, err
		}
		ac.MustNotInclude = append(ac.MustNotInclude, *m)
	}
	if len(ac.MustInclude) == 0 && ac.Only == nil && ac.Changed == nil && ac.MustNotInclude == nil {
		return built{}, leftOut("it ticks no change")
	}
	return built{action: ac}, nil
}

// unchangedMatch makes the mustNotInclude matcher of an element the person
// picked as one that must not change: any change of it, named by the
// selector an assertion on it would use (its text pinned). The element
// must not have changed in the action's own diff: that assertion would
// fail on the app it was recorded on.
func (b *builder) unchangedMatch(res *screendiff.Result, after *screen.Screen, ref string) (*trail.ChangeMatch, error) {
	sel, _, err := b.generate(selector.PurposeAssert, ref, after)
	if err != nil {
		return nil, leftOut("no selector names the element picked to stay unchanged alone (%v)", err)
	}
	mr, err := res.Match(screendiff.Matcher{Selector: &sel})
	switch {
	case err != nil:
		return nil, leftOut("the selector %s of the element picked to stay unchanged does not name one element (%v)", sel, err)
	case mr.Outcome != screendiff.NotFound:
		return nil, leftOut("the element picked to stay unchanged (%s) did change: %s", sel, res.Words(mr.Changes))
	}
	if b.taint.Leaks(sel.String()) {
		return nil, leftOut("the selector of the element picked to stay unchanged would show a value marked sensitive")
	}
	esc := escapeSelector(sel)
	return &trail.ChangeMatch{Selector: &esc}, nil
}

// wholeCheck is the assertChange an outside agent's call recorded whole
// (Interaction.AssertChange): the host checked it on the page before it was
// recorded. One that a trail cannot hold, or that would write down a value
// marked sensitive, is left out.
func (b *builder) wholeCheck(c *trail.ChangeJSON) (built, error) {
	ac := c.AssertChange()
	if err := trail.CheckWritable(ac); err != nil {
		return built{}, leftOut("its check cannot be written into a trail: %v", err)
	}
	leak := false
	trail.ForEachText(&trail.Trail{Steps: []trail.Step{{Actions: []trail.Action{ac}}}}, func(_, text string) {
		leak = leak || b.taint.Leaks(text) || b.leaksURL(text)
	})
	if leak {
		return built{}, leftOut("its check would write down a value marked sensitive")
	}
	return built{action: ac}, nil
}

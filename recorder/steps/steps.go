package steps

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"sort"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// BuildOptions says what BuildSteps needs beyond the interactions.
type BuildOptions struct {
	// BaseURL is the app's origin (scheme://host:port) the recording's URLs
	// are made relative to. Empty means the origin of the first URL recorded.
	BaseURL string
	// Sensitive are values the session marked sensitive, when the caller
	// knows them (usually none: the page model already hides them).
	Sensitive []string
	// Origins are the other origins the app trusts (apps.<name>.origins):
	// an agent's goal whose flow reached an origin that is neither these
	// nor BaseURL's is left out, with a note.
	Origins []string
}

// BuiltTrail is what BuildSteps makes of a session.
type BuiltTrail struct {
	// Start is the path the trail begins at (origin-free).
	Start string
	Steps []trail.Step
	// Secrets are the names of the ${secret:…} the trail needs, sorted, for
	// the popup's list.
	Secrets []string
	// Notes say plainly anything the builder could not express; nothing is
	// left out silently. They never hold a secret or sensitive value.
	Notes []string
}

// ErrNoSteps: nothing in the recording makes a step (no interactions, or
// every step was undone).
var ErrNoSteps = errors.New("the recording has no steps: record at least one action or assertion before saving")

// BuildSteps turns a session's interactions into a trail's steps (docs/trail-format.md).
// recs are the session's interactions with their Before screens, in any
// order (they are put in Seq order; a re-sent Seq counts once); final is the
// screen after the last interaction (nil when not captured).
//
// Actions. Every meaningful interaction becomes one action whose selector
// is Generate's on its Before screen: purpose tap for click, check,
// uncheck, hover and upload, type for type, select for select, assert for
// assertions. A plain click on a checkbox, radio button or switch (or on
// the label around one) records check or uncheck from the node's state; a
// box hidden behind its styled label is recorded as the click on the label.
// A click, check, uncheck or visibility assertion on an element that shows
// only while the pointer rests on a row around it (screen.Node.RevealedBy)
// is preceded by a hover over that row. A hover the extension reports
// before a click (the pointer entered an element and the page changed
// right after) joins the click's step, and is kept only when the clicked
// element was not shown before it.
// Typing into a secret field records ${secret:NAME}, never a value; so does
// typing a value the session marked sensitive (or the first letters of one).
//
// Interactions that say the same thing once:
//   - a click that only focused a field (or its label) before typing into
//     it is dropped;
//   - clicks on a select, file input, checkbox or radio button right before
//     the select, upload, check or uncheck reported for it are dropped;
//   - a check or uncheck the page made while handling a click on another
//     element (a custom check box whose script clicks its hidden input) is
//     part of that click, which is the step's one action;
//   - two types (or selects) on one field back to back: the last counts;
//   - single clicks right before a double click on the same element are
//     part of the double click.
//
// Steps, the way a person describes them:
//   - each action starts a step: filling a form is one step per field, and
//     the submit is a step of its own, so each step stays small, has a
//     plain intent and an end state of its own;
//   - key presses right after typing into a field, in that field, join its
//     step ("Type iphone into Search and press Enter"), and so do presses
//     right after presses in the same field; shortcuts pressed with the
//     focus on the page are steps of their own;
//   - what an action causes joins its step when it is the next thing that
//     happens: a navigation by link, form, script or redirect within
//     causedNavigationWindow (not recorded as an action: the step's end URL
//     shows it), a JavaScript dialog (it blocks the page, so the
//     interaction before it opened it; a dialog answered right after
//     another joins that one), a switch to a tab after a click, key,
//     navigation or dialog within the window (the tab it opened), and a file
//     upload after a click on the button that opened the file chooser;
//   - a typed URL, back, forward and reload are navigate steps of their
//     own, as is a navigation nothing recorded caused, a dialog nothing
//     opened and a switch to a tab the person chose;
//   - every assertion is a step of its own, with no end;
//   - navigations and tab switches before the first other step only say
//     where the trail starts: Start is the page of the first step's first
//     interaction;
//   - undo removes the last step built so far, with the interactions in it
//     (it does not undo what the step did to the app);
//   - markSensitive adds no action; the text and value its element shows are
//     kept out of every selector, intent, end and note of the whole trail
//     (earlier steps included, since a value marked sensitive must never be
//     written down), in memory only.
//
// Each step with actions records its end: the path of the screen after it
// (the next interaction's Before screen in the same tab, or final; none
// when the page changed before anything captured it) and up to MaxEndShows
// presence selectors of nodes that appeared or changed because of the step
// (see endOf). A step whose action no selector names becomes a bare goal
// (act) with its intent, for the agent to perform at replay; an interaction
// that cannot be written down at all is left out, with the rest of its step
// when the step means nothing without it. Both are said in Notes.
//
// A URL on another origin than BaseURL is an error (*ForeignOriginError
// inside): a trail stores paths of one app. So is a recording without any
// step (ErrNoSteps). Every step returned loads back with LoadTrail, and the
// trail holds none of the values marked sensitive.
func BuildSteps(recs []RecordedInteraction, final *screen.Screen, o BuildOptions) (*BuiltTrail, error) {
	b, err := newBuilder(recs, final, o)
	if err != nil {
		return nil, err
	}
	groups := b.group()
	start, groups, err := b.start(groups)
	if err != nil {
		return nil, err
	}
	b.startPath = start
	steps, err := b.steps(groups)
	if err != nil {
		return nil, err
	}
	if len(steps) == 0 {
		return nil, ErrNoSteps
	}
	out := &BuiltTrail{Start: start, Steps: steps, Notes: b.notes}
	t := &trail.Trail{Steps: steps}
	for _, r := range t.References() {
		if r.Kind == trail.RefSecret {
			out.Secrets = append(out.Secrets, r.Name)
		}
	}
	return out, nil
}

// builder holds what BuildSteps works with.
type builder struct {
	recs  []RecordedInteraction
	final *screen.Screen
	// origin is the app's origin; every URL must be on it. trusted are
	// the other origins the app trusts (BuildOptions.Origins).
	origin  string
	trusted []string
	// taint is what must never be written down: BuildOptions.Sensitive and
	// the values of the elements marked sensitive.
	taint     selector.Sensitive
	sensitive []string
	startPath string

	// observed maps an assertChange interaction to the action interaction
	// whose change it checks.
	observed map[int]int
	// clickEffects are the check and uncheck interactions that the page
	// made while handling the click before them (madeByClick): part of
	// the click's step, with no action of their own.
	clickEffects map[int]bool
	// clickedFrom maps a typing to the screen of the click that only put
	// the focus in its field and joined it (focusedBy): replay's type
	// clicks the field first, so the diff an assertChange after the typing
	// checks runs from that screen (changeBase).
	clickedFrom map[int]*screen.Screen
	// building is the index the step being built gets, for the places
	// of the agent's checks.
	building  int
	matchers  map[*screen.Screen]*selector.Matcher
	positions map[*screen.Screen]map[string]int32
	notes     []string
}

func newBuilder(recs []RecordedInteraction, final *screen.Screen, o BuildOptions) (*builder, error) {
	b := &builder{final: final, observed: map[int]int{}, clickEffects: map[int]bool{}, clickedFrom: map[int]*screen.Screen{}, matchers: map[*screen.Screen]*selector.Matcher{}, positions: map[*screen.Screen]map[string]int32{}}
	b.recs = withoutLoneModifiers(inSeqOrder(recs))
	base := o.BaseURL
	if base == "" {
		base = firstURL(b.recs, final)
	}
	if base != "" {
		u, err := url.Parse(base)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("building steps: base URL %q is not an http or https origin such as http://localhost:3000", base)
		}
		b.origin = trail.OriginOf(u)
	}
	for _, o := range o.Origins {
		if u, err := url.Parse(o); err == nil && u.Host != "" {
			b.trusted = append(b.trusted, trail.OriginOf(u))
		}
	}
	b.sensitive = append(slices.Clone(o.Sensitive), b.markedValues()...)
	b.taint = selector.NewSensitive(b.sensitive)
	b.recs = b.complete(b.recs)
	return b, nil
}

// complete leaves out, with a note, the interactions that lack what their
// kind must carry (Interaction.Check): the host refuses them on arrival,
// so only a recording stored before that rule, or built by hand, has any.
func (b *builder) complete(recs []RecordedInteraction) []RecordedInteraction {
	kept := recs[:0]
	for _, r := range recs {
		var ie *IncompleteError
		if err := r.Check(); errors.As(err, &ie) {
			b.note(fmt.Sprintf("Interaction %d (%s) was left out: it lacks %s (%s).", r.Seq, r.Kind, ie.Field, ie.Send), "")
			continue
		}
		// An unknown kind is said where steps are built.
		kept = append(kept, r)
	}
	return kept
}

// modifierKeys are held for the next key or click, never pressed for
// themselves: the key or click they go with carries them as modifiers. They
// are the trail format's modifier words and their synonyms, and the other
// keys KeyboardEvent names as modifiers.
var modifierKeys = slices.Concat(trail.ModifierWords, slices.Collect(maps.Keys(trail.ModifierSynonyms)),
	[]string{"AltGraph", "CapsLock", "NumLock", "ScrollLock", "Fn", "FnLock", "Hyper", "Symbol", "SymbolLock", "OS"})

// withoutLoneModifiers drops the presses of a modifier key on its own. The
// extension does not send them; an older one did, and a trail that presses
// Control before Control+a is not what the person did.
func withoutLoneModifiers(recs []RecordedInteraction) []RecordedInteraction {
	return slices.DeleteFunc(recs, func(r RecordedInteraction) bool {
		return r.Kind == InteractPress && slices.Contains(modifierKeys, r.Key)
	})
}

// inSeqOrder returns the interactions sorted by Seq; an interaction re-sent
// with a Seq already seen counts once. Interactions without a Seq keep the
// order they were given in.
func inSeqOrder(recs []RecordedInteraction) []RecordedInteraction {
	out := slices.Clone(recs)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	seen := map[int64]bool{}
	kept := out[:0]
	for _, r := range out {
		if r.Seq > 0 {
			if seen[r.Seq] {
				continue
			}
			seen[r.Seq] = true
		}
		kept = append(kept, r)
	}
	return kept
}

// firstURL is the first http(s) URL of the recording, whose origin stands
// for the app's when the caller gives none.
func firstURL(recs []RecordedInteraction, final *screen.Screen) string {
	for _, r := range recs {
		for _, u := range []string{r.URL, screenURL(r.Before)} {
			if p, err := url.Parse(u); err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != "" {
				return u
			}
		}
	}
	if final != nil {
		return final.URL
	}
	return ""
}

func screenURL(s *screen.Screen) string {
	if s == nil {
		return ""
	}
	return s.URL
}

// markedValues reads what the elements marked sensitive show, from the
// screens the marks were made on.
func (b *builder) markedValues() []string {
	var out []string
	for _, r := range b.recs {
		if r.Kind != InteractMarkSensitive || r.Before == nil || r.Ref == "" {
			continue
		}
		n := b.matcher(r.Before).Node(r.Ref)
		if n == nil {
			continue
		}
		for _, v := range []string{n.Text, n.Value} {
			if v = screen.CollapseSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// matcher returns the screen's Matcher, built once per screen.
func (b *builder) matcher(s *screen.Screen) *selector.Matcher {
	m, ok := b.matchers[s]
	if !ok {
		m = selector.NewMatcher(s)
		b.matchers[s] = m
	}
	return m
}

// note adds a note, keeping sensitive values out of it: a note that would
// show one says only what happened, in the builder's own words (safe, or a
// general sentence when there are none).
func (b *builder) note(text, safe string) {
	if b.taint.Leaks(text) {
		text = safe
		if text == "" || b.taint.Leaks(text) {
			text = "Something in the recording could not be said here without showing a value marked sensitive."
		}
	}
	b.notes = append(b.notes, text)
}

// appPath is AppPath on the app's origin.
func (b *builder) appPath(rawURL string) (string, error) {
	return trail.AppPath(rawURL, b.origin)
}

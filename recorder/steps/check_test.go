package steps

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Checks every test of BuildSteps runs on what it built.

// trailOf is the trail a recording saves: BuildSteps' steps under a title.
func trailOf(bt *BuiltTrail) *trail.Trail {
	return &trail.Trail{Title: "Recorded trail", App: "shop", Viewport: screen.Viewport{Width: 1280, Height: 800}, Start: bt.Start, Steps: bt.Steps}
}

// stepLine sums a step up on one line: intent, action kinds (act for a
// goal), end URL and shows.
func stepLine(s trail.Step) string {
	var b strings.Builder
	if s.By != "" {
		b.WriteString("[" + s.By + "] ")
	}
	b.WriteString(s.Intent)
	b.WriteString(" :: ")
	if s.Act != "" {
		b.WriteString("act")
	}
	for i, a := range s.Actions {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(a.Kind()))
	}
	if s.End != nil {
		b.WriteString(" => ")
		b.WriteString(s.End.URL)
		for _, sel := range s.End.Shows {
			b.WriteString(" " + sel.String())
		}
	}
	return b.String()
}

func stepLines(steps []trail.Step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = stepLine(s)
	}
	return out
}

// checkBuilt runs the checks every built trail must pass: it is written and
// loads back equal, it holds none of the secret values (nor, in its YAML,
// any prefix of one longer than three characters), and every action's
// selector names its target alone on the screen it was recorded on.
func checkBuilt(t *testing.T, recs []RecordedInteraction, final *screen.Screen, o BuildOptions, bt *BuiltTrail, secrets []string) []byte {
	t.Helper()
	tr := trailOf(bt)
	out, err := trail.MarshalTrail(tr)
	if err != nil {
		t.Fatalf("MarshalTrail(built trail) failed: %v", err)
	}
	back, err := trail.LoadTrail("built.trail.yaml", out)
	if err != nil {
		t.Fatalf("LoadTrail(MarshalTrail(built trail)) failed: %v\n%s", err, out)
	}
	if !back.Equal(tr) {
		t.Errorf("the built trail does not load back equal:\n%s", out)
	}
	if err := trail.CheckNoSecrets(tr, secrets); err != nil {
		t.Errorf("CheckNoSecrets(built trail) = %v", err)
	}
	checkNoLeaks(t, "the trail's YAML", string(out), secrets)
	checkNoLeaks(t, "the notes", strings.Join(bt.Notes, "\n"), secrets)
	for _, s := range bt.Steps {
		if s.End != nil && len(s.End.Shows) > trail.MaxEndShows {
			t.Errorf("step %q ends with %d shows, more than %d", s.Intent, len(s.End.Shows), trail.MaxEndShows)
		}
	}
	checkSelectorsNameTargets(t, recs, final, o)
	return out
}

// checkNoLeaks fails when text holds a secret value or any prefix of one
// longer than three characters (a value written a keystroke at a time).
func checkNoLeaks(t *testing.T, what, text string, secrets []string) {
	t.Helper()
	for _, v := range secrets {
		for n := len(v); n > 3; n-- {
			if strings.Contains(text, v[:n]) {
				t.Errorf("%s holds %q, a prefix of a secret value:\n%s", what, v[:n], text)
				break
			}
		}
	}
}

// checkSelectorsNameTargets converts every interaction again and checks that
// each action's selector, with its references expanded as replay expands
// them, matches exactly one node on the interaction's screen: the element
// aimed at (retargeted as Generate retargets), or the box a click on a label
// toggled, or the label standing in for a hidden box.
func checkSelectorsNameTargets(t *testing.T, recs []RecordedInteraction, final *screen.Screen, o BuildOptions) {
	t.Helper()
	b, err := newBuilder(recs, final, o)
	if err != nil {
		t.Fatal(err)
	}
	groups := b.group()
	start, groups, err := b.start(groups)
	if err != nil {
		return
	}
	b.startPath = start
	for _, g := range groups {
		for k, i := range g.recs {
			out, err := b.convert(k, i)
			if err != nil || out.action == nil {
				continue
			}
			sel, ok := trail.ActionSelector(out.action)
			if !ok {
				continue
			}
			r := &b.recs[i]
			expanded, err := expandSelector(sel)
			if err != nil {
				t.Errorf("interaction %d: selector %s: %v", r.Seq, sel, err)
				continue
			}
			got, err := selector.Match(r.Before, expanded)
			if err != nil || len(got) != 1 {
				t.Errorf("interaction %d (%s on %s): selector %s does not name one element on its screen: %v", r.Seq, r.Kind, r.Ref, sel, err)
				continue
			}
			if want := targetsOf(t, r); !slices.Contains(want, got[0].Ref) {
				t.Errorf("interaction %d (%s on %s): selector %s names %s, want one of %v", r.Seq, r.Kind, r.Ref, sel, got[0].Ref, want)
			}
			if gen, err := selector.Generate(purposeOf(out.action, got[0]), got[0].Ref, r.Before, b.sensitive); err != nil || gen.String() != expanded.String() {
				t.Errorf("interaction %d (%s on %s): selector %s is not what Generate(%s, %s) gives: %s, %v", r.Seq, r.Kind, r.Ref, expanded, purposeOf(out.action, got[0]), got[0].Ref, gen, err)
			}
		}
	}
}

// targetsOf lists the refs an action of r may name.
func targetsOf(t *testing.T, r *RecordedInteraction) []string {
	purpose := selector.PurposeTap
	switch r.Kind {
	case InteractType:
		purpose = selector.PurposeType
	case InteractSelect:
		purpose = selector.PurposeSelect
	case InteractAssertVisible, InteractAssertValue, InteractAssertState:
		purpose = selector.PurposeAssert
	}
	var out []string
	if rt, err := selector.Retarget(purpose, r.Ref, r.Before); err == nil {
		out = append(out, rt)
	}
	m := selector.NewMatcher(r.Before)
	if box, _, ok := toggledBox(m, r.Ref); ok {
		out = append(out, box)
	}
	for _, ref := range append([]string{r.Ref}, out...) {
		if p, ok := m.Position(ref); ok {
			if l := labelFor(m, p); l >= 0 {
				out = append(out, m.Nodes()[l].Ref)
			}
		}
	}
	return out
}

// expandSelector undoes the escaping of "${" the way replay expands a
// selector's values; a real reference in a recorded selector is an error.
func expandSelector(sel selector.Selector) (selector.Selector, error) {
	lookup := func(r trail.Ref) (string, error) {
		return "", errors.New("recorded selectors hold no references, found " + r.String())
	}
	for _, p := range []*string{&sel.Name, &sel.Text, &sel.TestID, &sel.ID, &sel.Label, &sel.Placeholder} {
		v, err := trail.ExpandRefs(*p, lookup)
		if err != nil {
			return sel, err
		}
		*p = v
	}
	if sel.Within != nil {
		w, err := expandSelector(*sel.Within)
		if err != nil {
			return sel, err
		}
		sel.Within = &w
	}
	return sel, nil
}

// purposeOf is the purpose an action's selector is generated for.
func purposeOf(a trail.Action, n *screen.Node) selector.Purpose {
	switch a.Kind() {
	case trail.ActionType:
		return selector.PurposeType
	case trail.ActionSelect:
		return selector.PurposeSelect
	case trail.ActionAssertValue:
		return valuePurpose(n)
	case trail.ActionAssertVisible, trail.ActionAssertState:
		return selector.PurposeAssert
	}
	return selector.PurposeTap
}

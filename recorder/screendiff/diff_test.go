package screendiff

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/trailpin/trailpin/recorder/selector"
)

func sel(s selector.Selector) *selector.Selector { return &s }

// A matchCase is one matcher and how it must fare.
type matchCase struct {
	name string
	m    Matcher
	want Outcome
	// deltas, when set, are the deltas the one matching change must have.
	deltas []Delta
}

// diffCase is a diff of two screens captured from a fixture page, checked
// with matchers and a count of the changes of each kind.
type diffCase struct {
	page, step string
	opts       Options
	// kinds is how many changes of each kind the diff lists, all of them:
	// a kind not named must not be there.
	kinds     map[Kind]int
	navigated bool
	matchers  []matchCase
}

func TestDiffCapturedScreens(t *testing.T) {
	cases := []diffCase{
		{
			// A region added with a heading and a table inside is one
			// change, found by a matcher for anything inside it.
			page: "details", step: "after",
			kinds: map[Kind]int{Added: 1, Removed: 1, Content: 3},
			matchers: []matchCase{
				{name: "added region", m: Matcher{Change: Added, Selector: sel(selector.Selector{Role: "region", Name: "Details"})}, want: Found},
				{name: "added heading inside", m: Matcher{Change: Added, Selector: sel(selector.Selector{Role: "heading", Name: "Details"})}, want: Found},
				{name: "added cell inside", m: Matcher{Change: Added, Selector: sel(selector.Selector{Role: "cell", Name: "Tea"})}, want: Found},
				{name: "removed notice", m: Matcher{Change: Removed, Selector: sel(selector.Selector{Text: "Please wait while the order loads."})}, want: Found},
				{name: "the notice was not added", m: Matcher{Change: Added, Selector: sel(selector.Selector{Text: "Please wait while the order loads."})}, want: NotFound},
				{name: "status content", m: Matcher{Change: Content, Selector: sel(selector.Selector{Role: "status"})}, want: Found,
					deltas: []Delta{{Field: "text", From: "Loading details…", To: "Details loaded"}}},
				{name: "note value", m: Matcher{Change: Content, Selector: sel(selector.Selector{Role: "textbox", Name: "Note"})}, want: Found,
					deltas: []Delta{{Field: "value", From: "Leave at the door", To: "Ring twice"}}},
				{name: "toolbar content, through its clock", m: Matcher{Change: Content, Selector: sel(selector.Selector{Role: "toolbar", Name: "Agent"})}, want: Found},
				{name: "the button did not change", m: Matcher{Selector: sel(selector.Selector{Role: "button", Name: "Show details"})}, want: NotFound},
			},
		},
		{
			// The toolbar is ignored: its clock's change is gone, nothing
			// else is.
			page: "details", step: "after",
			opts:  Options{Ignore: []selector.Selector{{Role: "toolbar", Name: "Agent"}}},
			kinds: map[Kind]int{Added: 1, Removed: 1, Content: 2},
			matchers: []matchCase{
				{name: "ignored toolbar", m: Matcher{Selector: sel(selector.Selector{Role: "toolbar", Name: "Agent"})}, want: NotFound},
				{name: "status still there", m: Matcher{Change: Content, Selector: sel(selector.Selector{Role: "status"})}, want: Found},
			},
		},
		{
			page: "menu", step: "after",
			kinds: map[Kind]int{State: 3, Style: 1},
			matchers: []matchCase{
				{name: "menu button expanded", m: Matcher{Change: State, Selector: sel(selector.Selector{Role: "button", Name: "Menu"}), To: map[string]string{"expanded": "true"}}, want: Found,
					deltas: []Delta{{Field: "expanded", From: "false", To: "true"}}},
				{name: "menu button not collapsed", m: Matcher{Change: State, Selector: sel(selector.Selector{Role: "button", Name: "Menu"}), To: map[string]string{"expanded": "false"}}, want: NotFound},
				{name: "checkbox ticked", m: Matcher{Change: State, Selector: sel(selector.Selector{Role: "checkbox", Name: "Accept the terms"}), To: map[string]string{"checked": "true"}}, want: Found},
				{name: "menu shown", m: Matcher{Change: Style, Selector: sel(selector.Selector{Role: "menu", Name: "Main"}), To: map[string]string{"visible": "true"}}, want: Found},
				{name: "menu item shown with it", m: Matcher{Change: Style, Selector: sel(selector.Selector{Role: "menuitem", Name: "Orders"}), To: map[string]string{"visible": "true"}}, want: Found},
				{name: "fieldset disabled", m: Matcher{Change: State, Selector: sel(selector.Selector{Role: "group", Name: "Shipping"}), To: map[string]string{"disabled": "true"}}, want: Found},
				{name: "field disabled with it", m: Matcher{Change: State, Selector: sel(selector.Selector{Role: "textbox", Name: "Street"}), To: map[string]string{"disabled": "true"}}, want: Found},
				{name: "nothing was added", m: Matcher{Change: Added}, want: NotFound},
			},
		},
		{
			// The sidebar widens (its sections stretch with it: one
			// resize), the toast moves, and the list items pushed down by
			// the new one are a reflow, not moves.
			page: "layout", step: "after",
			kinds: map[Kind]int{Resized: 1, Moved: 1, Added: 1},
			matchers: []matchCase{
				{name: "sidebar resized", m: Matcher{Change: Resized, Selector: sel(selector.Selector{Role: "complementary", Name: "Filters"})}, want: Found},
				{name: "section stretched with it", m: Matcher{Change: Resized, Selector: sel(selector.Selector{Role: "region", Name: "Price"})}, want: NotFound},
				{name: "toast moved", m: Matcher{Change: Moved, Selector: sel(selector.Selector{Role: "alert"})}, want: Found},
				{name: "pushed item not moved", m: Matcher{Change: Moved, Selector: sel(selector.Selector{Text: "Buy milk"})}, want: NotFound},
				{name: "new item", m: Matcher{Change: Added, Selector: sel(selector.Selector{Text: "Call the bank"})}, want: Found},
			},
		},
		{
			// React threw "Buy milk" away and rendered it again under a
			// new key: found as added (after side) or removed (before
			// side) only as ambiguous.
			page: "keyed-list", step: "after",
			kinds: map[Kind]int{PossibleReplacement: 1, Removed: 1, Added: 1},
			matchers: []matchCase{
				{name: "added through the replacement", m: Matcher{Change: Added, Selector: sel(selector.Selector{Text: "Buy milk"})}, want: FoundAmbiguous},
				{name: "removed through the replacement", m: Matcher{Change: Removed, Selector: sel(selector.Selector{Text: "Buy milk"})}, want: FoundAmbiguous},
				{name: "the replacement by its kind", m: Matcher{Change: PossibleReplacement, Selector: sel(selector.Selector{Text: "Buy milk"})}, want: Found},
				{name: "really added", m: Matcher{Change: Added, Selector: sel(selector.Selector{Text: "Call the bank"})}, want: Found},
				{name: "really removed", m: Matcher{Change: Removed, Selector: sel(selector.Selector{Text: "Walk the dog"})}, want: Found},
				{name: "kept its key", m: Matcher{Selector: sel(selector.Selector{Text: "Water the plants"})}, want: NotFound},
			},
		},
		{
			// Sorted again under the same keys, React moves its elements:
			// the refs go with them, so the tasks are moved, not replaced.
			page: "keyed-sort", step: "after",
			kinds: map[Kind]int{Moved: 3},
			matchers: []matchCase{
				{name: "moved up", m: Matcher{Change: Moved, Selector: sel(selector.Selector{Text: "Water the plants"})}, want: Found},
				{name: "moved down", m: Matcher{Change: Moved, Selector: sel(selector.Selector{Text: "Buy milk"})}, want: Found},
				{name: "not replaced", m: Matcher{Change: PossibleReplacement}, want: NotFound},
				{name: "not added", m: Matcher{Change: Added, Selector: sel(selector.Selector{Text: "Buy milk"})}, want: NotFound},
			},
		},
		{
			page: "soft-nav", step: "after", navigated: true,
			kinds: map[Kind]int{Removed: 1, Added: 1},
			matchers: []matchCase{
				{name: "settings shown", m: Matcher{Change: Added, Selector: sel(selector.Selector{Role: "article", Name: "Settings"})}, want: Found},
				{name: "home gone", m: Matcher{Change: Removed, Selector: sel(selector.Selector{Role: "heading", Name: "Welcome back"})}, want: Found},
			},
		},
		{
			// Halfway through the transition the drawer has moved and
			// the Buy button is not covered yet: a check that it became
			// covered fails now and passes at the end (next case). That
			// is what assertChange's retry must do: capture again and
			// diff against the same before screen until the check
			// passes or its budget runs out.
			page: "transition", step: "mid",
			kinds: map[Kind]int{Moved: 1},
			matchers: []matchCase{
				{name: "drawer on its way", m: Matcher{Change: Moved, Selector: sel(selector.Selector{Role: "navigation", Name: "Cart"})}, want: Found},
				{name: "link carried with it", m: Matcher{Change: Moved, Selector: sel(selector.Selector{Role: "link", Name: "Checkout"})}, want: Found},
				{name: "buy not covered yet", m: Matcher{Change: Style, Selector: sel(selector.Selector{Role: "button", Name: "Buy"}), To: map[string]string{"covered": "true"}}, want: NotFound},
			},
		},
		{
			page: "transition", step: "after",
			kinds: map[Kind]int{Moved: 1, Style: 1},
			matchers: []matchCase{
				{name: "drawer in", m: Matcher{Change: Moved, Selector: sel(selector.Selector{Role: "navigation", Name: "Cart"})}, want: Found},
				{name: "buy covered", m: Matcher{Change: Style, Selector: sel(selector.Selector{Role: "button", Name: "Buy"}), To: map[string]string{"covered": "true"}}, want: Found,
					deltas: []Delta{{Field: "covered", From: "false", To: "true"}}},
			},
		},
	}
	for _, c := range cases {
		name := c.page + "." + c.step
		if len(c.opts.Ignore) > 0 {
			name += "/ignore"
		}
		t.Run(name, func(t *testing.T) {
			before, after := loadScreen(t, c.page, "before"), loadScreen(t, c.page, c.step)
			r, err := Diff(before, after, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			got := map[Kind]int{}
			for _, ch := range r.Changes {
				got[ch.Kind]++
			}
			if !reflect.DeepEqual(got, c.kinds) {
				t.Errorf("Diff(%s) kinds = %v, want %v; the diff:\n%s", name, got, c.kinds, r)
			}
			if r.Navigated != c.navigated || r.BeforeURL != before.URL || r.AfterURL != after.URL {
				t.Errorf("Diff(%s): navigated %v from %q to %q, want %v from %q to %q", name, r.Navigated, r.BeforeURL, r.AfterURL, c.navigated, before.URL, after.URL)
			}
			if r.NewDocument {
				t.Errorf("Diff(%s) says the screens are of two documents; they are of one", name)
			}
			for _, mc := range c.matchers {
				res, err := r.Match(mc.m)
				if err != nil {
					t.Errorf("%s: Match: %v", mc.name, err)
					continue
				}
				if res.Outcome != mc.want {
					t.Errorf("%s: Match(%+v) = %v, want %v; the diff:\n%s", mc.name, mc.m, res.Outcome, mc.want, r)
				}
				if mc.deltas != nil {
					if len(res.Changes) != 1 {
						t.Errorf("%s: matched %d changes, want 1", mc.name, len(res.Changes))
					} else if ch := r.Changes[res.Changes[0]]; !reflect.DeepEqual(ch.Deltas, mc.deltas) {
						t.Errorf("%s: deltas = %+v, want %+v", mc.name, ch.Deltas, mc.deltas)
					}
				}
			}
		})
	}
}

func TestDiffSameScreenIsNoChange(t *testing.T) {
	for _, page := range []string{"details", "menu", "keyed-list", "keyed-sort", "layout", "transition", "soft-nav"} {
		s := loadScreen(t, page, "before")
		r, err := Diff(s, s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Changed() || r.Navigated {
			t.Errorf("Diff(%s, itself) = %s, want no changes", page, r)
		}
		res, err := r.Match(Matcher{})
		if err != nil || res.Outcome != NotFound {
			t.Errorf("Diff(%s, itself).Match(any) = %v, %v, want not found", page, res.Outcome, err)
		}
	}
}

func TestDiffIsDeterministic(t *testing.T) {
	before, after := loadScreen(t, "keyed-list", "before"), loadScreen(t, "keyed-list", "after")
	first, err := Diff(before, after, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		again, _ := Diff(before, after, Options{})
		if !reflect.DeepEqual(first.Changes, again.Changes) {
			t.Fatalf("Diff gave\n%s\nthen\n%s", first, again)
		}
	}
}

// Screens of two documents share no element: nothing is paired by ref, and
// a page that loaded again reading the same is one possible replacement at
// its root.
func TestDiffOtherDocument(t *testing.T) {
	before := loadScreen(t, "menu", "before")
	after := loadScreen(t, "menu", "before")
	after.Document = before.Document + "-reloaded"
	r, err := Diff(before, after, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.NewDocument || len(r.Changes) != 1 || r.Changes[0].Kind != PossibleReplacement || r.Changes[0].After.Tag != "html" {
		t.Fatalf("Diff(menu, menu reloaded) = %s (new document %v), want one possible replacement of the html", r, r.NewDocument)
	}
	res, err := r.Match(Matcher{Change: Added, Selector: sel(selector.Selector{Role: "button", Name: "Menu"})})
	if err != nil || res.Outcome != FoundAmbiguous {
		t.Errorf("Match(added Menu) across documents = %v, %v, want %v", res.Outcome, err, FoundAmbiguous)
	}
}

func TestDiffErrors(t *testing.T) {
	s := loadScreen(t, "menu", "before")
	if _, err := Diff(nil, s, Options{}); !errors.Is(err, ErrNoScreen) {
		t.Errorf("Diff(nil, s) error = %v, want ErrNoScreen", err)
	}
	if _, err := Diff(s, s, Options{Ignore: []selector.Selector{{Role: "no-such-role"}}}); err == nil {
		t.Error("Diff with an invalid ignore selector succeeded")
	}
	if _, err := Diff(s, s, Options{Ignore: []selector.Selector{{Role: "dialog"}}}); err != nil {
		t.Errorf("Diff ignoring what is not there: %v, want no error", err)
	}
}

// A matcher that cannot be judged is an error, never a pass or a miss.
func TestMatchErrors(t *testing.T) {
	r, err := Diff(loadScreen(t, "keyed-list", "before"), loadScreen(t, "keyed-list", "after"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var invalid *InvalidMatcherError
	var amb *selector.AmbiguousError
	for _, c := range []struct {
		name  string
		m     Matcher
		check func(error) bool
	}{
		{"unknown kind", Matcher{Change: "appeared"}, func(err error) bool { return errors.As(err, &invalid) }},
		{"to on added", Matcher{Change: Added, To: map[string]string{"expanded": "true"}}, func(err error) bool { return errors.As(err, &invalid) }},
		{"to with an unknown field", Matcher{Change: State, To: map[string]string{"open": "true"}}, func(err error) bool { return errors.As(err, &invalid) }},
		{"style field on state", Matcher{Change: State, To: map[string]string{"visible": "true"}}, func(err error) bool { return errors.As(err, &invalid) }},
		{"ambiguous selector", Matcher{Change: Added, Selector: sel(selector.Selector{Role: "listitem"})}, func(err error) bool { return errors.As(err, &amb) }},
		{"invalid selector", Matcher{Selector: sel(selector.Selector{})}, func(err error) bool { return err != nil }},
	} {
		if _, err := r.Match(c.m); !c.check(err) {
			t.Errorf("%s: Match(%+v) error = %v", c.name, c.m, err)
		}
	}
}

// The JSON form of a result is the evidence a check carries: the changes
// with their deltas and where the page was, read back the same.
func TestResultJSON(t *testing.T) {
	r, err := Diff(loadScreen(t, "menu", "before"), loadScreen(t, "menu", "after"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Changes, r.Changes) || back.AfterURL != r.AfterURL || back.Navigated != r.Navigated {
		t.Errorf("the result read back from %s is\n%s\nwant\n%s", data, &back, r)
	}
}

func TestUnmatched(t *testing.T) {
	r, err := Diff(loadScreen(t, "details", "before"), loadScreen(t, "details", "after"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	only := []Matcher{
		{Change: Added, Selector: sel(selector.Selector{Role: "region", Name: "Details"})},
		{Change: Content},
	}
	got, err := r.Unmatched(only)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || r.Changes[got[0]].Kind != Removed {
		t.Errorf("Unmatched(added region, any content) = %v, want only the removed notice; the diff:\n%s", got, r)
	}
	if _, err := r.Unmatched([]Matcher{{Change: "appeared"}}); err == nil {
		t.Error("Unmatched with an invalid matcher succeeded")
	}
}

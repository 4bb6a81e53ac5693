package assertchange

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// Assertions on change (docs/screen-diffs.md). The action right before an
// assertChange is observed: the page is captured before it and, once quiet,
// after it, and the diff of the two is stored with an id for the run. A
// stored assertChange checks a stored diff and never looks at the page; a
// live one reads the page now, against the screen from before the action
// (the baseline). Whatever cannot be checked (no baseline, an id the store
// does not hold, an invalid matcher) fails with its reason: nothing that
// confuses replay reads as a pass.

// Evidence sources.
const (
	SourceStored = "stored"
	SourceLive   = "live"
)

// ErrDiffUnavailable is the code of a check whose stored diff the run does
// not hold: an unknown or evicted id, or no observed action before it.
const ErrDiffUnavailable = "DIFF_UNAVAILABLE"

// An Evidence is what an assertChange checked and the diff it read:
// every assertChange result carries one, passed or not, and the agent's
// model is shown it (in its own words: the agent's modelEvidence).
type Evidence struct {
	Pass bool `json:"pass"`
	// Source is "stored" (a kept diff) or "live" (the page now against
	// the baseline).
	Source string `json:"evidenceSource"`
	// DiffID is the stored diff read, or the diff the live check was
	// taken against (the baseline's).
	DiffID      string `json:"diffId,omitempty"`
	HasBaseline bool   `json:"hasBaseline"`
	// BaselineURL is the URL of the screen before the action, and
	// Navigated says the page moved since (a soft navigation diffs two
	// pages of one document; NewDocument, two documents: the baseline's
	// refs are history, not something to act on).
	BaselineURL string `json:"baselineUrl,omitempty"`
	URL         string `json:"url,omitempty"`
	Navigated   bool   `json:"navigated,omitempty"`
	NewDocument bool   `json:"newDocument,omitempty"`
	// Attempts counts the captures of a live check (more than one with
	// retry).
	Attempts int           `json:"attempts,omitempty"`
	Checks   []CheckResult `json:"checks"`
	// Changes is the diff, and Lines the same in words (one per change,
	// as Change.String writes it).
	Changes []screendiff.Change `json:"changes"`
	Lines   []string            `json:"changesText"`
	// Error is set when there was nothing to check against.
	Error *Unchecked `json:"error,omitempty"`
}

// An Unchecked says why an assertChange had no evidence to check.
type Unchecked struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// A CheckResult is one check of an assertChange and how it fared.
type CheckResult struct {
	// Check names it: "changed", "mustInclude {change: added, …}", ….
	Check string `json:"check"`
	Pass  bool   `json:"pass"`
	// Detail says what was found: the changes it matched or that broke
	// it, or why it could not be decided.
	Detail string `json:"detail"`
}

// Failed lists the checks that did not pass, in words.
func (e *Evidence) Failed() []string {
	var out []string
	for _, c := range e.Checks {
		if !c.Pass {
			out = append(out, c.Check+": "+c.Detail)
		}
	}
	return out
}

// evidenceOf is the evidence of a diff, before any check.
func evidenceOf(source, id string, res *screendiff.Result) *Evidence {
	e := &Evidence{Source: source, DiffID: id, HasBaseline: true, Checks: []CheckResult{}, Changes: []screendiff.Change{}, Lines: []string{}}
	if res == nil {
		return e
	}
	e.BaselineURL, e.URL, e.Navigated, e.NewDocument = res.BeforeURL, res.AfterURL, res.Navigated, res.NewDocument
	e.Changes = res.Changes
	for _, c := range res.Changes {
		e.Lines = append(e.Lines, c.String())
	}
	return e
}

// unavailable is the evidence of an assertChange with nothing to check.
func unavailable(source string, err *Unchecked) *Evidence {
	return &Evidence{Source: source, Checks: []CheckResult{}, Changes: []screendiff.Change{}, Lines: []string{}, Error: err}
}

// checkStored runs the stored checks of a (its references already filled
// in) against a diff, adding each to e, and sets e.Pass.
func checkStored(e *Evidence, res *screendiff.Result, a trail.AssertChange) {
	add := func(check string, pass bool, detail string) {
		e.Checks = append(e.Checks, CheckResult{Check: check, Pass: pass, Detail: detail})
	}
	if a.Changed != nil {
		got := res.Changed()
		detail := "nothing changed"
		if got {
			all := make([]int, len(res.Changes))
			for i := range all {
				all[i] = i
			}
			detail = countChanges(res) + ": " + changesAt(res, all)
		}
		add("changed: "+strconv.FormatBool(*a.Changed), got == *a.Changed, detail)
	}
	for _, m := range a.MustInclude {
		check := "mustInclude " + m.String()
		mr, err := res.Match(toMatcher(m))
		switch {
		case err != nil:
			add(check, false, err.Error())
		case mr.Outcome == screendiff.Found:
			add(check, true, "found: "+changesAt(res, mr.Changes))
		case mr.Outcome == screendiff.FoundAmbiguous:
			add(check, false, mr.Outcome.String()+" ("+changesAt(res, mr.Changes)+"): the node may have been there before the action; match change: possible-replacement if a re-render is what the action does")
		default:
			add(check, false, "not found among "+countChanges(res))
		}
	}
	for _, m := range a.MustNotInclude {
		check := "mustNotInclude " + m.String()
		mr, err := res.Match(toMatcher(m))
		switch {
		case err != nil:
			add(check, false, err.Error())
		case mr.Outcome == screendiff.NotFound:
			add(check, true, "not found")
		default:
			add(check, false, mr.Outcome.String()+": "+changesAt(res, mr.Changes))
		}
	}
	if a.Only != nil {
		ms := make([]screendiff.Matcher, len(a.Only))
		var names []string
		for i, m := range a.Only {
			ms[i] = toMatcher(m)
			names = append(names, m.String())
		}
		check := "only " + strings.Join(names, ", ")
		extra, err := res.Unmatched(ms)
		switch {
		case err != nil:
			add(check, false, err.Error())
		case len(extra) == 0:
			add(check, true, "every change matches: "+countChanges(res))
		default:
			add(check, false, fmt.Sprintf("%d change(s) match none of them: %s", len(extra), changesAt(res, extra)))
		}
	}
	if a.MaxChanges != nil {
		add(fmt.Sprintf("maxChanges: %d", *a.MaxChanges), len(res.Changes) <= *a.MaxChanges, countChanges(res))
	}
	became := func(key, field string, sels []selector.Selector) {
		for _, sel := range sels {
			s := sel
			check := key + " " + sel.String()
			mr, err := res.Match(screendiff.Matcher{Change: screendiff.Style, Selector: &s, To: map[string]string{field: "true"}})
			switch {
			case err != nil:
				add(check, false, err.Error())
			case mr.Outcome == screendiff.Found:
				add(check, true, "found: "+changesAt(res, mr.Changes))
			default:
				add(check, false, fmt.Sprintf("no change made it %s: true among %s", field, countChanges(res)))
			}
		}
	}
	became("becameVisible", "visible", a.BecameVisible)
	became("becameCovered", "covered", a.BecameCovered)
	e.Pass = allPass(e.Checks)
}

func allPass(cs []CheckResult) bool {
	for _, c := range cs {
		if !c.Pass {
			return false
		}
	}
	return len(cs) > 0
}

// toMatcher is a trail matcher as the diff reads it.
func toMatcher(m trail.ChangeMatch) screendiff.Matcher {
	out := screendiff.Matcher{Change: screendiff.Kind(m.Change), Selector: m.Selector}
	if len(m.To) > 0 {
		out.To = map[string]string{}
		for _, t := range m.To {
			out.To[t.Field] = t.Value
		}
	}
	return out
}

// changesAt lists the changes at positions in words.
// listedChanges is how many changes a check's detail spells out; the
// evidence (and the trace page) lists every one.
const listedChanges = 8

// changesAt lists the changes at the given indexes, the first
// listedChanges of them in words.
func changesAt(res *screendiff.Result, at []int) string {
	if len(at) > listedChanges {
		return res.Words(at[:listedChanges]) + fmt.Sprintf("; and %d more (the trace lists them all)", len(at)-listedChanges)
	}
	return res.Words(at)
}

func countChanges(res *screendiff.Result) string {
	switch len(res.Changes) {
	case 0:
		return "no changes"
	case 1:
		return "1 change"
	}
	return fmt.Sprintf("%d changes", len(res.Changes))
}

// checkLive runs the live checks of a against the page now (s, with the
// diff res from the baseline), adding each to e, and sets e.Pass.
func checkLive(e *Evidence, s *screen.Screen, at string, a trail.AssertChange) {
	add := func(check string, pass bool, detail string) {
		e.Checks = append(e.Checks, CheckResult{Check: check, Pass: pass, Detail: detail})
	}
	if a.URL != "" {
		add("url: "+a.URL, diagnose.SamePath(at, a.URL), "the page is at "+at)
	}
	m := selector.NewMatcher(s)
	for _, sel := range a.Exists {
		nodes, err := m.Match(sel)
		var amb *selector.AmbiguousError
		switch {
		case err == nil:
			add("exists "+sel.String(), true, "found "+diagnose.Describe(nodes[0]))
		case errors.As(err, &amb) && len(nodes) > 0:
			add("exists "+sel.String(), true, fmt.Sprintf("found %d, the first %s", len(nodes), diagnose.Describe(nodes[0])))
		default:
			add("exists "+sel.String(), false, err.Error())
		}
	}
	for _, sel := range a.NotCovered {
		check := "notCovered " + sel.String()
		nodes, err := m.Match(sel)
		switch {
		case err != nil:
			add(check, false, err.Error())
		case nodes[0].Covered == nil:
			add(check, false, diagnose.Describe(nodes[0])+" was not tested for coverage (the page model tests interactive nodes in the viewport): name an interactive node")
		case *nodes[0].Covered:
			add(check, false, diagnose.Describe(nodes[0])+" is covered: another element takes a click at its centre")
		default:
			add(check, true, diagnose.Describe(nodes[0])+" is not covered")
		}
	}
	e.Pass = allPass(e.Checks)
}

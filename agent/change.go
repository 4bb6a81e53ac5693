package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trailpin/trailpin/agent/model"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// The assertChange tool (docs/screen-diffs.md): what the agent's last action changed.
// Its stored checks read the diff from the screen the action started from
// to the screen right after it; its live checks read the page now against
// the screen before the action (the baseline), which a live check consumes
// unless keepBaseline. The checks are the trail's (trail.AssertChange) and
// run through the same code replay runs them with (the Page's
// AssertChange); this file only turns the model's words (refs, roles,
// names, texts) into selectors of the screens it was shown.

// ToolAssertChange names the tool.
const ToolAssertChange = "assertChange"

// changeStates are the fields `to` may name: the states a diff follows
// (checked, expanded…, level) and the styles (visible, covered), as
// recorder/screendiff defines them. Each is a boolean but level, a whole
// number.
var changeStates = slices.Concat(screendiff.StateFields, screendiff.StyleFields)

// changeLevel is the one field of `to` that is a number.
const changeLevel = "level"

// changeToValue is the value a screen writes for v, the model's value of
// the field f of `to`, or why it cannot be one.
func changeToValue(f string, v any) (string, string) {
	if f == changeLevel {
		n, ok := v.(float64)
		if !ok || n < 1 || n != math.Trunc(n) {
			return "", fmt.Sprintf("to.%s must be a whole number from 1, not %v", f, v)
		}
		return strconv.Itoa(int(n)), ""
	}
	b, ok := v.(bool)
	if !ok {
		return "", fmt.Sprintf("to.%s must be true or false, not %v", f, v)
	}
	return strconv.FormatBool(b), ""
}

// changeKinds are the kinds of change a matcher may name.
var changeKinds = []string{trail.ChangeAdded, trail.ChangeRemoved, trail.ChangePossibleReplacement, trail.ChangeContent,
	trail.ChangeState, trail.ChangeStyle, trail.ChangeMoved, trail.ChangeResized}

// targetProps are the properties that name an element: a ref of a snapshot
// the model was shown, or its role, name and text as the snapshot shows
// them.
const targetProps = `"ref":{"type":["string","null"],"description":"a ref of the snapshot after your last action (or, for a removed element, of the one before it)"},` +
	`"role":{"type":["string","null"],"description":"the element's role as the snapshot shows it"},` +
	`"name":{"type":["string","null"],"description":"the element's name as the snapshot shows it"},` +
	`"text":{"type":["string","null"],"description":"text the element shows"}`

const targetRequired = `"ref","role","name","text"`

var (
	targetSchema  = `{"type":"object","properties":{` + targetProps + `},"required":[` + targetRequired + `],"additionalProperties":false}`
	targetsSchema = `{"type":["array","null"],"items":` + targetSchema + `}`
	matcherSchema = `{"type":"object","properties":{"kind":{"type":["string","null"],"enum":[` + quotedList(changeKinds) + `,null],"description":"the kind of change; null for any"},` +
		targetProps + `,"to":` + toSchema() + `},"required":["kind",` + targetRequired + `,"to"],"additionalProperties":false}`
	matchersSchema = `{"type":["array","null"],"items":` + matcherSchema + `}`
	nullableInt    = func(desc string) string {
		return `{"type":["integer","null"],"minimum":0,"description":"` + desc + `"}`
	}
	changeArgsSchema = `{"type":"object","properties":{` +
		`"changed":{"type":["boolean","null"],"description":"stored: true if your last action must have changed something, false if it must have changed nothing"},` +
		`"mustInclude":` + matchersSchema + `,` +
		`"mustNotInclude":` + matchersSchema + `,` +
		`"only":` + matchersSchema + `,` +
		`"maxChanges":` + nullableInt("stored: at most this many changes") + `,` +
		`"becameVisible":` + targetsSchema + `,` +
		`"becameCovered":` + targetsSchema + `,` +
		`"url":{"type":["string","null"],"description":"live: the path the page must be on now"},` +
		`"exists":` + targetsSchema + `,` +
		`"notCovered":` + targetsSchema + `,` +
		`"settleMs":` + nullableInt("live: wait this long before the first look") + `,` +
		`"retryMs":` + nullableInt("live: look again, against the same baseline, until the checks pass or this many milliseconds pass") + `,` +
		`"keepBaseline":{"type":["boolean","null"],"description":"live: true to keep the baseline for another live check"}` +
		`},"required":["changed","mustInclude","mustNotInclude","only","maxChanges","becameVisible","becameCovered","url","exists","notCovered","settleMs","retryMs","keepBaseline"],"additionalProperties":false}`
)

const changeToolDescription = "Check what your last action changed. Stored checks (changed, mustInclude, mustNotInclude, only, maxChanges, becameVisible, becameCovered) read the diff of your last action; " +
	"live checks (url, exists, notCovered, with settleMs, retryMs, keepBaseline) read the page now against the screen before it. Use one group per call; set the others to null. " +
	"The result lists the checks and the changes in words. A failed check never passes the step."

func toSchema() string {
	var props, req []string
	for _, f := range changeStates {
		typ := `{"type":["boolean","null"]}`
		if f == changeLevel {
			typ = `{"type":["integer","null"],"minimum":1}`
		}
		props = append(props, `"`+f+`":`+typ)
		req = append(req, `"`+f+`"`)
	}
	return `{"type":["object","null"],"description":"the states the element must have after the change, e.g. expanded true; null fields are not checked",` +
		`"properties":{` + strings.Join(props, ",") + `},"required":[` + strings.Join(req, ",") + `],"additionalProperties":false}`
}

func quotedList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = `"` + s + `"`
	}
	return strings.Join(q, ",")
}

// changeArgs are the arguments of assertChange.
type changeArgs struct {
	Changed        *bool           `json:"changed"`
	MustInclude    []changeMatcher `json:"mustInclude"`
	MustNotInclude []changeMatcher `json:"mustNotInclude"`
	Only           []changeMatcher `json:"only"`
	MaxChanges     *int            `json:"maxChanges"`
	BecameVisible  []changeTarget  `json:"becameVisible"`
	BecameCovered  []changeTarget  `json:"becameCovered"`
	URL            *string         `json:"url"`
	Exists         []changeTarget  `json:"exists"`
	NotCovered     []changeTarget  `json:"notCovered"`
	SettleMs       *int            `json:"settleMs"`
	RetryMs        *int            `json:"retryMs"`
	KeepBaseline   *bool           `json:"keepBaseline"`
}

// A changeTarget names an element as the model sees it.
type changeTarget struct {
	Ref  *string `json:"ref"`
	Role *string `json:"role"`
	Name *string `json:"name"`
	Text *string `json:"text"`
}

// A changeMatcher is a change the model names: its kind, its element and
// the states it ends at.
type changeMatcher struct {
	Kind *string `json:"kind"`
	changeTarget
	To map[string]any `json:"to"`
}

func (m *changeMatcher) UnmarshalJSON(b []byte) error {
	var raw struct {
		Kind *string        `json:"kind"`
		To   map[string]any `json:"to"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &m.changeTarget); err != nil {
		return err
	}
	m.Kind, m.To = raw.Kind, raw.To
	return nil
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// modelEvidence is an assertChange's evidence as the model reads it: the
// same checks, the changes in words only (the model never reads a
// selector) and why there was nothing to check in one line, with its code
// (NO_BASELINE, DIFF_UNAVAILABLE, INVALID_SPEC).
type modelEvidence struct {
	Pass bool `json:"pass"`
	// Source is "stored" (the diff of the last action) or "live".
	Source      string                     `json:"evidenceSource"`
	DiffID      string                     `json:"diffId,omitempty"`
	HasBaseline bool                       `json:"hasBaseline"`
	BaselineURL string                     `json:"baselineUrl,omitempty"`
	URL         string                     `json:"url,omitempty"`
	Navigated   bool                       `json:"navigated,omitempty"`
	NewDocument bool                       `json:"newDocument,omitempty"`
	Attempts    int                        `json:"attempts,omitempty"`
	Checks      []assertchange.CheckResult `json:"checks"`
	Changes     []string                   `json:"changes"`
	Error       string                     `json:"error,omitempty"`
}

// forModel is ev as the model reads it.
func forModel(ev *assertchange.Evidence) modelEvidence {
	m := modelEvidence{Pass: ev.Pass, Source: ev.Source, DiffID: ev.DiffID, HasBaseline: ev.HasBaseline,
		BaselineURL: ev.BaselineURL, URL: ev.URL, Navigated: ev.Navigated, NewDocument: ev.NewDocument, Attempts: ev.Attempts,
		Checks: append([]assertchange.CheckResult{}, ev.Checks...), Changes: append([]string{}, ev.Lines...)}
	if ev.Error != nil {
		m.Pass, m.Error = false, unchecked(ev)
	}
	return m
}

// unchecked is why ev had nothing to check, in one line with its code.
func unchecked(ev *assertchange.Evidence) string {
	return ev.Error.Code + ": " + ev.Error.Message
}

// ErrInvalidSpec is the code of an assertChange the agent refuses before
// any page is read: nothing to check, both groups mixed, an element it
// cannot name.
const ErrInvalidSpec = "INVALID_SPEC"

// A lastAction is the agent's last action and the screens around it: the
// one it started from and the one right after it.
type lastAction struct {
	id            string // a1, a2, … in the order the agent acted
	n             int    // the number in id
	started       time.Time
	before, after *screen.Screen
	// recorded is how many actions the outcome held right after this
	// one was recorded; -1 when it was not recorded.
	recorded int
	// checked says an assertChange of it was recorded already.
	checked bool
	// consumed: a live check consumed the baseline.
	consumed bool
}

// ChangeArgs are an assertChange expectation in the words of the agent's
// assertChange tool (docs/agent.md, The agent's assertChange): what an
// outside agent's assertChange takes too (docs/agent-api.md), read from
// the same JSON.
type ChangeArgs = changeArgs

// ChangeSpec turns an expectation in the tool's words into the trail's
// assertChange, its elements named by the selectors the recorder's
// generator writes for their refs on after, else before, else shown (the
// latest snapshot; for a removed element, before first). sensitive are the
// values no selector may hold, and redact hides them in the reason. The
// string is why the expectation cannot be checked, "" when it can.
func ChangeSpec(a ChangeArgs, before, after, shown *screen.Screen, sensitive []string, redact func(string) string) (trail.AssertChange, string) {
	r := &run{cfg: Config{Sensitive: sensitive, Redact: redact}, shown: shown}
	if redact == nil {
		r.cfg.Redact = func(s string) string { return s }
	}
	var last *lastAction
	if before != nil || after != nil {
		last = &lastAction{before: before, after: after}
	}
	return r.changeSpec(a, last)
}

// changeSpec turns the model's arguments into the trail's assertChange,
// its elements named by selectors of the screens around the last action.
// The error is why the spec cannot be checked, for the model.
func (r *run) changeSpec(a changeArgs, last *lastAction) (trail.AssertChange, string) {
	var spec trail.AssertChange
	stored := a.Changed != nil || a.MustInclude != nil || a.MustNotInclude != nil || a.Only != nil || a.MaxChanges != nil ||
		a.BecameVisible != nil || a.BecameCovered != nil
	live := a.URL != nil || a.Exists != nil || a.NotCovered != nil || a.SettleMs != nil || a.RetryMs != nil || a.KeepBaseline != nil
	checksLive := a.URL != nil || a.Exists != nil || a.NotCovered != nil
	switch {
	case stored && live:
		return spec, "it mixes stored checks (changed, mustInclude, mustNotInclude, only, maxChanges, becameVisible, becameCovered) with live ones (url, exists, notCovered, settleMs, retryMs, keepBaseline): make two calls"
	case !stored && !checksLive:
		return spec, "it checks nothing: give at least one of changed, mustInclude, mustNotInclude, only, maxChanges, becameVisible, becameCovered, url, exists, notCovered (an empty check would always pass)"
	case a.RetryMs != nil && (*a.RetryMs < 1 || *a.RetryMs > trail.MaxRetryBudgetMs):
		return spec, fmt.Sprintf("retryMs must be 1 to %d", trail.MaxRetryBudgetMs)
	}
	var problem string
	sel := func(t changeTarget, removed bool) *selector.Selector {
		if problem != "" {
			return nil
		}
		s, err := r.targetSelector(t, last, removed)
		if err != "" {
			problem = err
			return nil
		}
		return &s
	}
	sels := func(ts []changeTarget) []selector.Selector {
		if ts == nil {
			return nil
		}
		out := []selector.Selector{}
		for _, t := range ts {
			if s := sel(t, false); s != nil {
				out = append(out, *s)
			}
		}
		return out
	}
	matches := func(ms []changeMatcher) []trail.ChangeMatch {
		if ms == nil {
			return nil
		}
		out := []trail.ChangeMatch{}
		for _, m := range ms {
			cm := trail.ChangeMatch{Change: str(m.Kind)}
			if m.Ref != nil || m.Role != nil || m.Name != nil || m.Text != nil {
				cm.Selector = sel(m.changeTarget, cm.Change == trail.ChangeRemoved)
			}
			for _, f := range changeStates {
				if v := m.To[f]; v != nil {
					val, bad := changeToValue(f, v)
					if bad != "" && problem == "" {
						problem = bad
					}
					cm.To = append(cm.To, trail.ChangeTo{Field: f, Value: val})
				}
			}
			if cm.Change == "" && cm.Selector == nil && len(cm.To) == 0 && problem == "" {
				problem = "a matcher names no kind, element or state: it would match any change"
			}
			out = append(out, cm)
		}
		return out
	}
	spec.Changed, spec.MaxChanges = a.Changed, a.MaxChanges
	spec.MustInclude, spec.MustNotInclude, spec.Only = matches(a.MustInclude), matches(a.MustNotInclude), matches(a.Only)
	spec.BecameVisible, spec.BecameCovered = sels(a.BecameVisible), sels(a.BecameCovered)
	spec.URL = str(a.URL)
	if a.URL != nil && spec.URL == "" {
		problem = "url is empty: give the path the page must be on, or null"
	}
	spec.Exists, spec.NotCovered = sels(a.Exists), sels(a.NotCovered)
	spec.SettleMs, spec.KeepBaseline = a.SettleMs, a.KeepBaseline
	if a.RetryMs != nil {
		spec.Retry = &trail.Retry{BudgetMs: *a.RetryMs}
	}
	return spec, problem
}

// targetSelector names the element the model means: by a ref, the
// selector the recorder's generator writes for it on the screen after the
// last action (or, for a removed element, the one before it: refs from
// before a navigation are history, good for reading what was there and
// for nothing else); by role, name and text, as the snapshot shows them.
func (r *run) targetSelector(t changeTarget, last *lastAction, removed bool) (selector.Selector, string) {
	ref := str(t.Ref)
	if ref == "" {
		s := selector.Selector{Role: str(t.Role), Name: str(t.Name), Text: str(t.Text)}
		if s.Role == "" && s.Name == "" && s.Text == "" {
			return s, "an element is named by nothing: give its ref, or its role, name or text"
		}
		return s, ""
	}
	screens := []*screen.Screen{}
	if last != nil {
		if removed {
			screens = append(screens, last.before, last.after)
		} else {
			screens = append(screens, last.after, last.before)
		}
	}
	screens = append(screens, r.shown)
	for _, s := range screens {
		if s == nil || selector.NewMatcher(s).Node(ref) == nil {
			continue
		}
		sel, err := selector.Generate(selector.PurposeAssert, ref, s, r.cfg.Sensitive)
		if err != nil {
			return sel, r.cfg.Redact(fmt.Sprintf("ref %s cannot be named: %v", ref, err))
		}
		return sel, ""
	}
	return selector.Selector{}, fmt.Sprintf("%q is not a ref of the screens around your last action, nor of the latest snapshot: use a ref you were shown, or a role and name", ref)
}

// assertChange runs the tool: it checks the spec through the Page and
// answers with the evidence, as JSON. A passed check of the last recorded
// action joins the outcome's actions right after it, so a saved flow
// checks the same change.
func (r *run) assertChange(ctx context.Context, call model.ToolCall) result {
	var a changeArgs
	if err := call.Decode(&a); err != nil {
		r.stop(VerdictModelError, err.Error())
		return result{outcome: err.Error(), stop: true}
	}
	last := r.last
	spec, problem := r.changeSpec(a, last)
	var rep *assertchange.Evidence
	notChecked := func(code, msg string) *assertchange.Evidence {
		return &assertchange.Evidence{Source: assertchange.SourceOf(spec), Error: &assertchange.Unchecked{Code: code, Message: msg}}
	}
	switch {
	case problem != "":
		rep = notChecked(ErrInvalidSpec, problem)
	case last == nil:
		rep = notChecked(assertchange.ErrNoBaseline, "you have not acted in this step yet; assertChange checks what your last action changed")
	case spec.IsLive() && last.consumed:
		rep = notChecked(assertchange.ErrNoBaseline, "a live assertChange before this one consumed the baseline (give that one keepBaseline true)")
	default:
		got, err := r.page.AssertChange(ctx, spec, last.id, last.before, last.after)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, ErrPageGone) {
				r.pageFailed(ctx, "checking the change", err)
				return result{outcome: "assertChange: " + err.Error(), stop: true}
			}
			return r.lookAgain(ctx, "assertChange failed: "+err.Error(), false)
		}
		rep = got
		relabel(rep, a)
		if spec.IsLive() && (spec.KeepBaseline == nil || !*spec.KeepBaseline) {
			last.consumed = true
		}
	}
	shown := forModel(rep)
	if shown.Pass {
		r.recordChange(spec, last)
		r.keepCheck(spec, last)
	} else {
		r.out.FailedChecks = append(r.out.FailedChecks, r.cfg.Redact(failedLine(rep)))
		if rep.Error == nil {
			r.failedOnEvidence = true
		}
	}
	evidence, _ := json.Marshal(shown)
	verdict := "assertChange failed"
	if shown.Pass {
		verdict = "assertChange passed"
	}
	return r.lookAgain(ctx, verdict+": "+r.cfg.Redact(string(evidence)), false)
}

// recordChange adds a passed assertChange to the outcome's actions, right
// after the action it checked, when that is the last recorded one and no
// check of it is recorded yet: a trail's assertChange reads the action
// right before it.
func (r *run) recordChange(spec trail.AssertChange, last *lastAction) {
	if last.checked || last.recorded < 0 || last.recorded != len(r.out.Actions) {
		return
	}
	if b, err := json.Marshal(spec); err != nil || r.cfg.Redact(string(b)) != string(b) {
		// A secret's value must not reach a trail file.
		return
	}
	last.checked = true
	r.out.Actions = append(r.out.Actions, spec)
}

// keepCheck keeps a passed assertChange, with the action it checked and
// when, for a recording of the agent's input; not one that would hold a
// secret's value.
func (r *run) keepCheck(spec trail.AssertChange, last *lastAction) {
	if b, err := json.Marshal(trail.ChangeJSONOf(spec)); err != nil || r.cfg.Redact(string(b)) != string(b) {
		return
	}
	r.out.Checks = append(r.out.Checks, PassedCheck{Action: last.n, Acted: last.started, Checked: time.Now(), Check: spec})
}

// failedLine says in one line why an assertChange did not pass.
func failedLine(rep *assertchange.Evidence) string {
	if rep.Error != nil {
		return unchecked(rep)
	}
	var out []string
	for _, c := range rep.Checks {
		if !c.Pass {
			out = append(out, c.Check+": "+c.Detail)
		}
	}
	if len(out) == 0 {
		return "no check passed"
	}
	return strings.Join(out, "; ")
}

// relabel names each check of rep in the model's own words (its kinds,
// refs, roles, names and texts) rather than as the selectors they became:
// the model never reads a selector. The checks come in the order the
// trail's assertChange makes them; a report of another shape is left as
// it is.
func relabel(rep *assertchange.Evidence, a changeArgs) {
	var labels []string
	target := func(t changeTarget) string {
		var parts []string
		for _, f := range []struct {
			k string
			v *string
		}{{"ref", t.Ref}, {"role", t.Role}, {"name", t.Name}, {"text", t.Text}} {
			if str(f.v) != "" {
				parts = append(parts, fmt.Sprintf("%s %q", f.k, str(f.v)))
			}
		}
		return strings.Join(parts, ", ")
	}
	match := func(m changeMatcher) string {
		var parts []string
		if str(m.Kind) != "" {
			parts = append(parts, "kind "+str(m.Kind))
		}
		if t := target(m.changeTarget); t != "" {
			parts = append(parts, t)
		}
		for _, f := range changeStates {
			if v := m.To[f]; v != nil {
				parts = append(parts, fmt.Sprintf("to %s %v", f, v))
			}
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	if a.Changed != nil {
		labels = append(labels, fmt.Sprintf("changed: %v", *a.Changed))
	}
	for _, m := range a.MustInclude {
		labels = append(labels, "mustInclude "+match(m))
	}
	for _, m := range a.MustNotInclude {
		labels = append(labels, "mustNotInclude "+match(m))
	}
	if a.Only != nil {
		var ms []string
		for _, m := range a.Only {
			ms = append(ms, match(m))
		}
		labels = append(labels, "only "+strings.Join(ms, ", "))
	}
	if a.MaxChanges != nil {
		labels = append(labels, fmt.Sprintf("maxChanges: %d", *a.MaxChanges))
	}
	for _, l := range []struct {
		key string
		ts  []changeTarget
	}{{"becameVisible", a.BecameVisible}, {"becameCovered", a.BecameCovered}} {
		for _, t := range l.ts {
			labels = append(labels, l.key+" ("+target(t)+")")
		}
	}
	if a.URL != nil {
		labels = append(labels, "url: "+str(a.URL))
	}
	for _, l := range []struct {
		key string
		ts  []changeTarget
	}{{"exists", a.Exists}, {"notCovered", a.NotCovered}} {
		for _, t := range l.ts {
			labels = append(labels, l.key+" ("+target(t)+")")
		}
	}
	if len(labels) != len(rep.Checks) {
		return
	}
	for i := range rep.Checks {
		rep.Checks[i].Check = labels[i]
	}
}

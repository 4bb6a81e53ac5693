package trail

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/recorder/screendiff"
)

// The keys of assertChange (docs/screen-diffs.md): checks against the stored diff of
// the previous action (or the earlier one diffId names), and live checks
// with the keys that say how they read the page. One assertion uses one
// group.
var (
	changeDiffKeys = []string{"changed", "mustInclude", "mustNotInclude", "only", "maxChanges", "becameVisible", "becameCovered", "diffId"}
	changeLiveKeys = []string{"url", "exists", "notCovered", "settleMs", "retry", "keepBaseline", "ignore"}
	// changeChecks are the keys that check something: an assertChange
	// with none of them would pass on any page.
	changeChecks = []string{"changed", "mustInclude", "mustNotInclude", "only", "maxChanges", "becameVisible", "becameCovered", "url", "exists", "notCovered"}
	changeKinds  = []string{ChangeAdded, ChangeRemoved, ChangePossibleReplacement, ChangeContent, ChangeState, ChangeStyle, ChangeMoved, ChangeResized}
	matcherKeys  = []string{"change", "selector", "to"}
	retryKeys    = []string{"budgetMs"}
	// diffIDPattern is the form of the ids replay gives stored diffs.
	diffIDPattern = regexp.MustCompile(`^d[1-9][0-9]*$`)
)

// MaxRetryBudgetMs bounds retry.budgetMs: a transition lasts a second or
// two; a budget past a minute is a wait that belongs in the app's own
// readiness, not in one check.
const MaxRetryBudgetMs = 60_000

const changeExample = "{changed: true} or {mustInclude: [{change: added, selector: {role: dialog}}]}"

func (d *trailDecoder) assertChange(f field, o Origin) Action {
	fields, ok := d.body(f, changeExample)
	if !ok {
		return nil
	}
	a := AssertChange{Origin: o}
	if len(f.val.Content) == 0 {
		d.invalid(f.val, "assertChange", "give at least one check: "+quoteList(changeChecks),
			"assertChange is empty: an empty check would always pass")
		return a
	}
	var diff, live, checks []string
	for _, k := range changeDiffKeys {
		if _, has := fields[k]; has {
			diff = append(diff, k)
		}
	}
	for _, k := range changeLiveKeys {
		if _, has := fields[k]; has {
			live = append(live, k)
		}
	}
	for _, k := range changeChecks {
		if _, has := fields[k]; has {
			checks = append(checks, k)
		}
	}
	switch {
	case len(diff) > 0 && len(live) > 0:
		d.invalid(fields[live[0]].key, live[0], "split them into two assertChange actions",
			"assertChange mixes checks on the stored diff (%s) with live checks (%s)", strings.Join(diff, ", "), strings.Join(live, ", "))
	case len(checks) == 0 && len(diff)+len(live) > 0:
		d.invalid(f.key, "assertChange", "add a check: "+quoteList(changeChecks),
			"assertChange has %s but nothing to check: it would always pass", strings.Join(append(diff, live...), ", "))
	}
	if v, has := fields["changed"]; has {
		if b, ok := d.boolean(v); ok {
			a.Changed = &b
		}
	}
	a.MustInclude = d.changeMatches(fields, "mustInclude")
	a.MustNotInclude = d.changeMatches(fields, "mustNotInclude")
	a.Only = d.changeMatches(fields, "only")
	a.MaxChanges = d.optionalInt(fields, "maxChanges")
	if v, has := fields["becameVisible"]; has {
		a.BecameVisible = d.selectorList(v, 0)
	}
	if v, has := fields["becameCovered"]; has {
		a.BecameCovered = d.selectorList(v, 0)
	}
	if v, has := fields["diffId"]; has {
		if s, ok := d.str(v, false); ok {
			if diffIDPattern.MatchString(s) {
				a.DiffID = s
			} else {
				d.invalid(v.val, "diffId", "write the id replay gives a stored diff: d1 for the first action observed for an assertChange, d2 for the next",
					"diffId %q is not a diff id", s)
			}
		}
	}
	if v, has := fields["url"]; has {
		a.URL, _ = d.appPath(v)
	}
	if v, has := fields["exists"]; has {
		a.Exists = d.selectorList(v, 0)
	}
	if v, has := fields["notCovered"]; has {
		a.NotCovered = d.selectorList(v, 0)
	}
	a.SettleMs = d.optionalInt(fields, "settleMs")
	if v, has := fields["retry"]; has {
		a.Retry = d.retry(v)
	}
	if v, has := fields["keepBaseline"]; has {
		if b, ok := d.boolean(v); ok {
			a.KeepBaseline = &b
		}
	}
	if v, has := fields["ignore"]; has {
		a.Ignore = d.selectorList(v, 0)
	}
	return a
}

// retry reads {budgetMs: N}. The bare number of earlier files is refused
// with how to migrate it.
func (d *trailDecoder) retry(f field) *Retry {
	if f.val.Kind == yaml.ScalarNode {
		d.add(f.val, "retry", ErrLegacyForm, fmt.Sprintf("run `host migrate %s`, which rewrites it as retry: {budgetMs: %s}", d.fileForCommand(), f.val.Value),
			"retry is a budget now, not a number: write retry: {budgetMs: N}")
		return nil
	}
	rf, ok := d.mapping(f.val, "retry", retryKeys, "{budgetMs: 2000}")
	if !ok {
		return nil
	}
	if !d.require(f.val, rf, "retry", "budgetMs") {
		return nil
	}
	ms, ok := d.integer(rf["budgetMs"], 1)
	if !ok {
		return nil
	}
	if ms > MaxRetryBudgetMs {
		d.invalid(rf["budgetMs"].val, "budgetMs", fmt.Sprintf("give at most %d", MaxRetryBudgetMs),
			"retry.budgetMs %d is longer than a transition lasts", ms)
		return nil
	}
	return &Retry{BudgetMs: ms}
}

func (d *trailDecoder) optionalInt(fields map[string]field, key string) *int {
	v, has := fields[key]
	if !has {
		return nil
	}
	i, ok := d.integer(v, 0)
	if !ok {
		return nil
	}
	return &i
}

// changeMatches reads a list of {change: kind, selector: …, to: {…}} items.
func (d *trailDecoder) changeMatches(fields map[string]field, key string) []ChangeMatch {
	f, has := fields[key]
	if !has {
		return nil
	}
	n := f.val
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		d.invalid(n, key, fmt.Sprintf("write %s: [{change: added, selector: {role: dialog}}]", key), "%s must be a non-empty list, not %s", key, describe(n))
		return nil
	}
	var out []ChangeMatch
	for _, item := range n.Content {
		mf, ok := d.mapping(item, key+" item", matcherKeys, "{change: added, selector: {role: dialog}}")
		if !ok {
			continue
		}
		var m ChangeMatch
		if len(item.Content) == 0 {
			d.invalid(item, key, "give change:, selector:, to: or several", "a %s item is empty", key)
			continue
		}
		if c, has := mf["change"]; has {
			m.Change, _ = d.oneOf(c, changeKinds)
		}
		if s, has := mf["selector"]; has {
			if sel, ok := d.selector(s.val, "selector"); ok {
				m.Selector = &sel
			}
		}
		if t, has := mf["to"]; has {
			m.To = d.changeTo(t, m.Change)
		}
		out = append(out, m)
	}
	return out
}

// changeTo reads to: {field: value}: fields of a state change, or of a
// style change, and the value each must end at.
func (d *trailDecoder) changeTo(f field, kind string) []ChangeTo {
	var allowed []string
	switch kind {
	case ChangeState:
		allowed = screendiff.StateFields
	case ChangeStyle:
		allowed = screendiff.StyleFields
	case "":
		allowed = append(slices.Clone(screendiff.StateFields), screendiff.StyleFields...)
	default:
		d.invalid(f.key, "to", "drop to:, or use change: state or change: style",
			"to: says what a state or style became, and a %s change has none", kind)
		return nil
	}
	tf, ok := d.mapping(f.val, "to", allowed, "{expanded: true}")
	if !ok {
		return nil
	}
	if len(f.val.Content) == 0 {
		d.invalid(f.val, "to", "name a state and its value: to: {expanded: true}", "to is empty")
		return nil
	}
	var out []ChangeTo
	for i := 0; i+1 < len(f.val.Content); i += 2 {
		name := f.val.Content[i].Value
		v, known := tf[name]
		if !known {
			continue // reported by mapping
		}
		if val, ok := d.toValue(v); ok {
			out = append(out, ChangeTo{Field: name, Value: val})
		}
	}
	return out
}

// toValue reads the value a field must end at, as a screen writes it.
func (d *trailDecoder) toValue(f field) (string, bool) {
	v := f.val
	switch f.name {
	case "level":
		i, ok := d.integer(f, 1)
		return strconv.Itoa(i), ok
	case "checked", "pressed":
		if v.Kind == yaml.ScalarNode && v.Tag == "!!str" && v.Value == "mixed" {
			return "mixed", true
		}
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			d.invalid(v, f.name, "write true, false or mixed", "%s must be true, false or mixed, not %s", f.name, describe(v))
			return "", false
		}
	}
	b, ok := d.boolean(f)
	return strconv.FormatBool(b), ok
}

// changeBaselines refuses, at load time, the assertChange actions that
// could never have a baseline at replay: one with no action before it (it
// starts the trail), one right after another assertion (which changes
// nothing and is not observed), a live one after a live one that consumed
// the baseline (no keepBaseline), and a diffId naming a diff no action
// before it is observed for. What only replay can know (an agent's step in
// between) fails there.
func (d *trailDecoder) changeBaselines(steps []Step) {
	var prev Action   // the last action before, assertChange skipped
	var consumed bool // a live assertChange consumed the baseline since prev
	observed := 0     // actions observed so far: the ids d1 … dN
	ids := DiffIDs(steps)
	for si, st := range steps {
		if len(st.Actions) == 0 && st.Act != "" {
			// The agent performs the step: replay knows what it did.
			prev, consumed = nil, false
			continue
		}
		for j, a := range st.Actions {
			c, ok := a.(AssertChange)
			if !ok {
				if _, ok := ids[ActionAt{si, j}]; ok {
					observed++
				}
				prev, consumed = a, false
				continue
			}
			at := &yaml.Node{Line: c.Line}
			switch {
			case c.DiffID != "":
				if n, _ := strconv.Atoi(c.DiffID[1:]); n > observed {
					d.invalid(at, "diffId", "name the diff of an action before it: d1 is the first action followed by an assertChange",
						"assertChange names %s, but only %d action(s) before it are observed", c.DiffID, observed)
				}
				continue
			case prev == nil && si == 0:
				d.invalid(at, "assertChange", "put it right after the action whose change it checks",
					"assertChange starts the trail: there is no action before it to observe")
			case prev != nil && prev.Kind().IsAssertion():
				d.invalid(at, "assertChange", "put it right after the action whose change it checks",
					"assertChange follows %s (line %d), which changes nothing: replay observes only the action right before an assertChange", prev.Kind(), prev.SourceLine())
			case c.IsLive() && consumed:
				d.invalid(at, "keepBaseline", "add keepBaseline: true to the live assertChange before it, or put an action in between",
					"assertChange reads a baseline the live assertChange before it consumed")
			}
			if c.IsLive() && (c.KeepBaseline == nil || !*c.KeepBaseline) {
				consumed = true
			}
		}
	}
}

// An ActionAt is the place of an action in a trail: its step and its
// position in the step's actions, both from 0.
type ActionAt struct{ Step, Action int }

// DiffIDs gives each action replay observes (one an assertChange follows,
// that is not itself an assertion) the id of its diff: d1 for the first in
// the trail, d2 for the next. The ids belong to the places, so a diffId
// names the same action whatever replay skipped.
func DiffIDs(steps []Step) map[ActionAt]string {
	ids := map[ActionAt]string{}
	for i, st := range steps {
		for j, a := range st.Actions {
			if !a.Kind().IsAssertion() && nextIsChange(steps, i, j) {
				ids[ActionAt{i, j}] = "d" + strconv.Itoa(len(ids)+1)
			}
		}
	}
	return ids
}

// nextIsChange reports whether the action after action j of step i, in
// the order replay plays them, is an assertChange: replay observes that
// action before and after.
func nextIsChange(steps []Step, i, j int) bool {
	if j+1 < len(steps[i].Actions) {
		_, ok := steps[i].Actions[j+1].(AssertChange)
		return ok
	}
	for k := i + 1; k < len(steps); k++ {
		if len(steps[k].Actions) > 0 {
			_, ok := steps[k].Actions[0].(AssertChange)
			return ok
		}
		if steps[k].Act != "" {
			return false
		}
	}
	return false
}

// String writes the matcher as a trail does, in flow style:
// {change: state, selector: {role: button, name: Menu}, to: {expanded: true}}.
func (m ChangeMatch) String() string {
	var parts []string
	if m.Change != "" {
		parts = append(parts, "change: "+m.Change)
	}
	if m.Selector != nil {
		parts = append(parts, "selector: "+m.Selector.String())
	}
	if len(m.To) > 0 {
		to := make([]string, len(m.To))
		for i, t := range m.To {
			to[i] = t.Field + ": " + t.Value
		}
		parts = append(parts, "to: {"+strings.Join(to, ", ")+"}")
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

package trail

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The keys of assertChange (DESIGN §10): checks against the stored diff of
// the previous action, and live checks. One assertion uses one group.
var (
	changeDiffKeys = []string{"changed", "mustInclude", "mustNotInclude", "only", "maxChanges", "becameVisible", "becameCovered"}
	changeLiveKeys = []string{"url", "exists", "notCovered", "settleMs", "retry"}
	changeKinds    = []string{ChangeAdded, ChangeRemoved, ChangeContent, ChangeState, ChangeStyle, ChangeMoved, ChangeResized}
)

func (d *trailDecoder) assertChange(f field, o Origin) Action {
	fields, ok := d.body(f, "{changed: true} or {mustInclude: [{change: added, selector: {role: dialog}}]}")
	if !ok {
		return nil
	}
	a := AssertChange{Origin: o}
	if len(f.val.Content) == 0 {
		d.invalid(f.val, "assertChange", "give at least one check: "+quoteList(bodyKeys[ActionAssertChange]),
			"assertChange is empty: an empty check would always pass")
		return a
	}
	var diff, live []string
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
	if len(diff) > 0 && len(live) > 0 {
		d.invalid(fields[live[0]].key, live[0], "split them into two assertChange actions",
			"assertChange mixes checks on the stored diff (%s) with live checks (%s)", strings.Join(diff, ", "), strings.Join(live, ", "))
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
	a.Retry = d.optionalInt(fields, "retry")
	return a
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

// changeMatches reads a list of {change: kind, selector: …} items.
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
		mf, ok := d.mapping(item, key+" item", []string{"change", "selector"}, "{change: added, selector: {role: dialog}}")
		if !ok {
			continue
		}
		var m ChangeMatch
		if len(item.Content) == 0 {
			d.invalid(item, key, "give change:, selector: or both", "a %s item is empty", key)
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
		out = append(out, m)
	}
	return out
}

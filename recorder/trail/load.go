package trail

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/yamlerr"
)

// MaxTrailFileBytes bounds a trail file. The longest recorded trails are a
// few hundred kilobytes; a file far larger is not a trail, and reading it
// whole would only cost memory.
const MaxTrailFileBytes = 4 << 20

var (
	trailKeys    = []string{"version", "trail", "app", "viewport", "locale", "timeZone", "start", "params", "steps"}
	stepKeys     = []string{"intent", "by", "client", "act", "actions", "end", "key"}
	endKeys      = []string{"url", "shows", "values"}
	endValueKeys = []string{"selector", EndPropertyValue, StateChecked, StateSelected}
	viewportKeys = []string{"width", "height"}
)

var (
	appNamePattern  = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)
	localePattern   = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)
	timeZonePattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$`)
)

// LoadTrail reads a trail file's bytes. file names the file in errors (and
// is kept in Trail.File). Loading is strict: an unknown key, a value of the
// wrong type, a bad selector, an action with no kind or two, a missing
// required key or a version other than TrailVersion is an error naming the
// file, line and key with a fix. The error is a yamlerr.List listing every
// problem found (up to a limit).
func LoadTrail(file string, src []byte) (*Trail, error) {
	d := &trailDecoder{file: file}
	if len(src) > MaxTrailFileBytes {
		d.invalid(nil, "", "split the trail into smaller ones", "file is %d bytes, more than the %d a trail file may have", len(src), MaxTrailFileBytes)
		return nil, d.errs
	}
	root, err := parseTrailYAML(file, src)
	if err != nil {
		return nil, err
	}
	// Anchors and aliases are refused before reading on: the rest of the
	// file would only repeat the same problem in other words.
	if d.checkNodes(root); len(d.errs) > 0 {
		return nil, d.errs
	}
	t := d.trail(root)
	if len(d.errs) > 0 {
		slices.SortStableFunc(d.errs, func(a, b *yamlerr.Error) int { return a.Line - b.Line })
		if len(d.errs) > maxTrailErrors {
			more := len(d.errs) - maxTrailErrors
			d.errs = append(d.errs[:maxTrailErrors], &yamlerr.Error{File: file,
				Msg: fmt.Sprintf("and %d more problems", more), Err: ErrInvalidTrail})
		}
		return nil, d.errs
	}
	t.File = file
	return t, nil
}

// parseTrailYAML parses exactly one YAML document and returns its root.
func parseTrailYAML(file string, src []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, yamlerr.List{{File: file, Msg: "file is empty", Fix: "a trail starts with `version: 1`", Err: ErrInvalidTrail}}
		}
		return nil, yamlerr.List{syntaxError(file, err)}
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		line := next.Line
		if err != nil {
			return nil, yamlerr.List{syntaxError(file, err)}
		}
		return nil, yamlerr.List{{File: file, Line: line, Msg: "file holds more than one YAML document",
			Fix: "keep one trail per file (remove the `---` separator)", Err: ErrInvalidTrail}}
	}
	if len(doc.Content) == 0 {
		return nil, yamlerr.List{{File: file, Msg: "file is empty", Fix: "a trail starts with `version: 1`", Err: ErrInvalidTrail}}
	}
	return doc.Content[0], nil
}

func (d *trailDecoder) trail(root *yaml.Node) *Trail {
	fields, ok := d.mapping(root, "a trail file", trailKeys, "`version: 1`, `trail: …`, `steps: …` on their own lines")
	if !ok {
		return nil
	}
	t := &Trail{Version: TrailVersion}
	d.version(root, fields)
	d.require(root, fields, "the file", "trail", "app", "start", "steps")
	if f, has := fields["trail"]; has {
		t.Title, _ = d.str(f, false)
	}
	if f, has := fields["app"]; has {
		if app, ok := d.str(f, false); ok {
			if appNamePattern.MatchString(app) {
				t.App = app
			} else {
				d.invalid(f.val, "app", "use the app's name from trailpin.yaml (apps.<name>.baseURL), not its URL", "app %q is not an app name", app)
			}
		}
	}
	if f, has := fields["viewport"]; has {
		t.Viewport = d.viewport(f)
	}
	if f, has := fields["locale"]; has {
		t.Locale = d.matching(f, localePattern, "write a BCP 47 language tag such as en-US")
	}
	if f, has := fields["timeZone"]; has {
		t.TimeZone = d.matching(f, timeZonePattern, "write an IANA time zone such as Europe/Berlin, or UTC")
	}
	// Params come first: references anywhere else are checked against them.
	d.params = map[string]string{}
	if f, has := fields["params"]; has {
		t.Params = d.paramsOf(f)
	}
	if f, has := fields["start"]; has {
		t.Start, _ = d.appPath(f)
	}
	if f, has := fields["steps"]; has {
		t.Steps = d.steps(f)
		d.changeBaselines(t.Steps)
	}
	return t
}

func (d *trailDecoder) version(root *yaml.Node, fields map[string]field) {
	f, has := fields["version"]
	if !has {
		d.invalid(root, "version", "add `version: 1` as the first line", "the trail has no version")
		return
	}
	v, ok := d.integer(f, 0)
	if ok && v != TrailVersion {
		fix := "write `version: 1`"
		if v > TrailVersion {
			fix = "update host: this one reads version 1"
		}
		d.invalid(f.val, "version", fix, "trail format version %d is not supported", v)
	}
}

func (d *trailDecoder) matching(f field, re *regexp.Regexp, fix string) string {
	s, ok := d.str(f, false)
	if !ok {
		return ""
	}
	if !re.MatchString(s) {
		d.invalid(f.val, f.name, fix, "%s %q is not valid", f.name, s)
		return ""
	}
	return s
}

func (d *trailDecoder) viewport(f field) screen.Viewport {
	fields, ok := d.mapping(f.val, "viewport", viewportKeys, "{width: 1280, height: 800}")
	if !ok {
		return screen.Viewport{}
	}
	var vp screen.Viewport
	d.require(f.val, fields, "viewport", "width", "height")
	if w, has := fields["width"]; has {
		vp.Width, _ = d.integer(w, 1)
	}
	if h, has := fields["height"]; has {
		vp.Height, _ = d.integer(h, 1)
	}
	return vp
}

func (d *trailDecoder) paramsOf(f field) map[string]string {
	n := f.val
	if n.Kind != yaml.MappingNode {
		d.invalid(n, "params", "write params as a mapping such as {coupon: SUMMER}", "params must be a mapping, not %s", describe(n))
		return nil
	}
	params := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := k.Value
		if k.Kind != yaml.ScalarNode || !refNamePattern.MatchString(name) {
			d.invalid(k, name, "a param name is letters, digits, '_', '-' and '.'", "param name %q is not valid", name)
			continue
		}
		if _, dup := params[name]; dup {
			d.invalid(k, name, "keep one of them", "param %q is declared twice", name)
			continue
		}
		val, ok := d.str(field{key: k, val: v, name: "param " + name}, true)
		if !ok {
			continue
		}
		if refs, err := ParseRefs(val); err != nil || len(refs) > 0 {
			d.invalid(v, name, "write the default value itself", "param %q's default may not hold a reference", name)
			continue
		}
		params[name] = val
	}
	d.params = params
	if len(params) == 0 {
		return nil
	}
	return params
}

func (d *trailDecoder) steps(f field) []Step {
	n := f.val
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		d.invalid(n, "steps", "list the steps, each starting with `- intent: …`", "steps must be a non-empty list, not %s", describe(n))
		return nil
	}
	steps := make([]Step, 0, len(n.Content))
	for i, sn := range n.Content {
		steps = append(steps, d.step(sn, i+1))
	}
	return steps
}

func (d *trailDecoder) step(n *yaml.Node, number int) Step {
	where := fmt.Sprintf("step %d", number)
	s := Step{Line: n.Line}
	fields, ok := d.mapping(n, where, stepKeys, "`- intent: …` with `actions:` below it")
	if !ok {
		return s
	}
	d.require(n, fields, where, "intent")
	if f, has := fields["intent"]; has {
		s.Intent, _ = d.str(f, false)
	}
	if f, has := fields["by"]; has {
		s.By = d.stepBy(f)
	}
	if f, has := fields["client"]; has {
		s.Client = d.stepClient(f, s.By)
	}
	if f, has := fields["act"]; has {
		s.Act, _ = d.str(f, false)
	}
	actions, hasActions := fields["actions"]
	if hasActions {
		s.Actions = d.actions(actions)
	}
	_, hasAct := fields["act"]
	if !hasActions && !hasAct {
		d.invalid(n, "actions", "add actions: (the recording) or act: (a goal for the agent)", "%s has neither actions nor act", where)
	}
	if f, has := fields["end"]; has {
		if !hasActions {
			d.invalid(f.key, "end", "remove end: a step's end is recorded with its actions", "%s has an end but no actions", where)
		}
		s.End = d.end(f)
	}
	if f, has := fields["key"]; has {
		s.Key = d.stepKey(f, hasActions)
	}
	return s
}

// stepBy reads who performed a step's recording: only agent is written;
// a person's step has no by.
func (d *trailDecoder) stepBy(f field) string {
	by, ok := d.str(f, false)
	if !ok {
		return ""
	}
	if by != ByAgent {
		d.invalid(f.val, "by", "write by: agent for a step the agent performed while recording, or remove by: for a person's step",
			"by %q is not who performed a step (only agent is)", by)
		return ""
	}
	return by
}

// maxClientRunes bounds an outside agent's name.
const maxClientRunes = 64

// stepClient reads the outside agent that performed a step: a name on one
// line, only with by: agent.
func (d *trailDecoder) stepClient(f field, by string) string {
	c, ok := d.str(f, false)
	if !ok {
		return ""
	}
	switch {
	case by != ByAgent:
		d.invalid(f.key, "client", "write by: agent above client:, or remove client: for a person's step",
			"client %q is set on a step without by: agent", c)
		return ""
	case strings.TrimSpace(c) == "" || strings.ContainsAny(c, "\r\n") || utf8.RuneCountInString(c) > maxClientRunes:
		d.invalid(f.val, "client", fmt.Sprintf("write the agent's name on one line, at most %d characters", maxClientRunes),
			"client %q is not an agent's name", c)
		return ""
	}
	return c
}

// stepKey reads a step's key (key.go). A key that no longer matches the
// step is not an error here: that is a miss at replay, and editing a
// step's intent must not make its file fail to load.
func (d *trailDecoder) stepKey(f field, hasActions bool) string {
	k, ok := d.str(f, false)
	if !ok {
		return ""
	}
	if !hasActions {
		d.invalid(f.key, "key", "remove key: it belongs to a recording, and this step has none", "the step has a key but no actions")
		return ""
	}
	if _, _, ok := splitKey(k); !ok {
		d.invalid(f.val, "key", "remove the key (the recording then counts as a person's) or write it as the host did: <agent configuration>/<12 hex digits>", "key %q is not a recording key", k)
		return ""
	}
	return k
}

func (d *trailDecoder) end(f field) *End {
	fields, ok := d.mapping(f.val, "end", endKeys, "{url: /checkout, shows: [{role: status}]}")
	if !ok {
		return nil
	}
	e := &End{Line: f.key.Line}
	if len(f.val.Content) == 0 {
		d.invalid(f.val, "end", "give url:, shows: or both, or remove end", "end is empty")
	}
	if u, has := fields["url"]; has {
		e.URL, _ = d.appPath(u)
	}
	if sh, has := fields["shows"]; has {
		e.Shows = d.selectorList(sh, MaxEndShows)
	}
	if vs, has := fields["values"]; has {
		e.Values = d.endValues(vs)
	}
	return e
}

// endValues reads an end's values: a non-empty list of at most
// MaxEndValues {selector, value | checked | selected}.
func (d *trailDecoder) endValues(f field) []EndValue {
	const example = "{selector: {role: slider, name: Volume}, value: 30}"
	n := f.val
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		d.invalid(n, f.name, "write a list such as ["+example+"]", "%s must be a non-empty list, not %s", f.name, describe(n))
		return nil
	}
	if len(n.Content) > MaxEndValues {
		d.invalid(n, f.name, fmt.Sprintf("keep the %d controls the step is about", MaxEndValues), "%s lists %d controls, more than %d", f.name, len(n.Content), MaxEndValues)
	}
	var out []EndValue
	for _, item := range n.Content {
		fields, ok := d.mapping(item, "an end value", endValueKeys, example)
		if !ok {
			continue
		}
		v := EndValue{Selector: d.targetSelector(field{key: f.key, val: item, name: "an end value"}, fields)}
		which, ok := d.exactlyOne(item, fields, "an end value", endValueKeys[1:]...)
		if !ok {
			continue
		}
		v.Property = which
		w := fields[which]
		switch {
		case which == EndPropertyValue:
			v.Want, ok = d.text(w, true, false)
		case which == StateChecked && w.val.Kind == yaml.ScalarNode && w.val.Tag == "!!str" && w.val.Value == "mixed":
			v.Want = "mixed"
		default:
			var b bool
			b, ok = d.boolean(w)
			v.Want = fmt.Sprint(b)
		}
		if ok {
			out = append(out, v)
		}
	}
	return out
}

// selectorList reads a non-empty list of selectors, at most limit long (0:
// no limit).
func (d *trailDecoder) selectorList(f field, limit int) []selector.Selector {
	n := f.val
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		d.invalid(n, f.name, "write a list of selectors such as [{role: status}]", "%s must be a non-empty list of selectors, not %s", f.name, describe(n))
		return nil
	}
	if limit > 0 && len(n.Content) > limit {
		d.invalid(n, f.name, fmt.Sprintf("keep the %d that best show the step took effect", limit), "%s lists %d selectors, more than %d", f.name, len(n.Content), limit)
	}
	out := make([]selector.Selector, 0, len(n.Content))
	for _, item := range n.Content {
		if s, ok := d.selector(item, f.name+" selector"); ok {
			out = append(out, s)
		}
	}
	return out
}

func (d *trailDecoder) actions(f field) []Action {
	n := f.val
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		d.invalid(n, "actions", "list the actions, each as `- tap: {selector: …}`", "actions must be a non-empty list, not %s", describe(n))
		return nil
	}
	out := make([]Action, 0, len(n.Content))
	for _, an := range n.Content {
		if a := d.action(an); a != nil {
			out = append(out, a)
		}
	}
	return out
}

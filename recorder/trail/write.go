package trail

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// Layout of a written trail: two spaces per level, and a mapping goes on one
// line in flow style only while the line stays readable in a side-by-side
// diff.
const (
	indentStep   = 2
	maxLineWidth = 100
)

// Columns where values start in a written trail, for deciding flow style.
const (
	stepKeyColumn   = 4  // "  - intent:"
	actionColumn    = 8  // "      - tap: …"
	actionKeyColumn = 10 // "          selector: …" in a block action body
)

// MarshalTrail writes t as a trail file: keys in a fixed order, selectors
// and short action bodies in flow style, quotes only where YAML needs them,
// multi-line text as literal blocks, no timestamps. The same trail always
// gives the same bytes. It refuses a trail that would not load back equal,
// so every file it writes is one LoadTrail accepts.
func MarshalTrail(t *Trail) ([]byte, error) {
	if t == nil {
		return nil, errors.New("writing trail: no trail")
	}
	if t.Version != 0 && t.Version != TrailVersion {
		return nil, fmt.Errorf("writing trail %q: version %d is not %d, the version this host writes", t.Title, t.Version, TrailVersion)
	}
	root, err := trailNode(t)
	if err != nil {
		return nil, fmt.Errorf("writing trail %q: %w", t.Title, err)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(indentStep)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("writing trail %q: %w", t.Title, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("writing trail %q: %w", t.Title, err)
	}
	out := buf.Bytes()
	name := t.File
	if name == "" {
		name = "trail"
	}
	back, err := LoadTrail(name, out)
	if err != nil {
		return nil, fmt.Errorf("writing trail %q: it would not load back:\n%w", t.Title, err)
	}
	if diff := trailDifference(back, t); diff != "" {
		return nil, fmt.Errorf("writing trail %q: it would not load back equal (a value the format cannot hold, such as invalid UTF-8): %s", t.Title, diff)
	}
	return out, nil
}

func trailNode(t *Trail) (*yaml.Node, error) {
	root := mapNode()
	putStr := func(key, val string) {
		if val != "" {
			addKey(root, key, strNode(val))
		}
	}
	addKey(root, "version", intNode(TrailVersion))
	addKey(root, "trail", strNode(t.Title))
	addKey(root, "app", strNode(t.App))
	if t.Viewport != (screen.Viewport{}) {
		vp := mapNode()
		addKey(vp, "width", intNode(t.Viewport.Width))
		addKey(vp, "height", intNode(t.Viewport.Height))
		vp.Style = yaml.FlowStyle
		addKey(root, "viewport", vp)
	}
	putStr("locale", t.Locale)
	putStr("timeZone", t.TimeZone)
	addKey(root, "start", strNode(t.Start))
	if len(t.Params) > 0 {
		params := mapNode()
		names := make([]string, 0, len(t.Params))
		for name := range t.Params {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			addKey(params, name, strNode(t.Params[name]))
		}
		addKey(root, "params", params)
	}
	steps := seqNode()
	for i, s := range t.Steps {
		n, err := stepNode(s)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i+1, err)
		}
		steps.Content = append(steps.Content, n)
	}
	addKey(root, "steps", steps)
	return root, nil
}

func stepNode(s Step) (*yaml.Node, error) {
	n := mapNode()
	addKey(n, "intent", strNode(s.Intent))
	if s.By != "" {
		addKey(n, "by", strNode(s.By))
	}
	if s.Client != "" {
		addKey(n, "client", strNode(s.Client))
	}
	if s.Act != "" {
		addKey(n, "act", strNode(s.Act))
	}
	if len(s.Actions) > 0 {
		actions, err := actionsNode(s.Actions)
		if err != nil {
			return nil, err
		}
		addKey(n, "actions", actions)
	}
	if s.End != nil {
		addKey(n, "end", endNode(s.End))
	}
	if s.Key != "" {
		addKey(n, "key", strNode(s.Key))
	}
	return n, nil
}

// actionsNode writes a step's actions.
func actionsNode(actions []Action) (*yaml.Node, error) {
	seq := seqNode()
	for i, a := range actions {
		an, err := actionNode(a)
		if err != nil {
			return nil, fmt.Errorf("action %d: %w", i+1, err)
		}
		seq.Content = append(seq.Content, an)
	}
	return seq, nil
}

// endNode writes a step's end.
func endNode(e *End) *yaml.Node {
	end := mapNode()
	if e.URL != "" {
		addKey(end, "url", strNode(e.URL))
	}
	if len(e.Shows) > 0 {
		addKey(end, "shows", selectorSeq(e.Shows, stepKeyColumn+len("end: ")))
	}
	if len(e.Values) > 0 {
		addKey(end, "values", endValueSeq(e.Values, stepKeyColumn+len("end: ")))
	}
	fitFlow(end, stepKeyColumn+len("end: "))
	return end
}

// actionNode builds "kind: body" for one action.
func actionNode(a Action) (*yaml.Node, error) {
	if a == nil {
		return nil, errors.New("no action")
	}
	kind := string(a.Kind())
	body := actionBody(a)
	if body.Kind == yaml.MappingNode {
		fitFlow(body, actionColumn+len(kind)+len(": "))
	}
	n := mapNode()
	addKey(n, kind, body)
	return n, nil
}

// actionBody builds an action's value. Selectors are laid out for a block
// body; fitFlow folds the whole body onto one line when it fits.
func actionBody(a Action) *yaml.Node {
	b := mapNode()
	sel := func(s selector.Selector) {
		addKey(b, "selector", selectorNode(s, actionKeyColumn+len("selector: ")))
	}
	switch a := a.(type) {
	case Navigate:
		return strNode(a.To)
	case Tap:
		sel(a.Selector)
		if a.Count != 0 {
			addKey(b, "count", intNode(a.Count))
		}
		putModifiers(b, a.Modifiers)
		if a.Button != "" {
			addKey(b, "button", strNode(string(a.Button)))
		}
	case TypeText:
		sel(a.Selector)
		addKey(b, "text", strNode(a.Text))
		if a.Append {
			addKey(b, "append", boolNode(true))
		}
	case Set:
		sel(a.Selector)
		addKey(b, "value", strNode(a.Value))
	case Press:
		addKey(b, "key", strNode(a.Key))
		putModifiers(b, a.Modifiers)
		if a.AtOnce {
			addKey(b, "atOnce", boolNode(true))
		}
	case SelectOption:
		sel(a.Selector)
		if len(a.Options) == 1 {
			addKey(b, "option", strNode(a.Options[0]))
		} else {
			addKey(b, "options", strSeq(a.Options))
		}
	case Check:
		sel(a.Selector)
	case Uncheck:
		sel(a.Selector)
	case Hover:
		sel(a.Selector)
	case Drag:
		sel(a.Selector)
		addKey(b, "to", selectorNode(a.To, actionKeyColumn+len("to: ")))
		if a.Offset != nil {
			o := mapNode()
			addKey(o, "x", intNode(a.Offset.X))
			addKey(o, "y", intNode(a.Offset.Y))
			o.Style = yaml.FlowStyle
			addKey(b, "offset", o)
		}
	case Upload:
		sel(a.Selector)
		addKey(b, "files", strSeq(a.Files))
	case Dialog:
		if a.Accept {
			addKey(b, "response", strNode(dialogAccept))
		} else {
			addKey(b, "response", strNode(dialogDismiss))
		}
		if a.PromptText != "" {
			addKey(b, "promptText", strNode(a.PromptText))
		}
	case SwitchTab:
		if a.URL != "" {
			addKey(b, "url", strNode(a.URL))
		}
		if a.Title != "" {
			addKey(b, "title", strNode(a.Title))
		}
	case AssertVisible:
		sel(a.Selector)
	case AssertNotVisible:
		addKey(b, "text", strNode(a.Text))
	case AssertValue:
		sel(a.Selector)
		addKey(b, "value", strNode(a.Value))
	case AssertState:
		sel(a.Selector)
		addKey(b, a.State, stateNode(a.Want))
	case AssertURL:
		if a.URL != "" {
			addKey(b, "url", strNode(a.URL))
		}
		if a.Pattern != "" {
			addKey(b, "pattern", strNode(a.Pattern))
		}
	case AssertChange:
		changeBody(b, a)
	}
	return b
}

func changeBody(b *yaml.Node, a AssertChange) {
	col := actionKeyColumn + len("mustNotInclude: ")
	if a.Changed != nil {
		addKey(b, "changed", boolNode(*a.Changed))
	}
	for _, m := range []struct {
		key string
		ms  []ChangeMatch
	}{{"mustInclude", a.MustInclude}, {"mustNotInclude", a.MustNotInclude}, {"only", a.Only}} {
		if len(m.ms) > 0 {
			seq := seqNode()
			for _, cm := range m.ms {
				cn := mapNode()
				if cm.Change != "" {
					addKey(cn, "change", strNode(cm.Change))
				}
				if cm.Selector != nil {
					addKey(cn, "selector", selectorNode(*cm.Selector, col+indentStep))
				}
				if len(cm.To) > 0 {
					tn := mapNode()
					for _, t := range cm.To {
						addKey(tn, t.Field, toValueNode(t.Value))
					}
					tn.Style = yaml.FlowStyle
					addKey(cn, "to", tn)
				}
				fitFlow(cn, col)
				seq.Content = append(seq.Content, cn)
			}
			addKey(b, m.key, seq)
		}
	}
	if a.MaxChanges != nil {
		addKey(b, "maxChanges", intNode(*a.MaxChanges))
	}
	for _, l := range []struct {
		key  string
		sels []selector.Selector
	}{{"becameVisible", a.BecameVisible}, {"becameCovered", a.BecameCovered}} {
		if len(l.sels) > 0 {
			addKey(b, l.key, selectorSeq(l.sels, col))
		}
	}
	if a.DiffID != "" {
		addKey(b, "diffId", strNode(a.DiffID))
	}
	if a.URL != "" {
		addKey(b, "url", strNode(a.URL))
	}
	for _, l := range []struct {
		key  string
		sels []selector.Selector
	}{{"exists", a.Exists}, {"notCovered", a.NotCovered}} {
		if len(l.sels) > 0 {
			addKey(b, l.key, selectorSeq(l.sels, col))
		}
	}
	if a.SettleMs != nil {
		addKey(b, "settleMs", intNode(*a.SettleMs))
	}
	if a.Retry != nil {
		rn := mapNode()
		addKey(rn, "budgetMs", intNode(a.Retry.BudgetMs))
		rn.Style = yaml.FlowStyle
		addKey(b, "retry", rn)
	}
	if a.KeepBaseline != nil {
		addKey(b, "keepBaseline", boolNode(*a.KeepBaseline))
	}
	if len(a.Ignore) > 0 {
		addKey(b, "ignore", selectorSeq(a.Ignore, col))
	}
}

// toValueNode writes the value a to: field must end at: true and false as
// booleans, a level as a number, mixed as a word.
func toValueNode(v string) *yaml.Node {
	switch v {
	case "true":
		return boolNode(true)
	case "false":
		return boolNode(false)
	}
	if i, err := strconv.Atoi(v); err == nil {
		return intNode(i)
	}
	return strNode(v)
}

const (
	dialogAccept  = "accept"
	dialogDismiss = "dismiss"
)

func putModifiers(b *yaml.Node, mods []Modifier) {
	if len(mods) == 0 {
		return
	}
	seq := seqNode()
	for _, m := range mods {
		seq.Content = append(seq.Content, strNode(string(m)))
	}
	seq.Style = yaml.FlowStyle
	addKey(b, "modifiers", seq)
}

// stateNode writes "true" and "false" as booleans and anything else
// ("mixed") as text.
func stateNode(want string) *yaml.Node {
	switch want {
	case "true":
		return boolNode(true)
	case "false":
		return boolNode(false)
	}
	return strNode(want)
}

// endValueSeq writes an end's values, each {selector, value | checked |
// selected}.
func endValueSeq(values []EndValue, column int) *yaml.Node {
	seq := seqNode()
	for _, v := range values {
		item := mapNode()
		addKey(item, "selector", selectorNode(v.Selector, column+indentStep+len("selector: ")))
		if v.Property == EndPropertyValue {
			addKey(item, v.Property, strNode(v.Want))
		} else {
			addKey(item, v.Property, stateNode(v.Want))
		}
		fitFlow(item, column+indentStep)
		seq.Content = append(seq.Content, item)
	}
	fitFlow(seq, column)
	return seq
}

func selectorSeq(sels []selector.Selector, column int) *yaml.Node {
	seq := seqNode()
	for _, s := range sels {
		seq.Content = append(seq.Content, selectorNode(s, column+indentStep))
	}
	fitFlow(seq, column)
	return seq
}

func strSeq(items []string) *yaml.Node {
	seq := seqNode()
	for _, s := range items {
		seq.Content = append(seq.Content, strNode(s))
	}
	fitFlow(seq, actionKeyColumn+len("options: "))
	return seq
}

func mapNode() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"} }
func seqNode() *yaml.Node { return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"} }

func addKey(m *yaml.Node, key string, val *yaml.Node) {
	m.Content = append(m.Content, keyNode(key), val)
}

func keyNode(k string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}
}

// strNode is a text scalar. The encoder quotes it when it would otherwise
// read as another type ("10", "true", "null"); multi-line text is a literal
// block. Words that YAML 1.1 readers take as booleans are quoted too, so
// editors and older tools read the same text.
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	switch {
	case strings.Contains(s, "\n"):
		n.Style = yaml.LiteralStyle
	case isYAML11Bool(s):
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func isYAML11Bool(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	return false
}

func intNode(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

func boolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

// fitFlow puts n on one line in flow style when it has no multi-line text
// and the line, starting at column, stays within maxLineWidth.
func fitFlow(n *yaml.Node, column int) {
	if hasMultiline(n) {
		return
	}
	if column+utf8.RuneCountInString(flowText(n)) <= maxLineWidth {
		setFlow(n)
	}
}

func hasMultiline(n *yaml.Node) bool {
	if n.Kind == yaml.ScalarNode {
		return strings.Contains(n.Value, "\n")
	}
	return slices.ContainsFunc(n.Content, hasMultiline)
}

func setFlow(n *yaml.Node) {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style = yaml.FlowStyle
	}
	for _, c := range n.Content {
		setFlow(c)
	}
}

// flowText renders n in flow style on one line.
func flowText(n *yaml.Node) string {
	c := cloneNode(n)
	setFlow(c)
	out, err := yaml.Marshal(c)
	if err != nil {
		return strings.Repeat("x", maxLineWidth+1)
	}
	return strings.TrimSuffix(string(out), "\n")
}

func cloneNode(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, x := range n.Content {
		c.Content[i] = cloneNode(x)
	}
	return &c
}

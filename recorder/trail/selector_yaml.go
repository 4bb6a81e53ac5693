package trail

import (
	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/recorder/selector"
)

// selectorKeys are a selector's keys in the order they are written.
var selectorKeys = []string{"role", "name", "text", "textRegex", "testId", "id", "label", "placeholder", "within", "index"}

// knownRoles are the roles a selector may name (selector.Roles): a role
// outside them matches nothing, so a trail naming one is a typo to report at
// load time.
var knownRoles = selector.Roles()

const selectorExample = "{role: button, name: Save}"

// selector reads a selector strictly: known keys, non-empty values, a known
// role, a valid textRegex, not both text and textRegex, a non-negative index.
func (d *trailDecoder) selector(n *yaml.Node, where string) (selector.Selector, bool) {
	before := len(d.errs)
	fields, ok := d.mapping(n, where, selectorKeys, selectorExample)
	if !ok {
		return selector.Selector{}, false
	}
	var s selector.Selector
	strs := []struct {
		key string
		dst *string
	}{
		{"name", &s.Name}, {"text", &s.Text}, {"testId", &s.TestID}, {"id", &s.ID},
		{"label", &s.Label}, {"placeholder", &s.Placeholder},
	}
	for _, x := range strs {
		if f, has := fields[x.key]; has {
			*x.dst, _ = d.text(f, false, false)
		}
	}
	if f, has := fields["role"]; has {
		s.Role, _ = d.oneOf(f, knownRoles)
	}
	if f, has := fields["textRegex"]; has {
		s.TextRegex, _ = d.pattern(f)
	}
	if f, has := fields["within"]; has {
		if w, ok := d.selector(f.val, "within"); ok {
			s.Within = &w
		}
	}
	if f, has := fields["index"]; has {
		if i, ok := d.integer(f, 0); ok {
			s.Index = &i
		}
	}
	_, hasText := fields["text"]
	_, hasRegex := fields["textRegex"]
	if hasText && hasRegex {
		d.invalid(fields["textRegex"].key, "textRegex", "keep one: text for the exact text, textRegex for a pattern",
			"%s pins text and textRegex at once", where)
	}
	if !hasOwnProperty(fields) && len(d.errs) == before {
		d.invalid(n, "", "pin at least one of role, name, text, textRegex, testId, id, label, placeholder (within and index only narrow a match)",
			"%s is empty", where)
	}
	return s, len(d.errs) == before
}

func hasOwnProperty(fields map[string]field) bool {
	for k := range fields {
		if k != "within" && k != "index" {
			return true
		}
	}
	return false
}

// ParseSelector reads one selector written as YAML (JSON is YAML's flow
// form) with the same strictness as a trail file: known keys and roles,
// valid patterns. The errors (a yamlerr.List) carry no file name;
// ${param:…} declarations are not checked.
func ParseSelector(src []byte) (selector.Selector, error) {
	var s yamlSelector
	err := yaml.Unmarshal(src, &s)
	return s.sel, err
}

// yamlSelector lets yaml.Unmarshal hand ParseSelector the node of the
// document, so that YAML syntax errors read as yaml's own.
type yamlSelector struct{ sel selector.Selector }

func (s *yamlSelector) UnmarshalYAML(n *yaml.Node) error {
	d := &trailDecoder{}
	sel, _ := d.selector(n, "selector")
	if len(d.errs) > 0 {
		return d.errs
	}
	s.sel = sel
	return nil
}

// MarshalSelector writes a selector as a trail file holds it: in flow style
// when it is short and has no multi-line text, in block style otherwise,
// with keys in a fixed order.
func MarshalSelector(s selector.Selector) ([]byte, error) {
	return yaml.Marshal(selectorNode(s, 0))
}

// selectorNode builds a selector's node for a value that starts at column.
func selectorNode(s selector.Selector, column int) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	put := func(key string, v *yaml.Node) { n.Content = append(n.Content, keyNode(key), v) }
	for _, kv := range []struct{ key, val string }{
		{"role", s.Role}, {"name", s.Name}, {"text", s.Text}, {"textRegex", s.TextRegex},
		{"testId", s.TestID}, {"id", s.ID}, {"label", s.Label}, {"placeholder", s.Placeholder},
	} {
		if kv.val != "" {
			put(kv.key, strNode(kv.val))
		}
	}
	if s.Within != nil {
		put("within", selectorNode(*s.Within, column+indentStep))
	}
	if s.Index != nil {
		put("index", intNode(*s.Index))
	}
	fitFlow(n, column)
	return n
}

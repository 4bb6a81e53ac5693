package trail

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/recorder/yamlerr"
)

// trailDecoder reads a trail from a yaml.Node tree, strictly, collecting
// every problem it finds rather than stopping at the first.
type trailDecoder struct {
	file string
	errs yamlerr.List
	// params are the declared params, for checking ${param:…} references;
	// nil when the decoder reads a lone selector and cannot check them.
	params map[string]string
}

// field is one key and its value in a mapping.
type field struct {
	key, val *yaml.Node
	name     string
}

// add records a problem at node n.
func (d *trailDecoder) add(n *yaml.Node, key string, cat error, fix, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	d.errs = append(d.errs, &yamlerr.Error{File: d.file, Line: line, Key: key,
		Msg: fmt.Sprintf(format, args...), Fix: fix, Err: cat})
}

func (d *trailDecoder) invalid(n *yaml.Node, key, fix, format string, args ...any) {
	d.add(n, key, ErrInvalidTrail, fix, format, args...)
}

// legacyKeys are the keys of the retired second text check (docs/trail-format.md).
var legacyKeys = []string{"expectedText", "textMatchMode"}

// mapping checks that n is a mapping with only allowed keys, each once, and
// returns its fields by key. ok is false when n is not a mapping at all.
func (d *trailDecoder) mapping(n *yaml.Node, where string, allowed []string, example string) (map[string]field, bool) {
	if n.Kind != yaml.MappingNode {
		d.invalid(n, "", "write it as "+example, "%s must be a mapping, not %s", where, describe(n))
		return nil, false
	}
	fields := make(map[string]field, len(n.Content)/2)
	legacyReported := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!null" {
			d.invalid(k, "", "keys are plain words such as "+quoteList(allowed), "%s has a key that is not a word", where)
			continue
		}
		name := k.Value
		if _, dup := fields[name]; dup {
			d.invalid(k, name, "keep one of them", "key %q appears twice in %s", name, where)
			continue
		}
		switch {
		case isOneOf(name, allowed):
			fields[name] = field{key: k, val: v, name: name}
		case isOneOf(name, legacyKeys):
			if !legacyReported {
				d.add(k, name, ErrLegacyText,
					fmt.Sprintf("run `host migrate %s` to fold it into the selector", d.fileForCommand()),
					"%s is no longer part of the trail format (a selector checks text itself)", name)
				legacyReported = true
			}
		default:
			fix := "allowed keys: " + quoteList(allowed)
			if s := yamlerr.DidYouMean(name, allowed); s != "" {
				fix = fmt.Sprintf("did you mean %q?", s)
			}
			d.add(k, name, yamlerr.ErrUnknownKey, fix, "unknown key %q in %s", name, where)
		}
	}
	return fields, true
}

func (d *trailDecoder) fileForCommand() string {
	if d.file == "" || strings.ContainsAny(d.file, " \t'\"") {
		return "FILE"
	}
	return d.file
}

// describe names what kind of YAML value n is, for messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "empty"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "this"
}

// str reads a text value. Numbers and booleans are taken as written (a
// text "10" is still text); an empty value is refused unless allowEmpty.
func (d *trailDecoder) str(f field, allowEmpty bool) (string, bool) {
	v := f.val
	if v.Kind != yaml.ScalarNode {
		d.invalid(v, f.name, "write the text on the same line, quoted if it has special characters", "%s must be text, not %s", f.name, describe(v))
		return "", false
	}
	switch v.Tag {
	case "!!str", "!!int", "!!float", "!!bool":
	case "!!null":
		if allowEmpty {
			d.invalid(v, f.name, `write "" for empty text`, "%s has no value", f.name)
		} else {
			d.invalid(v, f.name, "give it a value or remove the key", "%s has no value", f.name)
		}
		return "", false
	default:
		d.invalid(v, f.name, "write plain text", "%s must be text, not a %s value", f.name, v.Tag)
		return "", false
	}
	if v.Value == "" && !allowEmpty {
		d.invalid(v, f.name, "give it a value or remove the key", "%s is empty", f.name)
		return "", false
	}
	return v.Value, true
}

// integer reads a whole number of at least min.
func (d *trailDecoder) integer(f field, min int) (int, bool) {
	v := f.val
	if v.Kind == yaml.ScalarNode && v.Tag == "!!int" {
		var i int
		if err := v.Decode(&i); err == nil && i >= min {
			return i, true
		}
	}
	d.invalid(v, f.name, fmt.Sprintf("write a whole number of at least %d", min), "%s must be a whole number ≥ %d, not %s", f.name, min, describe(v))
	return 0, false
}

// boolean reads true or false.
func (d *trailDecoder) boolean(f field) (bool, bool) {
	v := f.val
	if v.Kind == yaml.ScalarNode && v.Tag == "!!bool" {
		var b bool
		if err := v.Decode(&b); err == nil {
			return b, true
		}
	}
	d.invalid(v, f.name, "write true or false", "%s must be true or false, not %s", f.name, describe(v))
	return false, false
}

// strList reads a non-empty list of texts.
func (d *trailDecoder) strList(f field) ([]string, bool) {
	v := f.val
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		d.invalid(v, f.name, "write a list such as ["+f.name+"-1, "+f.name+"-2]", "%s must be a non-empty list, not %s", f.name, describe(v))
		return nil, false
	}
	out := make([]string, 0, len(v.Content))
	ok := true
	for _, item := range v.Content {
		s, good := d.str(field{key: f.key, val: item, name: f.name + " item"}, false)
		ok = ok && good
		out = append(out, s)
	}
	return out, ok
}

// requiredHints say what to write for each required key.
var requiredHints = map[string]string{
	"trail":    "trail: <the title in words>",
	"app":      "app: <the app's name in trailpin.yaml>",
	"start":    "start: /path-the-trail-begins-at",
	"steps":    "steps: with at least one `- intent: …`",
	"intent":   "intent: <the step's goal in words>",
	"selector": "selector: {role: …, name: …}",
	"text":     `text: "…" ("" clears the field)`,
	"value":    `value: "…"`,
	"key":      "key: Enter",
	"files":    "files: [file-beside-the-trail.pdf]",
	"response": "response: accept (or dismiss)",
	"width":    "width: 1280",
	"height":   "height: 800",
}

// require reports each missing required key of a mapping.
func (d *trailDecoder) require(n *yaml.Node, fields map[string]field, where string, keys ...string) bool {
	ok := true
	for _, k := range keys {
		if _, has := fields[k]; !has {
			hint := requiredHints[k]
			if hint == "" {
				hint = k + ": …"
			}
			d.invalid(n, k, "add "+hint, "%s has no %s", where, k)
			ok = false
		}
	}
	return ok
}

// exactlyOne reports unless exactly one of keys is present; it returns the
// one present.
func (d *trailDecoder) exactlyOne(n *yaml.Node, fields map[string]field, where string, keys ...string) (string, bool) {
	var present []string
	for _, k := range keys {
		if _, has := fields[k]; has {
			present = append(present, k)
		}
	}
	if len(present) == 1 {
		return present[0], true
	}
	alternatives := strings.Join(keys, " or ")
	if len(present) == 0 {
		d.invalid(n, "", "add "+alternatives, "%s needs one of %s", where, quoteList(keys))
	} else {
		d.invalid(n, present[1], "keep one of them", "%s takes %s, not both", where, alternatives)
	}
	return "", false
}

// refs checks the ${…} references in a value: well formed, params
// declared, and secrets only where allowSecret (typed text).
func (d *trailDecoder) refs(f field, s string, allowSecret bool) bool {
	refs, err := ParseRefs(s)
	if err != nil {
		d.invalid(f.val, f.name, "", "%s: %v", f.name, err)
		return false
	}
	ok := true
	for _, r := range refs {
		switch {
		case r.IsSecret() && !allowSecret:
			d.invalid(f.val, f.name, "secrets may only be typed (type text, dialog promptText), where replay fills them in at the last moment",
				"%s may not hold %s: it would be compared, shown and logged", f.name, r)
			ok = false
		case r.Kind == RefParam && d.params != nil:
			if _, declared := d.params[r.Name]; !declared {
				d.invalid(f.val, f.name, fmt.Sprintf("declare it under params: with a default (params: {%s: …})", r.Name),
					"%s uses undeclared param %q", f.name, r.Name)
				ok = false
			}
		}
	}
	return ok
}

// text reads a text value that may hold references.
func (d *trailDecoder) text(f field, allowEmpty, allowSecret bool) (string, bool) {
	s, ok := d.str(f, allowEmpty)
	if !ok {
		return "", false
	}
	return s, d.refs(f, s, allowSecret)
}

// appPath reads a path inside the app: it starts with "/" and has no origin.
func (d *trailDecoder) appPath(f field) (string, bool) {
	s, ok := d.str(f, false)
	if !ok {
		return "", false
	}
	if !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") {
		fix := `write a path starting with "/", such as /checkout`
		if p, err := AppPath(s, ""); err == nil {
			fix = fmt.Sprintf("write the path only (%s); the origin comes from apps.<app>.baseURL in trailpin.yaml", p)
		}
		d.invalid(f.val, f.name, fix, "%s %q is not a path inside the app", f.name, s)
		return "", false
	}
	if strings.ContainsAny(s, " \t\n") {
		d.invalid(f.val, f.name, "write spaces in a URL as %20", "%s %q has white space", f.name, s)
		return "", false
	}
	return s, d.refs(f, s, false)
}

// pattern reads a regular expression (RE2 syntax, as Go's regexp).
func (d *trailDecoder) pattern(f field) (string, bool) {
	s, ok := d.str(f, false)
	if !ok {
		return "", false
	}
	if _, err := regexp.Compile(s); err != nil {
		d.invalid(f.val, f.name, "fix the regular expression (RE2 syntax: no look-around or back-references)", "%s is not a valid regular expression: %v", f.name, err)
		return "", false
	}
	return s, true
}

// oneOf reads a value that must be one of a few words.
func (d *trailDecoder) oneOf(f field, allowed []string) (string, bool) {
	s, ok := d.str(f, false)
	if !ok {
		return "", false
	}
	if isOneOf(s, allowed) {
		return s, true
	}
	fix := "use one of " + quoteList(allowed)
	if sug := yamlerr.DidYouMean(s, allowed); sug != "" {
		fix = fmt.Sprintf("did you mean %q?", sug)
	}
	d.invalid(f.val, f.name, fix, "%s %q is unknown", f.name, s)
	return "", false
}

// checkNodes refuses what a trail file never needs and a reader could be
// fooled by: anchors, aliases, merge keys and custom tags.
func (d *trailDecoder) checkNodes(n *yaml.Node) {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		d.invalid(n, "", "write the value out where it is used", "trail files do not use YAML anchors or aliases")
		return
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!merge" {
		d.invalid(n, "<<", "write the keys out where they are used", "trail files do not use YAML merge keys")
	}
	if n.Tag != "" && n.Style&yaml.TaggedStyle != 0 && !isOneOf(n.Tag, []string{"!!str", "!!int", "!!bool", "!!float", "!!map", "!!seq"}) {
		d.invalid(n, "", "remove the tag", "tag %s is not allowed in a trail file", n.Tag)
	}
	for _, c := range n.Content {
		d.checkNodes(c)
	}
}

// yamlLinePattern finds the line in a yaml.v3 syntax error.
var yamlLinePattern = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// syntaxError turns a YAML parse error into a *yamlerr.Error with its line.
func syntaxError(file string, err error) *yamlerr.Error {
	msg := err.Error()
	line := 0
	if m := yamlLinePattern.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	return &yamlerr.Error{File: file, Line: line, Msg: "not valid YAML: " + msg,
		Fix: "fix the YAML syntax (indentation, a missing ':' or quote)", Err: ErrInvalidTrail}
}

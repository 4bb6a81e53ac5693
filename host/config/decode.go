package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/recorder/yamlerr"
)

// ErrInvalid is wrapped by every problem of a config file or variable:
// errors.Is(err, ErrInvalid). Each problem is a *yamlerr.Error, and a
// file's problems a yamlerr.List, as a trail file's are, so that both read
// the same way: file:line: key: what is wrong: what to do.
var ErrInvalid = errors.New("invalid configuration")

// errUnknownKey is the category of a key config files do not have: it is
// both ErrInvalid and yamlerr.ErrUnknownKey.
var errUnknownKey = fmt.Errorf("%w: %w", ErrInvalid, yamlerr.ErrUnknownKey)

// maxConfigBytes bounds a config file: real ones are a few kilobytes, and a
// file far larger is not a config file.
const maxConfigBytes = 1 << 20

// A configDecoder reads a config file's YAML tree strictly, collecting every
// problem rather than stopping at the first.
type configDecoder struct {
	file string
	errs yamlerr.List
}

func (d *configDecoder) fail(n *yaml.Node, key, fix, format string, args ...any) {
	e := &yamlerr.Error{File: d.file, Path: key, Msg: fmt.Sprintf(format, args...), Fix: fix, Err: ErrInvalid}
	if n != nil {
		e.Line = n.Line
	}
	d.errs = append(d.errs, e)
}

func (d *configDecoder) err() error {
	if len(d.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(d.errs, func(a, b *yamlerr.Error) int { return a.Line - b.Line })
	return d.errs
}

var yamlErrorLine = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// parseConfigYAML parses a config file into its root node: nil for a file
// with no content (only comments, or empty), which means all defaults.
func parseConfigYAML(file string, src []byte) (*yaml.Node, error) {
	if len(src) > maxConfigBytes {
		return nil, yamlerr.List{{File: file, Msg: fmt.Sprintf("file is %d bytes, more than the %d a config file may have", len(src), maxConfigBytes), Fix: "is this the right file?", Err: ErrInvalid}}
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		msg, line := err.Error(), 0
		if m := yamlErrorLine.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		}
		return nil, yamlerr.List{{File: file, Line: line, Msg: "not valid YAML: " + msg, Fix: "fix the YAML syntax (indentation, a missing ':' or quote)", Err: ErrInvalid}}
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		return nil, yamlerr.List{{File: file, Line: next.Line, Msg: "file holds more than one YAML document", Fix: "remove the `---` separator and keep one document", Err: ErrInvalid}}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	d := &configDecoder{file: file}
	d.noAliases(root)
	if err := d.err(); err != nil {
		return nil, err
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil, nil
	}
	return root, nil
}

// noAliases refuses anchors and aliases: an edit by the host could not keep
// them, and a config this short reads better with values written out.
func (d *configDecoder) noAliases(n *yaml.Node) {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		d.fail(n, "", "write the value out in full", "anchors and aliases (&name, *name) are not supported in config files")
		return
	}
	for _, c := range n.Content {
		d.noAliases(c)
	}
}

// A configEntry is one key and its value in a mapping.
type configEntry struct {
	name string
	key  *yaml.Node
	val  *yaml.Node
}

// isNull reports whether n is an empty value or null.
func yamlNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// mapping returns the entries of n, which must be a mapping (or empty,
// giving none). With allowed set, other keys are errors; with allowed nil,
// any key is returned (maps keyed by names, such as apps).
func (d *configDecoder) mapping(n *yaml.Node, path string, allowed []string) []configEntry {
	if yamlNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		d.fail(n, path, "write it as `key: value` lines indented under it", "must be a mapping, not %s", describeConfigNode(n))
		return nil
	}
	var entries []configEntry
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.fail(k, path, "keys are plain words", "a key is %s", describeConfigNode(k))
			continue
		}
		name := k.Value
		full := joinKey(path, name)
		if seen[name] {
			d.fail(k, full, "keep one of them", "key appears twice")
			continue
		}
		seen[name] = true
		if allowed != nil && !slices.Contains(allowed, name) {
			fix := "allowed keys here: " + strings.Join(allowed, ", ")
			if s := yamlerr.DidYouMean(name, allowed); s != "" {
				fix = fmt.Sprintf("did you mean %q?", s)
			}
			d.fail(k, full, fix, "unknown key")
			last := d.errs[len(d.errs)-1]
			last.Key, last.Err = name, errUnknownKey
			continue
		}
		entries = append(entries, configEntry{name: name, key: k, val: v})
	}
	return entries
}

func joinKey(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// str reads a text value. Numbers are taken as written (a port, a PIN);
// booleans, lists and mappings are refused.
func (d *configDecoder) str(n *yaml.Node, path string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		d.fail(n, path, "write a text value", "must be text, not %s", describeConfigNode(n))
		return "", false
	}
	switch n.Tag {
	case "!!str", "!!int", "!!float":
		return n.Value, true
	}
	d.fail(n, path, fmt.Sprintf("quote it (%q) if that is the text you mean", n.Value), "must be text, not %s", describeConfigNode(n))
	return "", false
}

// nonEmpty reads a text value that must not be blank.
func (d *configDecoder) nonEmpty(n *yaml.Node, path, fix string) (string, bool) {
	s, ok := d.str(n, path)
	if ok && strings.TrimSpace(s) == "" {
		d.fail(n, path, fix, "is empty")
		return "", false
	}
	return s, ok
}

func (d *configDecoder) boolean(n *yaml.Node, path string) (bool, bool) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		b, err := strconv.ParseBool(strings.ToLower(n.Value))
		if err == nil {
			return b, true
		}
	}
	d.fail(n, path, "write true or false", "must be true or false, not %s", describeConfigNode(n))
	return false, false
}

func (d *configDecoder) duration(n *yaml.Node, path string) (time.Duration, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		d.fail(n, path, "write a Go duration such as 10s or 1m30s", "must be a duration, not %s", describeConfigNode(n))
		return 0, false
	}
	v, err := parseDuration(n.Value)
	if err != nil {
		d.fail(n, path, "write a Go duration such as 10s or 1m30s", "%v", err)
		return 0, false
	}
	return v, true
}

// probability decodes a probability above 0 and at most 1.
func (d *configDecoder) probability(n *yaml.Node, path string) (float64, bool) {
	const fix = "write a probability such as 0.8 (above 0, at most 1)"
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		d.fail(n, path, fix, "must be a number, not %s", describeConfigNode(n))
		return 0, false
	}
	v, err := parseProbability(n.Value)
	if err != nil {
		d.fail(n, path, fix, "%v", err)
		return 0, false
	}
	return v, true
}

// parseProbability reads a probability above 0 and at most 1.
func parseProbability(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q is not a number", s)
	case !(v > 0 && v <= 1):
		return 0, fmt.Errorf("%q is not above 0 and at most 1", s)
	}
	return v, nil
}

// parseDuration reads a positive Go duration, explaining a number without
// a unit (the most common mistake: "10").
func parseDuration(s string) (time.Duration, error) {
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return 0, fmt.Errorf("%q has no unit (is it seconds? write %ss)", s, s)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration", s)
	}
	if v <= 0 {
		return 0, fmt.Errorf("%q is not longer than zero", s)
	}
	return v, nil
}

// oneOf reads a text value that must be one of allowed.
func (d *configDecoder) oneOf(n *yaml.Node, path string, allowed []string) (string, bool) {
	s, ok := d.str(n, path)
	if !ok {
		return "", false
	}
	if !slices.Contains(allowed, s) {
		fix := "use one of " + strings.Join(allowed, ", ")
		if c := yamlerr.DidYouMean(s, allowed); c != "" {
			fix = fmt.Sprintf("did you mean %q?", c)
		}
		d.fail(n, path, fix, "%q is not allowed", s)
		return "", false
	}
	return s, true
}

// describeNode names what kind of YAML value n is, for messages.
func describeConfigNode(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Tag == "!!null":
		return "empty"
	case n.Tag == "!!bool":
		return "true/false (" + n.Value + ")"
	case n.Tag == "!!int" || n.Tag == "!!float":
		return "a number (" + n.Value + ")"
	}
	return fmt.Sprintf("%q", n.Value)
}

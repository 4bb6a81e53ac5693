package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/storage/atomicfile"
)

// Config files are edited for a person who also edits them by hand: the
// host changes the lines it must and leaves every other byte alone
// (comments, blank lines, quoting, key order). The yaml.v3 tree says where
// things are; the edit is made on the text. Where the text is laid out in a
// way the text edit does not handle (flow style, `~`, a multi-line value),
// the tree itself is edited and written out, which keeps comments and key
// order but not blank lines. Either way the result is parsed again and must
// hold exactly the old data plus the change, or nothing is written.

// Modes of config files the host creates: trailpin.yaml lives in a repo
// that everyone who clones it reads; the user config may hold a model's
// API key.
const (
	projectFileMode fs.FileMode = 0o644
	userFileMode    fs.FileMode = 0o600
	userDirMode     fs.FileMode = 0o700
)

// yamlIndent is the indentation of what the host writes where the file
// gives no example to follow.
const yamlIndent = 2

// A yamlLine is one line to insert: its nesting depth below the entry's
// first line, and its text.
type yamlLine struct {
	depth int
	text  string
}

// yamlScalar writes s as a YAML scalar, quoted only where YAML needs it.
func yamlScalar(s string) string {
	b, err := yaml.Marshal(s)
	if err != nil {
		return fmt.Sprintf("%q", s)
	}
	return strings.TrimSuffix(string(b), "\n")
}

// yamlKey writes a mapping key: as yamlScalar, so that a name such as
// "3000" or "on" stays text.
func yamlKey(s string) string { return yamlScalar(s) }

// addMapEntry returns src with name: value added to the mapping under the
// top-level key top (created when missing). lines are the entry as text,
// value the same entry as data, to check the result.
func addMapEntry(file string, src []byte, top, name string, lines []yamlLine, value any) ([]byte, error) {
	want, err := genericYAML(src)
	if err != nil {
		return nil, err
	}
	m := asYAMLMap(want[top])
	m[name] = value
	want[top] = m
	return editYAML(file, src, want,
		func(root *yaml.Node) ([]byte, bool) { return insertBlockEntry(src, root, top, lines, false) },
		func(root *yaml.Node) error {
			v := topValue(root, top, yaml.MappingNode)
			var entry yaml.Node
			if err := entry.Encode(value); err != nil {
				return err
			}
			v.Content = append(v.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name}, &entry)
			return nil
		})
}

// appendSeqItem returns src with an item added to the list under the
// top-level key top (created when missing).
func appendSeqItem(file string, src []byte, top string, lines []yamlLine, value any) ([]byte, error) {
	want, err := genericYAML(src)
	if err != nil {
		return nil, err
	}
	list, _ := want[top].([]any)
	want[top] = append(list, value)
	return editYAML(file, src, want,
		func(root *yaml.Node) ([]byte, bool) { return insertBlockEntry(src, root, top, lines, true) },
		func(root *yaml.Node) error {
			v := topValue(root, top, yaml.SequenceNode)
			var item yaml.Node
			if err := item.Encode(value); err != nil {
				return err
			}
			v.Content = append(v.Content, &item)
			return nil
		})
}

// setTopScalar returns src with the top-level key set to the text value.
func setTopScalar(file string, src []byte, key, value string) ([]byte, error) {
	want, err := genericYAML(src)
	if err != nil {
		return nil, err
	}
	want[key] = value
	return editYAML(file, src, want,
		func(root *yaml.Node) ([]byte, bool) { return replaceTopScalar(src, root, key, yamlScalar(value)) },
		func(root *yaml.Node) error {
			v := topValue(root, key, yaml.ScalarNode)
			*v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value, LineComment: v.LineComment}
			return nil
		})
}

// editYAML makes an edit as text when it can, else on the tree, and returns
// the result only when it parses to want.
func editYAML(file string, src []byte, want map[string]any,
	asText func(root *yaml.Node) ([]byte, bool), onTree func(root *yaml.Node) error) ([]byte, error) {
	root, err := parseConfigYAML(file, src)
	if err != nil {
		return nil, err
	}
	if out, ok := asText(root); ok {
		if got, err := genericYAML(out); err == nil && reflect.DeepEqual(got, want) {
			return out, nil
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 || yamlNull(doc.Content[0]) {
		doc = yaml.Node{Kind: yaml.DocumentNode, HeadComment: doc.HeadComment, FootComment: doc.FootComment,
			Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	if doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s is not a mapping of keys to values", file)
	}
	if err := onTree(doc.Content[0]); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(yamlIndent)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	got, err := genericYAML(out)
	if err != nil || !reflect.DeepEqual(got, want) {
		return nil, errors.New("the edit could not be made without changing other values; make it by hand")
	}
	return out, nil
}

// genericYAML decodes a config file into plain maps and lists, to compare
// files by what they say rather than how.
func genericYAML(src []byte) (map[string]any, error) {
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		return nil, err
	}
	if v == nil {
		return map[string]any{}, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the file is not a mapping of keys to values")
	}
	return m, nil
}

func asYAMLMap(v any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		return m
	}
	return map[string]any{}
}

// topValue returns the value of the top-level key in root, adding the key
// (or replacing a null value) with an empty node of kind.
func topValue(root *yaml.Node, key string, kind yaml.Kind) *yaml.Node {
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == key {
			v := root.Content[i+1]
			if yamlNull(v) && kind != yaml.ScalarNode {
				*v = yaml.Node{Kind: kind, LineComment: v.LineComment}
			}
			v.Style &^= yaml.FlowStyle
			return v
		}
	}
	v := &yaml.Node{Kind: kind}
	root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
	return v
}

// textLines is a file split into lines, each with its line ending.
type textLines struct {
	lines []string
	nl    string
}

func splitText(src []byte) textLines {
	t := textLines{nl: "\n"}
	s := string(src)
	if i := strings.IndexByte(s, '\n'); i > 0 && s[i-1] == '\r' {
		t.nl = "\r\n"
	}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			t.lines = append(t.lines, s)
			break
		}
		t.lines = append(t.lines, s[:i+1])
		s = s[i+1:]
	}
	return t
}

func (t textLines) join() []byte { return []byte(strings.Join(t.lines, "")) }

// ensureNewline ends line i with a line ending.
func (t *textLines) ensureNewline(i int) {
	if i >= 0 && i < len(t.lines) && !strings.HasSuffix(t.lines[i], "\n") {
		t.lines[i] += t.nl
	}
}

func (t *textLines) insert(at int, lines ...string) {
	t.lines = append(t.lines[:at], append(lines, t.lines[at:]...)...)
}

func yamlIndentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

func yamlBlankLine(line string) bool { return strings.TrimSpace(line) == "" }

// render writes entry lines at indent, each nesting level unit deeper.
func renderYAMLLines(lines []yamlLine, indent, unit int, nl string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.Repeat(" ", indent+l.depth*unit) + l.text + nl
	}
	return out
}

// insertBlockEntry adds an entry at the end of the block mapping (or, with
// seq, the block list) under the top-level key, following the indentation
// the file already uses. It reports false for layouts it leaves to the tree
// edit.
func insertBlockEntry(src []byte, root *yaml.Node, key string, entry []yamlLine, seq bool) ([]byte, bool) {
	t := splitText(src)
	if seq {
		// A list item's continuation lines sit after "- ".
		entry = append([]yamlLine{{entry[0].depth, "- " + entry[0].text}}, entry[1:]...)
	}
	if root == nil {
		if strings.TrimSpace(withoutYAMLComments(src)) != "" {
			return nil, false
		}
		t.ensureNewline(len(t.lines) - 1)
		t.lines = append(t.lines, key+":"+t.nl)
		t.lines = append(t.lines, renderYAMLLines(entry, yamlIndent, yamlIndent, t.nl)...)
		return t.join(), true
	}
	k, v, ok := topLevelKey(root, key)
	if !ok {
		return nil, false
	}
	keyIndent := root.Content[0].Column - 1
	if k == nil {
		if endsInYAMLDocumentMarker(t) {
			return nil, false
		}
		t.ensureNewline(len(t.lines) - 1)
		t.lines = append(t.lines, strings.Repeat(" ", keyIndent)+yamlKey(key)+":"+t.nl)
		t.lines = append(t.lines, renderYAMLLines(entry, keyIndent+yamlIndent, yamlIndent, t.nl)...)
		return t.join(), true
	}
	indent, unit := keyIndent+yamlIndent, yamlIndent
	wantKind := yaml.MappingNode
	if seq {
		wantKind = yaml.SequenceNode
	}
	switch {
	case yamlNull(v) && v.Value == "" && v.Line == k.Line:
	case v.Kind == wantKind && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 && v.Line > k.Line:
		first := v.Content[0]
		if seq {
			indent = v.Column - 1
			unit = first.Column - v.Column
		} else {
			indent = first.Column - 1
			if inner := v.Content[1]; inner.Kind == yaml.MappingNode && inner.Style&yaml.FlowStyle == 0 && inner.Line > first.Line {
				unit = inner.Column - first.Column
			}
		}
		if unit <= 0 {
			return nil, false
		}
	default:
		return nil, false
	}
	// The block ends before the first line, after the key, that is indented
	// no deeper than the key (a list may sit at the key's own indentation).
	last := k.Line - 1
	for i := k.Line; i < len(t.lines); i++ {
		line := t.lines[i]
		if yamlBlankLine(line) {
			continue
		}
		ind := yamlIndentOf(line)
		sameIndentItem := seq && ind == keyIndent && strings.HasPrefix(line[ind:], "-") && !strings.HasPrefix(line[ind:], "---")
		if ind <= keyIndent && !sameIndentItem {
			break
		}
		last = i
	}
	if last >= len(t.lines) || strings.HasPrefix(strings.TrimSpace(t.lines[last]), "...") {
		return nil, false
	}
	t.ensureNewline(last)
	t.insert(last+1, renderYAMLLines(entry, indent, unit, t.nl)...)
	return t.join(), true
}

// stripComments drops comment lines, to tell an empty file from one with
// content the tree did not expect.
func withoutYAMLComments(src []byte) string {
	var b strings.Builder
	for _, line := range splitText(src).lines {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}

func endsInYAMLDocumentMarker(t textLines) bool {
	for i := len(t.lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(t.lines[i])
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		return line == "..." || line == "---"
	}
	return false
}

// replaceTopScalar sets the one-line value of a top-level key in place,
// keeping the rest of the line (a comment) as it was.
func replaceTopScalar(src []byte, root *yaml.Node, key, text string) ([]byte, bool) {
	t := splitText(src)
	if root == nil {
		if strings.TrimSpace(withoutYAMLComments(src)) != "" {
			return nil, false
		}
		t.ensureNewline(len(t.lines) - 1)
		t.lines = append(t.lines, yamlKey(key)+": "+text+t.nl)
		return t.join(), true
	}
	k, v, ok := topLevelKey(root, key)
	if !ok {
		return nil, false
	}
	if k == nil {
		if endsInYAMLDocumentMarker(t) {
			return nil, false
		}
		t.ensureNewline(len(t.lines) - 1)
		t.lines = append(t.lines, strings.Repeat(" ", root.Content[0].Column-1)+yamlKey(key)+": "+text+t.nl)
		return t.join(), true
	}
	if v.Kind != yaml.ScalarNode || v.Line != k.Line || v.Line > len(t.lines) {
		return nil, false
	}
	line := t.lines[v.Line-1]
	body := strings.TrimRight(line, "\r\n")
	start := runeColumnOffset(body, v.Column-1)
	if start < 0 {
		return nil, false
	}
	end, ok := scalarEnd(body, start, v)
	if !ok {
		return nil, false
	}
	sep := ""
	if yamlNull(v) && v.Value == "" {
		sep = " "
	}
	t.lines[v.Line-1] = body[:start] + sep + text + body[end:] + line[len(body):]
	return t.join(), true
}

// byteOffset converts a 0-based column in runes to a byte offset in line.
func runeColumnOffset(line string, col int) int {
	n := 0
	for i := range line {
		if n == col {
			return i
		}
		n++
	}
	if n == col {
		return len(line)
	}
	return -1
}

// scalarEnd finds where the one-line scalar v that starts at start ends.
func scalarEnd(line string, start int, v *yaml.Node) (int, bool) {
	rest := line[start:]
	switch {
	case yamlNull(v) && v.Value == "":
		return start, true
	case v.Style == yaml.DoubleQuotedStyle:
		for i := 1; i < len(rest); i++ {
			switch rest[i] {
			case '\\':
				i++
			case '"':
				return start + i + 1, true
			}
		}
	case v.Style == yaml.SingleQuotedStyle:
		for i := 1; i < len(rest); i++ {
			if rest[i] == '\'' {
				if i+1 < len(rest) && rest[i+1] == '\'' {
					i++
					continue
				}
				return start + i + 1, true
			}
		}
	case v.Style == 0:
		end := len(rest)
		if i := strings.Index(rest, " #"); i >= 0 {
			end = i
		}
		plain := strings.TrimRight(rest[:end], " \t")
		if plain == v.Value {
			return start + len(plain), true
		}
	}
	return 0, false
}

// writeConfigFile replaces a config file atomically (see atomicfile). A
// symlinked file (a dotfiles repo) is written where the link points; an
// existing file keeps its permissions, a new one gets mode.
func writeConfigFile(path string, data []byte, mode fs.FileMode) error {
	return atomicfile.WriteThrough(path, data, mode)
}

// createConfigFile writes a new config file atomically, refusing (with an
// error wrapping fs.ErrExist) when path exists.
func createConfigFile(path string, data []byte, mode fs.FileMode) error {
	return atomicfile.Create(path, data, mode)
}

// topLevelKey finds key in a block mapping root that the text edit can
// handle; k and v are nil when the key is not there. ok is false for a root
// the text edit cannot change (not a mapping, flow style, empty).
func topLevelKey(root *yaml.Node, key string) (k, v *yaml.Node, ok bool) {
	if root.Kind != yaml.MappingNode || root.Style&yaml.FlowStyle != 0 || len(root.Content) == 0 {
		return nil, nil, false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == key {
			k, v = root.Content[i], root.Content[i+1]
		}
	}
	return k, v, true
}

package trail

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A MigrationNote is one legacy check that Migrate met: what it did, or why
// it left the check alone.
type MigrationNote struct {
	// Line is the line of the action in the file migrated.
	Line int
	// Step is the 1-based step number; 0 when the check sits outside a step.
	Step int
	// Action is the action's kind, such as "assertVisible".
	Action string
	// Left is true when the check could not be expressed faithfully: the
	// file is not rewritten, and a person has to decide.
	Left bool
	// Text says what was done, or why it was left.
	Text string
}

func (n MigrationNote) String() string {
	if n.Line == 0 {
		return n.Text
	}
	where := fmt.Sprintf("line %d", n.Line)
	if n.Step > 0 {
		where += fmt.Sprintf(" (step %d, %s)", n.Step, n.Action)
	}
	if n.Left {
		return where + ": not migrated: " + n.Text
	}
	return where + ": " + n.Text
}

// MigrationIncomplete reports whether any note was left for a person.
func MigrationIncomplete(report []MigrationNote) bool {
	return slices.ContainsFunc(report, func(n MigrationNote) bool { return n.Left })
}

// Migrate rewrites a trail file that uses the legacy expectedText and
// textMatchMode keys (docs/trail-format.md), folding each check into its selector by
// the rules of migrateText, and assertChange's retry written as a bare
// number into the budget it is now (migrateRetry). Comments and the layout of everything else are
// kept as far as the YAML library allows.
//
// The report has a note per legacy check. When any note is Left, out is nil:
// the file must not be rewritten half way. When the file has no legacy keys,
// out is src. err is set only when src is not YAML.
func Migrate(src []byte) (out []byte, report []MigrationNote, err error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, nil, fmt.Errorf("migrating trail: %w", syntaxError("", err))
	}
	m := &migration{handled: map[*yaml.Node]bool{}}
	if len(doc.Content) > 0 {
		m.trail(doc.Content[0])
		m.strays(doc.Content[0])
	}
	slices.SortStableFunc(m.notes, func(a, b MigrationNote) int { return a.Line - b.Line })
	switch {
	case MigrationIncomplete(m.notes):
		return nil, m.notes, nil
	case !m.changed:
		return src, m.notes, nil
	}
	out, err = m.encode(&doc)
	if err != nil {
		return nil, m.notes, fmt.Errorf("migrating trail: %w", err)
	}
	return out, m.notes, nil
}

// encode writes the migrated document and checks it reads back as the same
// data. A comment moved off a removed key can make the YAML library write
// something else (a comment before an emptied mapping); then the moved
// comments are dropped, and the notes say so.
func (m *migration) encode(doc *yaml.Node) ([]byte, error) {
	out, err := encodeYAML(doc)
	if err == nil && sameData(doc, out) {
		return out, nil
	}
	if len(m.moved) > 0 {
		for i := len(m.moved) - 1; i >= 0; i-- {
			*m.moved[i].field = m.moved[i].old
		}
		m.notes = append(m.notes, MigrationNote{Text: "comments on the removed keys could not be kept"})
		if out, err = encodeYAML(doc); err == nil && sameData(doc, out) {
			return out, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("the migrated file would not read back as written: migrate it by hand")
}

func encodeYAML(doc *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(indentStep)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// sameData reports whether out reads back as the data of doc.
func sameData(doc *yaml.Node, out []byte) bool {
	var want, got any
	if err := doc.Decode(&want); err != nil {
		return yaml.Unmarshal(out, &got) == nil
	}
	if err := yaml.Unmarshal(out, &got); err != nil {
		return false
	}
	return reflect.DeepEqual(want, got)
}

// commentMove is a comment moved off a removed key, kept so it can be undone.
type commentMove struct {
	field *string
	old   string
}

type migration struct {
	notes   []MigrationNote
	changed bool
	// handled are the legacy key nodes met inside action bodies; any other
	// is reported as a stray.
	handled map[*yaml.Node]bool
	moved   []commentMove
}

func (m *migration) trail(root *yaml.Node) {
	steps := mappingValue(root, "steps")
	if steps == nil || steps.Kind != yaml.SequenceNode {
		return
	}
	for i, step := range steps.Content {
		actions := mappingValue(step, "actions")
		if actions == nil || actions.Kind != yaml.SequenceNode {
			continue
		}
		for _, action := range actions.Content {
			if action.Kind != yaml.MappingNode || len(action.Content) != 2 {
				continue
			}
			m.action(i+1, action.Content[0], action.Content[1])
		}
	}
}

// action migrates the legacy keys of one action body, if it has any.
func (m *migration) action(step int, kindNode, body *yaml.Node) {
	if body.Kind != yaml.MappingNode {
		return
	}
	m.migrateRetry(step, kindNode, body)
	textKey, textVal := mappingEntry(body, "expectedText")
	modeKey, modeVal := mappingEntry(body, "textMatchMode")
	if textKey == nil && modeKey == nil {
		return
	}
	m.handled[textKey], m.handled[modeKey] = true, true
	note := MigrationNote{Line: kindNode.Line, Step: step, Action: kindNode.Value}
	left := func(format string, args ...any) {
		note.Left, note.Text = true, fmt.Sprintf(format, args...)
		m.notes = append(m.notes, note)
	}
	chk := legacyCheck{HasText: textKey != nil}
	if textVal != nil {
		if textVal.Kind != yaml.ScalarNode {
			left("expectedText is not text")
			return
		}
		chk.Text = textVal.Value
	}
	if modeVal != nil {
		if modeVal.Kind != yaml.ScalarNode {
			left("textMatchMode is not EXACT, PREFIX or REGEX")
			return
		}
		chk.Mode = modeVal.Value
	}
	selNode := mappingValue(body, "selector")
	if chk.HasText && (selNode == nil || selNode.Kind != yaml.MappingNode) {
		left("the action has no selector to fold the text into: write the check as a selector by hand")
		return
	}
	var sel legacySelector
	if selNode != nil {
		sel = legacySelectorOf(selNode)
	}
	mig := migrateText(sel, chk)
	if mig.Op == opLeave {
		left("%s", mig.Note)
		return
	}
	note.Text = mig.Note
	m.notes = append(m.notes, note)
	m.removeKey(body, kindNode, "expectedText")
	m.removeKey(body, kindNode, "textMatchMode")
	switch mig.Op {
	case opSetText:
		m.removeKey(selNode, kindNode, "textRegex")
		setSelectorKey(selNode, "text", mig.Value)
	case opSetRegex:
		m.removeKey(selNode, kindNode, "text")
		setSelectorKey(selNode, "textRegex", mig.Value)
	}
	m.changed = true
}

// strays reports legacy keys that are not in an action body, where Migrate
// cannot tell what they checked.
func (m *migration) strays(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if isOneOf(k.Value, legacyKeys) && !m.handled[k] {
				m.notes = append(m.notes, MigrationNote{Line: k.Line, Left: true,
					Text: fmt.Sprintf("%s is not beside an action's selector, so what it checked is unclear: fold it into a selector by hand", k.Value)})
			}
		}
	}
	for _, c := range n.Content {
		m.strays(c)
	}
}

func legacySelectorOf(n *yaml.Node) legacySelector {
	str := func(key string) string {
		if v := mappingValue(n, key); v != nil && v.Kind == yaml.ScalarNode {
			return v.Value
		}
		return ""
	}
	return legacySelector{
		Role: str("role"), Text: str("text"), TextRegex: str("textRegex"),
		Placeholder: str("placeholder"), HasIndex: mappingValue(n, "index") != nil,
	}
}

func mappingEntry(n *yaml.Node, key string) (k, v *yaml.Node) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], n.Content[i+1]
		}
	}
	return nil, nil
}

func mappingValue(n *yaml.Node, key string) *yaml.Node {
	_, v := mappingEntry(n, key)
	return v
}

// removeKey removes key from a mapping. Comments on the removed key and
// value move to the key that follows, or to the line of owner when none
// follows, so no comment is lost.
func (m *migration) removeKey(n, owner *yaml.Node, key string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value != key {
			continue
		}
		var comments []string
		for _, c := range []string{k.HeadComment, k.LineComment, v.HeadComment, v.LineComment, k.FootComment, v.FootComment} {
			if c != "" {
				comments = append(comments, c)
			}
		}
		n.Content = slices.Delete(n.Content, i, i+2)
		if len(comments) == 0 {
			return
		}
		if i < len(n.Content) {
			next := n.Content[i]
			m.moved = append(m.moved, commentMove{&next.HeadComment, next.HeadComment})
			next.HeadComment = joinComments(strings.Join(comments, "\n"), next.HeadComment)
		} else if owner != nil {
			m.moved = append(m.moved, commentMove{&owner.LineComment, owner.LineComment})
			owner.LineComment = joinComments(owner.LineComment, strings.Join(comments, " "))
		}
		return
	}
}

func joinComments(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// setSelectorKey sets a selector's key, placing a new key where the writer
// would (after role and name).
func setSelectorKey(n *yaml.Node, key, value string) {
	val := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
	if v := mappingValue(n, key); v != nil {
		*v = *val
		return
	}
	at := 0
	order := slices.Index(selectorKeys, key)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := slices.Index(selectorKeys, n.Content[i].Value); k >= 0 && k < order {
			at = i + 2
		}
	}
	n.Content = slices.Insert(n.Content, at, keyNode(key), val)
}

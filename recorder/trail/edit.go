package trail

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A Recording is what a step's recording is made of in a trail file: its
// actions, its end state and its key. A healed step gets a new one.
type Recording struct {
	Actions []Action
	// End is the new end state; nil writes the step without one.
	End *End
	// Key is what the recording belongs to (StepKey); "" writes none.
	Key string
}

// ErrCannotEdit is wrapped when a trail file is laid out in a way the
// recording of one step cannot be replaced in without rewriting more of it.
var ErrCannotEdit = errors.New("cannot replace the step's recording in place")

// ReplaceRecording returns the trail file src with the recording of its
// step number step (0-based) replaced by rec, and every other byte of the
// file as it was: comments, blank lines, quoting, key order and the other
// steps. Each of the step's actions, end and key entries is rewritten where
// it stands (an entry the step did not have goes after the ones it had), so
// a comment above `end:` still sits above it. Comments on the lines of the
// replaced entries go with them: they described the old recording. A
// comment on the line of the key itself (`actions:  # …`) is kept.
//
// src must load (LoadTrail), and the result is loaded back before it is
// returned: it must equal the trail of src with the step's recording
// replaced, so every file written from it loads. file names the file in
// errors.
func ReplaceRecording(file string, src []byte, step int, rec Recording) ([]byte, error) {
	t, err := LoadTrail(file, src)
	if err != nil {
		return nil, fmt.Errorf("replacing a recording in %s: the file does not load:\n%w", file, err)
	}
	if step < 0 || step >= len(t.Steps) {
		return nil, fmt.Errorf("replacing a recording in %s: the trail has %d steps, not a step %d", file, len(t.Steps), step+1)
	}
	if len(rec.Actions) == 0 {
		return nil, fmt.Errorf("replacing the recording of step %d in %s: the new recording has no actions", step+1, file)
	}
	want := *t
	want.Steps = append([]Step(nil), t.Steps...)
	s := want.Steps[step]
	s.Actions, s.End, s.Key = rec.Actions, rec.End, rec.Key
	want.Steps[step] = s

	root, err := parseTrailYAML(file, src)
	if err != nil {
		return nil, err
	}
	e, err := newStepEdit(src, root, step)
	if err != nil {
		return nil, fmt.Errorf("replacing the recording of step %d in %s: %w", step+1, file, err)
	}
	out, err := e.apply(rec, t.Steps[step])
	if err != nil {
		return nil, fmt.Errorf("replacing the recording of step %d in %s: %w", step+1, file, err)
	}
	back, err := LoadTrail(file, out)
	if err != nil {
		return nil, fmt.Errorf("replacing the recording of step %d in %s: the edited file would not load:\n%w", step+1, file, err)
	}
	if diff := trailDifference(back, &want); diff != "" {
		return nil, fmt.Errorf("replacing the recording of step %d in %s: the edited file would not load as the new recording: %s", step+1, file, diff)
	}
	return out, nil
}

// stepEdit is one step of a trail file, by lines.
type stepEdit struct {
	src   []byte
	lines lineIndex
	crlf  bool
	// keyIndent is the column (0-based) of the step's keys.
	keyIndent int
	// seqIndent is how far the items of a block list are indented below
	// their key in this file.
	seqIndent int
	// entries are the step's keys with the lines their values span, in
	// file order.
	entries []entry
}

// An entry is one key of the step mapping and the lines it spans.
type entry struct {
	name       string
	key, val   *yaml.Node
	first      int // the key's line
	last       int // the last line of its value
	keyComment string
}

func newStepEdit(src []byte, root *yaml.Node, step int) (*stepEdit, error) {
	if root.Kind != yaml.MappingNode || root.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("%w: the trail is written as a flow mapping ({…})", ErrCannotEdit)
	}
	var steps *yaml.Node
	var after *yaml.Node // the root key after steps
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "steps" {
			steps = root.Content[i+1]
			if i+2 < len(root.Content) {
				after = root.Content[i+2]
			}
		}
	}
	if steps == nil || steps.Kind != yaml.SequenceNode || steps.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("%w: steps is written as a flow list ([…]); write it as a block list", ErrCannotEdit)
	}
	n := steps.Content[step]
	if n.Kind != yaml.MappingNode || n.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("%w: the step is written as a flow mapping ({…}); write it as a block", ErrCannotEdit)
	}
	e := &stepEdit{src: src, lines: indexLines(src), crlf: bytes.Contains(src, []byte("\r\n")),
		keyIndent: n.Content[0].Column - 1, seqIndent: 2}
	// The step ends where the next step, the next key of the trail, or the
	// file begins.
	end := e.lines.count() + 1
	switch {
	case step+1 < len(steps.Content):
		end = steps.Content[step+1].Line
	case after != nil:
		end = after.Line
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		next := end
		if i+2 < len(n.Content) {
			next = n.Content[i+2].Line
		}
		en := entry{name: k.Value, key: k, val: v, first: k.Line, last: e.lastLineBefore(k.Line, next, k.Column-1)}
		if c := firstNonEmpty(k.LineComment, v.LineComment); c != "" {
			en.keyComment = e.spacedComment(en.first, en.last, c)
		}
		if v.Kind != yaml.ScalarNode && v.Line > k.Line {
			// A block value: only a comment on the key's line is the key's.
			en.keyComment = e.commentOn(k.Line)
		}
		if k.Value == "actions" && v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 {
			if d := v.Content[0].Column - 1 - 2 - e.keyIndent; d >= 2 {
				e.seqIndent = d
			}
		}
		e.entries = append(e.entries, en)
	}
	return e, nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// lastLineBefore is the last line of a value that starts on line first and
// ends before line next: the lines in between, less the blank lines and the
// comments at or left of the key's indent at their end, which belong to what
// follows (the next key's comment, the next step's).
func (e *stepEdit) lastLineBefore(first, next, indent int) int {
	last := next - 1
	for last > first {
		line := e.lines.text(e.src, last)
		trimmed := strings.TrimSpace(line)
		lead := len(line) - len(strings.TrimLeft(line, " "))
		switch {
		case trimmed == "", trimmed == "-", trimmed == "...":
		case strings.HasPrefix(trimmed, "#") && lead <= indent:
		default:
			return last
		}
		last--
	}
	return first
}

// spacedComment is comment as it ends one of the lines first..last, with
// the spaces before it, so that it is written back as it was.
func (e *stepEdit) spacedComment(first, last int, comment string) string {
	for n := first; n <= last; n++ {
		line := strings.TrimRight(e.lines.text(e.src, n), " \t")
		if before, ok := strings.CutSuffix(line, comment); ok && strings.TrimRight(before, " \t") != before {
			return before[len(strings.TrimRight(before, " \t")):] + comment
		}
	}
	return " " + comment
}

// commentOn returns the comment at the end of a line that holds only a key
// ("actions:  # recorded by hand"), with the space before it, or "".
func (e *stepEdit) commentOn(line int) string {
	text := e.lines.text(e.src, line)
	colon := strings.Index(text, ":")
	if colon < 0 {
		return ""
	}
	rest := text[colon+1:]
	if strings.HasPrefix(strings.TrimSpace(rest), "#") {
		return strings.TrimRight(rest, " \t")
	}
	return ""
}

// A splice replaces the lines first..last (from column col of the first)
// with text; last < first inserts text before line first.
type splice struct {
	first, last, col int
	text             string
}

// An end or key the new recording shares with old is left as written (a
// block-style end keeps its layout and its comments); only what changed is
// rewritten in the writer's style.
func (e *stepEdit) apply(rec Recording, old Step) ([]byte, error) {
	unchanged := map[string]bool{
		"end": rec.End != nil && old.End != nil &&
			reflect.DeepEqual(withoutPositions(reflect.ValueOf(*rec.End)).Interface(), withoutPositions(reflect.ValueOf(*old.End)).Interface()),
		"key": rec.Key != "" && rec.Key == old.Key,
	}
	parts := map[string]string{}
	actions, err := actionsNode(rec.Actions)
	if err != nil {
		return nil, err
	}
	if parts["actions"], err = e.render("actions", actions); err != nil {
		return nil, err
	}
	if rec.End != nil {
		if parts["end"], err = e.render("end", endNode(rec.End)); err != nil {
			return nil, err
		}
	}
	if rec.Key != "" {
		if parts["key"], err = e.render("key", strNode(rec.Key)); err != nil {
			return nil, err
		}
	}
	var splices []splice
	have := map[string]bool{}
	insertAfter := e.entries[len(e.entries)-1].last
	for _, en := range e.entries {
		if _, ours := map[string]bool{"actions": true, "end": true, "key": true}[en.name]; !ours {
			continue
		}
		have[en.name] = true
		if unchanged[en.name] {
			continue
		}
		text := parts[en.name]
		col := en.key.Column - 1
		if text == "" {
			if strings.TrimSpace(e.lines.text(e.src, en.first)[:col]) != "" {
				return nil, fmt.Errorf("%w: the step begins with %s: on the line of its `-`; move intent: first", ErrCannotEdit, en.name)
			}
			col = 0
		} else if en.keyComment != "" {
			text = addComment(text, en.keyComment)
		}
		splices = append(splices, splice{first: en.first, last: en.last, col: col, text: text})
	}
	// Entries the step did not have go after those it had, in the order
	// the writer uses.
	for _, en := range e.entries {
		if have[en.name] {
			insertAfter = en.last
		}
	}
	if !have["actions"] {
		insertAfter = e.entries[len(e.entries)-1].last
	}
	var inserted strings.Builder
	for _, name := range []string{"actions", "end", "key"} {
		if !have[name] && parts[name] != "" {
			inserted.WriteString(strings.Repeat(" ", e.keyIndent) + parts[name])
		}
	}
	if inserted.Len() > 0 {
		splices = append(splices, splice{first: insertAfter + 1, last: insertAfter, text: inserted.String()})
	}
	return e.splice(splices), nil
}

// render writes "name: value" for the step's indent: the first line without
// it (it goes at the key's column), the others with it.
func (e *stepEdit) render(name string, val *yaml.Node) (string, error) {
	m := mapNode()
	addKey(m, name, val)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(e.seqIndent)
	if err := enc.Encode(m); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return indentText(buf.String(), e.keyIndent, false), nil
}

// indentText indents every line of text by n spaces, the first too when
// first is set.
func indentText(text string, n int, first bool) string {
	pad := strings.Repeat(" ", n)
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for i, l := range lines {
		if l == "" {
			continue
		}
		if i > 0 || first {
			b.WriteString(pad)
		}
		b.WriteString(l)
	}
	return b.String()
}

// addComment puts a comment (with the space before it) at the end of
// text's first line.
func addComment(text, comment string) string {
	line, rest, _ := strings.Cut(text, "\n")
	return line + comment + "\n" + rest
}

// splice applies the splices, in line order, to the file.
func (e *stepEdit) splice(ss []splice) []byte {
	var out bytes.Buffer
	at := 0 // offset in src copied up to
	for _, s := range sortedSplices(ss) {
		start := e.lines.start(s.first) + s.col
		out.Write(e.src[at:start])
		if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n")) && s.col == 0 {
			out.WriteString(e.newline())
		}
		text := s.text
		if e.crlf {
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		out.WriteString(text)
		at = start
		if s.last >= s.first {
			at = e.lines.start(s.last + 1)
		}
	}
	rest := e.src[at:]
	out.Write(rest)
	if at == len(e.src) && len(e.src) > 0 && !bytes.HasSuffix(e.src, []byte("\n")) {
		// The file ended without a line break inside a replaced entry: so does the edit.
		return bytes.TrimRight(out.Bytes(), "\r\n")
	}
	return out.Bytes()
}

func (e *stepEdit) newline() string {
	if e.crlf {
		return "\r\n"
	}
	return "\n"
}

func sortedSplices(ss []splice) []splice {
	out := append([]splice(nil), ss...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].first < out[j-1].first; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// lineIndex holds where each line of a file starts.
type lineIndex []int

func indexLines(src []byte) lineIndex {
	idx := lineIndex{0}
	for i, c := range src {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	if idx[len(idx)-1] != len(src) {
		idx = append(idx, len(src))
	}
	return idx
}

// count is the number of lines.
func (l lineIndex) count() int { return len(l) - 1 }

// start is the offset where 1-based line n starts (the file's length past
// its end).
func (l lineIndex) start(n int) int {
	if n-1 >= len(l) {
		return l[len(l)-1]
	}
	return l[n-1]
}

// text is line n without its line break.
func (l lineIndex) text(src []byte, n int) string {
	if n < 1 || n > l.count() {
		return ""
	}
	return strings.TrimRight(string(src[l.start(n):l.start(n+1)]), "\r\n")
}

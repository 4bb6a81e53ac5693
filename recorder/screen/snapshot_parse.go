package screen

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrSnapshotSyntax is wrapped by every error ParseSnapshot returns, so
// callers can tell unreadable snapshot text from other failures.
var ErrSnapshotSyntax = errors.New("unreadable snapshot text")

// A SnapshotSyntaxError says where snapshot text cannot be read and why.
type SnapshotSyntaxError struct {
	Line   int // 1-based
	Column int // 1-based, in characters
	Msg    string
}

func (e *SnapshotSyntaxError) Error() string {
	return fmt.Sprintf("snapshot line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

func (e *SnapshotSyntaxError) Unwrap() error { return ErrSnapshotSyntax }

// ParseSnapshot reads ARIA snapshot text: what RenderSnapshot writes in
// either form, and what Playwright writes in any mode. It reads
//
//   - element lines, bare or wrapped whole in YAML single quotes (with a
//     doubled quote for each quote inside) or double quotes;
//   - names in JSON double quotes (with \", \\, \n, \uXXXX and \xHH escapes),
//     written /…/, or bare ("- button Save"), where only marks outside the
//     name count ("[ref=e1]" inside a quoted name is part of the name);
//   - every mark Playwright writes: [checked], [checked=mixed],
//     [disabled], [expanded], [active], [invalid], [invalid=grammar],
//     [level=N], [pressed], [pressed=mixed], [selected], [ref=…]; any other
//     mark ([cursor=pointer], [box=…]) is kept in Extra;
//   - text after an element's colon, "- text: …" lines and property lines
//     ("- /url: …"), with values bare, in double quotes with YAML escapes
//     (\xHH, \uXXXX, \n, \t…) or in single quotes;
//   - nesting by indentation, blank lines, and # comment lines.
//
// It returns the top-level entries. Bad text gives a *SnapshotSyntaxError
// naming the line, the column and what was expected there; nothing is
// returned with it.
func ParseSnapshot(text string) ([]*SnapshotNode, error) {
	text = strings.TrimPrefix(text, "\ufeff")
	fragment := &SnapshotNode{}
	stack := []openEntry{{node: fragment, indent: -1, childIndent: -1}}
	var prev *snapshotEntry
	prevLine := 0
	for no, line := range strings.Split(text, "\n") {
		p := lineParser{no: no + 1, line: strings.TrimSuffix(line, "\r")}
		e, err := p.entry()
		if err != nil {
			return nil, err
		}
		if e == nil {
			continue
		}
		if prev != nil && e.indent > prev.indent && !prev.opens {
			return nil, p.errorf(e.indent, "indented under line %d, which holds no children (an element line that has children ends with \":\")", prevLine)
		}
		for len(stack) > 1 && stack[len(stack)-1].indent >= e.indent {
			stack = stack[:len(stack)-1]
		}
		top := &stack[len(stack)-1]
		if top.childIndent < 0 {
			top.childIndent = e.indent
		} else if e.indent != top.childIndent {
			return nil, p.errorf(e.indent, "indented by %d spaces, but the entries before it at this level are indented by %d", e.indent, top.childIndent)
		}
		if err := attach(top.node, e, &p); err != nil {
			return nil, err
		}
		if e.opens {
			stack = append(stack, openEntry{node: e.node, indent: e.indent, childIndent: -1})
		}
		prev, prevLine = e, no+1
	}
	return fragment.Children, nil
}

// openEntry is an element line whose children are still being read.
type openEntry struct {
	node        *SnapshotNode
	indent      int
	childIndent int // -1 until the first child is read
}

// A snapshotEntry is one line read: an element or a text node (node), or a
// property of the element above (prop).
type snapshotEntry struct {
	indent int
	node   *SnapshotNode
	prop   *SnapshotProp
	// opens says the line ends with ":" and so may hold children.
	opens bool
}

func attach(parent *SnapshotNode, e *snapshotEntry, p *lineParser) error {
	if e.prop == nil {
		parent.Children = append(parent.Children, e.node)
		return nil
	}
	if parent.Role == "" {
		return p.errorf(e.indent, "property /%s is not inside an element", e.prop.Name)
	}
	// The first non-empty /url is the link's URL; an empty one (href="")
	// or a second one stays among the other properties, so nothing is lost.
	if e.prop.Name == "url" && e.prop.Value != "" && parent.URL == "" && len(parent.Props) == 0 {
		parent.URL = e.prop.Value
		return nil
	}
	parent.Props = append(parent.Props, *e.prop)
	return nil
}

// lineParser reads one line of snapshot text.
type lineParser struct {
	no   int
	line string
	pos  int
}

func (p *lineParser) errorf(off int, format string, args ...any) error {
	off = min(max(off, 0), len(p.line))
	return &SnapshotSyntaxError{
		Line:   p.no,
		Column: utf8.RuneCountInString(p.line[:off]) + 1,
		Msg:    fmt.Sprintf(format, args...),
	}
}

// entry reads the line; it returns nil for a blank or comment line.
func (p *lineParser) entry() (*snapshotEntry, error) {
	for p.pos < len(p.line) && p.line[p.pos] == ' ' {
		p.pos++
	}
	indent := p.pos
	if p.pos == len(p.line) || strings.TrimLeft(p.line[p.pos:], " \t") == "" {
		return nil, nil
	}
	switch c := p.line[p.pos]; {
	case c == '\t':
		return nil, p.errorf(p.pos, "tab in the indent; indent with spaces")
	case c == '#':
		return nil, nil
	case c != '-' || p.pos+1 < len(p.line) && p.line[p.pos+1] != ' ':
		return nil, p.errorf(p.pos, "expected \"- \" to start an entry, found %q", excerpt(p.line[p.pos:]))
	}
	p.pos++
	for p.pos < len(p.line) && p.line[p.pos] == ' ' {
		p.pos++
	}
	if p.pos == len(p.line) {
		return nil, p.errorf(indent, "nothing after \"-\"; expected an element, \"text: …\" or a property")
	}
	e := &snapshotEntry{indent: indent}
	var err error
	switch p.line[p.pos] {
	case '\'', '"':
		err = p.quotedKeyEntry(e)
	case '/':
		err = p.propEntry(e)
	default:
		err = p.elementEntry(e)
	}
	if err != nil {
		return nil, err
	}
	return e, nil
}

// quotedKeyEntry reads a line whose key is in YAML quotes, as Playwright
// writes an element line YAML would otherwise misread.
func (p *lineParser) quotedKeyEntry(e *snapshotEntry) error {
	start := p.pos
	key, end, err := readYAMLQuoted(p.line, p.pos)
	if err != nil {
		return p.errorf(err.off, "%s", err.msg)
	}
	p.pos = end
	for p.pos < len(p.line) && p.line[p.pos] == ' ' {
		p.pos++
	}
	value, hasValue, opens, verr := p.tail()
	if verr != nil {
		return verr
	}
	switch {
	case key == SnapshotTextRole:
		return p.textEntry(e, start, value, hasValue)
	case strings.HasPrefix(key, "/"):
		return p.setProp(e, start, key[1:], value, hasValue)
	}
	n, kerr := parseElementKey(key)
	if kerr != nil {
		// The key was unquoted to read it; point into the line near the
		// fault (exact unless the key holds '' or escapes before it).
		return p.errorf(start+1+kerr.off, "%s", kerr.msg)
	}
	return p.setElement(e, n, value, hasValue, opens)
}

// propEntry reads "- /name: value".
func (p *lineParser) propEntry(e *snapshotEntry) error {
	start := p.pos
	end := strings.Index(p.line[p.pos:], ": ")
	if end < 0 {
		if !strings.HasSuffix(p.line, ":") {
			return p.errorf(start, "property %q has no \": \" before its value", excerpt(p.line[start:]))
		}
		end = len(p.line) - 1 - p.pos
	}
	name := p.line[p.pos+1 : p.pos+end]
	p.pos += end
	value, hasValue, _, err := p.tail()
	if err != nil {
		return err
	}
	return p.setProp(e, start, name, value, hasValue)
}

func (p *lineParser) setProp(e *snapshotEntry, at int, name, value string, hasValue bool) error {
	if !isLetters(name) {
		return p.errorf(at, "property name %q is not letters (Playwright writes /url and /placeholder)", name)
	}
	if !hasValue {
		return p.errorf(at, "property /%s has no value", name)
	}
	e.prop = &SnapshotProp{Name: name, Value: value}
	return nil
}

func (p *lineParser) textEntry(e *snapshotEntry, at int, value string, hasValue bool) error {
	if !hasValue {
		return p.errorf(at, "\"text\" needs a value: \"- text: …\"")
	}
	e.node = &SnapshotNode{Role: SnapshotTextRole, Text: value, Line: p.no}
	return nil
}

// elementEntry reads a bare element line, or a "- text: …" line.
func (p *lineParser) elementEntry(e *snapshotEntry) error {
	start := p.pos
	rest := p.line[p.pos:]
	role := leadingLetters(rest)
	if role == "" {
		return p.errorf(p.pos, "expected a role (letters), found %q", excerpt(rest))
	}
	after := rest[len(role):]
	if after != "" && after[0] != ' ' && after[0] != ':' {
		return p.errorf(p.pos+len(role), "a role is letters only; found %q after %q", excerpt(after), role)
	}
	if role == SnapshotTextRole && strings.HasPrefix(after, ":") {
		p.pos += len(role)
		value, hasValue, _, err := p.tail()
		if err != nil {
			return err
		}
		return p.textEntry(e, start, value, hasValue)
	}
	var n *SnapshotNode
	if name := strings.TrimLeft(after, " "); strings.HasPrefix(name, `"`) {
		// A JSON name is read by its quotes, so ": " or "[ref=" inside it
		// count as part of it.
		var kerr *keyError
		var used int
		n, used, kerr = parseJSONNamedKey(rest)
		if kerr != nil {
			return p.errorf(start+kerr.off, "%s", kerr.msg)
		}
		p.pos += used
		for p.pos < len(p.line) && p.line[p.pos] == ' ' {
			p.pos++
		}
	} else {
		// Anything else ends at the first ": " (Playwright quotes any key
		// that holds one) or a final ":".
		end := strings.Index(rest, ": ")
		if end < 0 {
			end = len(rest)
			if strings.HasSuffix(rest, ":") {
				end--
			}
		}
		var kerr *keyError
		n, kerr = parseElementKey(rest[:end])
		if kerr != nil {
			return p.errorf(start+kerr.off, "%s", kerr.msg)
		}
		p.pos += end
	}
	value, hasValue, opens, err := p.tail()
	if err != nil {
		return err
	}
	return p.setElement(e, n, value, hasValue, opens)
}

func (p *lineParser) setElement(e *snapshotEntry, n *SnapshotNode, value string, hasValue, opens bool) error {
	n.Line = p.no
	if n.Role == SnapshotTextRole {
		return p.errorf(e.indent, "\"text\" is not a role; write a run of text as \"- text: …\"")
	}
	if hasValue {
		n.Children = []*SnapshotNode{{Role: SnapshotTextRole, Text: value, Line: p.no}}
	}
	e.node, e.opens = n, opens
	return nil
}

// tail reads what follows a key: nothing (a leaf), ":" (children follow), or
// ": value".
func (p *lineParser) tail() (value string, hasValue, opens bool, err error) {
	rest := p.line[p.pos:]
	if strings.TrimRight(rest, " \t") == "" {
		return "", false, false, nil
	}
	if rest[0] != ':' {
		return "", false, false, p.errorf(p.pos, "expected \":\" or the end of the line, found %q", excerpt(rest))
	}
	after := rest[1:]
	if strings.TrimRight(after, " \t") == "" {
		return "", false, true, nil
	}
	if after[0] != ' ' && after[0] != '\t' {
		return "", false, false, p.errorf(p.pos+1, "expected a space after \":\", found %q", excerpt(after))
	}
	off := p.pos + 1 + (len(after) - len(strings.TrimLeft(after, " \t")))
	value, hasValue, verr := readYAMLValue(p.line, off)
	if verr != nil {
		return "", false, false, p.errorf(verr.off, "%s", verr.msg)
	}
	return value, hasValue, !hasValue, nil
}

// keyError is a fault at a byte offset of the text being read.
type keyError struct {
	off int
	msg string
}

func keyErrorf(off int, format string, args ...any) *keyError {
	return &keyError{off: off, msg: fmt.Sprintf(format, args...)}
}

// parseJSONNamedKey reads "role "name" [marks]" from the start of s, where
// the name is in JSON quotes, and returns how many bytes it used.
func parseJSONNamedKey(s string) (*SnapshotNode, int, *keyError) {
	role := leadingLetters(s)
	pos := len(role)
	for pos < len(s) && s[pos] == ' ' {
		pos++
	}
	name, end, err := readJSONString(s, pos)
	if err != nil {
		return nil, 0, err
	}
	n := &SnapshotNode{Role: role, Name: name}
	pos = end
	for {
		mark := pos
		for mark < len(s) && s[mark] == ' ' {
			mark++
		}
		if mark == len(s) || s[mark] != '[' {
			break
		}
		close := strings.IndexByte(s[mark:], ']')
		if close < 0 {
			return nil, 0, keyErrorf(mark, "mark %q has no closing ]", excerpt(s[mark:]))
		}
		if err := applyMark(n, s[mark+1:mark+close], mark); err != nil {
			return nil, 0, err
		}
		pos = mark + close + 1
	}
	return n, pos, nil
}

// parseElementKey reads a whole key: a role, an optional name, and marks.
// Marks are read from the right; what lies between the role and the marks
// is the name, in JSON quotes or not.
func parseElementKey(s string) (*SnapshotNode, *keyError) {
	role := leadingLetters(s)
	if role == "" {
		return nil, keyErrorf(0, "expected a role (letters), found %q", excerpt(s))
	}
	rest := s[len(role):]
	if rest != "" && rest[0] != ' ' {
		return nil, keyErrorf(len(role), "a role is letters only; found %q after %q", excerpt(rest), role)
	}
	if strings.HasPrefix(strings.TrimLeft(rest, " "), `"`) {
		n, used, err := parseJSONNamedKey(s)
		if err != nil {
			return nil, err
		}
		if strings.Trim(s[used:], " ") != "" {
			return nil, keyErrorf(used, "unexpected %q after the name and marks", excerpt(s[used:]))
		}
		return n, nil
	}
	n := &SnapshotNode{Role: role}
	type found struct {
		text string
		off  int
	}
	var marks []found
	body := rest
	for {
		t := strings.TrimRight(body, " ")
		if !strings.HasSuffix(t, "]") {
			break
		}
		open := strings.LastIndexByte(t, '[')
		if open < 0 || (open > 0 && t[open-1] != ' ') || !isMark(t[open+1:len(t)-1]) {
			break
		}
		marks = append(marks, found{t[open+1 : len(t)-1], len(role) + open})
		body = t[:open]
	}
	for i := len(marks) - 1; i >= 0; i-- {
		if err := applyMark(n, marks[i].text, marks[i].off); err != nil {
			return nil, err
		}
	}
	n.Name = strings.Trim(body, " ")
	return n, nil
}

// isMark reports whether s (between [ and ]) has the shape of a mark:
// letters, then optionally "=" and a value without spaces or brackets.
func isMark(s string) bool {
	s = strings.Trim(s, " ")
	name := leadingLetters(s)
	if name == "" {
		return false
	}
	rest := strings.TrimLeft(s[len(name):], " ")
	if rest == "" {
		return true
	}
	if rest[0] != '=' {
		return false
	}
	return !strings.ContainsAny(strings.TrimLeft(rest[1:], " "), " []\t")
}

// applyMark sets the state a mark states; off is where the mark starts.
func applyMark(n *SnapshotNode, mark string, off int) *keyError {
	mark = strings.Trim(mark, " ")
	name := leadingLetters(mark)
	if name == "" {
		return keyErrorf(off, "expected a mark name after \"[\", found %q", excerpt(mark))
	}
	value := ""
	if rest := strings.TrimLeft(mark[len(name):], " "); rest != "" {
		if rest[0] != '=' {
			return keyErrorf(off, "mark [%s] has %q after its name; expected \"=\" or \"]\"", name, excerpt(rest))
		}
		value = strings.TrimLeft(rest[1:], " ")
		if value == "" || strings.ContainsAny(value, " \t[") {
			return keyErrorf(off, "mark [%s] has no usable value (%q)", name, value)
		}
	}
	bad := func(want string) *keyError {
		return keyErrorf(off, "mark [%s=%s]: the value must be %s", name, value, want)
	}
	switch name {
	case "checked", "pressed":
		var v string
		switch value {
		case "", "true":
			v = "true"
		case "false", "mixed":
			v = value
		default:
			return bad(`true, false or mixed`)
		}
		if name == "checked" {
			n.Checked = v
		} else {
			n.Pressed = v
		}
	case "disabled", "expanded", "selected", "active":
		var v bool
		switch value {
		case "", "true":
			v = true
		case "false":
		default:
			return bad("true or false")
		}
		switch name {
		case "disabled":
			n.Disabled = v
		case "expanded":
			n.Expanded = v
		case "selected":
			n.Selected = v
		default:
			n.Active = v
		}
	case "invalid":
		switch value {
		case "", "true":
			n.Invalid = "true"
		case "false":
			n.Invalid = ""
		case "grammar", "spelling":
			n.Invalid = value
		default:
			return bad("true, false, grammar or spelling")
		}
	case "level":
		level, err := strconv.Atoi(value)
		if err != nil || level < 0 {
			return bad("a whole number")
		}
		n.Level = level
	case "ref":
		if value == "" {
			return keyErrorf(off, "mark [ref] needs a value, as in [ref=e4]")
		}
		n.Ref = value
	default:
		n.Extra = append(n.Extra, SnapshotAttr{Name: name, Value: value})
	}
	return nil
}

// readJSONString reads a JSON string starting at s[pos] == '"' and returns
// it with the offset after its closing quote. Beyond JSON it accepts \xHH,
// which YAML writers use; a lone surrogate becomes U+FFFD.
func readJSONString(s string, pos int) (string, int, *keyError) {
	var b strings.Builder
	i := pos + 1
	for i < len(s) {
		c := s[i]
		switch c {
		case '"':
			return b.String(), i + 1, nil
		case '\\':
			n, err := readEscape(s, i, &b, false)
			if err != nil {
				return "", 0, err
			}
			i += n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", 0, keyErrorf(pos, "the name in double quotes has no closing \"")
}

// jsonEscapes and yamlEscapes map an escape letter to what it stands for;
// \x, \u and \U are handled apart.
var jsonEscapes = map[byte]string{
	'"': `"`, '\\': `\`, '/': "/", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t",
}

var yamlEscapes = map[byte]string{
	'"': `"`, '\\': `\`, '/': "/", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t",
	'\t': "\t", '0': "\x00", 'a': "\a", 'v': "\v", 'e': "\x1b", ' ': " ",
	'N': "\u0085", '_': "\u00a0", 'L': "\u2028", 'P': "\u2029",
}

// readEscape decodes the escape at s[i] == '\\' into b and returns its
// length in bytes: a YAML escape, or a JSON one (plus \xHH) when !yaml.
func readEscape(s string, i int, b *strings.Builder, yaml bool) (int, *keyError) {
	if i+1 >= len(s) {
		return 0, keyErrorf(i, "a backslash ends the line; the quoted text has no end")
	}
	c := s[i+1]
	simple := jsonEscapes
	if yaml {
		simple = yamlEscapes
	}
	if v, ok := simple[c]; ok {
		b.WriteString(v)
		return 2, nil
	}
	var digits int
	switch {
	case c == 'x':
		digits = 2
	case c == 'u':
		digits = 4
	case c == 'U' && yaml:
		digits = 8
	}
	if digits == 0 {
		return 0, keyErrorf(i, "unknown escape %q", s[i:min(i+2, len(s))])
	}
	code, ok := hexValue(s, i+2, digits)
	if !ok {
		return 0, keyErrorf(i, "escape \\%c needs %d hex digits, found %q", c, digits, excerpt(s[i:]))
	}
	n := 2 + digits
	if c == 'u' && code >= 0xd800 && code < 0xdc00 {
		// A UTF-16 pair, as JSON and JavaScript write characters beyond
		// U+FFFF.
		if i+n+1 < len(s) && s[i+n] == '\\' && s[i+n+1] == 'u' {
			if low, ok := hexValue(s, i+n+2, 4); ok && low >= 0xdc00 && low < 0xe000 {
				b.WriteRune(rune((code-0xd800)<<10 + (low - 0xdc00) + 0x10000))
				return n + 6, nil
			}
		}
	}
	if code >= 0xd800 && code < 0xe000 || code > utf8.MaxRune {
		code = utf8.RuneError
	}
	b.WriteRune(rune(code))
	return n, nil
}

func hexValue(s string, at, digits int) (int, bool) {
	if at+digits > len(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(s[at:at+digits], 16, 32)
	return int(v), err == nil
}

// readYAMLQuoted reads a YAML single- or double-quoted scalar starting at
// s[pos] and returns it with the offset after its closing quote.
func readYAMLQuoted(s string, pos int) (string, int, *keyError) {
	var b strings.Builder
	if s[pos] == '\'' {
		for i := pos + 1; i < len(s); i++ {
			if s[i] != '\'' {
				b.WriteByte(s[i])
				continue
			}
			if i+1 < len(s) && s[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			return b.String(), i + 1, nil
		}
		return "", 0, keyErrorf(pos, "the text in single quotes has no closing ' (a ' inside is written '')")
	}
	for i := pos + 1; i < len(s); {
		switch s[i] {
		case '"':
			return b.String(), i + 1, nil
		case '\\':
			n, err := readEscape(s, i, &b, true)
			if err != nil {
				return "", 0, err
			}
			i += n
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return "", 0, keyErrorf(pos, "the text in double quotes has no closing \"")
}

// readYAMLValue reads the value starting at s[pos]: quoted, or bare up to a
// " #" comment. A value that is only a comment is no value.
func readYAMLValue(s string, pos int) (string, bool, *keyError) {
	if c := s[pos]; c == '\'' || c == '"' {
		v, end, err := readYAMLQuoted(s, pos)
		if err != nil {
			return "", false, err
		}
		if rest := strings.TrimLeft(s[end:], " \t"); rest != "" && rest[0] != '#' {
			return "", false, keyErrorf(end, "unexpected %q after the closing quote", excerpt(rest))
		}
		return v, true, nil
	}
	if s[pos] == '#' {
		return "", false, nil
	}
	v := s[pos:]
	for i := 1; i < len(v); i++ {
		if v[i] == '#' && (v[i-1] == ' ' || v[i-1] == '\t') {
			v = v[:i]
			break
		}
	}
	return strings.TrimRight(v, " \t"), true, nil
}

func leadingLetters(s string) string {
	i := 0
	for i < len(s) && ('a' <= s[i] && s[i] <= 'z' || 'A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	return s[:i]
}

func isLetters(s string) bool { return s != "" && leadingLetters(s) == s }

// excerpt shortens text quoted in an error message.
func excerpt(s string) string {
	const maxExcerpt = 40 // enough to recognise the spot; a line can be long
	return Clip(s, maxExcerpt)
}

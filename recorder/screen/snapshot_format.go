package screen

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxSnapshotNameUnits is the longest name written into an element line, in
// UTF-16 code units. Playwright drops longer names from the line entirely (a
// 2,000-character name is noise, not a handle); Trailpin does the same so
// both tools give the same line.
const maxSnapshotNameUnits = 900

// snapshotIndent is the indent per level of nesting.
const snapshotIndent = "  "

// FormatSnapshot writes snapshot nodes as text: the nodes RenderSnapshot
// builds from a screen, or nodes read by ParseSnapshot. FormatSnapshot of the
// nodes ParseSnapshot read from Playwright's output, with o.Quoted, gives
// that output back; with the zero options it gives the unquoted form to show
// a model.
func FormatSnapshot(nodes []*SnapshotNode, o SnapshotOptions) string {
	if o.Interactive {
		nodes = interactiveOnly(nodes)
	}
	var b strings.Builder
	for _, n := range nodes {
		writeSnapshotNode(&b, n, 0, o)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func writeSnapshotNode(b *strings.Builder, n *SnapshotNode, depth int, o SnapshotOptions) {
	if o.Depth > 0 && depth > o.Depth {
		return
	}
	indent := indentFor(depth)
	if n.IsText() {
		b.WriteString(indent + "- text: " + yamlValue(n.Text) + "\n")
		return
	}
	b.WriteString(indent + "- " + snapshotKey(n, o.Quoted))
	if text, ok := soleText(n); ok {
		b.WriteString(": " + yamlValue(text) + "\n")
		return
	}
	atLimit := o.Depth > 0 && depth == o.Depth
	if (len(n.Children) == 0 || atLimit) && n.URL == "" && len(n.Props) == 0 {
		b.WriteString("\n")
		return
	}
	b.WriteString(":\n")
	inner := indentFor(depth + 1)
	if n.URL != "" {
		b.WriteString(inner + "- /url: " + yamlValue(n.URL) + "\n")
	}
	for _, p := range n.Props {
		b.WriteString(inner + "- /" + p.Name + ": " + yamlValue(p.Value) + "\n")
	}
	for _, c := range n.Children {
		writeSnapshotNode(b, c, depth+1, o)
	}
}

// indents holds the indent of the first levels, so most lines need no
// allocation for it.
var indents = func() [16]string {
	var in [16]string
	for i := range in {
		in[i] = strings.Repeat(snapshotIndent, i)
	}
	return in
}()

func indentFor(depth int) string {
	if depth < len(indents) {
		return indents[depth]
	}
	return strings.Repeat(snapshotIndent, depth)
}

// soleText returns the text an element line carries after its colon: its only
// child, when that is text and the element has no properties.
func soleText(n *SnapshotNode) (string, bool) {
	if len(n.Children) != 1 || !n.Children[0].IsText() || n.URL != "" || len(n.Props) != 0 {
		return "", false
	}
	return n.Children[0].Text, true
}

// snapshotKey writes an element's role, name and marks. Quoted writes the
// key exactly as Playwright does, wrapped in YAML single quotes where YAML
// would misread it. Unquoted never wraps: a name Playwright would write as
// /…/ inside a wrapped key goes in double quotes instead, so the line still
// reads one way only, and names escape DEL, C1 controls and U+2028/U+2029
// too (as \uXXXX), so nothing invisible or line-breaking reaches a model.
func snapshotKey(n *SnapshotNode, quoted bool) string {
	if quoted {
		key := buildSnapshotKey(n, true, false)
		if yamlNeedsQuotes(key) {
			return "'" + strings.ReplaceAll(key, "'", "''") + "'"
		}
		return key
	}
	key := buildSnapshotKey(n, true, true)
	if yamlNeedsQuotes(key) && isSlashName(n.Name) {
		return buildSnapshotKey(n, false, true)
	}
	return key
}

func buildSnapshotKey(n *SnapshotNode, allowSlashName, escapeInvisible bool) string {
	var b strings.Builder
	b.WriteString(n.Role)
	if n.Name != "" && utf16Len(n.Name) <= maxSnapshotNameUnits {
		b.WriteByte(' ')
		if allowSlashName && isSlashName(n.Name) {
			b.WriteString(n.Name)
		} else {
			b.WriteString(jsonQuote(n.Name, escapeInvisible))
		}
	}
	switch n.Checked {
	case "mixed":
		b.WriteString(" [checked=mixed]")
	case "true":
		b.WriteString(" [checked]")
	}
	if n.Disabled {
		b.WriteString(" [disabled]")
	}
	if n.Expanded {
		b.WriteString(" [expanded]")
	}
	if n.Active {
		b.WriteString(" [active]")
	}
	switch n.Invalid {
	case "grammar", "spelling":
		b.WriteString(" [invalid=" + n.Invalid + "]")
	case "true":
		b.WriteString(" [invalid]")
	}
	if n.Level > 0 {
		b.WriteString(" [level=" + strconv.Itoa(n.Level) + "]")
	}
	switch n.Pressed {
	case "mixed":
		b.WriteString(" [pressed=mixed]")
	case "true":
		b.WriteString(" [pressed]")
	}
	if n.Selected {
		b.WriteString(" [selected]")
	}
	if n.Ref != "" {
		b.WriteString(" [ref=" + n.Ref + "]")
	}
	for _, a := range n.Extra {
		if a.Value == "" {
			b.WriteString(" [" + a.Name + "]")
		} else {
			b.WriteString(" [" + a.Name + "=" + a.Value + "]")
		}
	}
	return b.String()
}

// isSlashName reports whether Playwright writes the name bare, as /…/, rather
// than in JSON quotes. A name holding a line break never is: written bare it
// would split the line (Playwright's names never hold one; they are
// whitespace-normalised).
func isSlashName(name string) bool {
	return strings.HasPrefix(name, "/") && strings.HasSuffix(name, "/") && !strings.ContainsAny(name, "\n\r")
}

// jsonQuote writes s as JavaScript's JSON.stringify does: only the quote, the
// backslash and C0 controls are escaped, so DEL, U+0080–U+009F and U+2028
// stay as they are (which is why Playwright then needs YAML quotes), unless
// escapeInvisible asks for those to be escaped as well.
func jsonQuote(s string, escapeInvisible bool) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			// Invalid UTF-8 cannot be written in JSON; it becomes the
			// replacement character, as encoding/json makes it.
			b.WriteRune(utf8.RuneError)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteString(hex2(byte(r)))
		case escapeInvisible && (r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029):
			b.WriteString(`\u` + hex2(byte(r>>8)) + hex2(byte(r)))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// yamlValue writes a value (text after a colon, a property) the way
// Playwright does: bare when YAML reads it back unchanged, otherwise in
// double quotes with backslash escapes. Values are never single-quoted.
func yamlValue(s string) string {
	if !yamlNeedsQuotes(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r <= 0x1f || (r >= 0x7f && r <= 0x9f):
			b.WriteString(`\x` + hex2(byte(r)))
		default:
			// Invalid UTF-8 is copied byte for byte: it reads back as it was.
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

// yamlWords are plain scalars YAML reads as booleans or null, compared in
// lower case as Playwright does.
var yamlWords = map[string]bool{
	"y": true, "n": true, "yes": true, "no": true, "true": true, "false": true,
	"on": true, "off": true, "null": true,
}

// yamlNeedsQuotes reports whether YAML would misread s written bare, by
// Playwright's rules (yamlStringNeedsQuotes in playwright-core 1.62.1), so
// both tools quote the same strings.
func yamlNeedsQuotes(s string) bool {
	if s == "" {
		return true
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	if isJSSpace(first) || isJSSpace(last) {
		return true
	}
	if strings.ContainsAny(s, "\n\r{}`") {
		return true
	}
	if strings.ContainsRune("-&*],?!>|@\"'#%[", first) {
		return true
	}
	prev := rune(-1)
	for _, r := range s {
		if (r <= 0x08 || r == 0x0b || r == 0x0c || (r >= 0x0e && r <= 0x1f)) || (r >= 0x7f && r <= 0x9f) {
			return true
		}
		if r == '#' && prev >= 0 && isJSSpace(prev) {
			return true
		}
		if prev == ':' && isJSSpace(r) {
			return true
		}
		prev = r
	}
	if last == ':' {
		return true
	}
	return isJSNumber(s) || yamlWords[strings.ToLower(s)]
}

// isJSSpace reports whether r matches \s in a JavaScript regular expression.
// It differs from unicode.IsSpace: U+FEFF is a space, U+0085 is not.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// isJSNumber reports whether JavaScript's Number(s) is a number, not NaN:
// decimals with optional sign, fraction and exponent, Infinity, and 0x, 0o,
// 0b integers. s has no surrounding space here (that alone needs quotes).
func isJSNumber(s string) bool {
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			return allIn(s[2:], "0123456789abcdefABCDEF")
		case 'o', 'O':
			return allIn(s[2:], "01234567")
		case 'b', 'B':
			return allIn(s[2:], "01")
		}
	}
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	if s == "Infinity" {
		return true
	}
	i, digits := 0, 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == exp {
			return false
		}
	}
	return i == len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func allIn(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) < 0 {
			return false
		}
	}
	return s != ""
}

// utf16Len is the length of s as JavaScript counts it.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

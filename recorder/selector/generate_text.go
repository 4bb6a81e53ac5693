package selector

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/trailpin/trailpin/recorder/screen"
)

// Text pinning.
//
// A pinned text is exact: "iPhone 17" never matches "iPhone 18". The one
// tolerance (docs/selectors.md) is a trailing item-count line: when a text has two
// lines or more and its last line is a count of items, the selector becomes a
// textRegex that is the exact text except for the number:
//
//	Review sale      →  ^Review sale\n\d+ items?$
//	3 items
//
// The form is: "^", each earlier line through regexp.QuoteMeta, joined with
// the two-character RE2 escape \n (never a raw line break, so the pattern
// reads on one line in a trail), then \n, the count line with its digits as
// \d+ and its noun as item or Item followed by s?, wrapped in \( \) when the
// count line was in parentheses, then "$". A text that is only a count line
// ("3 items" alone) is the value being checked, so it is pinned exactly.

// itemCountLine is a count of items on a line of its own: "3 items",
// "1 item", "(12 Items)".
var itemCountLine = regexp.MustCompile(`^(\()?\d+ ([Ii])tems?(\))?$`)

// PinText returns the selector properties that pin text: Text, or TextRegex
// in the count-tolerant form.
func PinText(text string) (exact, pattern string) {
	nl := strings.LastIndexByte(text, '\n')
	if nl < 0 {
		return text, ""
	}
	m := itemCountLine.FindStringSubmatch(text[nl+1:])
	if m == nil || (m[1] == "") != (m[3] == "") {
		return text, ""
	}
	var b strings.Builder
	b.WriteByte('^')
	for i, line := range strings.Split(text[:nl], "\n") {
		if i > 0 {
			b.WriteString(`\n`)
		}
		b.WriteString(regexp.QuoteMeta(line))
	}
	b.WriteString(`\n`)
	if m[1] != "" {
		b.WriteString(`\(`)
	}
	b.WriteString(`\d+ ` + m[2] + `tems?`)
	if m[3] != "" {
		b.WriteString(`\)`)
	}
	b.WriteByte('$')
	return "", b.String()
}

// aNumber is a number as text shows it: digits, with the separators of
// thousands and decimals inside ("2", "1,250", "42.00").
var aNumber = regexp.MustCompile(`\d+(?:[.,]\d+)*`)

// AnyNumber returns the pattern that reads a one-line text with any number
// where it holds one: "Cart 2 items" gives `^Cart \d+(?:[.,]\d+)* items?$`,
// which also reads "Cart 1 item" and "Cart 12 items". A word right after a
// number loses its plural s to the pattern. It returns "" for a text
// without a number or on several lines (PinText's count-tolerant form
// covers a count on a line of its own).
func AnyNumber(text string) string {
	if strings.ContainsRune(text, '\n') || !aNumber.MatchString(text) {
		return ""
	}
	var b strings.Builder
	b.WriteByte('^')
	last := 0
	for _, m := range aNumber.FindAllStringIndex(text, -1) {
		b.WriteString(regexp.QuoteMeta(text[last:m[0]]))
		b.WriteString(`\d+(?:[.,]\d+)*`)
		last = m[1]
		// " items" after the number: the s may come and go with the count.
		if rest := text[last:]; strings.HasPrefix(rest, " ") {
			word := rest[1:]
			if i := strings.IndexFunc(word, func(r rune) bool { return !unicode.IsLetter(r) }); i >= 0 {
				word = word[:i]
			}
			if len(word) > 2 && strings.HasSuffix(word, "s") {
				b.WriteString(regexp.QuoteMeta(" " + word[:len(word)-1]))
				b.WriteString("s?")
				last += 1 + len(word)
			}
		}
	}
	b.WriteString(regexp.QuoteMeta(text[last:]))
	b.WriteByte('$')
	return b.String()
}

// Row titles.
//
// Duplicate controls in list rows ("Delete" in every row) are told apart by
// the row they sit in, and a row is named by its title: the first thing a
// person reads in it. rowTitle walks down from the row through wrappers and
// multi-line blocks to the first single-line piece of text: the heading of a
// card, the first cell of a table row, the first span of an inline row. The
// scope pins the row's text by that title:
//
//	{role: listitem, textRegex: '^iPhone 17\n'}   the title is the row's first line
//	{role: row, textRegex: '^iPhone 17\s'}        the title is followed on the same line
//	{role: listitem, text: 'iPhone 17'}           the title is all of the row's text
//
// The title itself is exact; only what follows it may change (price, count,
// buttons), which is the point: the row is found by what it is about.
//
// Decoration is not a title: a checkbox drawing ☐ from its ::after, a bullet,
// a × (IsDecoration) is passed over, so the row of "☐ / Feed the cat" is
// titled "Feed the cat" and is found by it when the box shows ☑.
func RowTitle(m *Matcher, row int32) string {
	n := m.nodes[row]
	cur := n
	for {
		var first *screen.Node
		for _, c := range cur.Children {
			if c.Text != "" && !IsDecoration(c) && (c.IsText() || c.Visible || hasVisible(c)) {
				first = c
				break
			}
		}
		if first == nil {
			return ""
		}
		if first.Text == cur.Text || strings.Contains(first.Text, "\n") {
			if first.IsText() {
				line, _, _ := strings.Cut(first.Text, "\n")
				return line
			}
			cur = first
			continue
		}
		return first.Text
	}
}

// Container titles.
//
// A plain container (a <form>, a <div> grouping fields, a section under its
// heading) has no role or name a selector can use, but a person tells it
// apart by the heading, legend or label it opens with: the form that starts
// "Shipping", the group that starts "Radio". ContainerTitle is that line:
// the first single-line text read in the container that holds no control
// and comes after no control (the label of a field before its field, not
// the text after a checkbox, which is that checkbox's name), a few words long
// (maxAdjacentText): a sentence, a paragraph or a block of content is not a
// name, and pinning one would break when the content changes.

// ContainerTitle returns the title of the plain container at pos, and
// whether it comes from a heading, a legend or a caption; "" when the
// container opens with no such line.
func ContainerTitle(m *Matcher, pos int32) (string, bool) {
	title, _, heading := containerTitle(m, pos)
	return title, heading
}

// containerTitle is ContainerTitle with the node the title is read from.
func containerTitle(m *Matcher, pos int32) (string, *screen.Node, bool) {
	cur := m.nodes[pos]
	for {
		var first *screen.Node
		afterControl := false
		for _, c := range cur.Children {
			if c.Text != "" && !IsDecoration(c) && (c.IsText() || c.Visible || hasVisible(c)) {
				first = c
				break
			}
			afterControl = afterControl || !c.IsText() && holdsControl(c)
		}
		if first == nil || afterControl {
			return "", nil, false // the text after a control is its label
		}
		if first.IsText() {
			line, _, _ := strings.Cut(first.Text, "\n")
			if !isTitleLine(line) {
				return "", nil, false
			}
			return line, cur, false
		}
		if first.Text == cur.Text || strings.Contains(first.Text, "\n") || holdsControl(first) {
			cur = first
			continue
		}
		if !isTitleLine(first.Text) {
			return "", nil, false
		}
		return first.Text, first, first.Role == "heading" || first.Tag == "legend" || first.Tag == "caption"
	}
}

// isTitleLine reports whether a line reads as a name: a few words, not
// decoration.
func isTitleLine(line string) bool {
	return line != "" && utf8.RuneCountInString(line) <= maxAdjacentText && strings.ContainsFunc(line, isWordRune)
}

func hasVisible(n *screen.Node) bool {
	if n.Visible {
		return true
	}
	for _, c := range n.Children {
		if !c.IsText() && hasVisible(c) {
			return true
		}
	}
	return false
}

// IsDecoration reports whether n's text is decoration rather than words: text
// an input draws from its own ::before / ::after (an input has no content, so
// all its text is generated: the ☐ or ☑ of a styled checkbox, which changes
// with its state), or text with no letter and no digit (☐, ×, •, ✓).
func IsDecoration(n *screen.Node) bool {
	return n.Text != "" && (HasGeneratedText(n) || !strings.ContainsFunc(n.Text, isWordRune))
}

// HasGeneratedText reports whether n carries text that only its own
// generated content draws: an input showing a glyph from ::after. That text
// is the control's decoration: it names nothing and is not pinned.
func HasGeneratedText(n *screen.Node) bool { return n.Tag == "input" && n.Text != "" }

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// rowScopeText returns the text property that pins a row by its title: the
// title at the start of the row's text, or, when decoration comes before it
// (a checkbox's glyph on a line of its own), the title as a whole line, so
// the glyph may change.
func rowScopeText(rowText, title string) (exact, pattern string) {
	if title == "" {
		return "", ""
	}
	if !strings.HasPrefix(rowText, title) {
		if slices.Contains(strings.Split(rowText, "\n"), title) {
			return "", "(?m)^" + regexp.QuoteMeta(title) + "$"
		}
		return "", ""
	}
	rest := rowText[len(title):]
	switch {
	case rest == "":
		return title, ""
	case rest[0] == '\n':
		return "", "^" + regexp.QuoteMeta(title) + `\n`
	case rest[0] == ' ':
		return "", "^" + regexp.QuoteMeta(title) + `\s`
	}
	return "", "" // the title runs on into other text: not a title
}

// Sensitive values.
//
// Sensitive holds the values the session marked sensitive. Any string the
// generator would write into a selector is checked against it: a value that
// contains one, compared without case and with whitespace collapsed, is never
// written — not as pinned text, not as a name, id or label used to tell
// elements apart, not in a within scope.
type Sensitive []string

func NewSensitive(values []string) Sensitive {
	var out Sensitive
	for _, v := range values {
		if v = strings.ToLower(screen.CollapseSpace(v)); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// Leaks reports whether s shows a sensitive value.
func (set Sensitive) Leaks(s string) bool {
	if len(set) == 0 || s == "" {
		return false
	}
	s = strings.ToLower(screen.CollapseSpace(s))
	for _, v := range set {
		if strings.Contains(s, v) {
			return true
		}
	}
	return false
}

// LeaksFrom reports whether any string in sel shows a sensitive value.
func (set Sensitive) LeaksFrom(sel *Selector) bool {
	for s := sel; s != nil; s = s.Within {
		for _, v := range []string{s.Name, s.Text, s.TextRegex, s.TestID, s.ID, s.Label, s.Placeholder} {
			if set.Leaks(v) || set.Leaks(unquoteMetaForLeakCheck(v)) {
				return true
			}
		}
	}
	return false
}

// unquoteMetaForLeakCheck undoes regexp.QuoteMeta and the \n escape, so a
// sensitive value hidden behind escapes (a\.b@example\.com) is still seen.
func unquoteMetaForLeakCheck(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == 'n' {
				b.WriteByte('\n')
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

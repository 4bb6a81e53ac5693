package report

import (
	"strings"
)

// Text from the app (names, texts, URLs, console output, errors that quote
// them) goes into trace pages through these three functions only, so that
// no page can turn into markup: a backtick cannot close a code span, a pipe
// cannot add a table cell, <script> and <!-- stay text, # cannot make a
// heading, and a line break cannot start a new block.

// lineBreakMark shows where app text had a line break, in places where a
// break would end the Markdown block.
const lineBreakMark = " ⏎ "

// mdText escapes prose: every character Markdown could read as markup is
// backslash-escaped, line breaks become lineBreakMark, and other control
// characters are dropped.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case strings.ContainsRune("\\`*_[]<>|&#~", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(lineBreakMark)
		case r == '\r':
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// codeSpan writes s as inline code: the fence is one backtick longer than
// the longest run of backticks in s, padded when s starts or ends with one.
// In a table cell, pipes are escaped as GFM requires even inside code.
func codeSpan(s string, inTable bool) string {
	s = oneLine(s)
	if s == "" {
		return "(empty)"
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.Trim(s, " ") == "" {
		pad = " "
	}
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return fence + pad + s + pad + fence
}

// fencedBlock writes s as a fenced code block whose fence is longer than any
// run of backticks in s, so no line of s can close it.
func fencedBlock(b *strings.Builder, info, s string) {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			return -1
		}
		return r
	}, s)
	fence := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	b.WriteString(fence + info + "\n")
	if s = strings.TrimRight(s, "\n"); s != "" {
		b.WriteString(s + "\n")
	}
	b.WriteString(fence + "\n")
}

func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

package selector

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// String writes s on one line, properties in a fixed order, for messages and
// logs: {role: button, name: "Add to cart", within: {testId: cart}}. Values
// that are plain words stay bare; anything else is Go-quoted, so line breaks
// and regex escapes show. It is not the trail file form.
func (s Selector) String() string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	put := func(key, value string) {
		if value == "" {
			return
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(key)
		b.WriteString(": ")
		if selectorBareWord.MatchString(value) {
			b.WriteString(value)
		} else {
			b.WriteString(strconv.Quote(value))
		}
	}
	put("role", s.Role)
	put("name", s.Name)
	put("text", s.Text)
	put("textRegex", s.TextRegex)
	put("testId", s.TestID)
	put("id", s.ID)
	put("label", s.Label)
	put("placeholder", s.Placeholder)
	if s.Within != nil {
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString("within: ")
		b.WriteString(s.Within.String())
	}
	if s.Index != nil {
		if !first {
			b.WriteString(", ")
		}
		b.WriteString("index: ")
		b.WriteString(strconv.Itoa(*s.Index))
	}
	b.WriteByte('}')
	return b.String()
}

var selectorBareWord = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// Regexes are compiled once per distinct pattern and shared: replay matches
// the same selectors on every capture while it waits.
var (
	selectorRegexMu    sync.Mutex
	selectorRegexCache = map[string]*regexp.Regexp{}
)

// selectorRegexCacheLimit bounds the cache: a long review session can see many
// patterns, and a recompile costs microseconds, so forgetting all is fine.
const selectorRegexCacheLimit = 4096

func compileSelectorRegex(pattern string) (*regexp.Regexp, error) {
	selectorRegexMu.Lock()
	re, ok := selectorRegexCache[pattern]
	selectorRegexMu.Unlock()
	if ok {
		return re, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	selectorRegexMu.Lock()
	if len(selectorRegexCache) >= selectorRegexCacheLimit {
		clear(selectorRegexCache)
	}
	selectorRegexCache[pattern] = re
	selectorRegexMu.Unlock()
	return re, nil
}

package review

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// What the engine reads from a step's intent. The recorder cannot see
// intent, but the words a person or an agent gave the step say much of it:
// "the total is $42.00" names a value; "the Pay button is shown" asks only
// that the button be there.

// An intentCue is what the intent says about the step's claim.
type intentCue struct {
	// value: the intent names the element's value, or a volatile fragment
	// of it ("$42.00", "3 items"), or says it checks what the text reads.
	value bool
	// presence: the intent asks that the element be there, and names no
	// value.
	presence bool
	// mentionsText: the intent holds the element's text, or most of its
	// words.
	mentionsText bool
	// named lists the volatile fragments of the element's text that the
	// intent names, by the fragment itself or by its number ("only 3 are
	// left" names "3 left"; "finds one result" names "1 result").
	named []Volatile
}

// numberWords read a count written in words as its digits.
var numberWords = map[string]string{
	"no": "0", "zero": "0", "one": "1", "a": "1", "an": "1", "single": "1", "two": "2", "three": "3", "four": "4",
	"five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
}

var digitRun = regexp.MustCompile(`\d+(?:[.,:]\d+)*`)

// namesFragment reports whether intent (lower case) names the volatile
// fragment v: holds it, or holds its number as a word of its own (in
// digits, or for a count in words before the same noun).
func namesFragment(intent string, v Volatile) bool {
	frag := strings.ToLower(v.Fragment)
	if strings.Contains(intent, frag) {
		return true
	}
	words := strings.FieldsFunc(intent, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != ',' && r != ':'
	})
	for i, w := range words {
		words[i] = strings.TrimRight(w, ".,:")
	}
	for _, n := range digitRun.FindAllString(frag, -1) {
		if slices.Contains(words, n) {
			return true
		}
		if v.Kind != VolatileCount {
			continue
		}
		// "one result" for "1 result": the number in words, then the
		// fragment's noun.
		rest := strings.Fields(strings.TrimSpace(strings.SplitN(frag, n, 2)[1]))
		for i, w := range words {
			if numberWords[w] == n && len(rest) > 0 && i+1 < len(words) && strings.TrimSuffix(words[i+1], "s") == strings.TrimSuffix(rest[0], "s") {
				return true
			}
		}
	}
	return false
}

// presenceWords say that an element is there, not what it reads.
var presenceWords = regexp.MustCompile(`(?i)\b(?:is|are|gets|get|stays?|remains?)\s+(?:still\s+)?(?:shown|visible|there|displayed|present|available|offered|listed)\b|\bappears?\b|\bshows? up\b|\bexists?\b|\bthere is\b|\bcan see\b|\bsee (?:the|a|an)\b|\bhas (?:a|an) \w+ (?:button|link|field|menu)\b`)

// valueWords say that the check is about what the text reads.
var valueWords = regexp.MustCompile(`(?i)\b(?:reads|says|equals|shows the (?:text|value|amount|price|total|count|number)|is now|changes? to|becomes?|amounts? to|comes? to|costs)\b|\b(?:total|price|amount|subtotal|balance|count|number|sum|value|quantity)\s+(?:is|are|shows?|reads?|says?)\b|["“”]`)

func readIntent(intent string, m *Menu) intentCue {
	var c intentCue
	low := strings.ToLower(intent)
	for _, v := range m.Volatile {
		if v.Kind != VolatileGeneratedID && namesFragment(low, v) {
			c.value = true
			c.named = append(c.named, v)
		}
	}
	// "The total is shown" asks for presence although "total is" reads
	// like a value: words of presence win over words of value, a value
	// named in the intent over both.
	presence := presenceWords.MatchString(intent)
	if valueWords.MatchString(intent) && !presence {
		c.value = true
	}
	// An intent that names the element but leaves out the part of its
	// text that changes ("open the cart" for "Cart 2 items", "the payment
	// is pending" beside the time it was updated) is about the element,
	// not about that text as it reads now.
	c.mentionsText = mentions(low, strings.ToLower(m.Text)) && (c.value || !slices.ContainsFunc(m.Volatile, func(v Volatile) bool { return v.Kind != VolatileGeneratedID }))
	c.presence = presence && !c.value
	return c
}

// mentions reports whether intent holds text, or at least half of its
// words of three letters or more (and one at least).
func mentions(intent, text string) bool {
	text = strings.TrimSpace(text)
	if text == "" {
		return false
	}
	if strings.Contains(intent, strings.ReplaceAll(text, "\n", " ")) {
		return true
	}
	words, found := 0, 0
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) < 3 {
			continue
		}
		words++
		if strings.Contains(intent, w) {
			found++
		}
	}
	return words > 0 && 2*found >= words
}

package review

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
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
	// role: the intent calls the element by its role ("the Checkout
	// heading is shown", "the Pay button"): the kind of element is part of
	// the claim.
	role bool
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
	if !strings.ContainsFunc(frag, unicode.IsDigit) {
		// Words the session saw change ("Pending"), named as words of
		// their own: "a" is not named by "add a card".
		return containsWords(intent, frag)
	}
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

// changeWords say that a value moved, which names it without quoting it:
// "the price went up", "the total has changed", "the status is updated".
// The noun is what changed; kindNouns say which volatile kinds it names.
var changeWords = regexp.MustCompile(`(?i)\b(price|prices|total|subtotal|amount|cost|sum|balance|fee|count|number|quantity|time|timestamp|date|status|state|value|text|label)\b(?:\s+\w+){0,2}?\s+(?:(?:has|have|is|was|were|had)\s+)?(?:went|goes|go|gone|going)\s+(?:up|down)\b|\b(price|prices|total|subtotal|amount|cost|sum|balance|fee|count|number|quantity|time|timestamp|date|status|state|value|text|label)\b(?:\s+\w+){0,2}?\s+(?:(?:has|have|is|was|were|had)\s+)?(?:changed|changes|increased|increases|decreased|decreases|rose|rises|risen|dropped|drops|fell|falls|updated|updates|moved on|moves on|ticks|ticked|is different|differs)\b`)

// kindNouns maps a noun of changeWords to the volatile kinds it names; a
// noun not listed (status, value, text, …) names whatever changes.
var kindNouns = map[string][]VolatileKind{
	"price": {VolatilePrice}, "prices": {VolatilePrice}, "total": {VolatilePrice, VolatileNumber, VolatileCount, VolatileChanging},
	"subtotal": {VolatilePrice}, "amount": {VolatilePrice, VolatileNumber, VolatileChanging}, "cost": {VolatilePrice},
	"sum": {VolatilePrice, VolatileNumber, VolatileChanging}, "balance": {VolatilePrice, VolatileNumber, VolatileChanging}, "fee": {VolatilePrice},
	"count": {VolatileCount, VolatileNumber, VolatileChanging}, "number": {VolatileCount, VolatileNumber, VolatileChanging},
	"quantity": {VolatileCount, VolatileNumber, VolatileChanging},
	"time":     {VolatileTime, VolatileChanging}, "timestamp": {VolatileTime, VolatileDate, VolatileChanging}, "date": {VolatileDate, VolatileChanging},
}

// namedByChange lists the volatile fragments of vs that intent names by
// saying that they changed ("the price went up" names $56.50).
func namedByChange(intent string, vs []Volatile) []Volatile {
	var out []Volatile
	for _, sm := range changeWords.FindAllStringSubmatch(intent, -1) {
		noun := strings.ToLower(sm[1] + sm[2])
		kinds, specific := kindNouns[noun]
		for _, v := range vs {
			if v.Kind == VolatileGeneratedID || slices.Contains(out, v) {
				continue
			}
			if !specific || slices.Contains(kinds, v.Kind) {
				out = append(out, v)
			}
		}
	}
	return out
}

// containsWords reports whether s holds words as words of their own: not
// inside a longer word.
func containsWords(s, words string) bool {
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for from := 0; ; {
		i := strings.Index(s[from:], words)
		if i < 0 {
			return false
		}
		at, end := from+i, from+i+len(words)
		before, _ := utf8.DecodeLastRuneInString(s[:at])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (at == 0 || !isWord(before)) && (end == len(s) || !isWord(after)) {
			return true
		}
		from = at + 1
	}
}

func readIntent(intent string, m *Menu) intentCue {
	var c intentCue
	low := strings.ToLower(intent)
	for _, v := range m.Volatile {
		if v.Kind != VolatileGeneratedID && namesFragment(low, v) {
			c.value = true
			c.named = append(c.named, v)
		}
	}
	for _, v := range namedByChange(intent, m.Volatile) {
		c.value = true
		if !slices.Contains(c.named, v) {
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
	if m.Element != nil {
		c.role = namesRole(low, m.Element.Role)
	}
	return c
}

// roleWords are the words a person calls an element of a role by.
var roleWords = map[string][]string{
	"heading":  {"heading", "title", "headline"},
	"button":   {"button"},
	"link":     {"link"},
	"checkbox": {"checkbox", "check box", "tick box"},
	"radio":    {"radio", "radio button"},
	"tab":      {"tab"},
	"row":      {"row"},
	"cell":     {"cell"},
	"dialog":   {"dialog", "modal"},
	"img":      {"image", "picture", "logo"},
	"table":    {"table"},
	"textbox":  {"field", "text box", "input"},
	"combobox": {"dropdown", "drop-down", "select", "picker"},
}

// namesRole reports whether intent (lower case) calls an element of role
// by one of the role's words.
func namesRole(intent, role string) bool {
	return slices.ContainsFunc(roleWords[role], func(w string) bool { return containsWords(intent, w) })
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

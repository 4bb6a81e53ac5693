package agenttest

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// A PolicyOption changes what the generic policy does, to make the agent
// misbehave on demand.
type PolicyOption func(*policy)

// TapWrong makes the policy tap the control that matches the intent
// least (the wrong element) instead of the best one.
func TapWrong() PolicyOption { return func(p *policy) { p.wrong = true } }

// CheckChange makes the policy call assertChange with args right after
// each of its taps (once per tap), before it goes on; keys args leaves
// out are sent as null, as the tool's strict schema has them.
func CheckChange(args map[string]any) PolicyOption {
	return func(p *policy) { p.change = args }
}

// ChangeArgs is args with every key of assertChange, those it leaves out
// null.
func ChangeArgs(args map[string]any) map[string]any {
	full := map[string]any{}
	for _, k := range changeKeys {
		full[k] = args[k]
	}
	return full
}

// changeKeys are the keys of assertChange's arguments.
var changeKeys = []string{"changed", "mustInclude", "mustNotInclude", "only", "maxChanges", "becameVisible", "becameCovered",
	"url", "exists", "notCovered", "settleMs", "retryMs", "keepBaseline"}

// Matcher is a change matcher of assertChange by role, name and text
// (empty ones null), with no states.
func Matcher(kind, role, name, text string) map[string]any {
	orNull := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	return map[string]any{"kind": orNull(kind), "ref": nil, "role": orNull(role), "name": orNull(name), "text": orNull(text), "to": nil}
}

type policy struct {
	wrong bool
	// change: assertChange's arguments after each tap, nil for none.
	change map[string]any
}

// Policy is the generic policy, for modeltest.WithPolicy: each request
// gets the next step toward the intent on the screen it shows.
func Policy(opts ...PolicyOption) func(modeltest.Request) modeltest.Reply {
	var p policy
	for _, o := range opts {
		o(&p)
	}
	return func(r modeltest.Request) modeltest.Reply { return p.answer(readStep(r)) }
}

// tapRoles are the roles the policy taps.
var tapRoles = map[string]bool{
	"button": true, "link": true, "menuitem": true, "menuitemcheckbox": true, "menuitemradio": true,
	"tab": true, "checkbox": true, "radio": true, "switch": true, "option": true, "treeitem": true,
}

// fieldRoles are the roles the policy types into.
var fieldRoles = map[string]bool{"textbox": true, "searchbox": true, "spinbutton": true, "combobox": true}

func (p policy) answer(st step) modeltest.Reply {
	if !st.parsed {
		return modeltest.Call("fail", map[string]string{"reason": "the request holds no screen the policy can read", "kind": "blocked"})
	}
	elems := elements(st.screen)
	if p.change != nil && len(st.calls) > 0 && st.calls[len(st.calls)-1].name == "tap" {
		return modeltest.Call("assertChange", ChangeArgs(p.change))
	}
	if t, ok := shownExpectation(st); ok {
		return modeltest.Call("done", map[string]string{"summary": "the screen shows " + quote(t)})
	}
	if len(st.expect) > 0 && !st.full && st.actedSinceFullLook() {
		return modeltest.Call("snapshot", map[string]bool{"full": true})
	}
	if ref, text, ok := p.nextTyping(st, elems); ok {
		return modeltest.Call("type", map[string]string{"ref": ref, "text": text})
	}
	if len(st.expect) == 0 && st.tapped() > 0 {
		return modeltest.Call("done", map[string]string{"summary": "tapped the control that matches the goal"})
	}
	if ref, ok := p.nextTap(st, elems); ok {
		return modeltest.Call("tap", map[string]string{"ref": ref})
	}
	if len(st.expect) == 0 && st.typed() > 0 {
		return modeltest.Call("done", map[string]string{"summary": "typed the values the goal names"})
	}
	if len(st.expect) > 0 && st.tapped()+st.typed() > 0 && st.trailingLooks() < maxLooks {
		// The app may still be answering the last action: look again.
		return modeltest.Call("snapshot", map[string]bool{"full": true})
	}
	reason := "no control on the screen matches the goal"
	if len(st.expect) > 0 {
		reason = "the screen does not show " + quote(st.expect[0]) + " and no control left matches the goal"
	}
	return modeltest.Call("fail", map[string]string{"reason": reason, "kind": "blocked"})
}

// actedSinceFullLook: the policy has not read the screen in full since
// its last action (or ever).
func (st step) actedSinceFullLook() bool {
	for i := len(st.calls) - 1; i >= 0; i-- {
		if st.calls[i].name == "snapshot" {
			if full, _ := st.calls[i].args["full"].(bool); full {
				return false
			}
		}
		if st.calls[i].name != "snapshot" {
			return true
		}
	}
	return true
}

// maxLooks is how many times in a row the policy looks at the screen for
// the end state after its last action before it gives up.
const maxLooks = 3

// trailingLooks counts the snapshot calls since the last other call.
func (st step) trailingLooks() int {
	n := 0
	for i := len(st.calls) - 1; i >= 0 && st.calls[i].name == "snapshot"; i-- {
		n++
	}
	return n
}

func (st step) count(tool string) int {
	n := 0
	for _, c := range st.calls {
		if c.name == tool {
			n++
		}
	}
	return n
}

func (st step) tapped() int { return st.count("tap") }
func (st step) typed() int  { return st.count("type") }

// shownExpectation is the first text of the end state the screen shows.
func shownExpectation(st step) (string, bool) {
	var texts []string
	walk(st.screen, func(n *screen.SnapshotNode) {
		texts = append(texts, n.Name, n.Text)
	})
	for _, e := range st.expect {
		for _, t := range texts {
			if t != "" && strings.Contains(t, e) {
				return e, true
			}
		}
	}
	return "", false
}

// nextTyping is the next value the intent names that is not typed yet,
// and the field it goes into.
func (p policy) nextTyping(st step, elems []*screen.SnapshotNode) (ref, text string, ok bool) {
	usedFields := map[string]bool{}
	for _, c := range st.calls {
		if c.name == "type" {
			usedFields[c.arg("ref")] = true
		}
	}
	for _, v := range values(st.intent) {
		if st.alreadyTyped(v.text) {
			continue
		}
		var best *screen.SnapshotNode
		bestScore := 0
		for _, n := range elems {
			if !fieldRoles[n.Role] || n.Disabled || usedFields[n.Ref] || fieldValue(n) == v.text {
				continue
			}
			if s := overlap(v.context, words(n.Name)); s > bestScore {
				best, bestScore = n, s
			}
		}
		if best == nil {
			for _, n := range elems {
				if fieldRoles[n.Role] && !n.Disabled && !usedFields[n.Ref] && fieldValue(n) == "" {
					best = n
					break
				}
			}
		}
		if best != nil {
			return best.Ref, v.text, true
		}
	}
	return "", "", false
}

// alreadyTyped: the agent or replay typed text before.
func (st step) alreadyTyped(text string) bool {
	for _, c := range st.calls {
		if c.name == "type" && c.arg("text") == text {
			return true
		}
	}
	for _, line := range st.performed {
		if strings.HasPrefix(line, "typed ") && strings.Contains(line, quote(text)) {
			return true
		}
	}
	return false
}

// nextTap is the control whose name best matches the intent, among those
// not tapped yet (by the agent or by replay).
func (p policy) nextTap(st step, elems []*screen.SnapshotNode) (string, bool) {
	goal := words(st.intent)
	for _, v := range values(st.intent) {
		goal = slices.DeleteFunc(goal, func(w string) bool { return slices.Contains(words(v.text), w) })
	}
	tapped := map[string]bool{}
	for _, c := range st.calls {
		if c.name == "tap" {
			tapped[c.arg("ref")] = true
		}
	}
	var best *screen.SnapshotNode
	bestScore := 0
	for _, n := range elems {
		if !tapRoles[n.Role] || n.Disabled || n.Name == "" || tapped[n.Ref] || st.replayTapped(n.Name) {
			continue
		}
		s := overlap(goal, words(n.Name))
		switch {
		case p.wrong && s == 0 && best == nil:
			best = n
		case !p.wrong && s > bestScore:
			best, bestScore = n, s
		}
	}
	if best == nil {
		return "", false
	}
	return best.Ref, true
}

// replayTapped: a line of the hand-off says replay tapped a control of
// this name.
func (st step) replayTapped(name string) bool {
	for _, line := range st.performed {
		if strings.HasPrefix(line, "tapped ") && strings.Contains(line, quote(name)) {
			return true
		}
	}
	return false
}

// A value is a text the intent names to type, and the words around it
// that say where it goes.
type value struct {
	text    string
	context []string
}

var (
	quotedText = regexp.MustCompile(`"([^"]+)"|“([^”]+)”`)
	anyRef     = regexp.MustCompile(`\$\{(?:secret|param|user):[A-Za-z0-9_.-]+\}`)
	// A code is a word in capitals of five or more characters (SUMMER), or
	// of three or more with a digit (SAVE10); shorter words in capitals
	// are acronyms (PIN, PDF), not values.
	capsCode = regexp.MustCompile(`\b(?:[A-Z][A-Z0-9]{4,}|[A-Z][A-Z]*[0-9][A-Z0-9]*)\b`)
)

// values lists what the intent names to type, in its order: references,
// quoted text, and codes in capitals (SUMMER, SAVE10; see capsCode).
func values(intent string) []value {
	var hits []hit
	for _, m := range anyRef.FindAllStringIndex(intent, -1) {
		ref := intent[m[0]:m[1]]
		name := ref[strings.Index(ref, ":")+1 : len(ref)-1]
		hits = append(hits, hit{m[0], ref, name})
	}
	for _, m := range quotedText.FindAllStringSubmatchIndex(intent, -1) {
		s, e := m[2], m[3]
		if s < 0 {
			s, e = m[4], m[5]
		}
		hits = append(hits, hit{m[0], intent[s:e], ""})
	}
	for _, m := range capsCode.FindAllStringIndex(intent, -1) {
		if inside(m[0], hits) {
			continue
		}
		hits = append(hits, hit{m[0], intent[m[0]:m[1]], ""})
	}
	slices.SortFunc(hits, func(a, b hit) int { return a.at - b.at })
	var out []value
	for _, h := range hits {
		before := words(intent[:h.at])
		if len(before) > 3 {
			before = before[len(before)-3:]
		}
		out = append(out, value{text: h.text, context: append(words(h.name), before...)})
	}
	return out
}

// A hit is where the intent names a value; name is a reference's name,
// which says where it goes.
type hit struct {
	at   int
	text string
	name string
}

// inside: at is within a value already found.
func inside(at int, hits []hit) bool {
	for _, h := range hits {
		if at >= h.at && at < h.at+len(h.text)+2 {
			return true
		}
	}
	return false
}

// stopWords carry no meaning for matching an intent to a control.
var stopWords = map[string]bool{
	"the": true, "a": true, "an": true, "to": true, "of": true, "and": true, "in": true, "on": true,
	"for": true, "with": true, "as": true, "into": true, "it": true, "is": true, "then": true,
	"from": true, "at": true, "by": true, "my": true, "your": true, "this": true, "that": true,
	"secret": true, "param": true, "user": true,
}

// words are the meaningful lower-case words of s.
func words(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// overlap scores how well the words b (a control's name) match the words
// a (the intent's): two for each word of a that b holds, or a word that
// starts with it or that it starts with (cart, carts); one for a word of
// the same meaning in a control (synonyms: apply, redeem). Stems are not
// guessed.
func overlap(a, b []string) int {
	n := 0
	for _, w := range a {
		best := 0
		for _, x := range b {
			switch {
			case w == x || (len(w) >= 4 && strings.HasPrefix(x, w)) || (len(x) >= 4 && strings.HasPrefix(w, x)):
				best = 2
			case best == 0 && synonyms(w, x):
				best = 1
			}
		}
		n += best
	}
	return n
}

// synonymGroups are words that name the same thing on a control, as a
// person reading a renamed button would take them: a lexicon of the words
// of web apps, the same for every test.
var synonymGroups = [][]string{
	{"apply", "redeem", "use", "submit", "activate"},
	{"add", "put", "insert"},
	{"login", "signin", "log", "sign", "enter"},
	{"logout", "signout", "exit"},
	{"remove", "delete", "discard", "trash", "clear"},
	{"buy", "purchase", "pay", "checkout", "order", "place"},
	{"continue", "next", "proceed", "forward"},
	{"save", "update", "confirm", "store", "keep"},
	{"search", "find", "look", "filter"},
	{"open", "show", "view", "see", "display"},
	{"close", "dismiss", "cancel", "hide"},
	{"cart", "basket", "bag"},
	{"account", "profile", "settings", "preferences"},
}

// synonyms reports whether two different words are in one group.
func synonyms(a, b string) bool {
	for _, g := range synonymGroups {
		if slices.Contains(g, a) && slices.Contains(g, b) {
			return true
		}
	}
	return false
}

// elements are the snapshot's elements with refs, in document order.
func elements(nodes []*screen.SnapshotNode) []*screen.SnapshotNode {
	var out []*screen.SnapshotNode
	walk(nodes, func(n *screen.SnapshotNode) {
		if n.Ref != "" && !n.IsText() {
			out = append(out, n)
		}
	})
	return out
}

func walk(nodes []*screen.SnapshotNode, fn func(*screen.SnapshotNode)) {
	for _, n := range nodes {
		fn(n)
		walk(n.Children, fn)
	}
}

// fieldValue is the value a field's line shows.
func fieldValue(n *screen.SnapshotNode) string {
	for _, c := range n.Children {
		if c.IsText() {
			return c.Text
		}
	}
	return ""
}

func quote(s string) string { return strconv.Quote(s) }

// StaleTap is a reply that taps a ref no page gives out: a model that
// names an element the snapshot never showed.
func StaleTap() modeltest.Reply { return modeltest.Call("tap", map[string]string{"ref": "e999999"}) }

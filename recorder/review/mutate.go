package review

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// The mutation check of a label (docs/review.md, "The mutation check"):
// the step's page is changed twice, once in what the step must survive and
// once in what it must check, and the labelled option must still name the
// element on the first and must not on the second.
//
// A step whose label checks the value (an assertion whose right option
// pins the element's changing text, or all of a text without any) must survive every other changing text of the
// page (prices, counts, times, order numbers elsewhere) and must check its
// own: its changing fragments (or, when it has none, its whole text)
// change on the second page. Any other step (a presence assertion, an
// action, a value or state assertion, whose value is checked apart from
// the selector) must survive every changing text of the page, its
// element's own included, and must check that the element is there: it is
// taken out of the second page, and the option must then name nothing
// (or several elements), never another one.

// A MutationResult is the check of one option on one step.
type MutationResult struct {
	// Value: the label checks the element's value, so the step's check
	// is its text.
	Value bool `json:"value"`
	// Survived: the option still names the element alone on the page whose
	// other text changed (Survive lists the fragments changed).
	Survived bool     `json:"survived"`
	Survive  []string `json:"survive,omitempty"`
	// Failed: the option no longer names one element on the page where
	// what it checks changed (Check says what changed).
	Failed bool   `json:"failed"`
	Check  string `json:"check"`
}

// Holds reports whether the option passed both halves.
func (r MutationResult) Holds() bool { return r.Survived && r.Failed }

// Mutate runs the mutation check of option i of ex's menu on the step's own
// screen, with what the step checks read from its label (ex.Right).
func Mutate(ex Example, i int) (MutationResult, error) {
	m := ex.Menu
	if i < 0 || i >= len(m.Options) {
		return MutationResult{}, fmt.Errorf("option %d is not on the menu", i+1)
	}
	o := m.Options[i]
	ref := m.Element.Ref
	var own []string
	for _, v := range m.Volatile {
		if v.Kind != VolatileGeneratedID {
			own = append(own, v.Fragment)
		}
	}
	// The label says what the step checks: the value when its option pins
	// the text's changing fragments, or the whole of a text that has none;
	// text read with any number in place of its numbers checks that the
	// element is there. Every option of the step is held to that.
	label := m.Options[ex.Right]
	value := m.Purpose == PurposeAssertVisible && label.ChecksValue && (len(label.Pins) > 0 || len(own) == 0)
	r := MutationResult{Value: value}
	survive := pageFragments(ex.Step.Screens[0])
	survive = slices.DeleteFunc(survive, func(f string) bool {
		// What the label says does not change (a page number the step
		// taps, a status code), and, for a value, the element's own text.
		return slices.Contains(ex.Entry.Stable, f) || value && strings.Contains(m.Text, f)
	})
	r.Survive = survive

	first, err := cloneScreen(ex.Step.Screens[0])
	if err != nil {
		return r, err
	}
	replaceFragments(first.Root, survive)
	r.Survived = namesAlone(first, o.Selector, ref)

	second, err := cloneScreen(ex.Step.Screens[0])
	if err != nil {
		return r, err
	}
	if value {
		checked := own
		if len(checked) == 0 {
			checked = textRuns(findNode(second.Root, ref))
		}
		// The element's own text changes: every occurrence in it, read in
		// context or not ("Showing 26 to 50" moves on to 59 to 83).
		path := pathTo(second.Root, ref)
		if len(path) == 0 {
			return r, fmt.Errorf("the element %s is not on the step's screen", ref)
		}
		el := path[len(path)-1]
		before := []string{el.Text, el.Name}
		replaceIn(el, checked)
		// The containers' texts hold the element's: they read the change
		// too.
		for _, a := range path[:len(path)-1] {
			for k, p := range []*string{&a.Text, &a.Name} {
				if before[k] != "" {
					*p = strings.ReplaceAll(*p, before[k], []string{el.Text, el.Name}[k])
				}
			}
		}
		r.Check = "the text " + strings.Join(checked, ", ") + " changes"
	} else {
		if !removeRef(second.Root, ref) {
			return r, fmt.Errorf("the element %s is not on the step's screen", ref)
		}
		r.Check = "the element is gone"
	}
	nodes, err := selector.Match(second, o.Selector)
	r.Failed = err != nil || len(nodes) != 1
	return r, nil
}

// namesAlone reports whether sel names the element ref alone on s.
func namesAlone(s *screen.Screen, sel selector.Selector, ref string) bool {
	nodes, err := selector.Match(s, sel)
	return err == nil && len(nodes) == 1 && nodes[0].Ref == ref
}

func cloneScreen(s *screen.Screen) (*screen.Screen, error) {
	data, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	out := new(screen.Screen)
	if err := json.Unmarshal(data, out); err != nil {
		return nil, err
	}
	return out, nil
}

// pageFragments lists the changing fragments of every text and name of the
// page, once each, longest first.
func pageFragments(s *screen.Screen) []string {
	var out []string
	var walk func(n *screen.Node)
	walk = func(n *screen.Node) {
		for _, t := range []string{n.Text, n.Name} {
			for _, v := range findVolatile(t) {
				if !slices.Contains(out, v.Fragment) {
					out = append(out, v.Fragment)
				}
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(s.Root)
	slices.SortStableFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// replaceFragments changes every occurrence of the fragments in the texts,
// names, descriptions and values under n, in one pass, so a changed
// fragment is never changed again.
func replaceFragments(n *screen.Node, frags []string) {
	if len(frags) == 0 {
		return
	}
	sorted := slices.Clone(frags)
	slices.SortStableFunc(sorted, func(a, b string) int { return len(b) - len(a) })
	quoted := make([]string, len(sorted))
	for i, f := range sorted {
		quoted[i] = regexp.QuoteMeta(f)
	}
	re := regexp.MustCompile(strings.Join(quoted, "|"))
	var walk func(n *screen.Node)
	walk = func(n *screen.Node) {
		for _, p := range []*string{&n.Text, &n.Name, &n.Description, &n.Value} {
			if *p == "" {
				continue
			}
			// A fragment changes where the text reads it as changing
			// text ("3" alone is a count, not the 3 of "OAS 3.0"); a text
			// that is a fragment of the list changes whole.
			if slices.Contains(sorted, *p) {
				*p = changed(*p)
				continue
			}
			found := findVolatile(*p)
			*p = re.ReplaceAllStringFunc(*p, func(f string) string {
				if slices.ContainsFunc(found, func(v Volatile) bool { return strings.Contains(v.Fragment, f) }) {
					return changed(f)
				}
				return f
			})
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
}

// changed is a fragment as the next run shows it: every digit moved on by
// three ($42.00 reads $75.33, 10:42 reads 43:75), or, without digits, the
// text with a word before it.
func changed(f string) string {
	if !strings.ContainsFunc(f, unicode.IsDigit) {
		return "Changed " + f
	}
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '0' + (r-'0'+3)%10
		}
		return r
	}, f)
}

// removeRef takes the element ref out of the tree under n.
func removeRef(n *screen.Node, ref string) bool {
	for i, c := range n.Children {
		if c.Ref == ref {
			n.Children = slices.Delete(n.Children, i, i+1)
			return true
		}
		if removeRef(c, ref) {
			return true
		}
	}
	return false
}

// textRuns lists the texts of the runs of text under n, or its name when it
// holds none.
func textRuns(n *screen.Node) []string {
	if n == nil {
		return nil
	}
	var out []string
	var walk func(n *screen.Node)
	walk = func(n *screen.Node) {
		if n.IsText() && strings.TrimSpace(n.Text) != "" && !slices.Contains(out, n.Text) {
			out = append(out, n.Text)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
	if len(out) == 0 && n.Name != "" {
		out = append(out, n.Name)
	}
	return out
}

func findNode(n *screen.Node, ref string) *screen.Node {
	if n == nil || n.Ref == ref {
		return n
	}
	for _, c := range n.Children {
		if f := findNode(c, ref); f != nil {
			return f
		}
	}
	return nil
}

// A MutationReport counts the labels whose option passes the mutation
// check, and says why each other one does not.
type MutationReport struct {
	Passed, Failed int
	Failures       []string
}

// CheckLabels runs the mutation check of every example's labelled option.
func CheckLabels(examples []Example) (MutationReport, error) {
	return CheckPicks(examples, func(ex Example) int { return ex.Right })
}

// CheckPicks runs the mutation check of the option pick chooses for each
// example (the recorder's choice, the engine's pick), held to what the
// example's label says the step checks.
func CheckPicks(examples []Example, pick func(Example) int) (MutationReport, error) {
	var r MutationReport
	for _, ex := range examples {
		i := pick(ex)
		res, err := Mutate(ex, i)
		if err != nil {
			return r, fmt.Errorf("%s: %w", ex.Entry.ID, err)
		}
		if res.Holds() {
			r.Passed++
			continue
		}
		r.Failed++
		var why []string
		if !res.Survived {
			why = append(why, "it does not name the element when "+strings.Join(res.Survive, ", ")+" change")
		}
		if !res.Failed {
			why = append(why, "it still names one element when "+res.Check)
		}
		r.Failures = append(r.Failures, fmt.Sprintf("%s: %s: %s", ex.Entry.ID, ex.Menu.Options[i].Selector, strings.Join(why, "; ")))
	}
	return r, nil
}

// replaceIn changes every occurrence of the fragments in the texts, names,
// descriptions and values under n, wherever they stand.
func replaceIn(n *screen.Node, frags []string) {
	if n == nil || len(frags) == 0 {
		return
	}
	sorted := slices.Clone(frags)
	slices.SortStableFunc(sorted, func(a, b string) int { return len(b) - len(a) })
	quoted := make([]string, len(sorted))
	for i, f := range sorted {
		quoted[i] = regexp.QuoteMeta(f)
	}
	re := regexp.MustCompile(strings.Join(quoted, "|"))
	var walk func(n *screen.Node)
	walk = func(n *screen.Node) {
		for _, p := range []*string{&n.Text, &n.Name, &n.Description, &n.Value} {
			*p = re.ReplaceAllStringFunc(*p, changed)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
}

// pathTo lists the nodes from n down to the element ref, itself last.
func pathTo(n *screen.Node, ref string) []*screen.Node {
	if n == nil {
		return nil
	}
	if n.Ref == ref {
		return []*screen.Node{n}
	}
	for _, c := range n.Children {
		if p := pathTo(c, ref); p != nil {
			return append([]*screen.Node{n}, p...)
		}
	}
	return nil
}

package review

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// The labelled dataset (docs/review.md, recorder/review/testdata/README.md)
// is JSON lines: one entry per line, one step each. Blank lines and lines
// starting with # are left out, so a file can be read and commented by
// hand.

// Splits of the dataset.
const (
	SplitTrain   = "train"
	SplitHeldOut = "heldout"
)

// An Entry is one labelled step.
type Entry struct {
	// ID names the entry in messages: app/step.
	ID    string `json:"id"`
	Split string `json:"split"`
	// Intent and Action are the step's, as the trail holds them.
	Intent string           `json:"intent"`
	Action trail.ActionKind `json:"action"`
	// Screens are screen files, relative to the dataset file: the session's
	// screens where the element appears, the step's own first. A file holds
	// a screen (docs/screen-schema.md) or a screen of the selector corpus
	// ({"page", "sensitive", "targets", "screen"}).
	Screens []string `json:"screens"`
	// Ref is the element's ref on the screens; Target instead names it by a
	// key of the first screen file's targets (a CSS selector of the corpus).
	Ref    string `json:"ref,omitempty"`
	Target string `json:"target,omitempty"`
	// Sensitive are values the session marked sensitive, beside those the
	// screen files name.
	Sensitive []string `json:"sensitive,omitempty"`
	// Recorded is the recorder's choice; without it, what the generator
	// writes for the step on its first screen.
	Recorded *selector.Selector `json:"recorded,omitempty"`
	// Stable lists changing-looking text of the step's page that the label
	// says does not change between runs (a page number the step taps, an
	// HTTP status code): the mutation check leaves it as it is.
	Stable []string `json:"stable,omitempty"`
	// Right is the hand-picked right option, and Reason why, in one line.
	Right  Right  `json:"right"`
	Reason string `json:"reason"`
}

// Right names the right option of an entry's menu: the recorder's choice
// (keep), a selector, or a kind with, optionally, whether it is tied to a
// container and whether it checks presence only. A kind that several
// options share means the one with the fewest properties, then the one the
// generator ranks first.
type Right struct {
	Keep     bool               `json:"keep,omitempty"`
	Selector *selector.Selector `json:"selector,omitempty"`
	Kind     Kind               `json:"kind,omitempty"`
	Within   *bool              `json:"within,omitempty"`
	Presence *bool              `json:"presence,omitempty"`
}

// ParseDataset reads a dataset file. Every error names the line.
func ParseDataset(data []byte) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	ids := map[string]int{}
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		var e Entry
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("dataset line %d: %w (each line is one JSON object: docs/review.md)", line, err)
		}
		if err := e.check(); err != nil {
			return nil, fmt.Errorf("dataset line %d (%s): %w", line, e.ID, err)
		}
		if prev, ok := ids[e.ID]; ok {
			return nil, fmt.Errorf("dataset line %d: id %q is already used on line %d", line, e.ID, prev)
		}
		ids[e.ID] = line
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the dataset: %w", err)
	}
	return out, nil
}

func (e *Entry) check() error {
	switch {
	case e.ID == "":
		return errors.New("no id")
	case e.Split != SplitTrain && e.Split != SplitHeldOut:
		return fmt.Errorf("split %q: use %s or %s", e.Split, SplitTrain, SplitHeldOut)
	case e.Intent == "":
		return errors.New("no intent")
	case len(e.Screens) == 0:
		return errors.New("no screens")
	case (e.Ref == "") == (e.Target == ""):
		return errors.New("name the element by ref or by target, one of them")
	case e.Reason == "":
		return errors.New("no reason: say in one line why the right option is right")
	}
	r := e.Right
	n := 0
	for _, set := range []bool{r.Keep, r.Selector != nil, r.Kind != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return errors.New(`right: give one of keep, selector or kind ({"kind": "text"})`)
	}
	if r.Kind != "" && !slices.Contains(Kinds, r.Kind) {
		return fmt.Errorf("right: kind %q: use one of %v", r.Kind, Kinds)
	}
	return nil
}

// An Example is an entry with its step and menu built, and the position of
// its right option on the menu.
type Example struct {
	Entry Entry
	Step  Step
	Menu  *Menu
	Right int
}

// screenFile is a screen file as the dataset reads it: a bare screen, or
// one of the selector corpus.
type screenFile struct {
	Page      string            `json:"page"`
	Sensitive []string          `json:"sensitive"`
	Targets   map[string]string `json:"targets"`
	Screen    *screen.Screen    `json:"screen"`
}

// LoadExamples builds every entry's step and menu, reading screen files
// with read (names as the entries write them, relative to the dataset
// file). An entry whose right option is not on its menu is an error: the
// label is wrong, or the menu lost an option.
func LoadExamples(entries []Entry, read func(name string) ([]byte, error)) ([]Example, error) {
	files := map[string]*screenFile{}
	load := func(name string) (*screenFile, error) {
		if f, ok := files[name]; ok {
			return f, nil
		}
		data, err := read(name)
		if err != nil {
			return nil, err
		}
		if strings.HasSuffix(name, ".gz") {
			if data, err = gunzip(data); err != nil {
				return nil, fmt.Errorf("reading screen file %s: %w", name, err)
			}
		}
		var f screenFile
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("reading screen file %s: %w", name, err)
		}
		if f.Screen == nil {
			f = screenFile{Screen: new(screen.Screen)}
			if err := json.Unmarshal(data, f.Screen); err != nil {
				return nil, fmt.Errorf("reading screen file %s: %w", name, err)
			}
		}
		if f.Screen.Root == nil {
			return nil, fmt.Errorf("screen file %s holds no screen", name)
		}
		files[name] = &f
		return &f, nil
	}
	out := make([]Example, 0, len(entries))
	for _, e := range entries {
		ex, err := buildExample(e, load)
		if err != nil {
			return nil, fmt.Errorf("dataset entry %s: %w", e.ID, err)
		}
		out = append(out, ex)
	}
	return out, nil
}

func buildExample(e Entry, load func(string) (*screenFile, error)) (Example, error) {
	step := Step{Intent: e.Intent, Action: e.Action, Target: e.Ref, Sensitive: slices.Clone(e.Sensitive)}
	for i, name := range e.Screens {
		f, err := load(name)
		if err != nil {
			return Example{}, err
		}
		step.Screens = append(step.Screens, f.Screen)
		for _, v := range f.Sensitive {
			if !slices.Contains(step.Sensitive, v) {
				step.Sensitive = append(step.Sensitive, v)
			}
		}
		if i == 0 && e.Target != "" {
			ref, ok := f.Targets[e.Target]
			if !ok {
				return Example{}, fmt.Errorf("target %q is not among the targets of %s", e.Target, name)
			}
			step.Target = ref
		}
	}
	if e.Recorded != nil {
		step.Recorded = *e.Recorded
	} else {
		m := selector.NewMatcher(step.Screens[0])
		_, gp, err := purposeOf(e.Action, m.Node(step.Target))
		if err != nil {
			return Example{}, err
		}
		sel, _, err := selector.GenerateOn(m, gp, step.Target, step.Sensitive)
		if err != nil {
			return Example{}, fmt.Errorf("the recorder's choice: %w", err)
		}
		step.Recorded = sel
	}
	menu, err := BuildMenu(step)
	if err != nil {
		return Example{}, err
	}
	right, err := e.Right.find(menu)
	if err != nil {
		return Example{}, err
	}
	return Example{Entry: e, Step: step, Menu: menu, Right: right}, nil
}

// find returns the position of the right option on m.
func (r Right) find(m *Menu) (int, error) {
	if r.Keep {
		return m.Recorded(), nil
	}
	if r.Selector != nil {
		key := r.Selector.String()
		if i := slices.IndexFunc(m.Options, func(o Option) bool { return o.Selector.String() == key }); i >= 0 {
			return i, nil
		}
		return -1, fmt.Errorf("the right selector %s is not on the menu: %s", key, listOptions(m))
	}
	best := -1
	for i, o := range m.Options {
		if o.Kind != r.Kind || r.Within != nil && o.Within != *r.Within || r.Presence != nil && o.Presence != *r.Presence || o.Index {
			continue
		}
		if best < 0 || simpler(o, m.Options[best]) {
			best = i
		}
	}
	if best < 0 {
		return -1, fmt.Errorf("no option of kind %s (within %v, presence %v) on the menu: %s", r.Kind, deref(r.Within), deref(r.Presence), listOptions(m))
	}
	return best, nil
}

// simpler reports whether a has fewer properties than b, or as many and a
// better rank.
func simpler(a, b Option) bool {
	na, nb := len(selectorStrings(a.Selector))+roleCount(a.Selector), len(selectorStrings(b.Selector))+roleCount(b.Selector)
	if na != nb {
		return na < nb
	}
	ra, rb := a.Rank, b.Rank
	if ra < 0 {
		ra = len(selectorStrings(a.Selector)) * 1000
	}
	if rb < 0 {
		rb = len(selectorStrings(b.Selector)) * 1000
	}
	return ra < rb
}

func roleCount(s selector.Selector) int {
	n := 0
	for p := &s; p != nil; p = p.Within {
		if p.Role != "" {
			n++
		}
	}
	return n
}

func deref(b *bool) any {
	if b == nil {
		return "any"
	}
	return *b
}

func listOptions(m *Menu) string {
	var parts []string
	for i, o := range m.Options {
		parts = append(parts, fmt.Sprintf("%d. %s", i+1, o.Selector))
	}
	return strings.Join(parts, "; ")
}

// datasetDigest is the SHA-256 of the entries as they were read, in order:
// the weights file names the training set it was fitted on.
func datasetDigest(entries []Entry) string {
	h := sha256.New()
	for _, e := range entries {
		b, _ := json.Marshal(e) // an Entry always marshals
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// gunzip reads a gzip-compressed screen file (name.json.gz): the screens of
// recorded sessions are stored compressed.
func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return io.ReadAll(zr)
}

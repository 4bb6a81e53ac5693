package trail

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// trickyTexts are values that trip YAML writers: words YAML reads as other
// types, indicators, quotes, white space at the edges, line breaks, and
// characters outside ASCII.
var trickyTexts = []string{
	"Save", "Add to cart", "10% off", "true", "false", "null", "~", "123", "-7", "1.5", "0x1F", "1e3",
	"yes", "No", "on", "OFF", "- dash", ": colon", "a: b", "#hash", "a #b", "'quote", `"double"`,
	"{brace}", "[bracket]", "a, b", "?question", "!bang", "&amp", "*star", "|pipe", ">gt", "%pct",
	"@at", "`tick", "$5.00", "$${literal}", "back\\slash", "  leading", "trailing  ", "tab\there",
	"unicode ✓ ünïcödé 日本語", "emoji 🎉", "multi\nline", "line\n\nblank", "  indented\nfirst",
	"ends with newline\n", "\nstarts with newline", "crlf\r\nline", "nbsp\u00a0space", "ctrl\x01char",
	"Review sale\n3 items", "trailing space \nnext", "---", "...", "<<", "=", "2026-01-02",
	strings.Repeat("long text ", 14),
}

var trickyRegexes = []string{`^Order \d+$`, `Sav(e|ed)`, `\$\d+\.\d{2}`, `(?i)total`, `^a: b$`, `[{}]`, `x#y`, `^\s*$`}

type trailGen struct{ r *rand.Rand }

func (g trailGen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }
func (g trailGen) chance(p float64) bool   { return g.r.Float64() < p }

func (g trailGen) text() string {
	s := g.pick(trickyTexts)
	if g.chance(0.2) {
		s += " " + g.pick(trickyTexts)
	}
	return s
}

func (g trailGen) textWithRef(allowSecret bool) string {
	s := g.text()
	if g.chance(0.3) {
		refs := []string{"${param:p1}", "${param:p2}", "${user:admin.username}"}
		if allowSecret {
			refs = append(refs, "${secret:api-key}", "${user:admin.password}")
		}
		s = g.pick(refs) + " " + s
	}
	return s
}

func (g trailGen) path() string {
	p := g.pick([]string{"/", "/checkout", "/orders/42?tab=items", "/a/b#frag", "/search?q=a%20b&x=1", "/p/${param:p1}", "/?"})
	return p
}

func (g trailGen) selector(depth int) selector.Selector {
	var s selector.Selector
	set := false
	for !set {
		if g.chance(0.5) {
			s.Role, set = g.pick(knownRoles), true
		}
		if g.chance(0.4) {
			s.Name, set = g.textWithRef(false), true
		}
		if g.chance(0.3) {
			s.Text, set = g.textWithRef(false), true
		} else if g.chance(0.15) {
			s.TextRegex, set = g.pick(trickyRegexes), true
		}
		for _, p := range []*string{&s.TestID, &s.ID, &s.Label, &s.Placeholder} {
			if g.chance(0.1) {
				*p, set = g.text(), true
			}
		}
	}
	if depth < 2 && g.chance(0.2) {
		w := g.selector(depth + 1)
		s.Within = &w
	}
	if g.chance(0.15) {
		i := g.r.IntN(5)
		s.Index = &i
	}
	return s
}

func (g trailGen) selectors(n int) []selector.Selector {
	out := make([]selector.Selector, n)
	for i := range out {
		out[i] = g.selector(0)
	}
	return out
}

func (g trailGen) modifiers() []Modifier {
	var out []Modifier
	for _, m := range []Modifier{ModifierAlt, ModifierControl, ModifierMeta, ModifierShift} {
		if g.chance(0.2) {
			out = append(out, m)
		}
	}
	return out
}

func (g trailGen) action() Action {
	switch ActionKinds[g.r.IntN(len(ActionKinds))] {
	case ActionNavigate:
		return Navigate{To: g.pick([]string{NavigateBack, NavigateForward, NavigateReload, g.path()})}
	case ActionTap:
		a := Tap{Selector: g.selector(0), Modifiers: g.modifiers()}
		if g.chance(0.3) {
			a.Count = 1 + g.r.IntN(3)
		}
		if g.chance(0.3) {
			a.Button = MouseButton(g.pick([]string{"left", "middle", "right"}))
		}
		return a
	case ActionType:
		t := ""
		if g.chance(0.9) {
			t = g.textWithRef(true)
		}
		return TypeText{Selector: g.selector(0), Text: t, Append: t != "" && g.chance(0.3)}
	case ActionSet:
		return Set{Selector: g.selector(0), Value: g.pick([]string{"30", "2026-12-24", "#ff8800", "14:30", "-0.5", g.textWithRef(false)})}
	case ActionPress:
		return Press{Key: g.pick(append([]string{"a", "é", "/", "#", ":"}, NamedKeys...)), Modifiers: g.modifiers(), AtOnce: g.chance(0.2)}
	case ActionSelect:
		opts := []string{g.textWithRef(false)}
		for g.chance(0.4) {
			opts = append(opts, g.text())
		}
		return SelectOption{Selector: g.selector(0), Options: opts}
	case ActionCheck:
		return Check{Selector: g.selector(0)}
	case ActionUncheck:
		return Uncheck{Selector: g.selector(0)}
	case ActionHover:
		return Hover{Selector: g.selector(0)}
	case ActionUpload:
		return Upload{Selector: g.selector(0), Files: []string{g.pick([]string{"a.pdf", "files/b c.png", "shared/x.csv", "yes"})}}
	case ActionDialog:
		a := Dialog{Accept: g.chance(0.6)}
		if a.Accept && g.chance(0.5) {
			a.PromptText = g.textWithRef(true)
		}
		return a
	case ActionSwitchTab:
		if g.chance(0.5) {
			return SwitchTab{URL: g.path()}
		}
		return SwitchTab{Title: g.textWithRef(false)}
	case ActionAssertVisible:
		return AssertVisible{Selector: g.selector(0)}
	case ActionAssertNotVisible:
		return AssertNotVisible{Text: g.textWithRef(false)}
	case ActionAssertValue:
		return AssertValue{Selector: g.selector(0), Value: g.textWithRef(false)}
	case ActionAssertState:
		state := g.pick([]string{StateChecked, StateDisabled, StateExpanded, StateSelected})
		want := g.pick([]string{"true", "false"})
		if state == StateChecked && g.chance(0.3) {
			want = "mixed"
		}
		return AssertState{Selector: g.selector(0), State: state, Want: want}
	case ActionAssertURL:
		if g.chance(0.5) {
			return AssertURL{URL: g.path()}
		}
		return AssertURL{Pattern: g.pick(trickyRegexes)}
	default:
		return g.assertChange()
	}
}

func (g trailGen) assertChange() AssertChange {
	var a AssertChange
	n := func() *int { i := g.r.IntN(1000); return &i }
	if g.chance(0.5) {
		a.URL = g.path()
		a.Exists = g.selectors(1 + g.r.IntN(2))
		if g.chance(0.5) {
			a.NotCovered = g.selectors(1)
		}
		a.SettleMs = n()
		a.Retry = &Retry{BudgetMs: 1 + g.r.IntN(MaxRetryBudgetMs)}
		if g.chance(0.5) {
			keep := g.chance(0.5)
			a.KeepBaseline = &keep
			a.Ignore = g.selectors(1)
		}
		return a
	}
	b := g.chance(0.5)
	a.Changed = &b
	if g.chance(0.5) {
		s := g.selector(0)
		a.MustInclude = []ChangeMatch{{Change: ChangeAdded, Selector: &s}, {Change: ChangeResized},
			{Change: ChangeState, Selector: &s, To: []ChangeTo{{Field: "expanded", Value: "true"}, {Field: "level", Value: "2"}}},
			{To: []ChangeTo{{Field: "checked", Value: "mixed"}, {Field: "visible", Value: "false"}}},
			{Change: ChangePossibleReplacement}}
	}
	if g.chance(0.3) {
		s := g.selector(0)
		a.Only = []ChangeMatch{{Selector: &s}}
		a.MustNotInclude = []ChangeMatch{{Change: ChangeStyle}}
	}
	if g.chance(0.5) {
		a.MaxChanges = n()
		a.BecameVisible = g.selectors(1)
		a.BecameCovered = g.selectors(2)
	}
	if g.chance(0.3) {
		a.DiffID = fmt.Sprintf("d%d", 1+g.r.IntN(40))
	}
	return a
}

func (g trailGen) trail(i int) *Trail {
	t := &Trail{
		Title:  fmt.Sprintf("%s %d", g.text(), i),
		App:    g.pick([]string{"shop", "admin-ui", "app_2"}),
		Start:  g.path(),
		Params: map[string]string{"p1": g.text(), "p2": ""},
	}
	if g.chance(0.7) {
		t.Viewport = screen.Viewport{Width: 320 + g.r.IntN(2000), Height: 200 + g.r.IntN(1200)}
		t.Locale = g.pick([]string{"en-US", "de", "pt-BR", "zh-Hans-CN"})
		t.TimeZone = g.pick([]string{"UTC", "Europe/Berlin", "America/Argentina/Buenos_Aires", "Etc/GMT+5"})
	}
	for s := range 1 + g.r.IntN(6) {
		step := Step{Intent: fmt.Sprintf("%s (step %d)", g.text(), s+1)}
		if g.chance(0.2) {
			step.Act = g.text()
		}
		if g.chance(0.2) {
			step.By = ByAgent
			if g.chance(0.5) {
				step.Client = g.pick([]string{"claude-code", "Cursor", "my agent 1.2"})
			}
		}
		if step.Act == "" || g.chance(0.5) {
			for range 1 + g.r.IntN(5) {
				a := g.action()
				if c, ok := a.(AssertChange); ok {
					// An assertChange checks the action right before it.
					c.DiffID = ""
					step.Actions = append(step.Actions, Tap{Selector: g.selector(0), Count: 1, Button: ButtonLeft})
					a = c
				}
				step.Actions = append(step.Actions, a)
			}
			if g.chance(0.5) {
				step.End = &End{}
				if g.chance(0.7) {
					step.End.URL = g.path()
				}
				if step.End.URL == "" || g.chance(0.5) {
					step.End.Shows = g.selectors(1 + g.r.IntN(MaxEndShows))
				}
				if g.chance(0.3) {
					for range 1 + g.r.IntN(MaxEndValues) {
						v := EndValue{Selector: g.selector(0), Property: g.pick([]string{EndPropertyValue, StateChecked, StateSelected})}
						switch v.Property {
						case EndPropertyValue:
							v.Want = g.pick([]string{"30", "2026-12-24", "", g.textWithRef(false)})
						case StateChecked:
							v.Want = g.pick([]string{"true", "false", "mixed"})
						default:
							v.Want = g.pick([]string{"true", "false"})
						}
						step.End.Values = append(step.End.Values, v)
					}
				}
			}
			if g.chance(0.3) {
				step.Key = StepKey(step, g.pick([]string{"agent-1+3f2a9c1b7d20", "agent-2+000000000000"}))
			}
		}
		t.Steps = append(t.Steps, step)
	}
	return t
}

// TestMarshalTrailRoundTrip writes many generated trails, full of values
// that are hard for YAML, and checks each loads back equal and writes back
// to the same bytes.
func TestMarshalTrailRoundTrip(t *testing.T) {
	const trails = 400
	g := trailGen{rand.New(rand.NewPCG(1, 2))}
	for i := range trails {
		tr := g.trail(i)
		out, err := MarshalTrail(tr)
		if err != nil {
			t.Fatalf("MarshalTrail(trail %d) error: %v\ntrail: %+v", i, err, tr)
		}
		back, err := LoadTrail("generated.trail.yaml", out)
		if err != nil {
			t.Fatalf("LoadTrail(MarshalTrail(trail %d)):\n%v\nfile:\n%s", i, err, out)
		}
		if !back.Equal(tr) {
			t.Fatalf("LoadTrail(MarshalTrail(trail %d)) differs from the trail written; file:\n%s", i, out)
		}
		again, err := MarshalTrail(back)
		if err != nil || string(again) != string(out) {
			t.Fatalf("MarshalTrail(LoadTrail(…)) of trail %d gave other bytes (err %v):\n%s\nfirst:\n%s", i, err, again, out)
		}
	}
}

// TestSetValueRoundTrips: a set's value that YAML would read as a date, a
// number or a colour's hash is written so that it loads back as the same text.
func TestSetValueRoundTrips(t *testing.T) {
	for _, v := range []string{"30", "2026-12-24", "#ff8800", "14:30", "0.5", "-3", "yes"} {
		tr := &Trail{Title: "Set", App: "shop", Start: "/", Steps: []Step{{Intent: "Set it",
			Actions: []Action{Set{Selector: selector.Selector{Role: "slider", Name: "Volume"}, Value: v}}}}}
		src, err := MarshalTrail(tr)
		if err != nil {
			t.Fatalf("MarshalTrail(value %q): %v", v, err)
		}
		got, err := LoadTrail("set.trail.yaml", src)
		if err != nil {
			t.Fatalf("LoadTrail of value %q: %v\n%s", v, err, src)
		}
		if s, ok := got.Steps[0].Actions[0].(Set); !ok || s.Value != v {
			t.Errorf("value %q loads back as %#v\n%s", v, got.Steps[0].Actions[0], src)
		}
	}
}

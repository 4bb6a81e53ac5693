package steps

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

func (s *session) agentStart(goal string) *session {
	return s.add(InteractAgentStart, nil, "", func(it *Interaction) { it.Text = goal })
}

func (s *session) agentEnd(state, why string) *session {
	return s.add(InteractAgentEnd, nil, "", func(it *Interaction) { it.State, it.Message = state, why })
}

// The agent's goal, performed while a person records, is one step whose
// intent is the goal, marked as the agent's; its input is recorded like a
// person's, and joins neither the person's step before it nor the one
// after it.
func TestBuildStepsAgentGoal(t *testing.T) {
	runStepsCases(t, []stepsCase{
		{
			name: "the interactions of a goal the agent reached are one step with the goal as intent",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				q := productsPage("search", "iphone", 0, "")
				s := newSession().agentStart("Add the iPhone to the cart").
					click(p, "products-q").typ(p, "products-q", "iphone").press(p, "Enter").nav("/products?q=iphone", "form").
					click(q, "search-add-p17").agentEnd(AgentDone, "the cart shows 1 item")
				return s, productsPage("search", "iphone", 1, "Added iPhone 17 to the cart")
			},
			start: "/products",
			want: []string{
				`[agent] Add the iPhone to the cart :: type, press, tap => /products?q=iphone {role: status}`,
			},
		},
		{
			name: "a person's typing before the goal and after it stays the person's",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				q := productsPage("search", "iphone", 0, "")
				s := newSession().typ(p, "products-q", "ip").
					agentStart("Search for iphone").typ(p, "products-q", "iphone").press(p, "Enter").nav("/products?q=iphone", "form").
					agentEnd(AgentDone, "").
					click(q, "search-add-p17")
				return s, productsPage("search", "iphone", 1, "Added iPhone 17 to the cart")
			},
			want: []string{
				"Type ip into Search products :: type => /products",
				"[agent] Search for iphone :: type, press => /products?q=iphone",
				`Click the Add to cart button in iPhone 17 :: tap => /products?q=iphone {role: status}`,
			},
		},
		{
			name: "a stopped goal keeps what the agent did as steps of their own, marked as the agent's",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().agentStart("Buy an iPhone").
					typ(p, "products-q", "iphone").press(p, "Enter").nav("/products?q=iphone", "form").
					agentEnd(AgentStopped, "the person pressed Stop")
				return s, productsPage("search", "iphone", 0, "")
			},
			want:  []string{"[agent] Type iphone into Search products and press Enter :: type, press => /products?q=iphone"},
			notes: []string{`The agent did not reach "Buy an iPhone" (it was stopped: the person pressed Stop)`},
		},
		{
			name: "a goal with no end (the recording stopped meanwhile) did not reach its goal",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-add-p17").agentStart("Add the Pixel").click(p, "products-add-case")
				return s, productsPage("products", "", 2, "")
			},
			want: []string{
				"Click the Add to cart button in iPhone 17 :: tap => /products",
				"[agent] Click the Add to cart button in iPhone 17 Silicone Case :: tap => /products",
			},
			notes: []string{"the recording stopped before the agent finished"},
		},
		{
			name: "a goal the agent did nothing for makes no step",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-add-p17").agentStart("Fly to the moon").agentEnd(AgentFailed, "no model answered")
				return s, productsPage("products", "", 1, "")
			},
			want:  []string{"Click the Add to cart button in iPhone 17 :: tap => /products"},
			notes: []string{`The agent recorded nothing for "Fly to the moon" (it failed: no model answered)`},
		},
		{
			name: "undo after the agent's step takes back the whole goal",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-add-p17").
					agentStart("Add two Pixels").click(p, "products-add-case").click(p, "products-add-case").agentEnd(AgentDone, "").
					undo()
				return s, productsPage("products", "", 3, "")
			},
			want: []string{"Click the Add to cart button in iPhone 17 :: tap => /products"},
		},
	})
}

func TestAgentInteractionsCarryWhatTheyNeed(t *testing.T) {
	for _, c := range []struct {
		it   Interaction
		want string
	}{
		{Interaction{Seq: 1, Kind: InteractAgentStart}, "text"},
		{Interaction{Seq: 1, Kind: InteractAgentEnd}, "state"},
		{Interaction{Seq: 1, Kind: InteractAgentEnd, State: "maybe"}, "state"},
		{Interaction{Seq: 1, Kind: InteractAgentStart, Text: "Add the iPhone"}, ""},
		{Interaction{Seq: 1, Kind: InteractAgentEnd, State: AgentStopped}, ""},
	} {
		err := c.it.Check()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: Check() = %v, want nil", c.it, err)
		case c.want != "" && (err == nil || !contains(err.Error(), c.want)):
			t.Errorf("%+v: Check() = %v, want an error naming %s", c.it, err, c.want)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// agentEndChecks ends the goal with the agent's passed checks.
func (s *session) agentEndChecks(state string, checks []AgentCheck, leftOut ...string) *session {
	return s.add(InteractAgentEnd, nil, "", func(it *Interaction) {
		it.State, it.Checks, it.ChecksLeftOut = state, checks, leftOut
	})
}

// checkOf is the agent's check of its action n, whose input the page
// recorded at ms (the window is the agent's: from just before the action
// to the check, a moment after it).
func checkOf(n int, ms int64, spec trail.AssertChange) AgentCheck {
	return AgentCheck{Action: n, From: ms - 40, Until: ms + 900, AssertChange: trail.ChangeJSONOf(spec)}
}

var (
	yes              = true
	statusAdded      = trail.AssertChange{MustInclude: []trail.ChangeMatch{{Change: trail.ChangeAdded, Selector: &selector.Selector{Role: "status"}}}}
	somethingChanged = trail.AssertChange{Changed: &yes}
)

// The agent's passed assertChange checks ride its agentEnd, and each is
// written right after the recorded action it checked: the last action
// built from what the page recorded between the start of the agent's
// action and the check.
func TestBuildStepsAgentChecks(t *testing.T) {
	var t1, t2 int64
	runStepsCases(t, []stepsCase{
		{
			name: "each check follows the action it checked, in the goal's one step",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				q := productsPage("products", "", 1, "Added iPhone 17 to the cart")
				s := newSession().agentStart("Add the iPhone and its case").click(p, "products-add-p17")
				t1 = s.now
				s.click(q, "products-add-case")
				t2 = s.now
				s.agentEndChecks(AgentDone, []AgentCheck{checkOf(1, t1, statusAdded), checkOf(2, t2, somethingChanged)})
				return s, productsPage("products", "", 2, "Added iPhone 17 Silicone Case to the cart")
			},
			want: []string{`[agent] Add the iPhone and its case :: tap, assertChange, tap, assertChange => /products {role: status}`},
		},
		{
			name: "typing: the check follows the type the click into the field became",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().agentStart("Search for iphone").click(p, "products-q").after(200).typ(p, "products-q", "iphone")
				t1 = s.now
				s.press(p, "Enter").nav("/products?q=iphone", "form")
				t2 = s.now
				s.agentEndChecks(AgentDone, []AgentCheck{
					{Action: 1, From: t1 - 300, Until: t1 + 900, AssertChange: trail.ChangeJSONOf(somethingChanged)},
					checkOf(2, t2-1500, somethingChanged),
				})
				return s, productsPage("search", "iphone", 0, "")
			},
			want: []string{"[agent] Search for iphone :: type, assertChange, press, assertChange => /products?q=iphone"},
		},
		{
			name: "a goal it did not reach: the check goes into the step of the action it checked",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				q := productsPage("products", "", 1, "Added iPhone 17 to the cart")
				s := newSession().agentStart("Buy an iPhone").click(p, "products-add-p17").click(q, "products-add-case")
				t2 = s.now
				s.agentEndChecks(AgentStopped, []AgentCheck{checkOf(2, t2, statusAdded)})
				return s, productsPage("products", "", 2, "Added iPhone 17 Silicone Case to the cart")
			},
			want: []string{
				"[agent] Click the Add to cart button in iPhone 17 :: tap => /products {role: status}",
				"[agent] Click the Add to cart button in iPhone 17 Silicone Case :: tap, assertChange => /products",
			},
			notes: []string{`The agent did not reach "Buy an iPhone"`},
		},
		{
			name: "a check of nothing recorded, and one that cannot be read, are left out with notes; the rest stays",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().agentStart("Add the iPhone").click(p, "products-add-p17")
				t1 = s.now
				s.agentEndChecks(AgentDone, []AgentCheck{
					checkOf(1, t1, statusAdded),
					checkOf(2, t1+60_000, somethingChanged),
					{Action: 1, From: t1 - 40, Until: t1 + 900}, // an empty assertChange
				}, "the agent's check 4 was left out: action must be the agent's action it checked, from 1")
				return s, productsPage("products", "", 1, "Added iPhone 17 to the cart")
			},
			want: []string{"[agent] Add the iPhone :: tap, assertChange => /products {role: status}"},
			notes: []string{
				`While performing "Add the iPhone", the agent checked what its action 2 changed, but nothing the page recorded of that action`,
				`While performing "Add the iPhone", the agent's check 3 was left out: its assertChange cannot be written into a trail: assertChange is empty`,
				`While performing "Add the iPhone", the agent's check 4 was left out: action must be`,
			},
		},
		{
			name: "checks its step cannot be written with are left out with a note; the step stays",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().agentStart("Add the iPhone").click(p, "products-add-p17")
				t1 = s.now
				onProducts := trail.AssertChange{URL: "/products"}
				// The first live check consumes the baseline the second reads.
				s.agentEndChecks(AgentDone, []AgentCheck{checkOf(1, t1, onProducts), checkOf(1, t1, onProducts)})
				return s, productsPage("products", "", 1, "Added iPhone 17 to the cart")
			},
			want:  []string{"[agent] Add the iPhone :: tap => /products {role: status}"},
			notes: []string{`The agent's checks in the step "Add the iPhone" were left out: the step cannot be written with them`},
		},
		{
			name: "undo takes back the goal's step with its checks",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-add-p17").agentStart("Add the case").click(p, "products-add-case")
				t1 = s.now
				s.agentEndChecks(AgentDone, []AgentCheck{checkOf(1, t1, statusAdded)}).undo()
				return s, productsPage("products", "", 2, "")
			},
			want: []string{"Click the Add to cart button in iPhone 17 :: tap => /products"},
		},
	})
}

// The check written is the agent's, as it arrived.
func TestBuildStepsAgentCheckWritten(t *testing.T) {
	p := productsPage("products", "", 0, "")
	s := newSession().agentStart("Add the iPhone").click(p, "products-add-p17")
	s.agentEndChecks(AgentDone, []AgentCheck{checkOf(1, s.now, statusAdded)})
	bt, err := BuildSteps(s.recs, productsPage("products", "", 1, "Added iPhone 17 to the cart"), BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatal(err)
	}
	if len(bt.Steps) != 1 || len(bt.Steps[0].Actions) != 2 {
		t.Fatalf("steps = %q, want the agent's tap and its check", stepLines(bt.Steps))
	}
	got, ok := bt.Steps[0].Actions[1].(trail.AssertChange)
	if !ok || !reflect.DeepEqual(got, statusAdded) {
		t.Errorf("the check written is %#v, want %#v", bt.Steps[0].Actions[1], statusAdded)
	}
	out, err := trail.MarshalTrail(trailOf(bt))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "- assertChange: {mustInclude: [{change: added, selector: {role: status}}]}") {
		t.Errorf("the trail does not write the check after the tap:\n%s", out)
	}
}

// What arrives in an agentEnd's checks is read check by check: one that is
// malformed is left out and said, the others kept.
func TestReadAgentChecks(t *testing.T) {
	valid := `{"action": 1, "from": 1760000000000, "until": 1760000001000, "assertChange": {"mustInclude": [{"change": "added", "selector": {"role": "status"}}]}}`
	for _, c := range []struct {
		name, raw string
		kept      int
		leftOut   []string
	}{
		{"absent", ``, 0, nil},
		{"null", `null`, 0, nil},
		{"valid", `[` + valid + `]`, 1, nil},
		{"not a list", `{"action": 1}`, 0, []string{"not a list of checks"}},
		{"a check that is not an object", `[` + valid + `, "assertChange"]`, 1, []string{"check 2 was left out: it is not a check"}},
		{"no action", `[{"from": 1, "until": 2, "assertChange": {"changed": true}}]`, 0, []string{"action must be"}},
		{"until before from", `[{"action": 1, "from": 5, "until": 2, "assertChange": {"changed": true}}]`, 0, []string{"until not before from"}},
		{"no assertChange", `[{"action": 1, "from": 1, "until": 2}]`, 0, []string{"has no assertChange"}},
		{"a key this host does not know", `[{"action": 1, "from": 1, "until": 2, "assertChange": {"changed": true, "mustChangeText": "x"}}]`, 0, []string{`cannot be read: assertChange has a key this host does not know, "mustChangeText"`}},
		{"a selector's key in another case", `[{"action": 1, "from": 1, "until": 2, "assertChange": {"mustInclude": [{"selector": {"Role": "status"}}]}}]`, 0, []string{`assertChange.mustInclude[0].selector has a key this host does not know, "Role"`}},
		{"Go's field names are not the protocol's", `[{"action": 1, "from": 1, "until": 2, "assertChange": {"Changed": true}}]`, 0, []string{"cannot be read"}},
		{"a wrong type", `[{"action": 1, "from": 1, "until": 2, "assertChange": {"changed": "yes"}}]`, 0, []string{"changed has the wrong type"}},
		{"a to that is not an object", `[{"action": 1, "from": 1, "until": 2, "assertChange": {"mustInclude": [{"change": "state", "to": ["expanded"]}]}}]`, 0, []string{"to must be an object"}},
		{"mixed", `[{"action": 1, "from": 1, "until": 2, "assertChange": {"changed": true, "url": "/cart"}}]`, 0, []string{"mixes checks on the stored diff"}},
		{"too many", `[` + strings.Repeat(valid+`,`, MaxAgentChecks) + valid + `]`, MaxAgentChecks, []string{"more than 100"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			checks, leftOut := ReadAgentChecks(json.RawMessage(c.raw))
			if len(checks) != c.kept {
				t.Errorf("kept %d checks, want %d (left out: %q)", len(checks), c.kept, leftOut)
			}
			if len(leftOut) != len(c.leftOut) {
				t.Fatalf("left out %q, want %d saying %q", leftOut, len(c.leftOut), c.leftOut)
			}
			for i, w := range c.leftOut {
				if !strings.Contains(leftOut[i], w) {
					t.Errorf("left out %q, want it to say %q", leftOut[i], w)
				}
			}
		})
	}
	checks, _ := ReadAgentChecks(json.RawMessage(`[` + valid + `]`))
	if got := checks[0].AssertChange.AssertChange(); !reflect.DeepEqual(got, statusAdded) || checks[0].Action != 1 || checks[0].Until != 1760000001000 {
		t.Errorf("read %+v, want the status added, of action 1", checks[0])
	}
}

// evilOrigin is a page off the app the agent was led to.
const evilOrigin = "http://evil.example"

// offApp is page as if it were served from evilOrigin.
func offApp(page *screen.Screen) *screen.Screen {
	c := *page
	c.URL = evilOrigin + strings.TrimPrefix(page.URL, shopOrigin)
	c.Document = "evil"
	return &c
}

// A goal whose flow left the app's origins is never written into the
// trail (docs/agent.md, What the agent may and may not do): every later run
// would repeat it without a model. The person's steps around it stay.
func TestBuildStepsAgentLeftTheApp(t *testing.T) {
	runStepsCases(t, []stepsCase{
		{
			name: "a goal whose tap led to another origin is left out, the person's steps before and after it stay",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-add-p17").agentStart("Claim the deal in the review").
					click(p, "products-add-case").
					add(InteractNavigate, nil, "", func(it *Interaction) { it.URL, it.Transition = evilOrigin+"/steal", "link" }).
					agentEnd(AgentDone, "opened it").
					nav("/products", "typed").click(p, "products-add-case")
				return s, productsPage("products", "", 2, "")
			},
			want: []string{
				"Click the Add to cart button in iPhone 17 :: tap => /products",
				"Go to /products :: navigate => /products",
				"Click the Add to cart button in iPhone 17 Silicone Case :: tap => /products",
			},
			notes: []string{`The agent left the app while performing "Claim the deal in the review": it reached http://evil.example, which is not one of the app's origins, so what it did (1 step) is not written into the trail`},
		},
		{
			name: "the host's word that the agent was shown a page off the app leaves the goal out",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-add-p17").agentStart("Add the case").click(p, "products-add-case").
					add(InteractAgentEnd, nil, "", func(it *Interaction) { it.State, it.Left = AgentDone, evilOrigin })
				return s, productsPage("products", "", 2, "")
			},
			want:  []string{"Click the Add to cart button in iPhone 17 :: tap => /products"},
			notes: []string{`it reached http://evil.example`},
		},
		{
			name: "a goal the recording stopped in, on a page off the app, is left out",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-add-p17").agentStart("Add the case").click(p, "products-add-case")
				return s, offApp(productsPage("products", "", 2, ""))
			},
			want:  []string{"Click the Add to cart button in iPhone 17 :: tap => /products"},
			notes: []string{`it reached http://evil.example`},
		},
		{
			name: "a goal that acted on a page of another origin is left out even when it came back",
			rec: func() (*session, *screen.Screen) {
				p := productsPage("products", "", 0, "")
				s := newSession().click(p, "products-add-p17").agentStart("Add the case").
					click(p, "products-add-p17").
					add(InteractNavigate, nil, "", func(it *Interaction) { it.URL, it.Transition = evilOrigin+"/products", "script" }).
					click(offApp(p), "products-add-case").nav("/products", "typed").click(p, "products-add-case").
					agentEnd(AgentDone, "")
				return s, productsPage("products", "", 2, "")
			},
			want:  []string{"Click the Add to cart button in iPhone 17 :: tap => /products"},
			notes: []string{`it reached http://evil.example`},
		},
	})
}

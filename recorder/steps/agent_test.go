package steps

import (
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
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

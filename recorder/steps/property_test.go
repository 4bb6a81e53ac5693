package steps

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Random recordings over the shop's screens: whatever a person (or a
// confused extension) does, BuildSteps either builds a trail that loads
// back, holds no secret or sensitive value, and whose selectors name their
// targets, or says there is no step.

// shopScreens are the screens random recordings happen on.
func shopScreens() []*screen.Screen {
	return []*screen.Screen{
		loginPage("", "false", false),
		loginPage("ada", "true", true),
		productsPage("products", "", 0, ""),
		productsPage("search", "iphone", 1, "Added iPhone 17 to your cart."),
		cartPage("cart"),
		checkoutPage("co", checkoutState{}),
		checkoutPage("co2", checkoutState{applied: true, name: "Ada", country: "Germany", giftWrap: true, note: "a.txt"}),
		orderPage("order"),
		receiptPage("receipt"),
		accountPage("acct", false),
		accountPage("acct", true),
	}
}

// sensitiveRefs are elements showing the address a recording may mark.
var sensitiveRefs = []string{"acct-who-email", "acct-addr-text-a"}

// randomSession records n random interactions on screens.
func randomSession(rnd *rand.Rand, screens []*screen.Screen, n int) *session {
	s := newSession()
	pick := func(list []string) string { return list[rnd.IntN(len(list))] }
	values := []string{"ada", "iphone", "SUMMER", "", "${param:x}", "a\nb", testSensitive, "alic", "Ada Lovelace", "  spaced  "}
	keys := []string{"Enter", "Escape", "Tab", "a", " ", "Esc", "Unidentified", "ArrowDown"}
	mods := [][]string{nil, {"Control"}, {"Shift", "Meta"}, {"Ctrl"}, {"Hyper"}}
	paths := []string{"/login", "/products", "/products?q=iphone", "/cart", "/checkout", "/account", "/orders/TP-1001"}
	transitions := []string{"typed", "link", "reload", "back", "forward", "redirect", "script", "form", ""}
	for range n {
		sc := screens[rnd.IntN(len(screens))]
		m := selector.NewMatcher(sc)
		node := m.Nodes()[rnd.IntN(len(m.Nodes()))]
		ref := node.Ref
		if rnd.IntN(20) == 0 {
			ref = "e404" // an element not on the screen
		}
		s.after(int64(rnd.IntN(4000)))
		switch rnd.IntN(22) {
		case 0, 1, 2:
			s.clickWith(sc, ref, func(it *Interaction) {
				it.Count = rnd.IntN(3)
				it.Modifiers = mods[rnd.IntN(len(mods))]
				it.Button = pick([]string{"", "left", "right", "middle", "fourth"})
			})
		case 3, 4:
			if node.Secret {
				if rnd.IntN(3) == 0 {
					s.typ(sc, ref, testPassword) // sent by mistake: must never be written
				} else {
					s.secret(sc, ref, pick([]string{"password", "demo password!", ""}))
				}
			} else {
				s.typ(sc, ref, pick(values))
			}
		case 5:
			s.choose(sc, ref, pick([]string{"Germany", "France", testSensitive}))
		case 6:
			s.check(sc, ref)
		case 7:
			s.uncheck(sc, ref)
		case 8:
			s.hover(sc, ref)
		case 9:
			s.upload(sc, ref, pick([]string{"gift-note.txt", "/tmp/a b.pdf", `C:\x\y.png`, ""}))
		case 10:
			s.press(sc, pick(keys), mods[rnd.IntN(len(mods))]...)
		case 11:
			s.nav(pick(paths), pick(transitions))
		case 12:
			s.dialog(pick([]string{"alert", "confirm", "prompt"}), pick([]string{"Sure?", "", testSensitive}), rnd.IntN(2) == 0, pick([]string{"", "yes", testSensitive}))
		case 13:
			s.switchTab(1+rnd.IntN(2), pick(paths), pick([]string{"Receipt", "", "Order TP-1001"}))
		case 14:
			s.assertVisible(sc, ref)
		case 15:
			s.assertNotVisible(sc, pick([]string{"Out of stock", "", testSensitive, "Welcome"}))
		case 16:
			s.assertURL(sc)
		case 17:
			s.assertValue(sc, ref, pick(values))
		case 18:
			s.assertState(sc, ref, pick([]string{trail.StateChecked, trail.StateDisabled, "hidden"}), pick([]string{"true", "false", "mixed", "maybe"}))
		case 19:
			s.undo()
		case 20:
			if a := screens[len(screens)-2]; true {
				s.mark(a, sensitiveRefs[rnd.IntN(len(sensitiveRefs))])
			}
		case 21:
			s.click(sc, ref)
			s.recs[len(s.recs)-1].Before = nil // a capture that was lost
		}
	}
	return s
}

func TestBuildStepsRandomRecordings(t *testing.T) {
	screens := shopScreens()
	runs := 120
	if testing.Short() {
		runs = 30
	}
	built := 0
	for seed := range uint64(runs) {
		rnd := rand.New(rand.NewPCG(seed, 0x7a11))
		s := randomSession(rnd, screens, 5+rnd.IntN(30))
		checkRandomRecording(t, seed, s, screens)
		if !t.Failed() {
			built++
		}
		if t.Failed() {
			t.Fatalf("seed %d failed (recording of %d interactions)", seed, len(s.recs))
		}
	}
}

// checkRandomRecording builds the recording and checks the properties.
func checkRandomRecording(t *testing.T, seed uint64, s *session, screens []*screen.Screen) {
	t.Helper()
	o := BuildOptions{BaseURL: shopOrigin}
	final := screens[int(seed)%len(screens)]
	bt, err := BuildSteps(s.recs, final, o)
	if errors.Is(err, ErrNoSteps) {
		return
	}
	if err != nil {
		t.Fatalf("seed %d: BuildSteps() failed: %v", seed, err)
	}
	if len(bt.Steps) == 0 {
		t.Fatalf("seed %d: BuildSteps() returned no steps without ErrNoSteps", seed)
	}
	// The address is sensitive once the recording marked it; the password
	// always is (a secret field's value must never be written, even when
	// the extension sends it by mistake).
	secrets := []string{testPassword}
	for _, r := range s.recs {
		if r.Kind == InteractMarkSensitive {
			secrets = append(secrets, testSensitive)
			break
		}
	}
	checkBuilt(t, s.recs, final, o, bt, secrets)
	for _, st := range bt.Steps {
		if st.Intent == "" {
			t.Errorf("seed %d: a step has no intent: %+v", seed, st)
		}
		if (st.Act == "") == (len(st.Actions) == 0) {
			t.Errorf("seed %d: step %q has both or neither of act and actions", seed, st.Intent)
		}
		for _, a := range st.Actions {
			if a.Kind().IsAssertion() && len(st.Actions) > 1 {
				t.Errorf("seed %d: step %q mixes an assertion with other actions", seed, st.Intent)
			}
			if a.Kind().IsAssertion() && st.End != nil {
				t.Errorf("seed %d: assertion step %q has an end", seed, st.Intent)
			}
		}
	}
}

// FuzzBuildSteps builds recordings drawn from the fuzzer's seeds: whatever
// the extension reports, BuildSteps never panics and what it builds passes
// every check.
func FuzzBuildSteps(f *testing.F) {
	f.Add(uint64(1), uint64(2), uint8(10))
	f.Add(uint64(42), uint64(7), uint8(40))
	screens := shopScreens()
	f.Fuzz(func(t *testing.T, a, b uint64, n uint8) {
		rnd := rand.New(rand.NewPCG(a, b))
		s := randomSession(rnd, screens, int(n%64))
		checkRandomRecording(t, a, s, screens)
	})
}

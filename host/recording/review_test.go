package recording

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Tests of the save-time review (docs/review.md, "The review at save"): on
// a recording stored by the service's own operations, with no browser.

// checkoutScreen is a screen of the review's dataset in the wire form, at
// the test app's origin, in document d1.
func checkoutScreen(t testing.TB, name string) json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "recorder", "review", "testdata", "screens", name))
	if err != nil {
		t.Fatal(err)
	}
	var s screen.Screen
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	s.URL, s.Document, s.Title, s.Viewport = testOrigin+"/checkout", "d1", "Checkout", screenViewport
	out, err := screen.EncodeWire(&s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// recordCheckout records, on the checkout screen, the interactions given
// as "kind ref" (the first sends the screen), and stops with the checkout
// as it reads a moment later (another total, another count).
func recordCheckout(t testing.TB, svc *Service, session string, interactions ...string) StopOut {
	t.Helper()
	ctx := context.Background()
	tab := 7
	if _, err := svc.Start(ctx, StartIn{Tab: &tab, URL: testOrigin + "/checkout", Title: "Checkout",
		Viewport: &screenViewport, Session: session}); err != nil {
		t.Fatal(err)
	}
	for i, it := range interactions {
		kind, ref, _ := strings.Cut(it, " ")
		raw := fmt.Sprintf(`{"seq":%d,"time":%d,"tab":7,"url":"%s/checkout","kind":%q,"screen":"s1","ref":%q}`,
			i+1, 1733072400000+int64(i)*5000, testOrigin, kind, ref)
		in := InteractionIn{Session: session, Interaction: json.RawMessage(raw)}
		if i == 0 {
			in.Screen = checkoutScreen(t, "checkout-1.json")
		}
		if out, err := svc.Interaction(ctx, in); err != nil || !out.Added {
			t.Fatalf("interaction %d: %+v, %v", i+1, out, err)
		}
	}
	stop, err := svc.Stop(ctx, StopIn{Session: session, Screen: checkoutScreen(t, "checkout-2.json")})
	if err != nil {
		t.Fatal(err)
	}
	return stop
}

// checkoutIntents are the four steps' intents of the flow.
var checkoutIntents = map[string]string{
	"0": "the total is $42.00",
	"1": "the Pay button is shown",
	"2": "open the cart",
	"3": "the Total line is there",
}

// newModelService is newTestService with the user config's model at the
// scripted server.
func newModelService(t *testing.T, srv *modeltest.Server) *Service {
	t.Helper()
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	file := filepath.Join(home, ".config", "trailpin", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("model:\n  baseURL: "+srv.URL+"\n  name: scripted\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.Options{Getenv: getenv, Getwd: func() (string, error) { return home, nil }})
	if err != nil {
		t.Fatal(err)
	}
	svc := New(Options{Config: cfg, Getenv: getenv})
	t.Cleanup(svc.Close)
	dir := filepath.Join(home, "src", "shop")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := svc.ProjectSet(ctx, ProjectSetIn{Dir: dir, Create: true, Origin: testOrigin}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.ProjectAddApp(ctx, AddAppIn{Origin: testOrigin, Name: "shop"}); err != nil {
		t.Fatal(err)
	}
	return svc
}

func stepAt(out ReviewOut, step int) *ReviewedStep {
	for i := range out.Steps {
		if out.Steps[i].Step == step {
			return &out.Steps[i]
		}
	}
	return nil
}

// The review of the flow: the total pinned, the Pay button by
// presence, the cart link without its count; with no model it says so,
// and the save applies the picks and lists each change with its reason.
func TestReviewPicksAndSaveAppliesThem(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := context.Background()
	const session = "r-review"
	recordCheckout(t, svc, session, "assertVisible e15", "assertVisible e22", "click e5", "assertVisible e14")
	out, err := svc.Review(ctx, ReviewIn{Session: session, Intents: checkoutIntents})
	if err != nil {
		t.Fatal(err)
	}
	if out.Calls != 0 || out.Model != "" || !strings.Contains(out.Note, "no model configured") {
		t.Errorf("without a model the review says %q (calls %d, model %q), want it to say no model is configured", out.Note, out.Calls, out.Model)
	}
	for _, c := range []struct {
		step int
		want string
	}{{0, "42.00"}, {1, "pay"}} {
		rs := stepAt(out, c.step)
		if rs == nil {
			t.Fatalf("step %d is not reviewed: %+v", c.step, out.Steps)
		}
		if rs.By != PickedByEngine || !strings.Contains(strings.ToLower(rs.Options[rs.Pick-1].Selector), c.want) {
			t.Errorf("step %d (%s): picked %s by %s (%.2f), want one with %q by the engine; options %+v", c.step, rs.Intent,
				rs.Options[rs.Pick-1].Selector, rs.By, rs.Probability, c.want, rs.Options)
		}
		if len(rs.Reasons) == 0 || rs.Options[rs.Pick-1].Description == "" {
			t.Errorf("step %d: the pick says no reason or no description: %+v", c.step, rs)
		}
	}
	pay := stepAt(out, 1)
	if sel := pay.Options[pay.Pick-1].Selector; strings.Contains(sel, "42") {
		t.Errorf("the Pay button's presence is checked by %s, which pins the price", sel)
	}

	saved, err := svc.Save(ctx, SaveIn{Session: session, Title: "Checkout", Intents: checkoutIntents})
	if err != nil {
		t.Fatal(err)
	}
	db, err := svc.database(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v, err := db.Trail(ctx, saved.Trail)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trail.LoadTrail("saved.trail.yaml", v.Content)
	if err != nil {
		t.Fatal(err)
	}
	changed := map[int]bool{}
	for _, c := range saved.Changes {
		changed[c.Step] = true
		if c.Why == "" || c.From == c.To {
			t.Errorf("change %+v says no reason or changes nothing", c)
		}
		sel, _ := trail.ActionSelector(tr.Steps[c.Step].Actions[c.Action])
		if sel.String() != c.To {
			t.Errorf("step %d: the trail holds %s, the save says it wrote %s", c.Step, sel, c.To)
		}
	}
	for _, rs := range out.Steps {
		sel, _ := trail.ActionSelector(tr.Steps[rs.Step].Actions[rs.Action])
		if sel.String() != rs.Options[rs.Pick-1].Selector {
			t.Errorf("step %d: the trail holds %s, want the pick %s", rs.Step, sel, rs.Options[rs.Pick-1].Selector)
		}
		if changed[rs.Step] == rs.Options[rs.Pick-1].Recorded {
			t.Errorf("step %d: listed as changed = %v, but its pick is the recorder's choice = %v", rs.Step, changed[rs.Step], rs.Options[rs.Pick-1].Recorded)
		}
	}
	if len(saved.Changes) == 0 {
		t.Error("the save changed no selector, want the review's picks applied")
	}
	for _, word := range []string{"engine", "probab", "review", "reason"} {
		if strings.Contains(strings.ToLower(string(v.Content)), word) {
			t.Errorf("the trail file says %q: it records nothing of the review but the selectors:\n%s", word, v.Content)
		}
	}
}

// The person's choice wins over the pick, is listed with its reason, and
// a choice off the menu is refused saying what to send.
func TestSaveAppliesThePersonsChoice(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := context.Background()
	const session = "r-choice"
	recordCheckout(t, svc, session, "assertVisible e15", "assertVisible e22", "click e5", "assertVisible e14")
	if _, err := svc.Save(ctx, SaveIn{Session: session, Title: "Checkout", Choices: []ReviewChoice{{Step: 0, Action: 0, Option: 1}}}); !isCode(err, Invalid) || !strings.Contains(err.Error(), "send record.review") {
		t.Errorf("choices without a review: %v, want Invalid saying to send record.review", err)
	}
	out, err := svc.Review(ctx, ReviewIn{Session: session, Intents: checkoutIntents})
	if err != nil {
		t.Fatal(err)
	}
	rs := stepAt(out, 1)
	other := 1
	for other == rs.Pick || rs.Options[other-1].Recorded && other < len(rs.Options) {
		other++
	}
	if _, err := svc.Save(ctx, SaveIn{Session: session, Title: "Checkout", Intents: checkoutIntents,
		Choices: []ReviewChoice{{Step: 1, Action: 0, Option: len(rs.Options) + 1}}}); !isCode(err, Invalid) || !strings.Contains(err.Error(), "options 1 to") {
		t.Errorf("a choice off the menu: %v, want Invalid naming the options", err)
	}
	saved, err := svc.Save(ctx, SaveIn{Session: session, Title: "Checkout", Intents: checkoutIntents,
		Choices: []ReviewChoice{{Step: 1, Action: 0, Option: other}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range saved.Changes {
		if c.Step == 1 {
			if !rs.Options[other-1].Recorded && (c.To != rs.Options[other-1].Selector || !strings.HasPrefix(c.Why, "you chose it")) {
				t.Errorf("the person's choice saved as %+v, want %s because they chose it", c, rs.Options[other-1].Selector)
			}
			if rs.Options[other-1].Recorded {
				t.Errorf("choosing the recorder's choice is listed as a change: %+v", c)
			}
		}
	}
}

// record.choose makes the person's choice the pick, without a new review;
// record.save keeps it and says it was theirs.
func TestChooseThenSaveKeepsThePersonsChoice(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := context.Background()
	const session = "r-choose"
	recordCheckout(t, svc, session, "assertVisible e15", "assertVisible e22", "click e5", "assertVisible e14")
	if _, err := svc.Choose(ctx, ChooseIn{Session: session, Choices: []ReviewChoice{{Step: 0, Action: 0, Option: 2}}}); !isCode(err, Invalid) {
		t.Errorf("choose before a review: %v, want Invalid", err)
	}
	out, err := svc.Review(ctx, ReviewIn{Session: session, Intents: checkoutIntents})
	if err != nil {
		t.Fatal(err)
	}
	rs := stepAt(out, 0)
	other := 1
	for other == rs.Pick || rs.Options[other-1].Recorded {
		other++
	}
	chosen, err := svc.Choose(ctx, ChooseIn{Session: session, Choices: []ReviewChoice{{Step: 0, Action: 0, Option: other}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := stepAt(chosen, 0); got.Pick != other || got.By != PickedByPerson {
		t.Errorf("after choose, step 0 is %d by %s, want %d by the person", got.Pick, got.By, other)
	}
	saved, err := svc.Save(ctx, SaveIn{Session: session, Title: "Checkout", Intents: checkoutIntents})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range saved.Changes {
		if c.Step == 0 {
			found = true
			if c.To != rs.Options[other-1].Selector || !strings.HasPrefix(c.Why, "you chose it") {
				t.Errorf("the chosen option saved as %+v, want %s because you chose it", c, rs.Options[other-1].Selector)
			}
		}
	}
	if !found {
		t.Errorf("the person's choice is not among the changes %+v", saved.Changes)
	}
}

// A model is asked once, about the unsure steps only, never when the
// engine is sure of every step; its answer off the menu is ignored; and no
// secret value reaches its request.
func TestReviewAsksTheModelOnceAboutUnsureSteps(t *testing.T) {
	// A value the host knows as a secret, shown on the page (the heading
	// stands for a card number a page echoes).
	const secret = "Checkout"
	srv := modeltest.Start(t)

	// Sure of every step: no call.
	svc := newModelService(t, srv)
	ctx := context.Background()
	recordCheckout(t, svc, "r-sure", "assertVisible e15")
	out, err := svc.Review(ctx, ReviewIn{Session: "r-sure", Intents: map[string]string{"0": "the total is $42.00"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Steps) != 1 || out.Steps[0].By != PickedByEngine {
		t.Fatalf("the engine is not sure of the total: %+v", out.Steps)
	}
	if n := len(srv.Requests()); n != 0 || out.Calls != 0 {
		t.Errorf("the engine was sure of every step, and the model got %d requests (calls %d), want 0", n, out.Calls)
	}

	// Unsure steps: one call for all of them. The model answers one with
	// an option off the menu (ignored) and another with a real option.
	svc.learnValues(map[string]string{"card": secret})
	recordCheckout(t, svc, "r-unsure", "assertVisible e8", "assertVisible e14", "assertVisible e15")
	// Presence intents that name nothing of the element: the engine
	// (fitted on recorded sessions, where a vague "check it" keeps the
	// recorder's choice) is unsure which option checks only presence.
	intents := map[string]string{"0": "it is there", "1": "see it appears", "2": "the total is $42.00"}
	probe, err := svc.Review(ctx, ReviewIn{Session: "r-unsure", Intents: intents})
	if err != nil {
		t.Fatal(err)
	}
	var unsure []int
	for i, rs := range probe.Steps {
		if rs.By != PickedByEngine {
			unsure = append(unsure, i)
		}
	}
	if len(unsure) < 2 {
		t.Fatalf("want at least two steps the engine is unsure of, got %+v", probe.Steps)
	}
	before := len(srv.Requests())
	if probe.Calls != 1 || before != 1 {
		t.Fatalf("the review with unsure steps made %d calls (%d requests), want 1", probe.Calls, before)
	}
	// The probe's request was answered by no script (an error): the
	// recorder's choice stood, and said why.
	if !strings.Contains(probe.Note, "the model did not answer") {
		t.Errorf("a failed model call is said as %q", probe.Note)
	}
	first, second := probe.Steps[unsure[0]], probe.Steps[unsure[1]]
	want := 1
	if first.Options[0].Recorded && len(first.Options) > 1 {
		want = 2
	}
	srv.Script(modeltest.JSON(map[string]any{"answers": []map[string]any{
		{"step": 0, "option": want, "reason": "names the heading by its role"},
		{"step": 1, "option": len(second.Options) + 5, "reason": "off the menu"},
		{"step": 7, "option": 1, "reason": "no such step"},
	}}))
	out, err = svc.Review(ctx, ReviewIn{Session: "r-unsure", Intents: intents})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()) - before; n != 1 || out.Calls != 1 || out.Model != "scripted" {
		t.Errorf("the review made %d requests (calls %d, model %q), want exactly 1 to scripted", n, out.Calls, out.Model)
	}
	got := out.Steps[unsure[0]]
	if got.By != PickedByModel || got.Pick != want || got.Reason != "names the heading by its role" {
		t.Errorf("the model's answer on the menu: %+v, want option %d by the model with its reason", got, want)
	}
	if off := out.Steps[unsure[1]]; off.By != PickedByRecorder || !off.Options[off.Pick-1].Recorded {
		t.Errorf("the model's answer off the menu was not ignored: %+v", off)
	}

	reqs := srv.Requests()
	body := string(reqs[len(reqs)-1].Body)
	if strings.Contains(body, secret) {
		t.Errorf("the model's request holds a secret value:\n%s", body)
	}
	for _, want := range []string{"never instructions", "heading", `number\": 1`, "selector_review"} {
		if !strings.Contains(body, want) {
			t.Errorf("the model's request does not hold %q:\n%s", want, body)
		}
	}
	// Only the unsure steps are asked about.
	if strings.Contains(body, "the total is $42.00") {
		t.Errorf("the model was asked about a step the engine was sure of:\n%s", body)
	}
}

// TestReviewTimeFor50Steps logs how long the review of a 50-step
// recording takes without a model (docs/review.md; no assertion on time).
func TestReviewTimeFor50Steps(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := context.Background()
	refs := []string{"assertVisible e15", "assertVisible e22", "click e5", "assertVisible e14", "click e20"}
	var its []string
	intents := map[string]string{}
	for i := range 50 {
		its = append(its, refs[i%len(refs)])
		intents[fmt.Sprint(i)] = fmt.Sprintf("step %d: %s", i, []string{"the total is $42.00", "the Pay button is shown", "open the cart", "the Total line is there", "apply the coupon"}[i%len(refs)])
	}
	recordCheckout(t, svc, "r-fifty", its...)
	began := time.Now()
	out, err := svc.Review(ctx, ReviewIn{Session: "r-fifty", Intents: intents})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the review of a %d-step recording (%d steps reviewed) without a model: %d ms of menus and engine, %d ms for the whole record.review (the steps built again from the database included)",
		len(its), len(out.Steps), out.Millis, time.Since(began).Milliseconds())
}

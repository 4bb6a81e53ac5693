package replay

import (
	"bytes"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/agent/model"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/recorder/trail"
)

// pinLookup gives the agent fixture's staff PIN.
func pinLookup(ref trail.Ref) (string, error) {
	if ref.Kind == trail.RefSecret && ref.Name == "staff-pin" {
		return staffPIN, nil
	}
	return "", &MissingValueError{Ref: ref, Variable: EnvVariable(ref)}
}

// agentOptions are a run's options with the agent on the scripted server,
// the generic policy answering (with opts), and short waits.
func agentOptions(t *testing.T, policy ...agenttest.PolicyOption) (Options, *modeltest.Server) {
	t.Helper()
	srv := modeltest.Start(t, modeltest.WithKey(agentModelKey), modeltest.WithPolicy(agenttest.Policy(policy...)))
	client, err := model.New(model.Config{BaseURL: srv.URL, Name: "scripted", APIKeyEnv: "REPLAY_AGENT_KEY"},
		model.WithGetenv(func(k string) string {
			if k == "REPLAY_AGENT_KEY" {
				return agentModelKey
			}
			return ""
		}), model.WithBackoff(10*time.Millisecond, 50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &agent.Config{Client: client, MaxActions: 10, StepDeadline: 90 * time.Second, Calls: model.NewCallBudget(50)}
	return Options{ActionTimeout: 3 * time.Second, ReplayTimeout: 3 * time.Second, Lookup: pinLookup, Agent: cfg}, srv
}

// The step hands off after 2 of its 3 recorded actions (Apply is Redeem
// now); the agent taps Redeem, the end state shows, and the step is healed
// with the clean new flow, saveable.
func TestRunTrailHandOffHeals(t *testing.T) {
	t.Parallel()
	tr := agentTrail(t, `type: {selector: {role: textbox, name: Discount code}, text: SUMMER}`)
	opts, srv := agentOptions(t)
	res := replayOn(t, tr, site.URL, opts)
	st := res.Steps[0]
	h := st.Heal
	if res.Status != StatusHealed || st.Status != StatusHealed || h == nil {
		t.Fatalf("got %s (step %s), error %q; want healed", res.Status, st.Status, res.Error)
	}
	if h.Cache != CacheHandOff || st.Cache != CacheHandOff || h.Replayed != 2 || h.Stopped != StopTargetNotFound {
		t.Errorf("heal: cache %s/%s, replayed %d, stopped %s; want hand-off after 2 (target-not-found)", h.Cache, st.Cache, h.Replayed, h.Stopped)
	}
	if !h.Saveable() || !strings.Contains(h.Check, "end state of step 1") || h.Decision != "" {
		t.Errorf("heal: saveable %v, check %q, decision %q, not saved %q", h.Saveable(), h.Check, h.Decision, h.NotSaved)
	}
	if len(h.Actions) != 3 {
		t.Fatalf("new recording has %d actions, want 3: %+v", len(h.Actions), h.Actions)
	}
	if tap, ok := h.Actions[2].(trail.Tap); !ok || tap.Selector.Name != "Redeem" {
		t.Errorf("the new recording's last action is %+v, want a tap on Redeem", h.Actions[2])
	}
	reqs := srv.Requests()
	if len(reqs) == 0 || st.ModelCalls != len(reqs) || h.Calls != len(reqs) {
		t.Errorf("the server got %d requests; the step counts %d, the heal %d", len(reqs), st.ModelCalls, h.Calls)
	}
	if !strings.Contains(reqs[0].LastUserText(), "Replay stopped (target-not-found) after 2 of 3 recorded actions.") {
		t.Errorf("the first request does not carry the hand-off sentence:\n%s", reqs[0].LastUserText())
	}
	for i, req := range reqs {
		if bytes.Contains(req.Body, []byte(staffPIN)) || bytes.Contains(req.Body, []byte(agentModelKey)) {
			t.Errorf("request %d holds the PIN or the API key", i+1)
		}
		if bytes.Contains(req.Body, []byte("{role:")) || bytes.Contains(req.Body, []byte(`name: Apply`)) {
			t.Errorf("request %d shows the model a recorded selector:\n%s", i+1, req.LastUserText())
		}
	}
}

// With cache.strict the stale recording fails with REPLAY_STALE, and no
// model is called.
func TestRunTrailStrictIsStale(t *testing.T) {
	t.Parallel()
	tr := agentTrail(t, `type: {selector: {role: textbox, name: Discount code}, text: SUMMER}`)
	opts, srv := agentOptions(t)
	opts.Strict = true
	res := replayOn(t, tr, site.URL, opts)
	if res.Status != StatusFailed || !strings.HasPrefix(res.Error, "REPLAY_STALE: ") || res.Steps[0].Cache != CacheStale {
		t.Fatalf("got %s, cache %s, error %q; want failed with REPLAY_STALE", res.Status, res.Steps[0].Cache, res.Error)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("strict mode sent %d model requests, want 0", n)
	}
}

// Without a model the failure keeps its class and says how to configure
// one.
func TestRunTrailNoModelHint(t *testing.T) {
	t.Parallel()
	tr := agentTrail(t, `type: {selector: {role: textbox, name: Discount code}, text: SUMMER}`)
	res := replayOn(t, tr, site.URL, Options{ActionTimeout: 2 * time.Second, Lookup: pinLookup})
	if res.Status != StatusFailed || res.Class != ClassSelectorDrift || !strings.Contains(res.Error, ModelHint) {
		t.Fatalf("got %s, class %s, error %q; want selector-drift with the model hint", res.Status, res.Class, res.Error)
	}
	if res.Steps[0].Heal != nil || res.Steps[0].ModelCalls != 0 {
		t.Errorf("no model, yet a heal: %+v", res.Steps[0].Heal)
	}
}

// A wrong heal is never saved: the policy taps the wrong control, the end
// state does not show, the step fails and its heal is dropped.
func TestRunTrailWrongHealFails(t *testing.T) {
	t.Parallel()
	tr := agentTrail(t, `type: {selector: {role: textbox, name: Discount code}, text: SUMMER}`)
	opts, _ := agentOptions(t, agenttest.TapWrong())
	res := replayOn(t, tr, site.URL, opts)
	h := res.Steps[0].Heal
	if res.Status != StatusFailed || h == nil || h.Saveable() || h.Decision != HealDropped {
		t.Fatalf("got %s, error %q, heal %+v; want failed with a dropped heal", res.Status, res.Error, h)
	}
	t.Logf("wrong heal: %s (%s); not saved: %s", res.Error, res.Class, h.Reason)
}

// A model that answers only 500 fails the step within its budget, naming
// the failure; the recording is kept.
func TestRunTrailModelDown(t *testing.T) {
	t.Parallel()
	tr := agentTrail(t, `type: {selector: {role: textbox, name: Discount code}, text: SUMMER}`)
	opts, srv := agentOptions(t)
	for range 5 {
		srv.Script(modeltest.Failed(500, "upstream down"))
	}
	res := replayOn(t, tr, site.URL, opts)
	h := res.Steps[0].Heal
	if res.Status != StatusFailed || h == nil || h.Decision != HealKept || !strings.Contains(res.Error, "server-error") {
		t.Fatalf("got %s, error %q, heal %+v; want failed naming server-error, the recording kept", res.Status, res.Error, h)
	}
	if res.Class != ClassSelectorDrift {
		t.Errorf("class %s, want selector-drift (the recording is stale; the model could not help)", res.Class)
	}
}

// A bare goal runs the agent from the beginning, with no hand-off notice.
func TestRunTrailBareGoal(t *testing.T) {
	t.Parallel()
	tr := inlineTrail(t, `version: 1
trail: Discount
app: fixture
start: /agent_checkout.html
steps:
  - intent: apply the discount code SUMMER with the staff PIN ${secret:staff-pin}
    act: apply the discount code SUMMER with the staff PIN ${secret:staff-pin}
  - intent: see the discount
    actions:
      - assertVisible: {selector: {role: status, text: 10% off}}
`)
	opts, srv := agentOptions(t)
	res := replayOn(t, tr, site.URL, opts)
	st := res.Steps[0]
	if res.Status != StatusHealed || st.Heal == nil || st.Cache != CacheAgent || !st.Heal.Saveable() || !strings.Contains(st.Heal.Check, "assertVisible") {
		t.Fatalf("got %s, cache %s, error %q, heal %+v; want healed by the agent", res.Status, st.Cache, res.Error, st.Heal)
	}
	if first := srv.Requests()[0].LastUserText(); strings.Contains(first, "Replay stopped") {
		t.Errorf("a bare goal got a hand-off notice:\n%s", first)
	}
}

// A recording made for another wording of the goal is a miss: the agent
// performs the step from the beginning, with no hand-off notice, and
// replay does not touch the old recording; under cache.strict it is
// REPLAY_STALE.
func TestRunTrailKeyMismatchIsAMiss(t *testing.T) {
	t.Parallel()
	old := trail.StepKey(trail.Step{Intent: "apply the code SUMMER"}, agent.ConfigKey())
	src := `version: 1
trail: Discount
app: fixture
start: /agent_checkout.html
steps:
  - intent: apply the discount code SUMMER with the staff PIN ${secret:staff-pin}
    actions:
      - type: {selector: {role: textbox, name: Discount code}, text: SUMMER}
      - type: {selector: {role: textbox, name: Staff PIN}, text: "${secret:staff-pin}"}
      - tap: {selector: {role: button, name: Redeem}}
    end:
      shows:
        - {role: status, text: 10% off}
    key: ` + old + "\n"
	for _, strict := range []bool{false, true} {
		tr := inlineTrail(t, src)
		if tr.Steps[0].Key != old {
			t.Fatalf("the trail's step has key %q, want %q:\n%s", tr.Steps[0].Key, old, src)
		}
		opts, srv := agentOptions(t)
		opts.Strict = strict
		res := replayOn(t, tr, site.URL, opts)
		st := res.Steps[0]
		if strict {
			if res.Status != StatusFailed || !strings.HasPrefix(res.Error, "REPLAY_STALE: ") || len(srv.Requests()) != 0 {
				t.Errorf("strict: got %s, error %q, %d requests; want REPLAY_STALE and none", res.Status, res.Error, len(srv.Requests()))
			}
			continue
		}
		if res.Status != StatusHealed || st.Cache != CacheMiss || st.Performed != 0 || st.Actions[0].Status != StatusSkipped {
			t.Fatalf("got %s, cache %s, performed %d, error %q; want healed by a miss, nothing replayed", res.Status, st.Cache, st.Performed, res.Error)
		}
		if first := srv.Requests()[0].LastUserText(); strings.Contains(first, "Replay stopped") {
			t.Errorf("a miss got a hand-off notice:\n%s", first)
		}
	}
}

// A retry replays the flow an earlier attempt of the run healed, and never
// hands the step to the agent again: a step is healed at most once per run.
func TestRunTrailEarlierHeal(t *testing.T) {
	t.Parallel()
	tr := agentTrail(t, `type: {selector: {role: textbox, name: Discount code}, text: SUMMER}`)
	opts, srv := agentOptions(t)
	first := replayOn(t, tr, site.URL, opts)
	if first.Status != StatusHealed {
		t.Fatalf("first attempt: %s, %q", first.Status, first.Error)
	}
	calls := len(srv.Requests())
	opts.EarlierHeals = map[int][]trail.Action{0: first.Steps[0].Heal.Actions}
	again := replayOn(t, tr, site.URL, opts)
	if again.Status != StatusPassed || again.Steps[0].Cache != CacheHit || len(srv.Requests()) != calls {
		t.Errorf("the retry: %s, cache %s, %d more requests, error %q; want the healed flow replayed, no request",
			again.Status, again.Steps[0].Cache, len(srv.Requests())-calls, again.Error)
	}
	if tap, ok := tr.Steps[0].Actions[2].(trail.Tap); !ok || tap.Selector.Name != "Apply" {
		t.Errorf("the retry changed the trail the attempts share: %+v", tr.Steps[0].Actions[2])
	}
	// The healed flow no longer replays either: the step fails, and the
	// agent is not asked again.
	opts.EarlierHeals = map[int][]trail.Action{0: tr.Steps[0].Actions}
	stale := replayOn(t, tr, site.URL, opts)
	if stale.Status != StatusFailed || !strings.Contains(stale.Error, "a step is healed at most once per run") || len(srv.Requests()) != calls {
		t.Errorf("a stale retry: %s, %d more requests, error %q", stale.Status, len(srv.Requests())-calls, stale.Error)
	}
}

// Under cache.strict a bare goal, which has no recording to be stale, still
// runs the agent (a recorded step that no longer replays is REPLAY_STALE:
// TestRunTrailStrictIsStale); without a model it says to configure one, and
// that strict mode does not change this.
func TestRunTrailStrictBareGoal(t *testing.T) {
	t.Parallel()
	src := `version: 1
trail: Discount
app: fixture
start: /agent_checkout.html
steps:
  - intent: apply the discount code SUMMER with the staff PIN ${secret:staff-pin}
    act: apply the discount code SUMMER with the staff PIN ${secret:staff-pin}
  - intent: see the discount
    actions:
      - assertVisible: {selector: {role: status, text: 10% off}}
`
	opts, srv := agentOptions(t)
	opts.Strict = true
	res := replayOn(t, inlineTrail(t, src), site.URL, opts)
	st := res.Steps[0]
	if res.Status != StatusHealed || st.Cache != CacheAgent || st.Heal == nil || !st.Heal.Saveable() || len(srv.Requests()) == 0 {
		t.Fatalf("strict: got %s, cache %s, %d requests, error %q; want the agent to perform the bare goal", res.Status, st.Cache, len(srv.Requests()), res.Error)
	}
	noModel := Options{ActionTimeout: 2 * time.Second, Lookup: pinLookup, Strict: true}
	res = replayOn(t, inlineTrail(t, src), site.URL, noModel)
	if res.Status != StatusFailed || res.Class != ClassMissingTestData || !strings.Contains(res.Error, "no model is configured: configure a model") ||
		!strings.Contains(res.Error, "cache.strict") {
		t.Errorf("strict without a model: got %s (%s), error %q; want missing-test-data saying to configure a model, strict or not", res.Status, res.Class, res.Error)
	}
}

// A flow that left the app's origins is never saved: the agent taps a
// button whose script takes the page to another origin, where the step's
// end state shows. The step passes, but the heal names the origin and is
// not saveable.
func TestRunTrailHealThatLeftTheAppIsNotSaved(t *testing.T) {
	t.Parallel()
	away := url.QueryEscape(crossSite.URL + "/agent_offsite_done.html")
	tr := inlineTrail(t, `version: 1
trail: Voucher
app: fixture
start: /agent_offsite.html?away=`+away+`
steps:
  - intent: redeem the voucher
    actions:
      - tap: {selector: {role: button, name: Use voucher}}
    end:
      shows:
        - {role: status, text: 10% off}
`)
	opts, _ := agentOptions(t)
	res := replayOn(t, tr, site.URL, opts)
	h := res.Steps[0].Heal
	if h == nil || h.Verdict != string(agent.VerdictDone) {
		t.Fatalf("got %s, error %q, heal %+v; want the agent done", res.Status, res.Error, h)
	}
	other := agent.OriginOf(crossSite.URL)
	if !slices.Equal(h.OffOrigins, []string{other}) {
		t.Errorf("heal.OffOrigins = %q, want [%s]", h.OffOrigins, other)
	}
	if h.Saveable() || !strings.Contains(h.NotSaved, "left the app's origins ("+other+")") {
		t.Errorf("heal: saveable %v, not saved %q; want it never saved, naming %s", h.Saveable(), h.NotSaved, other)
	}
	if h.Decision != HealDropped {
		t.Errorf("heal decision %q, want %q", h.Decision, HealDropped)
	}
}

package e2e

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestAgentAPIActAndAssertChange: an outside client, allowed and given
// the shop's tab, hands the built-in agent a goal (tab.act, on the
// scripted model) and it adds the iPhone to the cart as the client; the
// client then asserts what that act changed (tab.assertChange): a check
// that does not hold is refused and recorded nothing, the ones that hold
// are recorded right after the tap, in the client's step. The trail
// replays green with no model.
func TestAgentAPIActAndAssertChange(t *testing.T) {
	t.Parallel()
	model := modeltest.Start(t, modeltest.WithKey(askModelKey), modeltest.WithPolicy(agenttest.Policy()))
	runtimeDir := TempDir(t)
	r := newRecordingRig(t, append(askModelEnv(model), "XDG_RUNTIME_DIR="+runtimeDir)...)
	app := r.b.OpenTab(t, r.shop.URL+"/login")
	r.app = app
	popup := r.openPopupFor(t, r.shop.URL+"/login")

	c := dialAgentAPI(t, runtimeDir)
	allowClient(t, popup, apiClient)
	shareTab(t, popup)
	list := apiCall[struct{ Tabs []agentapi.TabInfo }](t, c, agentapi.TypeTabsList, nil)
	if len(list.Tabs) != 1 {
		t.Fatalf("tabs.list: %+v", list.Tabs)
	}
	tab := list.Tabs[0].Tab
	started := apiCall[struct{ Session string }](t, c, agentapi.TypeRecordingStart, map[string]any{"tab": tab, "project": r.project, "app": "shop"})
	popupPhase(t, popup, "recording")

	signInByHand(t, app)

	// Nothing acted yet: nothing to check.
	apiRefused(t, c, agentapi.TypeTabAssertChange, map[string]any{"tab": tab, "changed": true}, nativemsg.CodeBadRequest, "tab.assertChange checks what your last act")

	snap := apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab, "mode": "full"})
	apiCall[struct{ Did string }](t, c, agentapi.TypeTabTap, map[string]any{"tab": tab, "ref": apiRefOf(t, snap, `link "iPhone 17"`)})
	appAt(t, app, "/products/iphone-17")

	// The built-in agent adds it to the cart, as the client.
	asked := len(model.Requests())
	acted := apiCall[struct {
		Verdict, Message string
		Did              []string
		Calls            int
	}](t, c, agentapi.TypeTabAct, map[string]any{"tab": tab, "goal": "Add to cart"})
	if acted.Verdict != "done" || len(acted.Did) != 1 || acted.Did[0] != `tapped button "Add to cart"` || acted.Calls == 0 {
		t.Fatalf("tab.act: %+v", acted)
	}
	if len(model.Requests()) == asked {
		t.Fatal("tab.act sent the model nothing")
	}
	for _, req := range model.Requests()[asked:] {
		if strings.Contains(string(req.Body), demo.Password) {
			t.Fatal("a model request holds the password")
		}
	}
	waitAcrossLoads(t, app, `document.body.innerText.includes('Added iPhone 17 to your cart.')`)

	// What the agent's tap changed: a wrong expectation is refused and
	// records nothing; the right ones are recorded after the tap.
	apiRefused(t, c, agentapi.TypeTabAssertChange, map[string]any{"tab": tab, "changed": false}, nativemsg.CodeBadRequest, "the change does not hold")
	apiCall[struct{ Did string }](t, c, agentapi.TypeTabAssertChange, map[string]any{"tab": tab, "changed": true})
	snap = apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab, "mode": "full"})
	inCart := apiRefOf(t, snap, "In your cart: 1")
	apiCall[struct{ Did string }](t, c, agentapi.TypeTabAssertChange, map[string]any{"tab": tab, "exists": []any{map[string]any{"ref": inCart}}})

	clickCSS(t, app, `a[href="/cart"]`)
	appAt(t, app, "/cart")

	saved := apiSave(t, c, started.Session, "Add an iPhone with the agent through the API")
	src, tr := saved.Src, saved.Trail
	found := false
	for _, s := range tr.Steps {
		for j, a := range s.Actions {
			if _, ok := a.(trail.AssertChange); !ok {
				continue
			}
			found = true
			if s.By != trail.ByAgent || s.Client != apiClient || j == 0 {
				t.Errorf("an assertChange is in step %q (by %q, client %q) at %d, want after the tap in the client's step:\n%s", s.Intent, s.By, s.Client, j, src)
			}
		}
	}
	if !found || strings.Count(string(src), "assertChange") != 2 || !strings.Contains(string(src), "changed: true") {
		t.Errorf("the trail should hold the two checks that held, and not the one that did not:\n%s", src)
	}
	r.checkNoPassword(t, saved.File)
	before := len(model.Requests())
	run := RunHost(t, append(replayEnv(t, false), "TRAILPIN_SECRET_PASSWORD="+demo.Password), nil,
		"replay", "--base-url", r.shop.URL, "--results", TempDir(t), saved.File)
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay of the trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, src)
	}
	if n := len(model.Requests()) - before; n != 0 {
		t.Errorf("replay sent the model %d requests, want none", n)
	}
}

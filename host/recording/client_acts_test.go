package recording

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/config"
)

// What an outside agent performed through the agent API in a recorded tab
// comes out marked by: agent with its client's name; the person's step in
// the same session stays the person's.
func TestClientSpanMarksTheClientsStepsOnly(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := context.Background()
	const session = "r-client"
	record(t, svc, session,
		`"kind":"type","screen":"s1","ref":"e5","value":"ada"`,
		`"kind":"click","screen":"s1","ref":"e7"`,
	)
	if err := svc.MarkClient(ClientSpan{Session: session, Tab: 7, From: 1, Until: 1, Client: "shop-bot"}); err != nil {
		t.Fatal(err)
	}
	// Another tab's span names none of this tab's interactions.
	if err := svc.MarkClient(ClientSpan{Session: session, Tab: 8, From: 2, Until: 2, Client: "other"}); err != nil {
		t.Fatal(err)
	}
	stop, err := svc.Stop(ctx, StopIn{Session: session, Screen: loginScreen()})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stop.YAML, "client: shop-bot"); n != 1 {
		t.Errorf("the trail names the client %d times, want once (its typing only):\n%s", n, stop.YAML)
	}
	if strings.Count(stop.YAML, "by: agent") != 1 || strings.Contains(stop.YAML, "other") {
		t.Errorf("only the client's step is the agent's:\n%s", stop.YAML)
	}
	if i, j := strings.Index(stop.YAML, "client: shop-bot"), strings.Index(stop.YAML, "Click the Sign in button"); i < 0 || j < i {
		t.Errorf("the person's click should follow the client's typing:\n%s", stop.YAML)
	}
}

// The origins an act may run on are the recording's app's.
func TestAppOriginsOfARecordedTab(t *testing.T) {
	svc, _ := newTestService(t)
	record(t, svc, "r-origins", `"kind":"click","screen":"s1","ref":"e7"`)
	got, err := svc.AppOrigins(context.Background(), "r-origins", "http://elsewhere.test/x")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0] != testOrigin {
		t.Errorf("origins %q, want the recording's app %s first", got, testOrigin)
	}
	if _, err := svc.AppOrigins(context.Background(), "", "chrome://newtab"); err == nil {
		t.Error("a tab off http(s) has no app origins, and should say so")
	}
}

// An outside agent's assertChange arrives whole (the trail's keys, checked
// by the host on the page before it was recorded) and is written right
// after the client's action, in its step, marked as the client's.
func TestClientsWholeAssertChangeFollowsItsAction(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := context.Background()
	const session = "r-client-change"
	record(t, svc, session,
		`"kind":"click","screen":"s1","ref":"e7"`,
		`"kind":"assertChange","screen":"s1","assertChange":{"mustInclude":[{"change":"added","selector":{"role":"dialog","name":"Welcome"}}]}`,
	)
	if err := svc.MarkClient(ClientSpan{Session: session, Tab: 7, From: 1, Until: 2, Client: "shop-bot"}); err != nil {
		t.Fatal(err)
	}
	stop, err := svc.Stop(ctx, StopIn{Session: session, Screen: loginScreen()})
	if err != nil {
		t.Fatal(err)
	}
	want := "- tap: {selector: {role: button, name: Sign in}}\n      - assertChange:"
	if !strings.Contains(stop.YAML, want) || !strings.Contains(stop.YAML, "{change: added, selector: {role: dialog, name: Welcome}}") {
		t.Errorf("the client's check should follow its tap:\n%s", stop.YAML)
	}
	if !strings.Contains(stop.YAML, "client: shop-bot") {
		t.Errorf("the step should be the client's:\n%s", stop.YAML)
	}
}

// A whole assertChange in other words than the trail's, or one a trail
// cannot hold, is refused on arrival and nothing is stored.
func TestWholeAssertChangeIsReadExactly(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := context.Background()
	const session = "r-client-change-bad"
	record(t, svc, session, `"kind":"click","screen":"s1","ref":"e7"`)
	for _, bad := range []string{
		`{"Changed":true}`,
		`{"changed":true,"url":"/x"}`,
		`{}`,
	} {
		raw := `{"seq":2,"time":1733072409000,"tab":7,"url":"` + testOrigin + `/login","kind":"assertChange","screen":"s1","assertChange":` + bad + `}`
		if _, err := svc.Interaction(ctx, InteractionIn{Session: session, Interaction: []byte(raw)}); err == nil || !strings.Contains(err.Error(), "assertChange") {
			t.Errorf("%s: %v, want a refusal that names assertChange", bad, err)
		}
	}
}

// An outside agent's goal (tab.act) gets the built-in agent on the
// person's model, acting only on the recording's app's origins; with no
// model configured it is refused with the settings to add.
func TestClientAgentUsesThePersonsModelAndTheAppsOrigins(t *testing.T) {
	svc, dir := newTestService(t)
	ctx := context.Background()
	record(t, svc, "r-client-agent", `"kind":"click","screen":"s1","ref":"e7"`)
	if _, err := svc.ClientAgent(ctx, "r-client-agent", testOrigin+"/login", "Sign in"); err == nil || !strings.Contains(err.Error(), "No model is configured") {
		t.Fatalf("no model: %v, want the settings to add", err)
	}
	yaml := "apps:\n  shop:\n    baseURL: " + testOrigin + "\nmodel:\n  baseURL: http://127.0.0.1:9/v1\n  name: scripted\n"
	if err := os.WriteFile(filepath.Join(dir, "trailpin.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	home := filepath.Dir(filepath.Dir(dir))
	svc.opts.LoadConfig = func(file string) (*config.Config, error) {
		getenv := func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		}
		return config.Load(config.Options{ConfigFile: file, Getenv: getenv, Getwd: func() (string, error) { return dir, nil }})
	}
	ca, err := svc.ClientAgent(ctx, "r-client-agent", "http://elsewhere.test/x", "Sign in")
	if err != nil {
		t.Fatal(err)
	}
	if ca.Model != "scripted" || ca.Config.Client == nil || len(ca.Config.Origins) != 1 || ca.Config.Origins[0] != testOrigin || ca.Config.App != "shop" {
		t.Errorf("the agent is %+v, want the project's model on the app's origin", ca)
	}
	if _, err := svc.ClientAgent(ctx, "r-client-agent", testOrigin+"/login", " "); err == nil {
		t.Error("an empty goal should be refused")
	}
}

// A client's tab.type of ${secret:NAME} into a secret field is recorded by
// the recorder under the name it makes from the field; the host noted the
// secret the act typed, and the step reads that one at replay.
func TestClientSecretSpanNamesTheTypedSecret(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := context.Background()
	const session = "r-client-secret"
	record(t, svc, session,
		`"kind":"type","screen":"s1","ref":"e5","value":"ada"`,
		`"kind":"type","screen":"s1","ref":"e6","secret":"password"`,
	)
	if err := svc.MarkClient(ClientSpan{Session: session, Tab: 7, From: 2, Until: 2, Client: "shop-bot"}); err != nil {
		t.Fatal(err)
	}
	if err := svc.MarkClient(ClientSpan{Session: session, Tab: 7, From: 2, Until: 2, Secret: "demo-password"}); err != nil {
		t.Fatal(err)
	}
	stop, err := svc.Stop(ctx, StopIn{Session: session, Screen: loginScreen()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stop.YAML, "${secret:demo-password}") || strings.Contains(stop.YAML, "${secret:password}") {
		t.Errorf("the client's typing should read the secret it typed, demo-password:\n%s", stop.YAML)
	}
	if n := strings.Count(stop.YAML, "client: shop-bot"); n != 1 {
		t.Errorf("the client's step is marked %d times, want once:\n%s", n, stop.YAML)
	}
}

// The host restarted in the middle of a recording (a new Service on the
// same database, as a new host process is): the spans the first one noted
// are stored with the recording, so the client's typing still reads the
// secret it typed, by name, and is still the client's. The database holds
// the secret's name, never a value.
func TestClientSpansOutliveAHostRestart(t *testing.T) {
	first, _ := newTestService(t)
	ctx := context.Background()
	const session = "r-client-restart"
	record(t, first, session,
		`"kind":"type","screen":"s1","ref":"e5","value":"ada"`,
		`"kind":"type","screen":"s1","ref":"e6","secret":"password"`,
	)
	if err := first.MarkClient(ClientSpan{Session: session, Tab: 7, From: 2, Until: 2, Client: "shop-bot"}); err != nil {
		t.Fatal(err)
	}
	if err := first.MarkClient(ClientSpan{Session: session, Tab: 7, From: 2, Until: 2, Secret: "demo-password"}); err != nil {
		t.Fatal(err)
	}
	db, err := first.database(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := db.ClientSpans(ctx, session)
	if err != nil || len(stored) != 2 || stored[1].Secret != "demo-password" || stored[0].Client != "shop-bot" {
		t.Fatalf("stored spans %+v, %v", stored, err)
	}
	cfg, err := first.config()
	if err != nil {
		t.Fatal(err)
	}
	first.Close()

	second := New(Options{Config: cfg, Getenv: first.opts.Getenv})
	t.Cleanup(second.Close)
	stop, err := second.Stop(ctx, StopIn{Session: session, Screen: loginScreen()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stop.YAML, "${secret:demo-password}") || strings.Contains(stop.YAML, "${secret:password}") {
		t.Errorf("after a restart, the client's typing should read the secret it typed, demo-password:\n%s", stop.YAML)
	}
	if n := strings.Count(stop.YAML, "client: shop-bot"); n != 1 {
		t.Errorf("after a restart, the client's step is marked %d times, want once:\n%s", n, stop.YAML)
	}
}

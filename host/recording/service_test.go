package recording

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Protocol tests of the service: its typed operations on a database in a
// temporary folder, with no browser and no door.

const testOrigin = "http://shop.test:8080"

// newTestService is a service whose user config, data and project live in
// a temporary home; the project has the app "shop" at testOrigin.
func newTestService(t *testing.T) (*Service, string) {
	t.Helper()
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
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
	return svc, dir
}

// wireEl is an element in the page model's wire form
// (docs/screen-schema.md): ref, role, tag, flags (1 visible, 8 secret),
// box, name, text, extras, children.
func wireEl(ref, role, tag string, flags int, name string, kids ...string) string {
	children := "0"
	if len(kids) > 0 {
		children = "[" + strings.Join(kids, ",") + "]"
	}
	return fmt.Sprintf(`[%q,%q,%q,%d,[40,100,300,32],%q,0,0,%s]`, ref, role, tag, flags, name, children)
}

// loginScreen is the login page in the wire form: a user name field, a
// password field the page marks secret, and a button.
func loginScreen() json.RawMessage {
	root := wireEl("e1", "document", "html", 1, "",
		wireEl("e2", "generic", "body", 1, "",
			wireEl("e5", "textbox", "input", 1, "Username"),
			wireEl("e6", "textbox", "input", 1|8, "Password"),
			wireEl("e7", "button", "button", 1, "Sign in")))
	return json.RawMessage(`{"schema":1,"document":"d1","url":"` + testOrigin + `/login","title":"Sign in","viewport":{"width":1280,"height":800},"root":` + root + `}`)
}

// record sends the interactions (JSON objects without seq, time and tab)
// in order, the first that names a screen with the login screen.
func record(t *testing.T, svc *Service, session string, interactions ...string) {
	t.Helper()
	ctx := context.Background()
	tab := 7
	if _, err := svc.Start(ctx, StartIn{Tab: &tab, URL: testOrigin + "/login", Title: "Sign in",
		Viewport: &screenViewport, Session: session}); err != nil {
		t.Fatal(err)
	}
	sent := false
	for i, it := range interactions {
		raw := fmt.Sprintf(`{"seq":%d,"time":%d,"tab":7,"url":"%s/login",%s}`, i+1, 1733072400000+int64(i)*1000, testOrigin, it)
		in := InteractionIn{Session: session, Interaction: json.RawMessage(raw)}
		if !sent && strings.Contains(it, `"screen"`) {
			in.Screen, sent = loginScreen(), true
		}
		if out, err := svc.Interaction(ctx, in); err != nil || !out.Added {
			t.Fatalf("interaction %d: %+v, %v", i+1, out, err)
		}
	}
}

// Renaming a secret in the popup renames every reference to it in the
// trail saved: the typed text, and the goal the agent was asked (a step's
// intent and act, which replay offers the agent), so that replay asks for
// the secret by its new name everywhere.
func TestSaveRenamesASecretEverywhere(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := context.Background()
	const session = "r-rename"
	record(t, svc, session,
		`"kind":"agentStart","text":"Sign in with ${secret:demo-password}"`,
		`"kind":"type","screen":"s1","ref":"e6","secret":"demo-password"`,
		`"kind":"click","screen":"s1","ref":"e7"`,
		`"kind":"agentEnd","state":"done","message":"signed in"`,
	)
	stop, err := svc.Stop(ctx, StopIn{Session: session, Screen: loginScreen()})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(stop.Secrets, []string{"demo-password"}) {
		t.Fatalf("Stop lists secrets %q, want [demo-password]", stop.Secrets)
	}
	saved, err := svc.Save(ctx, SaveIn{Session: session, Title: "Sign in",
		Secrets: map[string]string{"demo-password": "shop_password"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(saved.Secrets, []string{"shop_password"}) {
		t.Errorf("Save says the trail needs %q, want [shop_password]", saved.Secrets)
	}
	db, err := svc.database(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v, err := db.Trail(ctx, saved.Trail)
	if err != nil {
		t.Fatal(err)
	}
	content := string(v.Content)
	if strings.Contains(content, "demo-password") {
		t.Errorf("the saved trail still names the secret's old name:\n%s", content)
	}
	tr, err := trail.LoadTrail("saved.trail.yaml", v.Content)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range tr.Steps {
		texts = append(texts, s.Intent, s.Act)
		for _, a := range s.Actions {
			if tt, ok := a.(trail.TypeText); ok {
				texts = append(texts, tt.Text)
			}
		}
	}
	for _, want := range []string{"Sign in with ${secret:shop_password}", "${secret:shop_password}"} {
		if !slices.Contains(texts, want) {
			t.Errorf("the saved trail has no %q among its intents, acts and typed texts %q:\n%s", want, texts, content)
		}
	}
}

// screenViewport is the recorded tab's viewport.
var screenViewport = screen.Viewport{Width: 1280, Height: 800}

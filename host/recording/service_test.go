package recording

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage/storagetest"
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

// The operations refuse what they cannot serve with an *Error whose code
// the doors map to their own, and whose message says what to send.
func TestOperationsRefuseWithTypedErrors(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := context.Background()
	tab := 1
	for name, c := range map[string]struct {
		call func() error
		code ErrorCode
		says string
	}{
		"no session": {func() error { _, err := svc.Resume(ctx, SessionIn{}); return err }, Invalid,
			"session is missing: send the id record.start returned"},
		"a session id of storage's rule only": {func() error { _, err := svc.Stop(ctx, StopIn{Session: "r/1"}); return err }, Invalid,
			`session "r/1" is not a session id`},
		"a session the host does not have": {func() error { _, err := svc.Resume(ctx, SessionIn{Session: "r-none"}); return err }, Invalid,
			"r-none"},
		"start without a viewport": {func() error { _, err := svc.Start(ctx, StartIn{Tab: &tab, URL: testOrigin}); return err }, Invalid,
			"viewport is missing"},
		"start with a bad session id": {func() error {
			_, err := svc.Start(ctx, StartIn{Tab: &tab, URL: testOrigin, Viewport: &screenViewport, Session: strings.Repeat("x", 65)})
			return err
		}, Invalid, "choose 1 to 64 letters"},
		"a screen not in the wire form": {func() error {
			_, err := svc.Changes(ctx, ChangesIn{Session: "r-1", Screen: json.RawMessage(`{"schema":1,"root":{"no":"array"}}`)})
			return err
		}, Invalid, "is not a screen in the page model's wire form"},
		"an outside agent's name on two lines": {func() error {
			_, err := svc.Interaction(ctx, InteractionIn{Session: "r-1", Interaction: json.RawMessage(
				`{"seq":1,"kind":"navigate","url":"` + testOrigin + `/","transition":"typed","client":"agent\nby: robot"}`)})
			return err
		}, Invalid, "client must be the outside agent's name on one line"},
		"the agent without a tab": {func() error { _, err := svc.AskAgent(ctx, AskIn{Session: "r-1", Goal: "x"}); return err }, 0,
			"no way to the recorded tab"},
	} {
		err := c.call()
		var re *Error
		switch {
		case c.code == 0 && errors.As(err, &re):
			t.Errorf("%s: %v is an *Error, want the host's own failure", name, err)
		case c.code != 0 && (!errors.As(err, &re) || re.Code != c.code):
			t.Errorf("%s: got %#v, want an *Error with code %d", name, err, c.code)
		case err == nil || !strings.Contains(err.Error(), c.says):
			t.Errorf("%s: %v, want it to say %q", name, err, c.says)
		}
	}

	// Without a configuration, an operation that needs it is Internal.
	bare := New(Options{})
	if _, err := bare.ProjectList(ctx, ProjectListIn{}); !isCode(err, Internal) {
		t.Errorf("ProjectList without a configuration: %v, want Internal", err)
	}
}

func isCode(err error, code ErrorCode) bool {
	var re *Error
	return errors.As(err, &re) && re.Code == code
}

// A damaged database is a Damaged error, whose message says how to move
// the file aside, for every operation that needs it, and the service
// remembers it.
func TestDamagedDatabaseIsDamagedError(t *testing.T) {
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
	path := cfg.DBPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	storagetest.FilledDatabase(t, path)
	storagetest.Damage(t, path, storagetest.Truncated)
	svc := New(Options{Config: cfg, Getenv: getenv})
	defer svc.Close()
	ctx := context.Background()
	svc.CheckDatabase(ctx)
	for range 2 {
		_, err := svc.Resume(ctx, SessionIn{Session: "r-1"})
		if !isCode(err, Damaged) || !strings.Contains(err.Error(), "mv "+path+" "+path+".damaged") {
			t.Errorf("Resume on a damaged database: %v, want Damaged saying how to move it aside", err)
		}
	}
	if _, err := svc.ProjectList(ctx, ProjectListIn{}); err != nil {
		t.Errorf("ProjectList needs no database, got %v", err)
	}
}

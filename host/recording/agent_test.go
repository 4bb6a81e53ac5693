package recording

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage/secrets"
)

// The origins Ask the agent may act on are the recorded app's: its base
// URL first, then apps.<name>.origins; a page of no app of the project is
// its own origin alone.
func TestAppOrigins(t *testing.T) {
	dir := t.TempDir()
	yaml := "apps:\n  shop:\n    baseURL: http://localhost:3000\n    origins:\n      - https://login.example.com\n  admin:\n    baseURL: http://localhost:4000\n"
	if err := os.WriteFile(filepath.Join(dir, config.ProjectFileName), []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := config.LoadProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		origin, app string
		want        []string
	}{
		{"http://localhost:3000", "shop", []string{"http://localhost:3000", "https://login.example.com"}},
		{"http://localhost:4000", "admin", []string{"http://localhost:4000"}},
		{"http://localhost:5000", "", []string{"http://localhost:5000"}},
	} {
		got, app := appOrigins(p, c.origin)
		if !slices.Equal(got, c.want) || app != c.app {
			t.Errorf("appOrigins(%s) = %q, %q; want %q, %q", c.origin, got, app, c.want, c.app)
		}
	}
	if got, app := appOrigins(nil, "http://localhost:3000"); !slices.Equal(got, []string{"http://localhost:3000"}) || app != "" {
		t.Errorf("appOrigins without a project = %q, %q", got, app)
	}
}

// A goal offers the references it names and the secrets the person
// offered by name, each with a value; never the project's other secrets.
func TestOfferedRefs(t *testing.T) {
	env := map[string]string{secrets.SecretEnv("demo-password"): "pw", secrets.SecretEnv("api-key"): "k", secrets.UserEnv("admin", "password"): "a"}
	cfg := secrets.Config{Secrets: map[string]secrets.Value{"demo-password": {}, "prod-db": secrets.Given("db"), "api-key": {}}}
	res := secrets.NewResolver(cfg, func(k string) string { return env[k] })
	names := func(refs []trail.Ref) []string {
		var out []string
		for _, r := range refs {
			out = append(out, r.String())
		}
		return out
	}
	got, err := offeredRefs("Sign in with ${secret:demo-password} and ${user:admin.password}", []string{"api-key", "demo-password"}, res)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"${secret:demo-password}", "${user:admin.password}", "${secret:api-key}"}; !slices.Equal(names(got), want) {
		t.Errorf("offered %q, want %q (never ${secret:prod-db})", names(got), want)
	}
	if got, err := offeredRefs("Add the iPhone to the cart", nil, res); err != nil || len(got) != 0 {
		t.Errorf("a goal that names none is offered %q, %v; want none", names(got), err)
	}
	for goal, want := range map[string]string{
		"Type ${secret:missing}":    "TRAILPIN_SECRET_MISSING",
		"Search for ${param:q}":     "a recording has no params",
		"Type ${user:bob.password}": "TRAILPIN_USER_BOB_PASSWORD",
	} {
		if _, err := offeredRefs(goal, nil, res); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("offeredRefs(%q) = %v, want an error naming %s", goal, err, want)
		}
	}
	if _, err := offeredRefs("Sign in", []string{"bad name}"}, res); err == nil {
		t.Error("a name that is no secret's was offered")
	}
}

// A recording whose model is allowed over plain http beyond this machine
// says so in the host's log once per process, however many goals it
// prepares; one over loopback says nothing.
func TestRecordAgentSaysOnceTheKeyGoesOverPlainHTTP(t *testing.T) {
	const notice = "model.allowInsecureHTTP is true: the API key in $LAN_MODEL_KEY goes to 10.0.0.5:8000 over plain http"
	for _, tt := range []struct {
		name, baseURL, allow string
		want                 int
	}{
		{"allowed", "http://10.0.0.5:8000/v1", "  allowInsecureHTTP: true\n", 1},
		{"loopback", "http://127.0.0.1:8000/v1", "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			yaml := "apps:\n  shop:\n    baseURL: http://localhost:3000\nmodel:\n  baseURL: " + tt.baseURL + "\n  name: m\n  apiKeyEnv: LAN_MODEL_KEY\n" + tt.allow
			file := filepath.Join(dir, config.ProjectFileName)
			if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			getenv := func(k string) string {
				switch k {
				case "LAN_MODEL_KEY":
					return "tk-lan-model-key-5150"
				case "HOME":
					return dir
				}
				return ""
			}
			cfg, err := config.Load(config.Options{ConfigFile: file, Getenv: getenv, Getwd: func() (string, error) { return dir, nil }})
			if err != nil {
				t.Fatal(err)
			}
			var log strings.Builder
			svc := New(Options{Config: cfg, Log: slog.New(slog.NewTextHandler(&log, nil)), Getenv: getenv})
			for range 3 {
				if _, err := svc.agent.setup("", "open the shop", nil); err != nil {
					t.Fatalf("setup: %v", err)
				}
			}
			if got := strings.Count(log.String(), notice); got != tt.want {
				t.Errorf("the log says it %d times, want %d:\n%s", got, tt.want, log.String())
			}
			if strings.Contains(log.String(), "tk-lan-model-key-5150") {
				t.Error("the log shows the key")
			}
		})
	}
}

// fakeTab answers page requests as told, and records what it was sent.
type fakeTab struct {
	answer PageAnswer
	err    error
	block  bool
	sent   []PageRequest
}

func (f *fakeTab) Page(ctx context.Context, req PageRequest) (PageAnswer, error) {
	f.sent = append(f.sent, req)
	if f.block {
		<-ctx.Done()
		return PageAnswer{}, ctx.Err()
	}
	return f.answer, f.err
}
func (f *fakeTab) Progress(AgentProgress) {}
func (f *fakeTab) Done(AgentDone) error   { return nil }

// The agent's page requests go through the door's Tab: an act carries the
// origins and the action timeout, and the door's answers become the
// agent's errors (a stale ref, a page gone, an act refused off the app).
func TestLiveTabRequestsThroughTheTab(t *testing.T) {
	ctx := context.Background()
	goal := &liveGoal{id: "g-1", session: "r-1", text: "x"}
	newTab := func(f *fakeTab) *liveTab {
		return &liveTab{tab: f, goal: goal, origin: "http://shop.test", origins: []string{"http://shop.test"}, actionTimeout: time.Second}
	}
	f := &fakeTab{answer: PageAnswer{OK: true}}
	if _, err := newTab(f).request(ctx, PageRequest{Op: "press", Key: "Enter"}); err != nil {
		t.Fatal(err)
	}
	if r := f.sent[0]; r.Session != "r-1" || r.Goal != "g-1" || r.TimeoutMs != 1000 || !slices.Equal(r.Origins, []string{"http://shop.test"}) {
		t.Errorf("sent %+v, want the session, goal, timeout and origins", r)
	}
	for _, c := range []struct {
		tab  *fakeTab
		want error
	}{
		{&fakeTab{answer: PageAnswer{Reason: "stale", Error: "gone from the page"}}, agent.ErrStaleRef},
		{&fakeTab{answer: PageAnswer{Reason: "gone"}}, agent.ErrPageGone},
		{&fakeTab{err: errors.New("broken pipe")}, agent.ErrPageGone},
	} {
		if _, err := newTab(c.tab).request(ctx, PageRequest{Op: "tap"}); !errors.Is(err, c.want) {
			t.Errorf("answer %+v / %v: got %v, want %v", c.tab.answer, c.tab.err, err, c.want)
		}
	}
	var off *agent.OffOriginError
	if _, err := newTab(&fakeTab{answer: PageAnswer{Reason: "refused", Origin: "https://evil.test", Why: "a link to it"}}).request(ctx, PageRequest{Op: "tap"}); !errors.As(err, &off) || off.Origin != "https://evil.test" {
		t.Errorf("a refused act: %v, want an OffOriginError naming the origin", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := newTab(&fakeTab{block: true}).request(cctx, PageRequest{Op: "screen"}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled goal: %v, want context.Canceled", err)
	}
}

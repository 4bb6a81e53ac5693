package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/config"
)

func TestProjectCommands(t *testing.T) {
	repo := cliRepo(t)
	userFile := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "trailpin", "config.yaml")

	if _, _, err := run(t, nil, "project", "init"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("host project init (again) error = %v, want fs.ErrExist", err)
	}
	if out := mustRun(t, nil, "project", "list"); !strings.Contains(out, "no projects yet") {
		t.Errorf("host project list (none) printed %q", out)
	}
	if out := mustRun(t, nil, "project", "add", "--use"); out != "project repo: "+repo+"\nrecordings now go into repo\n" {
		t.Errorf("host project add --use printed %q", out)
	}
	other := filepath.Join(filepath.Dir(repo), "admin")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, nil, "project", "add", other); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "host project init "+other) {
		t.Errorf("host project add (no trailpin.yaml) error = %v, want how to create one", err)
	}
	mustRun(t, nil, "project", "init", other)
	if out := mustRun(t, nil, "project", "add", other, "--name", "Back office"); out != "project Back office: "+other+"\n" {
		t.Errorf("host project add --name printed %q", out)
	}
	if out := mustRun(t, nil, "project", "use", "../admin"); out != "recordings now go into Back office ("+other+")\n" {
		t.Errorf("host project use (by folder) printed %q", out)
	}
	out := mustRun(t, nil, "project", "list")
	if !strings.Contains(out, "  repo ") || !strings.Contains(out, "* Back office") {
		t.Errorf("host project list printed\n%s\nwant Back office marked current", out)
	}
	if _, _, err := run(t, nil, "project", "use", "nope"); !errors.Is(err, config.ErrUnknownProject) {
		t.Errorf("host project use (unknown) error = %v", err)
	}
	p, err := config.CurrentProject(userFile)
	if err != nil || p.Dir != other {
		t.Errorf("currentProject = %v, %v; want the admin project", p, err)
	}
}

// TestProjectShowNeverPrintsSecrets prints the configuration with secrets
// from the file and the environment, and looks for their values.
func TestProjectShowNeverPrintsSecrets(t *testing.T) {
	repo := cliRepo(t)
	const fileValue, envValue, envPassword = "pk_test_file_value", "sk_test_env_value", "p4ssw0rd-from-env"
	writeFile(t, filepath.Join(repo, "trailpin.yaml"), `apps:
  shop:
    baseURL: http://localhost:3000
trails:
  dir: e2e/trails
replay:
  actionTimeout: 20s
secrets:
  publishable-key: `+fileValue+`
  stripe-key: null
  webhook: null
credentials:
  admin:
    username: admin@example.com
`)
	t.Setenv("TRAILPIN_SECRET_STRIPE_KEY", envValue)
	t.Setenv("TRAILPIN_USER_ADMIN_PASSWORD", envPassword)
	t.Setenv("CI", "true")
	out := mustRun(t, nil, "project", "show")
	file := filepath.Join(repo, "trailpin.yaml")
	for key, want := range map[string][2]string{
		"trails.dir":               {filepath.Join(repo, "e2e", "trails"), "project " + file + ":5"},
		"apps.shop.baseURL":        {"http://localhost:3000", "project " + file + ":3"},
		"replay.actionTimeout":     {"20s", "project " + file + ":7"},
		"replay.navigationTimeout": {"30s", "default"},
		"replay.replayTimeout":     {"15s", "default"},
		"replay.trailTimeout":      {"5m0s", "default"},
		"cache.mode":               {"read-only", "default (CI is set)"},
		"cache.strict":             {"false", "default"},
	} {
		if got := showLine(t, out, key); got != want {
			t.Errorf("host project show: %s = %q, want %q", key, got, want)
		}
	}
	for _, want := range []string{
		"project: " + file,
		"publishable-key: <set> (trailpin.yaml)",
		"stripe-key:      <set> (environment)",
		"webhook:         <missing> (set TRAILPIN_SECRET_WEBHOOK)",
		"admin.username: <set> (trailpin.yaml)",
		"admin.password: <set> (environment)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("host project show lacks %q:\n%s", want, out)
		}
	}
	for _, v := range []string{fileValue, envValue, envPassword, "admin@example.com"} {
		if strings.Contains(out, v) {
			t.Errorf("host project show printed a value (%d bytes)", len(v))
		}
	}
}

// TestProjectShowModel: the model in effect, whether its key's variable is
// set (never the key), and the agent's budgets.
func TestProjectShowModel(t *testing.T) {
	const key = "tk-shop-model-key-0123"
	tests := []struct{ name, model, keyValue, want string }{
		{"none", "", "", "model: none (a step that no longer replays is not healed; see docs/agent.md)"},
		{"key set", "model:\n  baseURL: https://api.openai.com/v1\n  name: gpt-4.1-mini\n  apiKeyEnv: SHOP_MODEL_KEY\n", key,
			"model: gpt-4.1-mini at https://api.openai.com/v1, key in $SHOP_MODEL_KEY: <set>"},
		{"key missing", "model:\n  baseURL: https://api.openai.com/v1\n  name: gpt-4.1-mini\n  apiKeyEnv: SHOP_MODEL_KEY\n", "",
			"model: gpt-4.1-mini at https://api.openai.com/v1, key in $SHOP_MODEL_KEY: <missing> (set SHOP_MODEL_KEY)"},
		{"local, no key", "model:\n  baseURL: http://localhost:11434/v1\n  name: qwen3\n", "", "model: qwen3 at http://localhost:11434/v1, no API key"},
		{"cannot be used", "model:\n  baseURL: https://api.openai.com/v1\n  name: gpt-4.1-mini\n", "", "model: cannot be used: "},
		{"key over plain http", "model:\n  baseURL: http://10.0.0.5:8000/v1\n  name: served\n  apiKeyEnv: SHOP_MODEL_KEY\n", key,
			"model: cannot be used: invalid configuration: bad model configuration: model.baseURL \"http://10.0.0.5:8000/v1\" would send the API key in $SHOP_MODEL_KEY over plain http"},
		{"key over plain http, allowed", "model:\n  baseURL: http://10.0.0.5:8000/v1\n  name: served\n  apiKeyEnv: SHOP_MODEL_KEY\n  allowInsecureHTTP: true\n", key,
			"model: served at http://10.0.0.5:8000/v1 over plain http (model.allowInsecureHTTP: true), key in $SHOP_MODEL_KEY: <set>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := cliRepo(t)
			writeFile(t, filepath.Join(repo, "trailpin.yaml"), "apps:\n  shop:\n    baseURL: http://localhost:3000\n"+tt.model)
			t.Setenv("SHOP_MODEL_KEY", tt.keyValue)
			out := mustRun(t, nil, "project", "show")
			if !strings.Contains(out, tt.want) {
				t.Errorf("host project show lacks %q:\n%s", tt.want, out)
			}
			if strings.Contains(out, key) {
				t.Errorf("host project show printed the key")
			}
			for k, want := range map[string][2]string{
				"agent.maxActions":   {"10", "default"},
				"agent.stepDeadline": {"2m0s", "default"},
				"agent.maxCalls":     {"50", "default"},
			} {
				if got := showLine(t, out, k); got != want {
					t.Errorf("host project show: %s = %q, want %q", k, got, want)
				}
			}
		})
	}
}

// showLine returns the value and the source `host project show` prints for
// key.
func showLine(t *testing.T, out, key string) [2]string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		cols := regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(line), -1)
		if len(cols) == 3 && cols[0] == key {
			return [2]string{cols[1], cols[2]}
		}
	}
	t.Fatalf("host project show has no line for %s:\n%s", key, out)
	return [2]string{}
}

// TestProjectShowSaysWhereEachKeyComesFrom sets keys in every layer and
// checks that project show names the one that won, down to the line.
func TestProjectShowSaysWhereEachKeyComesFrom(t *testing.T) {
	repo := cliRepo(t)
	userFile := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "trailpin", "config.yaml")
	writeFile(t, userFile, "# mine\ndataDir: /data/trailpin\ndb: /user.db\nrecording:\n  pruneUnsavedAfter: 72h\n")
	project := filepath.Join(repo, "trailpin.yaml")
	writeFile(t, project, "apps:\n  Shop:\n    baseURL: http://localhost:3000\n  admin:\n    baseURL: http://localhost:3001\ndb: state/project.db\nreplay:\n  actionTimeout: 20s\n  trailTimeout: 1m\ntrace: on\n")
	t.Setenv("TRAILPIN_REPLAY_TRAILTIMEOUT", "20m")
	t.Setenv("TRAILPIN_APPS_ADMIN_BASEURL", "https://admin.example.com")
	t.Setenv("TRAILPIN_CACHE_STRICT", "true")

	out := mustRun(t, nil, "project", "show")
	for key, want := range map[string][2]string{
		"dataDir":                     {"/data/trailpin", "user " + userFile + ":2"},
		"db":                          {filepath.Join(repo, "state", "project.db"), "project " + project + ":6"},
		"recording.pruneUnsavedAfter": {"72h0m0s", "user " + userFile + ":5"},
		"extensionId":                 {"(none)", "default"},
		"replay.actionTimeout":        {"20s", "project " + project + ":8"},
		"replay.trailTimeout":         {"20m0s", "env TRAILPIN_REPLAY_TRAILTIMEOUT"},
		"trace":                       {"on", "project " + project + ":10"},
		"cache.strict":                {"true", "env TRAILPIN_CACHE_STRICT"},
		"apps.Shop.baseURL":           {"http://localhost:3000", "project " + project + ":3"},
		"apps.admin.baseURL":          {"https://admin.example.com", "env TRAILPIN_APPS_ADMIN_BASEURL"},
	} {
		if got := showLine(t, out, key); got != want {
			t.Errorf("host project show: %s = %q, want %q", key, got, want)
		}
	}
	out = mustRun(t, nil, "project", "show", "--db", "/flag.db")
	if got, want := showLine(t, out, "db"), [2]string{"/flag.db", "flag --db"}; got != want {
		t.Errorf("host project show --db: db = %q, want %q", got, want)
	}
	t.Setenv("TRAILPIN_DB", "/env.db")
	out = mustRun(t, nil, "project", "show")
	if got, want := showLine(t, out, "db"), [2]string{"/env.db", "env TRAILPIN_DB"}; got != want {
		t.Errorf("host project show with TRAILPIN_DB: db = %q, want %q", got, want)
	}
}

// TestProjectShowOrigins: the other origins an app trusts the agent with
// are shown, so a person sees what it may touch.
func TestProjectShowOrigins(t *testing.T) {
	repo := cliRepo(t)
	writeFile(t, filepath.Join(repo, "trailpin.yaml"), `apps:
  shop:
    baseURL: http://localhost:3000
    origins:
      - https://login.example.com
      - https://pay.example.net
`)
	out := mustRun(t, nil, "project", "show")
	if want := "apps.shop.origins: https://login.example.com, https://pay.example.net"; !strings.Contains(out, want) {
		t.Errorf("host project show lacks %q:\n%s", want, out)
	}
}

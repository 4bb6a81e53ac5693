package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	if _, _, err := run(t, nil, "project", "use", "nope"); !errors.Is(err, errUnknownProject) {
		t.Errorf("host project use (unknown) error = %v", err)
	}
	p, err := currentProject(userFile)
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
	for _, want := range []string{
		"project: " + filepath.Join(repo, "trailpin.yaml"),
		"trails.dir: " + filepath.Join(repo, "e2e", "trails"),
		"  shop: http://localhost:3000",
		"replay: actionTimeout 20s, replayTimeout 15s, trailTimeout 5m0s",
		"cache: read-only, strict false",
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

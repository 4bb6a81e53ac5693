package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/e2e/golden"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/recorder/yamlerr"
	"github.com/trailpin/trailpin/storage/secrets"
)

func TestProjectDefaults(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n", "---\n", "apps:\nsecrets:\ncredentials:\n"} {
		p, err := parseProject("/repo/trailpin.yaml", []byte(src))
		if err != nil {
			t.Fatalf("parseProject(%q) error = %v", src, err)
		}
		want := ReplayConfig{10 * time.Second, 15 * time.Second, 5 * time.Minute, 30 * time.Second}
		if p.Replay != want || p.Trace != "retain-on-failure" || p.TrailsDir != "trails" || p.Cache != (CacheConfig{}) || len(p.Apps) != 0 || p.DB != "" {
			t.Errorf("parseProject(%q) = %+v, want the defaults", src, *p)
		}
		if got := p.TrailsPath(); got != "/repo/trails" {
			t.Errorf("trailsDir() = %q, want /repo/trails", got)
		}
	}
}

func TestProjectEveryKey(t *testing.T) {
	src := `apps:
  shop:
    baseURL: http://LocalHost:3000/
    origins:
      - https://Login.Example.com/
      - https://pay.example.net:8443
  admin.v2:
    baseURL: https://admin.example.com:443
trails:
  dir: e2e/trails
cache:
  mode: read-only
  strict: true
replay:
  actionTimeout: 2s
  navigationTimeout: 45s
  replayTimeout: 1m30s
  trailTimeout: 10m
trace: "on"
secrets:
  stripe-key: null
  pin: 1234
credentials:
  admin:
    username: admin@example.com
    password: null
db: state/trailpin.db
`
	p, err := parseProject("/repo/trailpin.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"shop": "http://localhost:3000", "admin.v2": "https://admin.example.com"}; !reflect.DeepEqual(p.Apps, want) {
		t.Errorf("Apps = %v, want %v", p.Apps, want)
	}
	if want := map[string][]string{"shop": {"https://login.example.com", "https://pay.example.net:8443"}}; !reflect.DeepEqual(p.Origins, want) {
		t.Errorf("Origins = %v, want %v", p.Origins, want)
	}
	if p.TrailsPath() != "/repo/e2e/trails" || p.Cache != (CacheConfig{Mode: "read-only", Strict: true}) || p.Trace != "on" || p.DB != "/repo/state/trailpin.db" {
		t.Errorf("project = %+v", *p)
	}
	if want := (ReplayConfig{2 * time.Second, 90 * time.Second, 10 * time.Minute, 45 * time.Second}); p.Replay != want {
		t.Errorf("Replay = %+v, want %+v", p.Replay, want)
	}
	r := secrets.NewResolver(p.Secrets, nil)
	if v, err := r.Secret("pin"); err != nil || v != "1234" {
		t.Errorf("secret pin did not resolve to the number as written (err %v)", err)
	}
	if _, err := r.Secret("stripe-key"); !errors.Is(err, secrets.ErrMissing) || !strings.Contains(err.Error(), "TRAILPIN_SECRET_STRIPE_KEY") {
		t.Errorf("Secret(stripe-key) error = %v, want missing naming TRAILPIN_SECRET_STRIPE_KEY", err)
	}
	if v, err := r.User("admin", "username"); err != nil || v != "admin@example.com" {
		t.Errorf("User(admin, username) = %q, %v", v, err)
	}
	if text := fmt.Sprintf("%v %+v %#v", p, *p, *p); strings.Contains(text, "1234") {
		t.Errorf("printing the project shows a secret value")
	}
}

// TestProjectErrorsGolden reads every file in testdata/project/bad and
// compares the errors with the .err golden beside it.
func TestProjectErrorsGolden(t *testing.T) {
	for _, input := range goldenInputs(t, "bad") {
		t.Run(filepath.Base(input), func(t *testing.T) {
			src, err := os.ReadFile(input)
			if err != nil {
				t.Fatal(err)
			}
			_, err = parseProject(filepath.Base(input), src)
			if err == nil {
				t.Fatalf("parseProject(%s) = nil error, want problems", input)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("parseProject(%s) error does not wrap ErrInvalid", input)
			}
			golden.Check(t, goldenName(input, ".err"), []byte(err.Error()+"\n"))
		})
	}
}

func TestParseBaseURL(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{"http://localhost:3000", "http://localhost:3000", ""},
		{"http://localhost:3000/", "http://localhost:3000", ""},
		{"HTTPS://Shop.Example.COM", "https://shop.example.com", ""},
		{"https://shop.example.com:443/", "https://shop.example.com", ""},
		{"http://shop.example.com:80", "http://shop.example.com", ""},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080", ""},
		{"http://[::1]:8080", "http://[::1]:8080", ""},
		{"http://[::1]", "http://[::1]", ""},
		{" http://localhost:3000 ", "http://localhost:3000", ""},
		{"http://localhost:3000/app", "", `has a path (/app)`},
		{"http://localhost:3000/#x", "", "has a fragment"},
		{"http://localhost:3000?x=1", "", "has a query"},
		{"ftp://example.com", "", "is a ftp: URL"},
		{"localhost:3000", "", "is not an http:// or https:// URL"},
		{"/checkout", "", "is not an http:// or https:// URL"},
		{"http://", "", "has no host"},
		{"https://u:p@example.com", "", "user name or password"},
		{"http://localhost:0", "", "bad port"},
		{"http://127.0.0.1:", "", "has a colon but no port"},
		{"http://[::1]:", "", "has a colon but no port"},
		{"http://127.0.0.1:x80", "", "is not a URL"},
		{"http://%zz", "", "is not a URL"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseBaseURL(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ParseBaseURL(%q) = %q, %v; want an error containing %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseBaseURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestAppForOrigin(t *testing.T) {
	p, err := parseProject("/repo/trailpin.yaml", []byte("apps:\n  shop: {baseURL: 'http://localhost:3000'}\n  prod: {baseURL: 'https://shop.example.com'}\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		origin, want string
		ok           bool
	}{
		{"http://localhost:3000", "shop", true},
		{"http://LOCALHOST:3000", "shop", true},
		{"http://localhost:3000/checkout?x=1#top", "shop", true},
		{"https://shop.example.com:443", "prod", true},
		{"https://shop.example.com", "prod", true},
		{"http://shop.example.com", "", false},
		{"http://localhost:3001", "", false},
		{"http://127.0.0.1:3000", "", false},
		{"chrome-extension://abc", "", false},
		{"", "", false},
		{"null", "", false},
	}
	for _, tt := range tests {
		name, ok := p.AppForOrigin(tt.origin)
		if name != tt.want || ok != tt.ok {
			t.Errorf("appForOrigin(%q) = %q, %v; want %q, %v", tt.origin, name, ok, tt.want, tt.ok)
		}
	}
}

func TestProjectEnvOverrides(t *testing.T) {
	src := "apps:\n  shop:\n    baseURL: http://localhost:3000\n  back-office:\n    baseURL: http://localhost:3001\n"
	tests := []struct {
		name    string
		env     map[string]string
		check   func(p *Project) string
		wantErr string
	}{
		{"base URL", map[string]string{"TRAILPIN_APPS_SHOP_BASEURL": "https://preview-42.example.com/"}, func(p *Project) string {
			return p.Apps["shop"] + " " + p.Apps["back-office"]
		}, ""},
		{"dashed app name", map[string]string{"TRAILPIN_APPS_BACK_OFFICE_BASEURL": "https://admin.example.com"}, func(p *Project) string { return p.Apps["back-office"] }, ""},
		{"timeouts", map[string]string{"TRAILPIN_REPLAY_ACTIONTIMEOUT": "30s", "TRAILPIN_REPLAY_NAVIGATIONTIMEOUT": "1m", "TRAILPIN_REPLAY_TRAILTIMEOUT": "20m"}, func(p *Project) string {
			return p.Replay.ActionTimeout.String() + " " + p.Replay.NavigationTimeout.String() + " " + p.Replay.ReplayTimeout.String() + " " + p.Replay.TrailTimeout.String()
		}, ""},
		{"trails dir, cache, trace", map[string]string{"TRAILPIN_TRAILS_DIR": "/ci/trails", "TRAILPIN_CACHE_MODE": "off", "TRAILPIN_CACHE_STRICT": "true", "TRAILPIN_TRACE": "on"}, func(p *Project) string {
			return fmt.Sprintf("%s %+v %s", p.TrailsPath(), p.Cache, p.Trace)
		}, ""},
		{"empty variables are unset", map[string]string{"TRAILPIN_TRACE": "", "TRAILPIN_APPS_SHOP_BASEURL": ""}, func(p *Project) string { return p.Trace + " " + p.Apps["shop"] }, ""},
		{"bad duration", map[string]string{"TRAILPIN_REPLAY_ACTIONTIMEOUT": "10"}, nil, `environment: $TRAILPIN_REPLAY_ACTIONTIMEOUT: "10" has no unit (is it seconds? write 10s)`},
		{"bad base URL", map[string]string{"TRAILPIN_APPS_SHOP_BASEURL": "https://x.example.com/shop"}, nil, "$TRAILPIN_APPS_SHOP_BASEURL: \"https://x.example.com/shop\" has a path (/shop)"},
		{"bad cache mode", map[string]string{"TRAILPIN_CACHE_MODE": "rw"}, nil, `$TRAILPIN_CACHE_MODE: "rw" is not one of off, read-only, read-write`},
	}
	want := map[string]string{
		"base URL":                  "https://preview-42.example.com http://localhost:3001",
		"dashed app name":           "https://admin.example.com",
		"timeouts":                  "30s 1m0s 15s 20m0s",
		"trails dir, cache, trace":  "/ci/trails {Mode:off Strict:true} on",
		"empty variables are unset": "retain-on-failure http://localhost:3000",
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "trailpin.yaml"), src)
			o := testEnv(t, dir)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			cfg, err := Load(o)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Load with %v: error = %v, want %q", tt.env, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.check(cfg.Project); got != want[tt.name] {
				t.Errorf("Load with %v: got %q, want %q", tt.env, got, want[tt.name])
			}
		})
	}
	t.Run("loadProject ignores the environment", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "trailpin.yaml"), src)
		t.Setenv("TRAILPIN_APPS_SHOP_BASEURL", "https://preview.example.com")
		p, err := LoadProject(dir)
		if err != nil {
			t.Fatal(err)
		}
		if p.Apps["shop"] != "http://localhost:3000" {
			t.Errorf("loadProject: shop = %q, want the file's http://localhost:3000", p.Apps["shop"])
		}
	})
}

func TestCacheModeFor(t *testing.T) {
	tests := []struct {
		mode string
		ci   bool
		want string
	}{
		{"", false, "read-write"},
		{"", true, "read-only"},
		{"off", true, "off"},
		{"read-write", true, "read-write"},
	}
	for _, tt := range tests {
		if got := (CacheConfig{Mode: tt.mode}).ModeFor(tt.ci); got != tt.want {
			t.Errorf("CacheConfig{Mode: %q}.ModeFor(%v) = %q, want %q", tt.mode, tt.ci, got, tt.want)
		}
	}
}

func TestLoadProjectMissing(t *testing.T) {
	dir := t.TempDir()
	_, err := LoadProject(dir)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "host project init "+dir) {
		t.Errorf("LoadProject(empty folder) error = %v, want fs.ErrNotExist with how to create one", err)
	}
}

func TestInitProject(t *testing.T) {
	dir := t.TempDir()
	p, err := InitProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.File != filepath.Join(dir, "trailpin.yaml") || p.TrailsPath() != filepath.Join(dir, "trails") || len(p.Apps) != 0 {
		t.Errorf("initProject = %+v, want an empty project in %s", *p, dir)
	}
	written, err := os.ReadFile(p.File)
	if err != nil {
		t.Fatal(err)
	}
	if string(written) != string(projectStarter) {
		t.Errorf("initProject wrote something else than the starter")
	}
	if err := p.AddApp("shop", "http://localhost:3000"); err != nil {
		t.Fatal(err)
	}
	edited, _ := os.ReadFile(p.File)

	_, err = InitProject(dir)
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("InitProject(again) error = %v, want fs.ErrExist", err)
	}
	if after, _ := os.ReadFile(p.File); string(after) != string(edited) {
		t.Errorf("InitProject(again) changed the existing file")
	}
	if _, err := InitProject(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("InitProject(missing folder) error = %v, want fs.ErrNotExist", err)
	}
	if _, err := InitProject(p.File); !errors.Is(err, ErrNotAFolder) {
		t.Errorf("InitProject(a file) error = %v, want ErrNotAFolder", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the project folder holds %d entries, want only trailpin.yaml (no temporary files left)", len(entries))
	}
}

// TestAddAppGolden adds the app "admin" to every file in
// testdata/project/addapp and compares the result with its golden file: the
// file's comments, blank lines and order must stay.
func TestAddAppGolden(t *testing.T) {
	for _, input := range goldenInputs(t, "addapp") {
		t.Run(filepath.Base(input), func(t *testing.T) {
			src, err := os.ReadFile(input)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			file := filepath.Join(dir, "trailpin.yaml")
			writeFile(t, file, string(src))
			p, err := LoadProject(dir)
			if err != nil {
				t.Fatal(err)
			}
			before := len(p.Apps)
			if err := p.AddApp("admin", "http://127.0.0.1:4000/"); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, goldenName(input, ".golden.yaml"), got)
			back, err := LoadProject(dir)
			if err != nil {
				t.Fatalf("the edited file does not load: %v", err)
			}
			if back.Apps["admin"] != "http://127.0.0.1:4000" || len(back.Apps) != before+1 {
				t.Errorf("after addApp the file has apps %v, want the %d before and admin", back.Apps, before)
			}
			if name, ok := back.AppForOrigin("http://127.0.0.1:4000"); name != "admin" || !ok {
				t.Errorf("appForOrigin(new app) = %q, %v", name, ok)
			}
		})
	}
}

func TestAddApp(t *testing.T) {
	newProject := func(t *testing.T) *Project {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "trailpin.yaml"), "apps:\n  shop:\n    baseURL: http://localhost:3000\n")
		p, err := LoadProject(dir)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("same app again changes nothing", func(t *testing.T) {
		p := newProject(t)
		before, _ := os.ReadFile(p.File)
		if err := p.AddApp("shop", "http://LOCALHOST:3000/"); err != nil {
			t.Fatalf("addApp(existing, same origin) = %v, want nil", err)
		}
		if after, _ := os.ReadFile(p.File); string(after) != string(before) {
			t.Errorf("addApp(existing) rewrote the file:\n%s", after)
		}
	})
	refusals := []struct {
		name, app, url string
		is             error
		want           string
	}{
		{"name taken", "shop", "http://localhost:4000", ErrAppExists, "already has base URL"},
		{"origin taken", "store", "http://localhost:3000", ErrOriginTaken, `app "shop" already has http://localhost:3000`},
		{"path", "admin", "http://localhost:4000/admin", nil, "has a path (/admin)"},
		{"bad name", "my shop", "http://localhost:4000", nil, `"my shop" is not an app name`},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t)
			before, _ := os.ReadFile(p.File)
			err := p.AddApp(tt.app, tt.url)
			if err == nil || !strings.Contains(err.Error(), tt.want) || (tt.is != nil && !errors.Is(err, tt.is)) {
				t.Errorf("addApp(%q, %q) error = %v, want %q", tt.app, tt.url, err, tt.want)
			}
			if after, _ := os.ReadFile(p.File); string(after) != string(before) {
				t.Errorf("a refused addApp changed the file")
			}
		})
	}
	t.Run("file broken since it was loaded", func(t *testing.T) {
		p := newProject(t)
		writeFile(t, p.File, "apps:\n  shop:\n    baseURL: http://localhost:3000\ntrace: sometimes\n")
		err := p.AddApp("admin", "http://localhost:4000")
		if err == nil || !strings.Contains(err.Error(), "trailpin.yaml:4: trace:") {
			t.Errorf("addApp on a broken file error = %v, want the file's problem with its line", err)
		}
	})
	t.Run("file edited since it was loaded", func(t *testing.T) {
		p := newProject(t)
		writeFile(t, p.File, "apps:\n  shop:\n    baseURL: http://localhost:3000\n  blog:\n    baseURL: http://localhost:5000\n")
		if err := p.AddApp("admin", "http://localhost:4000"); err != nil {
			t.Fatal(err)
		}
		back, err := LoadProject(p.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(back.Apps) != 3 {
			t.Errorf("after addApp the file has apps %v, want shop, blog and admin", back.Apps)
		}
	})
	t.Run("keeps permissions and follows a symlink", func(t *testing.T) {
		p := newProject(t)
		if err := os.Chmod(p.File, 0o640); err != nil {
			t.Fatal(err)
		}
		linkDir := t.TempDir()
		if err := os.Symlink(p.File, filepath.Join(linkDir, "trailpin.yaml")); err != nil {
			t.Skip("no symlinks here:", err)
		}
		linked, err := LoadProject(linkDir)
		if err != nil {
			t.Fatal(err)
		}
		if err := linked.AddApp("admin", "http://localhost:4000"); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(filepath.Join(linkDir, "trailpin.yaml")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the symlink was replaced by a file")
		}
		fi, err := os.Stat(p.File)
		if err != nil || fi.Mode().Perm() != 0o640 {
			t.Errorf("the file's mode is %v, want 0640 kept", fi.Mode())
		}
		if back, _ := LoadProject(p.Dir); back.Apps["admin"] != "http://localhost:4000" {
			t.Errorf("the link's target lacks the new app")
		}
	})
}

// TestUnknownKeysReadAsInTrails: a typo in trailpin.yaml and one in a trail
// file are the same kind of error, with the same did-you-mean, so a person
// (or a program using errors.As) reads both the same way.
func TestUnknownKeysReadAsInTrails(t *testing.T) {
	_, cfgErr := parseProject("/repo/trailpin.yaml", []byte("trace: on\nreplays:\n  actionTimeout: 2s\n"))
	_, trailErr := trail.LoadTrail("t.trail.yaml", []byte("version: 1\ntrial: Buy a mug\n"))
	for _, tt := range []struct {
		name     string
		err      error
		line     int
		key, fix string
	}{
		{"config", cfgErr, 2, "replays", `did you mean "replay"?`},
		{"trail", trailErr, 2, "trial", `did you mean "trail"?`},
	} {
		var list yamlerr.List
		if !errors.As(tt.err, &list) {
			t.Fatalf("%s: error %v is not a yamlerr.List", tt.name, tt.err)
		}
		i := slices.IndexFunc(list, func(e *yamlerr.Error) bool { return errors.Is(e, yamlerr.ErrUnknownKey) })
		if i < 0 {
			t.Fatalf("%s: error %v has no unknown key", tt.name, tt.err)
		}
		e := list[i]
		if e.Line != tt.line || e.Key != tt.key || e.Fix != tt.fix {
			t.Errorf("%s: line %d, key %q, fix %q; want %d, %q, %q", tt.name, e.Line, e.Key, e.Fix, tt.line, tt.key, tt.fix)
		}
	}
	if !errors.Is(cfgErr, ErrInvalid) {
		t.Errorf("an unknown key in trailpin.yaml is not ErrInvalid: %v", cfgErr)
	}
	if got, want := cfgErr.Error(), `/repo/trailpin.yaml:2: replays: unknown key: did you mean "replay"?`; got != want {
		t.Errorf("config error reads %q, want %q", got, want)
	}
}

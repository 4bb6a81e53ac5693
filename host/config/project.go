package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/recorder/yamlerr"
	"github.com/trailpin/trailpin/storage/secrets"
)

// Defaults of the project config (docs/config.md).
const (
	// defaultTrailsDir is where trail files go, relative to trailpin.yaml.
	defaultTrailsDir = "trails"
	// defaultActionTimeout is how long an action waits for its target to be
	// actionable: long enough for a slow page, short enough that a broken
	// selector fails a CI run in seconds.
	defaultActionTimeout = 10 * time.Second
	// defaultNavTimeout is how long a page load may take, as Playwright's:
	// a large page on a busy CI machine loads in more than the action
	// timeout.
	defaultNavTimeout = 30 * time.Second
	// defaultReplayTimeout is how long a recorded target is awaited before
	// replay stops and hands the step off.
	defaultReplayTimeout = 15 * time.Second
	// defaultTrailTimeout is the deadline of one trail.
	defaultTrailTimeout = 5 * time.Minute
	// defaultTrace keeps trace pages of failing trails only: they explain a
	// failure, and a passing run needs none.
	defaultTrace = traceRetainOnFailure
)

// Trace settings: when replay writes trace pages.
const (
	traceOn              = "on"
	traceOff             = "off"
	traceRetainOnFailure = "retain-on-failure"
)

var traceModes = []string{traceOn, traceOff, traceRetainOnFailure}

// Cache modes (docs/agent.md). Unset means read-write locally and read-only when
// CI is set.
const (
	cacheOff       = "off"
	cacheReadOnly  = "read-only"
	cacheReadWrite = "read-write"
)

var cacheModes = []string{cacheOff, cacheReadOnly, cacheReadWrite}

// Keys of trailpin.yaml, in the order docs/config.md lists them.
var (
	projectKeys     = []string{"apps", "trails", "cache", "replay", "agent", "model", "trace", "secrets", "credentials", "db"}
	appKeys         = []string{"baseURL", "origins"}
	trailsKeys      = []string{"dir"}
	cacheKeys       = []string{"mode", "strict"}
	replayKeys      = []string{"actionTimeout", "navigationTimeout", "replayTimeout", "trailTimeout"}
	credentialKeys  = []string{"username", "password"}
	userOnlyKeys    = []string{"dataDir", "extensionId", "projects", "currentProject"}
	appNameRule     = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)
	secretNameRule  = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)
	userNameRule    = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_-]*$`)
	maxAppNameBytes = 64
)

// A Project is a repo's trailpin.yaml, read strictly, with defaults filled
// in (and, for a command, the variables and flags over it): what every
// command and the recording popup read about the project.
type Project struct {
	// Dir is the folder holding File (the repo's root); File is the
	// absolute path of trailpin.yaml.
	Dir, File string
	// Apps maps an app's name to its base URL, an origin such as
	// http://localhost:3000 (lower-case, no default port, no slash).
	Apps map[string]string
	// Origins maps an app's name to apps.<name>.origins: the other origins
	// the person trusts the agent to act on for that app (an identity
	// provider, a payment frame), each an origin as Apps has them. The
	// app's own base URL is not among them. Only apps that list some.
	Origins map[string][]string
	// TrailsDir is trails.dir as written: relative to Dir unless absolute.
	TrailsDir string
	Cache     CacheConfig
	Replay    ReplayConfig
	Agent     AgentConfig
	// Trace is on, off or retain-on-failure.
	Trace string
	// Secrets holds secrets and credentials; values print as <set>.
	Secrets secrets.Config
	// DB is the database the project pins ("" for the user's), absolute.
	DB string

	// values are the layered keys the file sets, with their lines.
	values map[string]fileValue
}

// CacheConfig is cache.* (docs/agent.md).
type CacheConfig struct {
	// Mode is off, read-only, read-write, or "" for the default.
	Mode   string
	Strict bool
}

// ModeFor is the cache mode in effect: the configured one, else read-only in
// CI (a CI run must not rewrite recordings behind a review) and read-write
// elsewhere.
func (c CacheConfig) ModeFor(ci bool) string {
	switch {
	case c.Mode != "":
		return c.Mode
	case ci:
		return cacheReadOnly
	}
	return cacheReadWrite
}

// ReplayConfig is replay.*: Go durations.
type ReplayConfig struct {
	ActionTimeout, ReplayTimeout, TrailTimeout time.Duration
	NavigationTimeout                          time.Duration
}

// LoadProject reads dir/trailpin.yaml strictly. It is what the recording
// host calls with the folder the popup names; environment overrides do not
// apply (the popup maps and edits the file as written). A missing file is
// an error wrapping fs.ErrNotExist: call InitProject to create one.
func LoadProject(dir string) (*Project, error) {
	p, err := readProject(filepath.Join(dir, ProjectFileName))
	if err != nil {
		return nil, err
	}
	if err := p.layer(); err != nil {
		return nil, err
	}
	return p, nil
}

// layer puts the file's values over the defaults, through the same layers
// as Load but with no variables and no flags.
func (p *Project) layer() error {
	l, err := newLayers(append(slices.Clone(projectKeyDefs), p.appDefs()...), false, nil)
	if err != nil {
		return err
	}
	if err := l.file(LayerProject, p.File, p.values); err != nil {
		return err
	}
	settings, err := l.resolve()
	if err != nil {
		return err
	}
	return p.apply(settings)
}

// appDefs are the layered keys of the project's apps, by name.
func (p *Project) appDefs() []keyDef {
	defs := make([]keyDef, 0, len(p.Apps))
	for _, name := range p.AppNames() {
		defs = append(defs, appDef(name))
	}
	return defs
}

// apply sets the project's layered fields to what is in effect. Two apps
// whose names give the same variable are refused only when it is set.
func (p *Project) apply(settings map[string]resolved) error {
	var errs yamlerr.List
	for key, r := range settings {
		switch key {
		case KeyTrailsDir:
			p.TrailsDir = r.value.(string)
		case KeyCacheMode:
			p.Cache.Mode = r.value.(string)
		case KeyCacheStrict:
			p.Cache.Strict = r.value.(bool)
		case KeyActionTimeout:
			p.Replay.ActionTimeout = r.value.(time.Duration)
		case KeyNavTimeout:
			p.Replay.NavigationTimeout = r.value.(time.Duration)
		case KeyReplayTimeout:
			p.Replay.ReplayTimeout = r.value.(time.Duration)
		case KeyTrailTimeout:
			p.Replay.TrailTimeout = r.value.(time.Duration)
		case KeyTrace:
			p.Trace = r.value.(string)
		case KeyAgentMaxActions:
			p.Agent.MaxActions = r.value.(int)
		case KeyAgentStepDeadline:
			p.Agent.StepDeadline = r.value.(time.Duration)
		case KeyAgentMaxCalls:
			p.Agent.MaxCalls = r.value.(int)
		}
	}
	byEnv := map[string]string{}
	for _, name := range p.AppNames() {
		r, ok := settings[appKey(name)]
		if !ok {
			continue
		}
		env := EnvVar(appKey(name))
		if other, dup := byEnv[env]; dup {
			if r.src.Layer == LayerEnv {
				errs = append(errs, sourceError(r.src, fmt.Errorf("apps %q and %q both read it; rename one of them in %s", other, name, p.File)))
			}
			continue
		}
		byEnv[env] = name
		p.Apps[name] = r.value.(string)
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// readProject reads a project config file strictly: the file alone, with
// defaults for what it leaves out.
func readProject(file string) (*Project, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, fmt.Errorf("reading project config %s: %w", file, err)
	}
	src, err := readConfigBytes(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading project config: %w (create one with `host project init %s`)", err, filepath.Dir(abs))
	}
	if err != nil {
		return nil, err
	}
	return decodeProject(abs, src)
}

// readConfigBytes reads a config file, refusing one too large to be one.
func readConfigBytes(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	return src, nil
}

// parseProject reads a trailpin.yaml's bytes as written: the file over the
// defaults, no variables. file (absolute) names it in errors and gives the
// project's folder.
func parseProject(file string, src []byte) (*Project, error) {
	p, err := decodeProject(file, src)
	if err != nil {
		return nil, err
	}
	if err := p.layer(); err != nil {
		return nil, err
	}
	return p, nil
}

// decodeProject decodes a trailpin.yaml's bytes strictly. The layered keys
// (trails.dir, replay.*, trace, cache.*) are only recorded, with their
// lines: layer or Load puts them into the project's fields.
func decodeProject(file string, src []byte) (*Project, error) {
	p := &Project{
		Dir:     filepath.Dir(file),
		File:    file,
		Apps:    map[string]string{},
		Origins: map[string][]string{},
		Secrets: secrets.Config{Secrets: map[string]secrets.Value{}, Credentials: map[string]secrets.Credential{}},
		values:  map[string]fileValue{},
	}
	root, err := parseConfigYAML(file, src)
	if err != nil {
		return nil, err
	}
	d := &configDecoder{file: file}
	for _, e := range d.mapping(root, "", projectKeys) {
		switch e.name {
		case "apps":
			d.apps(p, e.val)
		case "trails":
			for _, f := range d.mapping(e.val, "trails", trailsKeys) {
				if dir, ok := d.nonEmpty(f.val, "trails.dir", "name a folder relative to trailpin.yaml, or leave the key out for "+defaultTrailsDir); ok {
					p.set(KeyTrailsDir, dir, f.val)
				}
			}
		case "cache":
			d.cache(p, e.val)
		case "replay":
			d.replay(p, e.val)
		case "agent":
			d.agent(p, e.val)
		case "model":
			d.model(e.val, p.set)
		case "trace":
			if !yamlNull(e.val) {
				if trace, ok := d.oneOf(e.val, "trace", traceModes); ok {
					p.set(KeyTrace, trace, e.val)
				}
			}
		case "secrets":
			d.secrets(p, e.val)
		case "credentials":
			d.credentials(p, e.val)
		case "db":
			if db, ok := d.nonEmpty(e.val, "db", "name the database file, or leave the key out"); ok {
				p.DB = p.abs(db)
				p.set(KeyDB, p.DB, e.val)
			}
		}
	}
	d.userKeysInProject()
	if err := d.err(); err != nil {
		return nil, err
	}
	return p, nil
}

// userKeysInProject explains keys that belong in the user config, which
// mapping reported as unknown with a generic fix.
func (d *configDecoder) userKeysInProject() {
	for _, e := range d.errs {
		if slices.Contains(userOnlyKeys, e.Path) {
			e.Msg = "belongs in the user config, not in trailpin.yaml"
			e.Fix = "move it to $XDG_CONFIG_HOME/trailpin/config.yaml (see docs/config.md)"
		}
	}
}

func (d *configDecoder) apps(p *Project, n *yaml.Node) {
	byOrigin := map[string]string{}
	for _, e := range d.mapping(n, "apps", nil) {
		path := "apps." + e.name
		if err := checkAppName(e.name); err != nil {
			d.fail(e.key, path, "use letters, digits, '_', '-' and '.', as trails name it in `app:`", "%v", err)
			continue
		}
		fields := d.mapping(e.val, path, appKeys)
		hasBase := slices.ContainsFunc(fields, func(f configEntry) bool { return f.name == "baseURL" })
		// An app whose only keys are unknown ones was reported for them.
		if yamlNull(e.val) || (e.val.Kind == yaml.MappingNode && !hasBase && (len(fields) > 0 || len(e.val.Content) == 0)) {
			d.fail(e.val, path, "add `baseURL: http://localhost:3000` (your app's origin) under it", "the app has no baseURL")
			continue
		}
		for _, f := range fields {
			if f.name == "origins" {
				if origins := d.appOrigins(f.val, path+".origins"); len(origins) > 0 {
					p.Origins[e.name] = origins
				}
				continue
			}
			s, ok := d.str(f.val, path+".baseURL")
			if !ok {
				continue
			}
			origin, err := ParseBaseURL(s)
			if err != nil {
				d.fail(f.val, path+".baseURL", baseURLFix, "%v", err)
				continue
			}
			if other, dup := byOrigin[origin]; dup {
				d.fail(f.val, path+".baseURL", "give each app its own origin, or keep one of them", "%s is also the base URL of app %q", origin, other)
				continue
			}
			byOrigin[origin] = e.name
			p.Apps[e.name] = origin
			p.set(appKey(e.name), origin, f.val)
		}
	}
}

func checkAppName(name string) error {
	if len(name) > maxAppNameBytes || !appNameRule.MatchString(name) {
		return fmt.Errorf("%q is not an app name", name)
	}
	return nil
}

func (d *configDecoder) cache(p *Project, n *yaml.Node) {
	for _, f := range d.mapping(n, "cache", cacheKeys) {
		switch f.name {
		case "mode":
			if !yamlNull(f.val) {
				if mode, ok := d.oneOf(f.val, "cache.mode", cacheModes); ok {
					p.set(KeyCacheMode, mode, f.val)
				}
			}
		case "strict":
			if strict, ok := d.boolean(f.val, "cache.strict"); ok {
				p.set(KeyCacheStrict, strict, f.val)
			}
		}
	}
}

func (d *configDecoder) replay(p *Project, n *yaml.Node) {
	for _, f := range d.mapping(n, "replay", replayKeys) {
		if v, ok := d.duration(f.val, "replay."+f.name); ok {
			p.set("replay."+f.name, v, f.val)
		}
	}
}

func (d *configDecoder) secrets(p *Project, n *yaml.Node) {
	byEnv := map[string]string{}
	for _, e := range d.mapping(n, "secrets", nil) {
		path := "secrets." + e.name
		if !secretNameRule.MatchString(e.name) {
			d.fail(e.key, path, "use letters, digits, '_', '-' and '.', as in ${secret:stripe-key}", "%q is not a secret name", e.name)
			continue
		}
		env := secrets.SecretEnv(e.name)
		if other, dup := byEnv[env]; dup {
			d.fail(e.key, path, "rename one of them", "secrets %q and %q are both read from %s", other, e.name, env)
			continue
		}
		byEnv[env] = e.name
		v, ok := d.secretValue(e.val, path, env)
		if ok {
			p.Secrets.Secrets[e.name] = v
		}
	}
}

// secretValue reads a secret or credential field: text, or null for
// "required from the environment".
func (d *configDecoder) secretValue(n *yaml.Node, path, env string) (secrets.Value, bool) {
	if yamlNull(n) {
		return secrets.Value{}, true
	}
	s, ok := d.str(n, path)
	if !ok {
		return secrets.Value{}, false
	}
	if s == "" {
		d.fail(n, path, "write null to require "+env+", or give the value", "is empty")
		return secrets.Value{}, false
	}
	return secrets.Given(s), true
}

func (d *configDecoder) credentials(p *Project, n *yaml.Node) {
	for _, e := range d.mapping(n, "credentials", nil) {
		path := "credentials." + e.name
		if !userNameRule.MatchString(e.name) {
			d.fail(e.key, path, "use letters, digits, '_' and '-' (no '.'), as in ${user:admin.password}", "%q is not a user name", e.name)
			continue
		}
		var c secrets.Credential
		for _, f := range d.mapping(e.val, path, credentialKeys) {
			v, ok := d.secretValue(f.val, path+"."+f.name, secrets.UserEnv(e.name, f.name))
			if !ok {
				continue
			}
			if f.name == "username" {
				c.Username = v
			} else {
				c.Password = v
			}
		}
		p.Secrets.Credentials[e.name] = c
	}
}

// set records a layered key the file sets, decoded and checked.
func (p *Project) set(key string, value any, n *yaml.Node) {
	p.values[key] = fileValue{value: value, line: n.Line}
}

// abs resolves a path written in trailpin.yaml against the project folder.
func (p *Project) abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(p.Dir, path)
}

// TrailsPath is the absolute folder trail files are exported to.
func (p *Project) TrailsPath() string { return p.abs(p.TrailsDir) }

// AppForOrigin returns the app whose base URL has the origin of origin (a
// page's origin or any URL on it): what the popup shows for the tab it
// records. ok is false when no app matches.
func (p *Project) AppForOrigin(origin string) (name string, ok bool) {
	o, err := OriginOf(origin)
	if err != nil {
		return "", false
	}
	for name, base := range p.Apps {
		if base == o {
			return name, true
		}
	}
	return "", false
}

// AppNames lists the project's apps by name.
func (p *Project) AppNames() []string {
	names := make([]string, 0, len(p.Apps))
	for n := range p.Apps {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// String names the project by its file, in messages; printing a project
// shows nothing more.
func (p *Project) String() string { return p.File }

// NoProjectError is returned by commands that need a project when none was
// found.
func NoProjectError(wd string) error {
	return fmt.Errorf("no %s in %s or any folder above it: run the command in your repository, pass --config FILE, or create one with `host project init`",
		ProjectFileName, wd)
}

// IsSecretName reports whether name can name a secret, as in
// ${secret:stripe-key}: the rule secrets: in trailpin.yaml follows.
func IsSecretName(name string) bool { return secretNameRule.MatchString(name) }

package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/pflag"

	"github.com/trailpin/trailpin/recorder/review"
)

// defaultPruneUnsavedAfter keeps an abandoned recording a week: long enough
// to come back to it after a weekend, short enough that screens do not pile up.
const defaultPruneUnsavedAfter = 168 * time.Hour

const (
	// UserFileName is the user config file under the config home.
	UserFileName = "trailpin/config.yaml"
	// ProjectFileName is the project config at a repo's root.
	ProjectFileName = "trailpin.yaml"
	// envPrefix starts every environment variable Trailpin reads.
	envPrefix = "TRAILPIN"
)

// Options are what Load reads besides the files: the process's
// surroundings and the command line.
type Options struct {
	// ConfigFile is the --config flag: the project config to use, "" to
	// search for trailpin.yaml from the working directory upwards.
	ConfigFile string
	// Flags, when not nil, are the command's flags: those that set a key
	// (--db, --trace) are bound to it and win when given.
	Flags *pflag.FlagSet
	// Getenv reads HOME and the XDG folders; the TRAILPIN_* variables are
	// read by viper from the process's environment.
	Getenv func(string) string
	Getwd  func() (string, error)
	// GOOS picks the platform's usual folders.
	GOOS string
}

// A Config is the merged configuration of one command (see layers.go for
// which layer wins).
type Config struct {
	// UserFile is where the user config is read from (it may not exist).
	UserFile string
	// ProjectFile is the project config in use, "" when none was found.
	ProjectFile string
	// Project is the project config with every layer applied; nil when no
	// project config was found.
	Project *Project

	settings map[string]resolved
	order    []string
	// keys are the project keys in effect (replay.*, cache.*, agent.*,
	// trace, trails.dir): Project when there is one, else the same keys
	// layered without a file (defaults, variables, flags).
	keys *Project
}

// Load builds the configuration of a command: defaults, the user config,
// the project config, TRAILPIN_* variables and flags. Every file is read
// strictly; an error names the file and line, or the variable, and says
// what to do.
func Load(o Options) (*Config, error) {
	dataHome, err := DataHome(o.Getenv, o.GOOS)
	if err != nil {
		return nil, err
	}
	defs := append(slices.Clone(userKeyDefs), projectKeyDefs...)
	defs[slices.IndexFunc(defs, func(d keyDef) bool { return d.name == KeyDataDir })].def = filepath.Join(dataHome, "trailpin")

	c := &Config{}
	var user *userConfig
	if cfgHome, err := ConfigHome(o.Getenv, o.GOOS); err == nil {
		c.UserFile = filepath.Join(cfgHome, UserFileName)
		if user, err = readUserConfig(c.UserFile); err != nil {
			return nil, err
		}
	}
	c.ProjectFile = o.ConfigFile
	if c.ProjectFile == "" {
		c.ProjectFile = findUpwards(o.Getwd, ProjectFileName)
	}
	if c.ProjectFile != "" {
		if c.Project, err = readProject(c.ProjectFile); err != nil {
			return nil, err
		}
		defs = append(defs, c.Project.appDefs()...)
	}
	l, err := newLayers(defs, true, o.Flags)
	if err != nil {
		return nil, err
	}
	if user != nil {
		values := user.values
		if c.Project != nil && setsModel(c.Project.values) {
			values = withoutModel(values)
		}
		if err := l.file(LayerUser, user.File, values); err != nil {
			return nil, err
		}
	}
	if c.Project != nil {
		if err := l.file(LayerProject, c.Project.File, c.Project.values); err != nil {
			return nil, err
		}
	}
	if c.settings, err = l.resolve(); err != nil {
		return nil, err
	}
	c.keys = c.Project
	if c.keys == nil {
		c.keys = &Project{}
	}
	if err := c.keys.apply(c.settings); err != nil {
		return nil, err
	}
	for _, d := range defs {
		if _, ok := c.settings[d.name]; ok {
			c.order = append(c.order, d.name)
		}
	}
	return c, nil
}

// findUpwards returns the first dir/name from the working directory up to
// the root, or "".
func findUpwards(getwd func() (string, error), name string) string {
	dir, err := getwd()
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Settings lists every layered key in effect with its value and where it
// came from: the user config's keys, then the project's (apps last).
// Secrets are not among them.
func (c *Config) Settings() []Setting {
	out := make([]Setting, 0, len(c.order))
	for _, k := range c.order {
		r := c.settings[k]
		out = append(out, Setting{Key: k, Value: r.text(), Source: r.src})
	}
	return out
}

// Source says where the value of key came from (LayerDefault for a key no
// layer sets).
func (c *Config) Source(key string) Source { return c.settings[key].src }

func (c *Config) text(key string) string {
	if r, ok := c.settings[key]; ok {
		return r.text()
	}
	return ""
}

// DataDir is where the host keeps its database and log.
func (c *Config) DataDir() string { return c.text(KeyDataDir) }

// DBPath is the SQLite database: --db, TRAILPIN_DB or "db" in config, by
// default trailpin.db in the data directory.
func (c *Config) DBPath() string {
	if p := c.text(KeyDB); p != "" {
		return p
	}
	return filepath.Join(c.DataDir(), "trailpin.db")
}

// PruneUnsavedAfter is how long an unsaved recording may stay idle before
// it is deleted (recording.pruneUnsavedAfter). The files' value was
// checked when they were read; a variable's is checked here.
func (c *Config) PruneUnsavedAfter() (time.Duration, error) {
	switch v := c.settings[KeyPruneUnsavedAfter].value.(type) {
	case time.Duration:
		return v, nil
	case string:
		d, err := parseDuration(v)
		if err != nil {
			return 0, fmt.Errorf("%s: %w: write a duration such as 72h", KeyPruneUnsavedAfter, err)
		}
		return d, nil
	}
	return defaultPruneUnsavedAfter, nil
}

// Replay is replay.* in effect, with or without a project config: a
// TRAILPIN_REPLAY_* variable applies to a run that has no trailpin.yaml
// too (layers.go says which layer wins).
func (c *Config) Replay() ReplayConfig { return c.keys.Replay }

// Cache is cache.* in effect, with or without a project config.
func (c *Config) Cache() CacheConfig { return c.keys.Cache }

// Agent is agent.* (the agent's budgets) in effect, with or without a
// project config.
func (c *Config) Agent() AgentConfig { return c.keys.Agent }

// Trace is trace in effect (on, off or retain-on-failure), with or
// without a project config: --trace, TRAILPIN_TRACE, the file, the
// default.
func (c *Config) Trace() string { return c.keys.Trace }

// ReviewThreshold is the probability a pick of the save-time review must
// reach to apply (review.threshold, docs/review.md). The files' value was
// checked when they were read; a variable's is checked here.
func (c *Config) ReviewThreshold() (float64, error) {
	switch v := c.settings[KeyReviewThreshold].value.(type) {
	case float64:
		return v, nil
	case string:
		p, err := parseProbability(v)
		if err != nil {
			return 0, fmt.Errorf("%s: %w: write a probability such as 0.8", KeyReviewThreshold, err)
		}
		return p, nil
	}
	return review.DefaultThreshold, nil
}

// ExtensionID is the extension the host is installed for, "" for the one
// fixed by the key in extension/manifest.json.
func (c *Config) ExtensionID() string { return c.text(KeyExtensionID) }

// UserFile is the user config's path, without reading any config: the
// project commands must work even where a broken trailpin.yaml is found.
func UserFile(getenv func(string) string, goos string) (string, error) {
	home, err := ConfigHome(getenv, goos)
	if err != nil {
		return "", err
	}
	return filepath.Join(home, UserFileName), nil
}

// ConfigHome is $XDG_CONFIG_HOME, or the OS's usual per-user config folder.
func ConfigHome(getenv func(string) string, goos string) (string, error) {
	if x := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return x, nil
	}
	switch goos {
	case "windows":
		return required(getenv, "APPDATA")
	case "darwin":
		home, err := required(getenv, "HOME")
		return filepath.Join(home, "Library", "Application Support"), err
	}
	home, err := required(getenv, "HOME")
	return filepath.Join(home, ".config"), err
}

// DataHome is $XDG_DATA_HOME, or the OS's usual per-user data folder.
func DataHome(getenv func(string) string, goos string) (string, error) {
	if x := getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
		return x, nil
	}
	switch goos {
	case "windows":
		return required(getenv, "LOCALAPPDATA")
	case "darwin":
		home, err := required(getenv, "HOME")
		return filepath.Join(home, "Library", "Application Support"), err
	}
	home, err := required(getenv, "HOME")
	return filepath.Join(home, ".local", "share"), err
}

func required(getenv func(string) string, name string) (string, error) {
	if v := getenv(name); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("$%s is not set: set it, or set XDG_DATA_HOME and XDG_CONFIG_HOME", name)
}

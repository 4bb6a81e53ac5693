package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Configuration keys (DESIGN §12). Viper matches them case-insensitively;
// the environment variable of a key is TRAILPIN_ plus the key upper-cased
// with dots as underscores (TRAILPIN_DB, TRAILPIN_DATADIR).
const (
	keyDB          = "db"
	keyDataDir     = "dataDir"
	keyExtensionID = "extensionId"
	// keyPruneUnsavedAfter: recordings idle and unsaved for longer are
	// deleted when a recording starts.
	keyPruneUnsavedAfter = "recording.pruneUnsavedAfter"
)

// defaultPruneUnsavedAfter keeps an abandoned recording a week: long enough
// to come back to it after a weekend, short enough that screens do not pile up.
const defaultPruneUnsavedAfter = "168h"

const (
	// userConfigName is the user config file under the config home.
	userConfigName = "trailpin/config.yaml"
	// projectConfigName is the project config at a repo's root.
	projectConfigName = "trailpin.yaml"
	// envPrefix starts every environment variable Trailpin reads.
	envPrefix = "TRAILPIN"
)

// A config is the merged configuration of one invocation: defaults, the user
// config, the project config, TRAILPIN_* variables, then flags, each layer
// overriding the one before.
type config struct {
	v *viper.Viper
	// UserFile is where the user config is read from (it may not exist).
	UserFile string
	// ProjectFile is the project config in use, "" when none was found.
	ProjectFile string
	// Project is ProjectFile read strictly, with the TRAILPIN_* overrides
	// of project keys applied; nil when no project config was found.
	Project *project
}

// loadConfig builds the configuration. explicit is the --config flag
// ("" to search for trailpin.yaml from the working directory upwards);
// flags, when not nil, are bound to their keys.
func loadConfig(e *env, explicit string, flags *pflag.FlagSet) (*config, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	dataHome, err := e.dataHome()
	if err != nil {
		return nil, err
	}
	v.SetDefault(keyDataDir, filepath.Join(dataHome, "trailpin"))
	v.SetDefault(keyPruneUnsavedAfter, defaultPruneUnsavedAfter)

	c := &config{v: v}
	if cfgHome, err := e.configHome(); err == nil {
		c.UserFile = filepath.Join(cfgHome, userConfigName)
		if err := mergeFile(v, c.UserFile, false); err != nil {
			return nil, err
		}
		if _, err := readUserConfig(c.UserFile); err != nil {
			return nil, err
		}
	}
	c.ProjectFile = explicit
	if explicit == "" {
		c.ProjectFile = findUpwards(e.getwd, projectConfigName)
	}
	if c.ProjectFile != "" {
		if err := mergeFile(v, c.ProjectFile, explicit != ""); err != nil {
			return nil, err
		}
		if c.Project, err = readProject(c.ProjectFile, e.getenv); err != nil {
			return nil, err
		}
		// A relative db in trailpin.yaml is relative to the project, not
		// to wherever the command runs.
		if c.Project.DB != "" {
			if err := v.MergeConfigMap(map[string]any{keyDB: c.Project.DB}); err != nil {
				return nil, err
			}
		}
	}

	v.SetEnvPrefix(envPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	if flags != nil {
		if f := flags.Lookup("db"); f != nil {
			if err := v.BindPFlag(keyDB, f); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

// mergeFile merges a YAML file into v. A missing file is fine unless
// required; a file that does not parse is an error that names it.
func mergeFile(v *viper.Viper, name string, required bool) error {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) && !required {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading config: %w", err)
	}
	defer f.Close()
	if err := v.MergeConfig(f); err != nil {
		return fmt.Errorf("reading config %s: %w (fix the YAML, or move the file away)", name, err)
	}
	return nil
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

// DataDir is where the host keeps its database and log.
func (c *config) DataDir() string { return c.v.GetString(keyDataDir) }

// DBPath is the SQLite database: --db, TRAILPIN_DB or "db" in config, by
// default trailpin.db in the data directory.
func (c *config) DBPath() string {
	if p := c.v.GetString(keyDB); p != "" {
		return p
	}
	return filepath.Join(c.DataDir(), "trailpin.db")
}

// PruneUnsavedAfter is how long an unsaved recording may stay idle before
// it is deleted (recording.pruneUnsavedAfter).
func (c *config) PruneUnsavedAfter() (time.Duration, error) {
	s := c.v.GetString(keyPruneUnsavedAfter)
	d, err := parseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %w: write a duration such as 72h", keyPruneUnsavedAfter, err)
	}
	return d, nil
}

// ExtensionID is the extension the host is installed for, "" for the one
// fixed by the key in extension/manifest.json.
func (c *config) ExtensionID() string { return c.v.GetString(keyExtensionID) }

// configHome is $XDG_CONFIG_HOME, or the OS's usual per-user config folder.
func (e *env) configHome() (string, error) {
	if x := e.getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return x, nil
	}
	switch e.goos {
	case "windows":
		return e.required("APPDATA")
	case "darwin":
		home, err := e.required("HOME")
		return filepath.Join(home, "Library", "Application Support"), err
	}
	home, err := e.required("HOME")
	return filepath.Join(home, ".config"), err
}

// dataHome is $XDG_DATA_HOME, or the OS's usual per-user data folder.
func (e *env) dataHome() (string, error) {
	if x := e.getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
		return x, nil
	}
	switch e.goos {
	case "windows":
		return e.required("LOCALAPPDATA")
	case "darwin":
		home, err := e.required("HOME")
		return filepath.Join(home, "Library", "Application Support"), err
	}
	home, err := e.required("HOME")
	return filepath.Join(home, ".local", "share"), err
}

func (e *env) required(name string) (string, error) {
	if v := e.getenv(name); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("$%s is not set: set it, or set XDG_DATA_HOME and XDG_CONFIG_HOME", name)
}

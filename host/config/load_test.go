package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// testEnv returns options whose home, config and data folders are in a temp
// folder, and whose working directory is wd.
func testEnv(t *testing.T, wd string) Options {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_DATA_HOME", "")
	for _, k := range []string{"TRAILPIN_DB", "TRAILPIN_DATADIR", "TRAILPIN_EXTENSIONID"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	return Options{
		Getenv: os.Getenv,
		Getwd:  func() (string, error) { return wd, nil },
		GOOS:   "linux",
	}
}

// load is Load with the --config and the flags of a command.
func load(o Options, file string, flags *pflag.FlagSet) (*Config, error) {
	o.ConfigFile, o.Flags = file, flags
	return Load(o)
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestConfigLayers(t *testing.T) {
	tests := []struct {
		name    string
		user    string // user config.yaml, "" for none
		project string // trailpin.yaml two folders above the working directory
		envDB   string
		flagDB  string
		want    string
		// wantSource is the db key's Source, {file} the user or project
		// file.
		wantSource string
	}{
		{"default", "", "", "", "", "{home}/.local/share/trailpin/trailpin.db", "default"},
		{"user config", "# db\ndb: /u.db\n", "", "", "", "/u.db", "user {user}:2"},
		{"project over user", "db: /u.db\n", "\ndb: /p.db\n", "", "", "/p.db", "project {project}:2"},
		{"env over project", "db: /u.db\n", "db: /p.db\n", "/e.db", "", "/e.db", "env TRAILPIN_DB"},
		{"flag over env", "db: /u.db\n", "db: /p.db\n", "/e.db", "/f.db", "/f.db", "flag --db"},
		{"dataDir moves the default db", "dataDir: /data\n", "", "", "", "/data/trailpin.db", "default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := t.TempDir()
			wd := filepath.Join(repo, "web", "src")
			e := testEnv(t, wd)
			home := os.Getenv("HOME")
			if tt.user != "" {
				writeFile(t, filepath.Join(home, ".config/trailpin/config.yaml"), tt.user)
			}
			if tt.project != "" {
				writeFile(t, filepath.Join(repo, "trailpin.yaml"), tt.project)
			}
			if tt.envDB != "" {
				t.Setenv("TRAILPIN_DB", tt.envDB)
			}
			flags := pflag.NewFlagSet("test", pflag.ContinueOnError)
			flags.String("db", "", "")
			if tt.flagDB != "" {
				if err := flags.Parse([]string{"--db", tt.flagDB}); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := load(e, "", flags)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tt.want, "{home}", home)
			if got := cfg.DBPath(); got != want {
				t.Errorf("DBPath() = %q, want %q", got, want)
			}
			wantSource := strings.NewReplacer("{user}", filepath.Join(home, ".config/trailpin/config.yaml"),
				"{project}", filepath.Join(repo, "trailpin.yaml")).Replace(tt.wantSource)
			if got := cfg.Source(KeyDB).String(); got != wantSource {
				t.Errorf("Source(db) = %q, want %q", got, wantSource)
			}
		})
	}
}

func TestConfigXDG(t *testing.T) {
	e := testEnv(t, t.TempDir())
	cfgHome, dataHome := t.TempDir(), t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfgHome)
	t.Setenv("XDG_DATA_HOME", dataHome)
	writeFile(t, filepath.Join(cfgHome, "trailpin/config.yaml"), "extensionId: abcdefghijklmnopabcdefghijklmnop\n")
	cfg, err := load(e, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cfg.DataDir(), filepath.Join(dataHome, "trailpin"); got != want {
		t.Errorf("DataDir() = %q, want %q", got, want)
	}
	if got, want := cfg.ExtensionID(), "abcdefghijklmnopabcdefghijklmnop"; got != want {
		t.Errorf("ExtensionID() = %q, want %q", got, want)
	}
}

func TestConfigErrors(t *testing.T) {
	t.Run("explicit file missing", func(t *testing.T) {
		e := testEnv(t, t.TempDir())
		_, err := load(e, "/nonexistent/trailpin.yaml", nil)
		if err == nil || !strings.Contains(err.Error(), "/nonexistent/trailpin.yaml") {
			t.Errorf("load(missing --config) error = %v, want one naming the file", err)
		}
	})
	t.Run("bad YAML names the file", func(t *testing.T) {
		wd := t.TempDir()
		e := testEnv(t, wd)
		writeFile(t, filepath.Join(wd, "trailpin.yaml"), "db: [unclosed\n")
		_, err := load(e, "", nil)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(wd, "trailpin.yaml")) {
			t.Errorf("load(bad YAML) error = %v, want one naming the file", err)
		}
	})
	t.Run("no HOME", func(t *testing.T) {
		e := testEnv(t, t.TempDir())
		t.Setenv("HOME", "")
		_, err := load(e, "", nil)
		if err == nil || !strings.Contains(err.Error(), "$HOME is not set") {
			t.Errorf("loadConfig without HOME error = %v, want $HOME is not set", err)
		}
	})
}

func TestUserConfigRecordingKeys(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "config.yaml")
	for src, wantErr := range map[string]string{
		"recording:\n  pruneUnsavedAfter: 72h\n": "",
		"recording:\n  pruneUnsavedAfter: 10\n":  "no unit",
		"recording:\n  pruneUnsaved: 72h\n":      "unknown key",
		"recording:\n  pruneUnsavedAfter: -1h\n": "not longer than zero",
		"recording: 72h\n":                       "must be a mapping",
	} {
		if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := readUserConfig(file)
		switch {
		case wantErr == "" && err != nil:
			t.Errorf("%q: %v", src, err)
		case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
			t.Errorf("%q: got %v, want an error saying %q", src, err, wantErr)
		}
	}
}

// TestReviewThreshold: review.threshold is read from the user config and
// its variable, defaults to the engine's threshold, and is refused outside
// (0, 1].
func TestReviewThreshold(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "config.yaml")
	for src, wantErr := range map[string]string{
		"review:\n  threshold: 0.9\n":   "",
		"review:\n  threshold: 1\n":     "",
		"review:\n  threshold: 0\n":     "not above 0",
		"review:\n  threshold: 1.5\n":   "at most 1",
		"review:\n  threshold: high\n":  "not a number",
		"review:\n  treshold: 0.9\n":    "unknown key",
		"review:\n  threshold: [0.9]\n": "must be a number",
	} {
		writeFile(t, file, src)
		_, err := readUserConfig(file)
		switch {
		case wantErr == "" && err != nil:
			t.Errorf("%q: %v", src, err)
		case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
			t.Errorf("%q: got %v, want an error saying %q", src, err, wantErr)
		}
	}

	e := testEnv(t, t.TempDir())
	t.Setenv(EnvVar(KeyReviewThreshold), "")
	os.Unsetenv(EnvVar(KeyReviewThreshold))
	file = filepath.Join(os.Getenv("HOME"), ".config/trailpin/config.yaml")
	cfg, err := load(e, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := cfg.ReviewThreshold(); err != nil || got != 0.8 {
		t.Errorf("default ReviewThreshold = %v, %v; want 0.8", got, err)
	}
	writeFile(t, file, "review:\n  threshold: 0.9\n")
	if cfg, err = load(e, "", nil); err != nil {
		t.Fatal(err)
	}
	if got, err := cfg.ReviewThreshold(); err != nil || got != 0.9 {
		t.Errorf("file ReviewThreshold = %v, %v; want 0.9", got, err)
	}
	t.Setenv(EnvVar(KeyReviewThreshold), "0.7")
	if cfg, err = load(e, "", nil); err != nil {
		t.Fatal(err)
	}
	if got, err := cfg.ReviewThreshold(); err != nil || got != 0.7 {
		t.Errorf("variable ReviewThreshold = %v, %v; want 0.7", got, err)
	}
	t.Setenv(EnvVar(KeyReviewThreshold), "2")
	if cfg, err = load(e, "", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.ReviewThreshold(); err == nil || !strings.Contains(err.Error(), "review.threshold") {
		t.Errorf("variable 2: err = %v, want one naming review.threshold", err)
	}
}

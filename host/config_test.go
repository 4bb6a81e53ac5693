package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// testEnv returns an env whose home, config and data folders are in a temp
// folder, and whose working directory is wd.
func testEnv(t *testing.T, wd string) *env {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_DATA_HOME", "")
	for _, k := range []string{"TRAILPIN_DB", "TRAILPIN_DATADIR", "TRAILPIN_EXTENSIONID"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	return &env{
		getenv:     os.Getenv,
		getwd:      func() (string, error) { return wd, nil },
		executable: os.Executable,
		goos:       "linux",
	}
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
	}{
		{"default", "", "", "", "", "{home}/.local/share/trailpin/trailpin.db"},
		{"user config", "db: /u.db\n", "", "", "", "/u.db"},
		{"project over user", "db: /u.db\n", "db: /p.db\n", "", "", "/p.db"},
		{"env over project", "db: /u.db\n", "db: /p.db\n", "/e.db", "", "/e.db"},
		{"flag over env", "db: /u.db\n", "db: /p.db\n", "/e.db", "/f.db", "/f.db"},
		{"dataDir moves the default db", "dataDir: /data\n", "", "", "", "/data/trailpin.db"},
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
			cfg, err := loadConfig(e, "", flags)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tt.want, "{home}", home)
			if got := cfg.DBPath(); got != want {
				t.Errorf("DBPath() = %q, want %q", got, want)
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
	cfg, err := loadConfig(e, "", nil)
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
		_, err := loadConfig(e, "/nonexistent/trailpin.yaml", nil)
		if err == nil || !strings.Contains(err.Error(), "/nonexistent/trailpin.yaml") {
			t.Errorf("loadConfig(missing --config) error = %v, want one naming the file", err)
		}
	})
	t.Run("bad YAML names the file", func(t *testing.T) {
		wd := t.TempDir()
		e := testEnv(t, wd)
		writeFile(t, filepath.Join(wd, "trailpin.yaml"), "db: [unclosed\n")
		_, err := loadConfig(e, "", nil)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(wd, "trailpin.yaml")) {
			t.Errorf("loadConfig(bad YAML) error = %v, want one naming the file", err)
		}
	})
	t.Run("no HOME", func(t *testing.T) {
		e := testEnv(t, t.TempDir())
		t.Setenv("HOME", "")
		_, err := loadConfig(e, "", nil)
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

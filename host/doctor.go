package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/extension"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/installer"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
	"github.com/trailpin/trailpin/storage"
)

// A check is one line of `host doctor`: what was checked, what was found,
// and for a failure the command or step that fixes it.
type check struct {
	name   string
	detail string
	fix    string // empty when the check passed
}

func (c check) failed() bool { return c.fix != "" }

func (c check) String() string {
	if !c.failed() {
		return fmt.Sprintf("ok    %s: %s", c.name, c.detail)
	}
	return fmt.Sprintf("FAIL  %s: %s. Fix: %s", c.name, c.detail, c.fix)
}

func newDoctorCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check that the host is installed and can run, and say how to fix what is not",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := e.config(cmd)
			if err != nil {
				return err
			}
			checks := e.doctor(cmd.Context(), cfg)
			failed := 0
			for _, c := range checks {
				fmt.Fprintln(e.stdout, c)
				if c.failed() {
					failed++
				}
			}
			if failed > 0 {
				return &exitcode.Error{Code: 1, Err: fmt.Errorf("%d of %d checks failed", failed, len(checks))}
			}
			return nil
		},
	}
}

// doctor runs every check.
func (e *env) doctor(ctx context.Context, cfg *config.Config) []check {
	self := e.selfCommand()
	wantID, idCheck := e.checkExtensionID(cfg, self)
	checks := []check{idCheck}
	checks = append(checks, e.checkManifests(self, wantID)...)
	checks = append(checks, checkDataDir(cfg.DataDir()), checkDatabase(ctx, cfg.DBPath()), e.checkReplayBrowser())
	return checks
}

// selfCommand is how a fix names this binary: its absolute path, quoted when
// needed, so the fix can be pasted as is.
func (e *env) selfCommand() string {
	exe, err := e.executable()
	if err != nil || strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "./bin/host"
	}
	if strings.ContainsAny(exe, " '\"") {
		return fmt.Sprintf("%q", exe)
	}
	return exe
}

func (e *env) checkExtensionID(cfg *config.Config, self string) (string, check) {
	c := check{name: "extension ID"}
	id, err := extensionID("", cfg)
	if err != nil {
		c.detail = err.Error()
		c.fix = "set extensionId in " + cfg.UserFile + " to the ID chrome://extensions shows, or remove it"
		return "", c
	}
	c.detail = id
	if builtin, _ := extension.ID(); id == builtin {
		c.detail += " (fixed by the key in extension/manifest.json)"
	} else {
		c.detail += " (from configuration)"
	}
	return id, c
}

// checkManifests checks, for each browser that is installed or has a
// manifest, that a valid manifest names an executable host and Trailpin's
// extension.
func (e *env) checkManifests(self, wantID string) []check {
	in := e.installer()
	p := in.Platform
	browsers := installer.Installed(p, exists)
	var statuses []installer.Status
	for _, b := range installer.Browsers {
		for _, s := range []installer.Scope{installer.User, installer.System} {
			t, err := installer.Locate(p, b, s)
			if err != nil {
				continue
			}
			if st := in.Inspect(t); st.Present {
				statuses = append(statuses, st)
				if !slices.Contains(browsers, b) {
					browsers = append(browsers, b)
				}
			}
		}
	}
	if len(browsers) == 0 {
		return []check{{
			name:   "manifest",
			detail: "no Chrome, Chromium, Edge or Brave found for this user",
			fix:    "install one (Debian: sudo apt-get install chromium), then run " + self + " install",
		}}
	}
	var checks []check
	for _, b := range installer.Browsers {
		if !slices.Contains(browsers, b) {
			continue
		}
		install := fmt.Sprintf("run %s install --browser %s", self, b)
		found := false
		for _, st := range statuses {
			if st.Browser != b {
				continue
			}
			found = true
			fix := install
			if st.Scope == installer.System {
				fix = fmt.Sprintf("run sudo %s install --browser %s --system", self, b)
			}
			checks = append(checks, checkManifest(p, st, wantID, fix)...)
		}
		if !found {
			t, _ := installer.Locate(p, b, installer.User)
			checks = append(checks, check{
				name:   "manifest for " + string(b),
				detail: "not installed (the browser looks for " + t.ManifestPath + ")",
				fix:    install,
			})
		}
	}
	return checks
}

// checkManifest returns the manifest, host path and allowed-extension checks
// of one installed manifest.
func checkManifest(p installer.Platform, st installer.Status, wantID, fix string) []check {
	name := func(what string) string { return fmt.Sprintf("%s for %s", what, st.Target) }
	if st.Err != nil {
		return []check{{name: name("manifest"), detail: fmt.Sprintf("%s cannot be read: %v", st.Path, st.Err), fix: fix}}
	}
	m := st.Manifest
	checks := []check{{name: name("manifest"), detail: st.Path}}
	if err := m.Validate(p, ""); err != nil {
		checks[0].detail = fmt.Sprintf("%s: %v", st.Path, err)
		checks[0].fix = fix
	}

	hostCheck := check{name: name("host path"), detail: m.Path + " is executable"}
	if err := executable(p.GOOS, m.Path); err != nil {
		hostCheck.detail = err.Error()
		hostCheck.fix = "build the host (go build -o bin/host ./host) and " + fix
	}
	checks = append(checks, hostCheck)

	idCheck := check{name: name("allowed extension"), detail: m.ExtensionID()}
	if wantID != "" && m.ExtensionID() != wantID {
		idCheck.detail = fmt.Sprintf("the manifest allows %q, not Trailpin's extension %s", strings.Join(m.AllowedOrigins, ", "), wantID)
		idCheck.fix = fix
	}
	return append(checks, idCheck)
}

// executable reports why path cannot be started as the host, or nil.
func executable(goos, path string) error {
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s does not exist", path)
	}
	if err != nil {
		return err
	}
	if st.IsDir() {
		return fmt.Errorf("%s is a folder", path)
	}
	if goos != "windows" && st.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not executable", path)
	}
	return nil
}

// checkDataDir proves the data directory is writable by writing a file.
func checkDataDir(dir string) check {
	c := check{name: "data directory", detail: dir + " is writable"}
	fix := "make " + dir + " writable (chmod u+rwx), or point XDG_DATA_HOME or TRAILPIN_DATADIR at a writable folder"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		c.detail, c.fix = fmt.Sprintf("cannot create %s: %v", dir, err), fix
		return c
	}
	f, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		c.detail, c.fix = fmt.Sprintf("cannot write in %s: %v", dir, err), fix
		return c
	}
	f.Close()
	os.Remove(f.Name())
	return c
}

// checkDatabase reads the whole database (SQLite's quick_check), so that a
// damaged file is found here rather than in the middle of a recording.
func checkDatabase(ctx context.Context, path string) check {
	c := check{name: "database"}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		c.detail = path + " does not exist yet (it is made at the first recording, import or replay)"
		return c
	}
	db, err := storage.Open(ctx, path, storage.WithQuickCheck())
	var ce *storage.CorruptError
	switch {
	case errors.As(err, &ce):
		c.detail = fmt.Sprintf("%s is damaged and cannot be used (%s)", path, ce.Summary())
		c.fix = fmt.Sprintf("move it aside, and a new one is made at the next start: %s. Lost with it: %s", ce.MoveAside(), ce.Lost())
	case err != nil:
		c.detail = err.Error()
		c.fix = "point the db setting (--db, TRAILPIN_DB or db in the user config) at another file, or move this one aside"
	default:
		db.Close()
		c.detail = path + " passed SQLite's quick check"
	}
	return c
}

// checkReplayBrowser finds the browser replay would start.
func (e *env) checkReplayBrowser() check {
	c := check{name: "browser for replay"}
	path, err := browser.FindChrome()
	if err == nil {
		c.detail = path
		return c
	}
	c.detail = err.Error()
	switch {
	case e.getenv("CHROME_PATH") != "":
		c.fix = "point CHROME_PATH at a Chromium-based browser's executable, or unset it"
	case e.goos == "linux":
		c.fix = "install Chromium (Debian: sudo apt-get install chromium; on Ubuntu, whose chromium is a snap, set CHROME_PATH to any Chromium-based browser)"
	default:
		c.fix = "install Google Chrome or Chromium, or set CHROME_PATH to a Chromium-based browser's executable"
	}
	return c
}

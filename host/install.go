package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/extension"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/installer"
)

// installFlags are the flags install and uninstall share.
type installFlags struct {
	browser     string
	system      bool
	extensionID string
	dryRun      bool
	path        string
}

func (f *installFlags) scope() installer.Scope {
	if f.system {
		return installer.System
	}
	return installer.User
}

func (f *installFlags) register(cmd *cobra.Command, forInstall bool) {
	cmd.Flags().StringVar(&f.browser, "browser", "", "chrome, chromium, edge, brave (comma-separated) or all (default: the browsers found on this machine)")
	cmd.Flags().BoolVar(&f.system, "system", false, "for every user of the machine (needs root or administrator)")
	cmd.Flags().BoolVar(&f.dryRun, "dry-run", false, "print what would change and change nothing")
	cmd.Flags().StringVar(&f.extensionID, "extension-id", "", "extension allowed to start the host (default: Trailpin's, fixed by the key in extension/manifest.json)")
	cmd.Flags().StringVar(&f.path, "path", "", "host executable the browser starts (default: this binary)")
	if !forInstall {
		// Accepted so that an install command line can be reused with
		// uninstall; which files are Trailpin's does not depend on them.
		_ = cmd.Flags().MarkHidden("extension-id")
		_ = cmd.Flags().MarkHidden("path")
	}
}

// installer returns an installer for this machine, reading the environment
// the way the rest of the command does.
func (e *env) installer() *installer.Installer {
	return &installer.Installer{
		Platform: installer.Platform{GOOS: e.goos, Getenv: e.getenv},
		Registry: installer.SystemRegistry(),
	}
}

func newInstallCmd(e *env) *cobra.Command {
	var f installFlags
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Register the host with Chrome, Chromium, Edge and Brave (native-messaging manifest)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := e.config(cmd)
			if err != nil {
				return err
			}
			in := e.installer()
			browsers, err := e.chooseBrowsers(in.Platform, f.browser, true)
			if err != nil {
				return err
			}
			hostPath, err := e.hostPath(f.path)
			if err != nil {
				return err
			}
			id, err := extensionID(f.extensionID, cfg)
			if err != nil {
				return err
			}
			m, err := installer.NewManifest(in.Platform, hostPath, id)
			if err != nil {
				return err
			}
			targets, err := installer.Targets(in.Platform, browsers, f.scope())
			if err != nil {
				return err
			}
			for _, t := range targets {
				if f.dryRun {
					fmt.Fprintf(e.stdout, "would write %s for %s:\n%s", t.ManifestPath, t, m.Encode())
					if t.RegistryKey != "" {
						fmt.Fprintf(e.stdout, "would set %s\\%s to %s\n", t.RegistryRoot, t.RegistryKey, t.ManifestPath)
					}
					continue
				}
				if err := in.Install(t, m); err != nil {
					return installHint(err, f.system)
				}
				fmt.Fprintf(e.stdout, "installed for %s: %s\n", t, t.ManifestPath)
				if t.RegistryKey != "" {
					fmt.Fprintf(e.stdout, "registered %s\\%s\n", t.RegistryRoot, t.RegistryKey)
				}
			}
			return nil
		},
	}
	f.register(cmd, true)
	return cmd
}

func newUninstallCmd(e *env) *cobra.Command {
	var f installFlags
	cmd := &cobra.Command{
		Use:   "uninstall",
		Short: "Remove Trailpin's native-messaging manifests (and registry keys), and nothing else",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			in := e.installer()
			browsers, err := e.chooseBrowsers(in.Platform, f.browser, false)
			if err != nil {
				return err
			}
			targets, err := installer.Targets(in.Platform, browsers, f.scope())
			if err != nil {
				return err
			}
			for _, t := range targets {
				if f.dryRun {
					if st := in.Inspect(t); st.Present {
						fmt.Fprintf(e.stdout, "would remove %s for %s\n", st.Path, t)
					}
					continue
				}
				removed, err := in.Uninstall(t)
				if err != nil {
					return installHint(err, f.system)
				}
				if removed {
					fmt.Fprintf(e.stdout, "removed for %s: %s\n", t, t.ManifestPath)
				}
			}
			return nil
		},
	}
	f.register(cmd, false)
	return cmd
}

// chooseBrowsers reads --browser. Without it, install picks the browsers
// found on this machine, and uninstall every browser (it only removes what
// is Trailpin's).
func (e *env) chooseBrowsers(p installer.Platform, flag string, forInstall bool) ([]installer.Browser, error) {
	if flag != "" {
		return installer.ParseBrowsers(flag)
	}
	if !forInstall {
		return installer.Browsers, nil
	}
	found := installer.Installed(p, exists)
	if len(found) == 0 {
		return nil, errors.New("no Chrome, Chromium, Edge or Brave found on this machine: install one, or name it with --browser")
	}
	return found, nil
}

// hostPath is the absolute path of the executable the manifest names.
func (e *env) hostPath(flag string) (string, error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", err
		}
		if st, err := os.Stat(abs); err != nil || st.IsDir() {
			return "", fmt.Errorf("--path %s: not an executable file: build it first (go build -o bin/host ./host)", abs)
		}
		return abs, nil
	}
	exe, err := e.executable()
	if err != nil {
		return "", fmt.Errorf("finding this binary's path: %w (pass --path)", err)
	}
	if abs, err := filepath.Abs(exe); err == nil {
		exe = abs
	}
	// `go run` builds into a temporary folder that is gone by the time
	// the browser starts the host.
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "", fmt.Errorf("this binary is a temporary `go run` build (%s): build it with `go build -o bin/host ./host` and run ./bin/host install", exe)
	}
	return exe, nil
}

// extensionID is --extension-id, else the configured ID, else the one fixed
// by the key in extension/manifest.json.
func extensionID(flag string, cfg *config.Config) (string, error) {
	id := flag
	if id == "" {
		id = cfg.ExtensionID()
	}
	if id == "" {
		return extension.ID()
	}
	if !installer.ValidExtensionID(id) {
		return "", fmt.Errorf("extension ID %q is not 32 letters a-p: copy it from chrome://extensions", id)
	}
	return id, nil
}

// installHint adds what to do when writing failed for lack of permission.
func installHint(err error, system bool) error {
	if system && errors.Is(err, os.ErrPermission) {
		return fmt.Errorf("%w (system-wide install needs root: run it with sudo, or drop --system)", err)
	}
	return err
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

package installer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// An Installer writes and removes Trailpin's manifests (and, on Windows, the
// registry keys that point at them) for one platform.
type Installer struct {
	Platform Platform
	// Registry is used when Platform.GOOS is "windows".
	Registry Registry
	// Root, when set, is put before every file path: packagers stage files
	// under it, and tests keep system-wide writes inside a temp folder.
	Root string
}

// New returns an installer for the platform the program runs on.
func New() *Installer { return &Installer{Platform: Current(), Registry: SystemRegistry()} }

// file maps a target path to the file the installer touches.
func (in *Installer) file(name string) string {
	if in.Root == "" {
		return name
	}
	return filepath.Join(in.Root, name)
}

// Install writes m where t says, atomically, and on Windows points the
// registry key at it.
func (in *Installer) Install(t Target, m Manifest) error {
	if err := writeManifestFile(in.file(t.ManifestPath), m.Encode()); err != nil {
		return fmt.Errorf("installing for %s: %w", t, err)
	}
	if t.RegistryKey != "" {
		if err := in.Registry.SetDefault(t.RegistryRoot, t.RegistryKey, t.ManifestPath); err != nil {
			return fmt.Errorf("installing for %s: %w", t, err)
		}
	}
	return nil
}

// Uninstall removes Trailpin's manifest and registry key for t, and nothing
// else. It reports whether anything was there.
func (in *Installer) Uninstall(t Target) (removed bool, err error) {
	if t.RegistryKey != "" {
		switch _, err := in.Registry.Default(t.RegistryRoot, t.RegistryKey); {
		case errors.Is(err, ErrNoKey):
		case err != nil:
			return false, fmt.Errorf("uninstalling for %s: %w", t, err)
		default:
			if err := in.Registry.DeleteKey(t.RegistryRoot, t.RegistryKey); err != nil {
				return false, fmt.Errorf("uninstalling for %s: %w", t, err)
			}
			removed = true
		}
	}
	switch err := os.Remove(in.file(t.ManifestPath)); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return removed, fmt.Errorf("uninstalling for %s: %w", t, err)
	default:
		removed = true
	}
	return removed, nil
}

// A Status is what Inspect found for one target.
type Status struct {
	Target
	// Present says a manifest is registered: the file exists (and on
	// Windows the registry key exists).
	Present bool
	// Path is the manifest file read: Target.ManifestPath, or on Windows
	// the file the registry key names.
	Path string
	// Manifest is the parsed manifest when Present and Err is nil.
	Manifest Manifest
	// Err says why a present manifest could not be read.
	Err error
}

// Inspect reads what is installed for t, without changing anything.
func (in *Installer) Inspect(t Target) Status {
	st := Status{Target: t, Path: t.ManifestPath}
	if t.RegistryKey != "" {
		v, err := in.Registry.Default(t.RegistryRoot, t.RegistryKey)
		if errors.Is(err, ErrNoKey) {
			return st
		}
		if err != nil {
			st.Present, st.Err = true, err
			return st
		}
		st.Path = v
	}
	b, err := os.ReadFile(in.file(st.Path))
	if errors.Is(err, fs.ErrNotExist) {
		if t.RegistryKey != "" {
			st.Present, st.Err = true, fmt.Errorf("the registry key %s\\%s names %s, which does not exist", t.RegistryRoot, t.RegistryKey, st.Path)
		}
		return st
	}
	st.Present = true
	if err != nil {
		st.Err = err
		return st
	}
	st.Manifest, st.Err = ParseManifest(b)
	return st
}

// WriteManifestTo writes m into dir as dev.trailpin.host.json and returns the
// file's path. Tests use it to install the host into a Chromium profile's
// NativeMessagingHosts folder (<user-data-dir>/NativeMessagingHosts), where
// Chromium on Linux and macOS looks for per-user hosts.
func WriteManifestTo(dir string, m Manifest) (string, error) {
	name := filepath.Join(dir, ManifestFile)
	if err := writeManifestFile(name, m.Encode()); err != nil {
		return "", err
	}
	return name, nil
}

// Targets returns the targets for browsers in scope s.
func Targets(p Platform, browsers []Browser, s Scope) ([]Target, error) {
	var out []Target
	var errs []string
	for _, b := range browsers {
		t, err := Locate(p, b, s)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		out = append(out, t)
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "; "))
	}
	return out, nil
}

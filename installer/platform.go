package installer

import (
	"fmt"
	"os"
	"path"
	"runtime"
	"strings"
)

// A Platform is the operating system the installer works for, and how it
// reads the environment. Every path is computed from it, so the logic of
// each OS is tested on any machine.
type Platform struct {
	// GOOS is "linux", "darwin" or "windows".
	GOOS string
	// Getenv reads an environment variable; empty means unset.
	Getenv func(string) string
}

// Current returns the platform the program runs on.
func Current() Platform { return Platform{GOOS: runtime.GOOS, Getenv: os.Getenv} }

// ErrUnsupportedOS is returned for an OS that Chrome has no native-messaging
// locations for here.
var ErrUnsupportedOS = fmt.Errorf("native messaging is supported on linux, darwin and windows")

func (p Platform) supported() error {
	switch p.GOOS {
	case "linux", "darwin", "windows":
		return nil
	}
	return fmt.Errorf("%s: %w", p.GOOS, ErrUnsupportedOS)
}

// join joins path elements with the platform's separator, so Windows paths
// come out right when tested on Linux.
func (p Platform) join(elem ...string) string {
	if p.GOOS == "windows" {
		parts := make([]string, 0, len(elem))
		for _, e := range elem {
			if e = strings.Trim(e, `\/`); e != "" {
				parts = append(parts, e)
			}
		}
		if len(elem) > 0 && strings.HasPrefix(elem[0], `\\`) {
			return `\\` + strings.Join(parts, `\`)
		}
		return strings.Join(parts, `\`)
	}
	return path.Join(elem...)
}

// dir returns the folder part of a path on this platform.
func (p Platform) dir(name string) string {
	if p.GOOS == "windows" {
		if i := strings.LastIndexAny(name, `\/`); i >= 0 {
			return name[:i]
		}
		return "."
	}
	return path.Dir(name)
}

// IsAbs reports whether name is an absolute path on this platform.
func (p Platform) IsAbs(name string) bool {
	if p.GOOS == "windows" {
		if strings.HasPrefix(name, `\\`) {
			return true
		}
		return len(name) >= 3 && name[1] == ':' && (name[2] == '\\' || name[2] == '/') &&
			(name[0]|0x20 >= 'a' && name[0]|0x20 <= 'z')
	}
	return strings.HasPrefix(name, "/")
}

// home returns the user's home folder.
func (p Platform) home() (string, error) {
	name := "HOME"
	if p.GOOS == "windows" {
		name = "USERPROFILE"
	}
	h := p.Getenv(name)
	if h == "" {
		return "", fmt.Errorf("$%s is not set: cannot find the per-user browser folders", name)
	}
	return h, nil
}

// env returns $name, or an error naming the variable when it is unset.
func (p Platform) env(name string) (string, error) {
	if v := p.Getenv(name); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("%%%s%% is not set: cannot find where to put the manifest", name)
}

// configHome is $XDG_CONFIG_HOME, or ~/.config when it is unset or not
// absolute (as the XDG base-directory rules say).
func (p Platform) configHome() (string, error) {
	if x := p.Getenv("XDG_CONFIG_HOME"); x != "" && p.IsAbs(x) {
		return x, nil
	}
	home, err := p.home()
	if err != nil {
		return "", err
	}
	return p.join(home, ".config"), nil
}

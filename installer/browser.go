package installer

import (
	"fmt"
	"strings"
)

// A Browser is a Chromium-based browser Trailpin installs its host for.
type Browser string

const (
	Chrome   Browser = "chrome"
	Chromium Browser = "chromium"
	Edge     Browser = "edge"
	Brave    Browser = "brave"
)

// Browsers lists every supported browser, in the order commands report them.
var Browsers = []Browser{Chrome, Chromium, Edge, Brave}

// ParseBrowsers reads a --browser value: one browser name, a comma-separated
// list, or "all".
func ParseBrowsers(s string) ([]Browser, error) {
	if s == "all" {
		return Browsers, nil
	}
	var out []Browser
	for name := range strings.SplitSeq(s, ",") {
		b := Browser(strings.TrimSpace(strings.ToLower(name)))
		if !b.valid() {
			return nil, fmt.Errorf("unknown browser %q: use chrome, chromium, edge, brave or all", name)
		}
		out = append(out, b)
	}
	return out, nil
}

func (b Browser) valid() bool {
	for _, k := range Browsers {
		if b == k {
			return true
		}
	}
	return false
}

// A Scope says whether a manifest serves one user or everyone on the machine.
type Scope string

const (
	User   Scope = "user"
	System Scope = "system"
)

// browserDirs names each browser's folders, per OS.
type browserDirs struct {
	// linuxConfig is the folder under $XDG_CONFIG_HOME (per user).
	linuxConfig string
	// linuxSystem is the system-wide manifest folder.
	linuxSystem string
	// darwinUser is the folder under ~/Library/Application Support.
	darwinUser string
	// darwinSystem is the system-wide manifest folder's parent.
	darwinSystem string
	// windowsKey is the registry path under HKCU or HKLM, without
	// NativeMessagingHosts.
	windowsKey string
}

var dirs = map[Browser]browserDirs{
	Chrome: {
		linuxConfig:  "google-chrome",
		linuxSystem:  "/etc/opt/chrome/native-messaging-hosts",
		darwinUser:   "Google/Chrome",
		darwinSystem: "/Library/Google/Chrome",
		windowsKey:   `Software\Google\Chrome`,
	},
	Chromium: {
		linuxConfig:  "chromium",
		linuxSystem:  "/etc/chromium/native-messaging-hosts",
		darwinUser:   "Chromium",
		darwinSystem: "/Library/Application Support/Chromium",
		windowsKey:   `Software\Chromium`,
	},
	Edge: {
		linuxConfig:  "microsoft-edge",
		linuxSystem:  "/etc/opt/edge/native-messaging-hosts",
		darwinUser:   "Microsoft Edge",
		darwinSystem: "/Library/Microsoft/Edge",
		windowsKey:   `Software\Microsoft\Edge`,
	},
	Brave: {
		linuxConfig:  "BraveSoftware/Brave-Browser",
		linuxSystem:  "/etc/opt/brave.com/brave/native-messaging-hosts",
		darwinUser:   "BraveSoftware/Brave-Browser",
		darwinSystem: "/Library/BraveSoftware/Brave-Browser",
		windowsKey:   `Software\BraveSoftware\Brave-Browser`,
	},
}

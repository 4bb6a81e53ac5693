package installer

import "fmt"

// HostName is the native-messaging host name the extension connects to.
const HostName = "dev.trailpin.host"

// ManifestFile is the manifest's file name, the same in every location.
const ManifestFile = HostName + ".json"

// Registry roots on Windows.
const (
	HKCU = "HKCU"
	HKLM = "HKLM"
)

// A Target is where one browser looks for Trailpin's manifest in one scope.
type Target struct {
	Browser Browser
	Scope   Scope
	// ManifestPath is the manifest file.
	ManifestPath string
	// RegistryRoot and RegistryKey are set on Windows only: the key whose
	// default value is ManifestPath.
	RegistryRoot string
	RegistryKey  string
}

func (t Target) String() string { return fmt.Sprintf("%s (%s)", t.Browser, t.Scope) }

// Locate returns where browser b looks for the manifest in scope s on p.
func Locate(p Platform, b Browser, s Scope) (Target, error) {
	if err := p.supported(); err != nil {
		return Target{}, err
	}
	d, ok := dirs[b]
	if !ok {
		return Target{}, fmt.Errorf("unknown browser %q", b)
	}
	if s != User && s != System {
		return Target{}, fmt.Errorf("unknown scope %q", s)
	}
	t := Target{Browser: b, Scope: s}
	switch {
	case p.GOOS == "linux" && s == User:
		cfg, err := p.configHome()
		if err != nil {
			return Target{}, err
		}
		t.ManifestPath = p.join(cfg, d.linuxConfig, "NativeMessagingHosts", ManifestFile)
	case p.GOOS == "linux":
		t.ManifestPath = p.join(d.linuxSystem, ManifestFile)
	case p.GOOS == "darwin" && s == User:
		home, err := p.home()
		if err != nil {
			return Target{}, err
		}
		t.ManifestPath = p.join(home, "Library/Application Support", d.darwinUser, "NativeMessagingHosts", ManifestFile)
	case p.GOOS == "darwin":
		t.ManifestPath = p.join(d.darwinSystem, "NativeMessagingHosts", ManifestFile)
	case p.GOOS == "windows":
		// Chrome on Windows finds the manifest through the registry, so it
		// can live anywhere: Trailpin keeps its own, one per browser.
		base, root := "LOCALAPPDATA", HKCU
		if s == System {
			base, root = "ProgramData", HKLM
		}
		dir, err := p.env(base)
		if err != nil {
			return Target{}, err
		}
		t.ManifestPath = p.join(dir, "Trailpin", "NativeMessagingHosts", string(b), ManifestFile)
		t.RegistryRoot = root
		t.RegistryKey = d.windowsKey + `\NativeMessagingHosts\` + HostName
	}
	return t, nil
}

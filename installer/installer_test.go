package installer

import (
	"github.com/trailpin/trailpin/e2e/golden"

	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const testID = "fjmncidonfkcepgogieobgonbpmpilie"

// fakeRegistry is a map standing in for the Windows registry.
type fakeRegistry map[string]string

func (r fakeRegistry) SetDefault(root, key, value string) error {
	r[root+`\`+key] = value
	return nil
}

func (r fakeRegistry) Default(root, key string) (string, error) {
	v, ok := r[root+`\`+key]
	if !ok {
		return "", ErrNoKey
	}
	return v, nil
}

func (r fakeRegistry) DeleteKey(root, key string) error {
	delete(r, root+`\`+key)
	return nil
}

// env returns a Getenv over vars.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// testPlatforms are the three OSes with the environment a user would have.
var testPlatforms = map[string]Platform{
	"linux":   {GOOS: "linux", Getenv: env(map[string]string{"HOME": "/home/ada"})},
	"darwin":  {GOOS: "darwin", Getenv: env(map[string]string{"HOME": "/Users/ada"})},
	"windows": {GOOS: "windows", Getenv: env(map[string]string{`USERPROFILE`: `C:\Users\ada`, "LOCALAPPDATA": `C:\Users\ada\AppData\Local`, "ProgramData": `C:\ProgramData`})},
}

var testHostPath = map[string]string{
	"linux":   "/home/ada/src/trailpin/bin/host",
	"darwin":  "/Users/ada/src/trailpin/bin/host",
	"windows": `C:\Users\ada\src\trailpin\bin\host.exe`,
}

// TestInstallGolden installs every browser × OS × scope into a temp root and
// compares what was written (file and registry key) with testdata.
func TestInstallGolden(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, b := range Browsers {
			for _, s := range []Scope{User, System} {
				name := fmt.Sprintf("%s-%s-%s", goos, b, s)
				t.Run(name, func(t *testing.T) {
					p := testPlatforms[goos]
					reg := fakeRegistry{}
					in := &Installer{Platform: p, Registry: reg, Root: t.TempDir()}
					tgt, err := Locate(p, b, s)
					if err != nil {
						t.Fatal(err)
					}
					m, err := NewManifest(p, testHostPath[goos], testID)
					if err != nil {
						t.Fatal(err)
					}
					if err := in.Install(tgt, m); err != nil {
						t.Fatal(err)
					}
					written, err := os.ReadFile(filepath.Join(in.Root, tgt.ManifestPath))
					if err != nil {
						t.Fatal(err)
					}
					var got strings.Builder
					fmt.Fprintf(&got, "file: %s\n", tgt.ManifestPath)
					for _, k := range slices.Sorted(maps.Keys(reg)) {
						fmt.Fprintf(&got, "registry: %s = %s\n", k, reg[k])
					}
					fmt.Fprintf(&got, "\n%s", written)
					golden.CheckString(t, filepath.Join("testdata", name+".golden"), got.String())
				})
			}
		}
	}
}

func TestInstallInspectUninstall(t *testing.T) {
	for goos, p := range testPlatforms {
		for _, s := range []Scope{User, System} {
			t.Run(goos+"-"+string(s), func(t *testing.T) {
				reg := fakeRegistry{}
				in := &Installer{Platform: p, Registry: reg, Root: t.TempDir()}
				tgt, err := Locate(p, Chromium, s)
				if err != nil {
					t.Fatal(err)
				}
				if st := in.Inspect(tgt); st.Present || st.Err != nil {
					t.Fatalf("Inspect before install = present %v, err %v; want absent", st.Present, st.Err)
				}
				// A neighbour that is not Trailpin's must survive uninstall.
				other := filepath.Join(in.Root, p.dir(tgt.ManifestPath), "org.example.other.json")
				if err := writeManifestFile(other, []byte("{}")); err != nil {
					t.Fatal(err)
				}
				m, _ := NewManifest(p, testHostPath[goos], testID)
				if err := in.Install(tgt, m); err != nil {
					t.Fatal(err)
				}
				st := in.Inspect(tgt)
				if !st.Present || st.Err != nil {
					t.Fatalf("Inspect after install = present %v, err %v; want present", st.Present, st.Err)
				}
				if err := st.Manifest.Validate(p, testID); err != nil {
					t.Errorf("installed manifest does not validate: %v", err)
				}
				removed, err := in.Uninstall(tgt)
				if err != nil || !removed {
					t.Fatalf("Uninstall = %v, %v; want true, nil", removed, err)
				}
				if st := in.Inspect(tgt); st.Present {
					t.Errorf("Inspect after uninstall: still present")
				}
				if len(reg) != 0 {
					t.Errorf("registry after uninstall = %v, want empty", reg)
				}
				if _, err := os.Stat(other); err != nil {
					t.Errorf("uninstall removed another host's manifest: %v", err)
				}
				removed, err = in.Uninstall(tgt)
				if err != nil || removed {
					t.Errorf("second Uninstall = %v, %v; want false, nil", removed, err)
				}
			})
		}
	}
}

func TestInspectWindowsKeyWithoutFile(t *testing.T) {
	p := testPlatforms["windows"]
	reg := fakeRegistry{}
	in := &Installer{Platform: p, Registry: reg, Root: t.TempDir()}
	tgt, _ := Locate(p, Edge, User)
	reg.SetDefault(tgt.RegistryRoot, tgt.RegistryKey, `C:\gone\dev.trailpin.host.json`)
	st := in.Inspect(tgt)
	if !st.Present || st.Err == nil || !strings.Contains(st.Err.Error(), `C:\gone`) {
		t.Errorf("Inspect = present %v, err %v; want present with an error naming the missing file", st.Present, st.Err)
	}
}

func TestLocateLinuxConfigHome(t *testing.T) {
	tests := []struct {
		name string
		vars map[string]string
		want string
	}{
		{"XDG_CONFIG_HOME set", map[string]string{"HOME": "/home/ada", "XDG_CONFIG_HOME": "/cfg"}, "/cfg/chromium/NativeMessagingHosts/dev.trailpin.host.json"},
		{"XDG_CONFIG_HOME empty", map[string]string{"HOME": "/home/ada", "XDG_CONFIG_HOME": ""}, "/home/ada/.config/chromium/NativeMessagingHosts/dev.trailpin.host.json"},
		{"XDG_CONFIG_HOME relative is ignored", map[string]string{"HOME": "/home/ada", "XDG_CONFIG_HOME": "cfg"}, "/home/ada/.config/chromium/NativeMessagingHosts/dev.trailpin.host.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Locate(Platform{GOOS: "linux", Getenv: env(tt.vars)}, Chromium, User)
			if err != nil {
				t.Fatal(err)
			}
			if got.ManifestPath != tt.want {
				t.Errorf("Locate(chromium, user) = %q, want %q", got.ManifestPath, tt.want)
			}
		})
	}
}

func TestLocateErrors(t *testing.T) {
	tests := []struct {
		name string
		p    Platform
		b    Browser
		s    Scope
		want string
	}{
		{"no HOME", Platform{GOOS: "linux", Getenv: env(nil)}, Chrome, User, "$HOME is not set"},
		{"no LOCALAPPDATA", Platform{GOOS: "windows", Getenv: env(nil)}, Chrome, User, "%LOCALAPPDATA% is not set"},
		{"no ProgramData", Platform{GOOS: "windows", Getenv: env(nil)}, Chrome, System, "%ProgramData% is not set"},
		{"unsupported OS", Platform{GOOS: "plan9", Getenv: env(nil)}, Chrome, User, "plan9: native messaging is supported on linux, darwin and windows"},
		{"unknown browser", testPlatforms["linux"], "firefox", User, `unknown browser "firefox"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Locate(tt.p, tt.b, tt.s)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Locate error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	// System scope on Linux needs no HOME.
	if _, err := Locate(Platform{GOOS: "linux", Getenv: env(nil)}, Chrome, System); err != nil {
		t.Errorf("Locate(linux, system) without HOME: %v", err)
	}
}

func TestManifestValidate(t *testing.T) {
	lin := testPlatforms["linux"]
	good := Manifest{Name: HostName, Path: "/bin/host", Type: "stdio", AllowedOrigins: []string{Origin(testID)}}
	tests := []struct {
		name   string
		change func(*Manifest)
		p      Platform
		want   string
	}{
		{"valid", func(*Manifest) {}, lin, ""},
		{"relative path", func(m *Manifest) { m.Path = "bin/host" }, lin, `path "bin/host" is not absolute`},
		{"windows path on linux", func(m *Manifest) { m.Path = `C:\host.exe` }, lin, "is not absolute"},
		{"windows path on windows", func(m *Manifest) { m.Path = `C:\host.exe` }, testPlatforms["windows"], ""},
		{"wrong name", func(m *Manifest) { m.Name = "other" }, lin, `name is "other"`},
		{"wrong type", func(m *Manifest) { m.Type = "pipe" }, lin, `type is "pipe"`},
		{"other extension", func(m *Manifest) { m.AllowedOrigins = []string{Origin("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")} }, lin, `want "chrome-extension://fjmncidonfkcepgogieobgonbpmpilie/"`},
		{"two origins", func(m *Manifest) { m.AllowedOrigins = append(m.AllowedOrigins, Origin(testID)) }, lin, "has 2 entries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := good
			m.AllowedOrigins = slices.Clone(good.AllowedOrigins)
			tt.change(&m)
			err := m.Validate(tt.p, testID)
			if tt.want == "" {
				if err != nil {
					t.Errorf("Validate = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidManifest) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate = %v, want ErrInvalidManifest containing %q", err, tt.want)
			}
		})
	}
	if _, err := NewManifest(lin, "/bin/host", "not-an-id"); err == nil {
		t.Error("NewManifest with a malformed extension ID succeeded")
	}
}

func TestParseBrowsers(t *testing.T) {
	tests := []struct {
		in   string
		want []Browser
		err  bool
	}{
		{"all", Browsers, false},
		{"chromium", []Browser{Chromium}, false},
		{"chrome,brave", []Browser{Chrome, Brave}, false},
		{"Edge", []Browser{Edge}, false},
		{"firefox", nil, true},
		{"", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseBrowsers(tt.in)
		if (err != nil) != tt.err || !slices.Equal(got, tt.want) {
			t.Errorf("ParseBrowsers(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestInstalled(t *testing.T) {
	tests := []struct {
		name  string
		p     Platform
		files []string
		want  []Browser
	}{
		{"linux on PATH", Platform{GOOS: "linux", Getenv: env(map[string]string{"HOME": "/h", "PATH": "/usr/local/bin:/usr/bin"})},
			[]string{"/usr/bin/chromium"}, []Browser{Chromium}},
		{"linux profile only", Platform{GOOS: "linux", Getenv: env(map[string]string{"HOME": "/h", "PATH": "/usr/bin"})},
			[]string{"/h/.config/BraveSoftware/Brave-Browser"}, []Browser{Brave}},
		{"darwin app", Platform{GOOS: "darwin", Getenv: env(map[string]string{"HOME": "/Users/a"})},
			[]string{"/Applications/Google Chrome.app", "/Users/a/Library/Application Support/Microsoft Edge"}, []Browser{Chrome, Edge}},
		{"windows program files", Platform{GOOS: "windows", Getenv: env(map[string]string{"ProgramFiles(x86)": `C:\Program Files (x86)`})},
			[]string{`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`}, []Browser{Edge}},
		{"nothing", Platform{GOOS: "linux", Getenv: env(map[string]string{"HOME": "/h", "PATH": "/usr/bin"})}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Installed(tt.p, func(name string) bool { return slices.Contains(tt.files, name) })
			if !slices.Equal(got, tt.want) {
				t.Errorf("Installed() = %v, want %v", got, tt.want)
			}
		})
	}
}

// The atomic write itself is tested in atomicfile; here, that a manifest's
// missing folder is created and a second install replaces the first.
func TestWriteManifestFileCreatesItsFolder(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "NativeMessagingHosts", "m.json")
	for _, content := range []string{"first", "second"} {
		if err := writeManifestFile(name, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil || string(got) != content {
			t.Fatalf("after writing %q the file holds %q (%v)", content, got, err)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(name))
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries after two writes, want 1 (no temp files left)", len(entries))
	}
	if err := os.Mkdir(filepath.Join(dir, "NativeMessagingHosts", "blocked"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeManifestFile(filepath.Join(dir, "NativeMessagingHosts", "blocked"), []byte("x")); err == nil {
		t.Error("writeManifestFile over a folder succeeded")
	}
}

func TestWriteManifestTo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "NativeMessagingHosts")
	m, _ := NewManifest(testPlatforms["linux"], "/opt/host", testID)
	name, err := WriteManifestTo(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "dev.trailpin.host.json"); name != want {
		t.Errorf("WriteManifestTo wrote %q, want %q", name, want)
	}
	b, _ := os.ReadFile(name)
	got, err := ParseManifest(b)
	if err != nil || got.Path != "/opt/host" || got.ExtensionID() != testID {
		t.Errorf("manifest read back = %+v, %v", got, err)
	}
}

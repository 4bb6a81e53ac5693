package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/installer"
)

// run calls Run in-process with a temp HOME and returns stdout, stderr and
// the error.
func run(t *testing.T, stdin []byte, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := Run(context.Background(), args, bytes.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), err
}

// tempHome points HOME at a fresh folder with no XDG overrides.
func tempHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Chdir(home)
	return home
}

// fakeHost makes an executable file to name as the manifest's path.
func fakeHost(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "host")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestVersion(t *testing.T) {
	out, _, err := run(t, nil, "version")
	if err != nil {
		t.Fatal(err)
	}
	if want := "host " + Version + "\nprotocol 1\n"; out != want {
		t.Errorf("host version printed %q, want %q", out, want)
	}
}

func TestInstallUninstall(t *testing.T) {
	home := tempHome(t)
	hostPath := fakeHost(t)
	manifest := filepath.Join(home, ".config/chromium/NativeMessagingHosts/dev.trailpin.host.json")

	out, _, err := run(t, nil, "install", "--browser", "chromium", "--path", hostPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := "installed for chromium (user): " + manifest + "\n"; out != want {
		t.Errorf("install printed %q, want %q", out, want)
	}
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	m, err := installer.ParseManifest(b)
	if err != nil {
		t.Fatal(err)
	}
	if m.Path != hostPath || m.ExtensionID() != "fjmncidonfkcepgogieobgonbpmpilie" || m.Name != "dev.trailpin.host" {
		t.Errorf("installed manifest = %+v, want path %s and Trailpin's extension", m, hostPath)
	}

	// The install command line works for uninstall too.
	out, _, err = run(t, nil, "uninstall", "--browser", "chromium", "--path", hostPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := "removed for chromium (user): " + manifest + "\n"; out != want {
		t.Errorf("uninstall printed %q, want %q", out, want)
	}
	if _, err := os.Stat(manifest); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("manifest still there after uninstall: %v", err)
	}
}

func TestInstallDryRunWritesNothing(t *testing.T) {
	home := tempHome(t)
	out, _, err := run(t, nil, "install", "--browser", "chrome,edge", "--path", fakeHost(t), "--dry-run", "--extension-id", "abcdefghijklmnopabcdefghijklmnop")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"would write " + filepath.Join(home, ".config/google-chrome/NativeMessagingHosts/dev.trailpin.host.json") + " for chrome (user):",
		"would write " + filepath.Join(home, ".config/microsoft-edge/NativeMessagingHosts/dev.trailpin.host.json") + " for edge (user):",
		`"chrome-extension://abcdefghijklmnopabcdefghijklmnop/"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run printed\n%s\nwant it to contain %q", out, want)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(home, ".config")); len(entries) != 0 {
		t.Errorf("dry run created %d entries in ~/.config", len(entries))
	}
}

func TestInstallRefusals(t *testing.T) {
	tempHome(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"go run binary", []string{"install", "--browser", "chromium"}, "go build -o bin/host ./host"},
		{"bad extension ID", []string{"install", "--browser", "chromium", "--path", fakeHost(t), "--extension-id", "XYZ"}, `extension ID "XYZ" is not 32 letters a-p`},
		{"missing path", []string{"install", "--browser", "chromium", "--path", "/nonexistent/host"}, "--path /nonexistent/host: not an executable file"},
		{"unknown browser", []string{"install", "--browser", "firefox", "--path", fakeHost(t)}, `unknown browser "firefox"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := run(t, nil, tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("host %s: error = %v, want it to contain %q", strings.Join(tt.args, " "), err, tt.want)
			}
		})
	}
}

func frame(s string) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(s))), s...)
}

func readFrames(t *testing.T, out string) []string {
	t.Helper()
	r := strings.NewReader(out)
	var got []string
	for {
		p, err := nativemsg.ReadFrame(r)
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatalf("stdout holds something other than whole frames: %v", err)
		}
		got = append(got, string(p))
	}
}

func TestNativeMessagingMode(t *testing.T) {
	home := tempHome(t)
	const origin = "chrome-extension://fjmncidonfkcepgogieobgonbpmpilie/"
	hello := `{"v":1,"id":"h1","type":"hello","protocol":1,"version":"0.1.0"}`

	t.Run("serves until stdin ends", func(t *testing.T) {
		in := append(frame(hello), frame(`not json`)...)
		in = append(in, frame(`{"v":1,"id":"h2","type":"hello","protocol":1}`)...)
		out, _, err := run(t, in, origin, "--parent-window=0")
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		got := readFrames(t, out)
		if len(got) != 3 {
			t.Fatalf("got %d frames %q, want 3", len(got), got)
		}
		var h nativemsg.Hello
		var env nativemsg.Envelope
		json.Unmarshal([]byte(got[0]), &h)
		json.Unmarshal([]byte(got[0]), &env)
		if env.ID != "h1" || env.Type != "hello" || h.Version != Version || h.Protocol != nativemsg.ProtocolVersion {
			t.Errorf("first reply = %s, want a hello with id h1, version %s", got[0], Version)
		}
		if !strings.Contains(got[1], `"type":"error","code":1`) || !strings.Contains(got[1], `"id":""`) {
			t.Errorf("reply to invalid JSON = %s, want an error with code 1 and empty id", got[1])
		}
		if !strings.Contains(got[2], `"id":"h2","type":"hello"`) {
			t.Errorf("reply after the invalid frame = %s, want the hello h2", got[2])
		}
	})

	t.Run("ends on an oversized frame", func(t *testing.T) {
		in := append(frame(hello), binary.LittleEndian.AppendUint32(nil, 0xFFFFFFF0)...)
		out, _, err := run(t, in, origin)
		if exitCode(err) != exitUntrustedFrame || !errors.Is(err, nativemsg.ErrFrameTooLarge) {
			t.Fatalf("Run error = %v (exit %d), want ErrFrameTooLarge with exit %d", err, exitCode(err), exitUntrustedFrame)
		}
		if got := readFrames(t, out); len(got) != 1 {
			t.Errorf("got frames %q, want only the hello reply", got)
		}
	})

	t.Run("logs to the data directory", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(home, ".local/share/trailpin/host.log"))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"session started", "session ended: the browser closed the connection", "session ended: a frame could not be trusted"} {
			if !bytes.Contains(b, []byte(want)) {
				t.Errorf("host.log lacks %q:\n%s", want, b)
			}
		}
	})
}

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// doctorLines runs `host doctor` and returns its lines and exit status.
func doctorLines(t *testing.T, env []string) ([]string, int) {
	t.Helper()
	res := RunHost(t, env, nil, "doctor")
	return strings.Split(strings.TrimSpace(string(res.Stdout)), "\n"), res.ExitCode
}

// line returns the one line starting with prefix.
func line(t *testing.T, lines []string, prefix string) string {
	t.Helper()
	var found []string
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			found = append(found, l)
		}
	}
	if len(found) != 1 {
		t.Fatalf("doctor printed %d lines starting %q, want 1:\n%s", len(found), prefix, strings.Join(lines, "\n"))
	}
	return found[0]
}

// homeEnv is a fresh home with no XDG overrides.
func homeEnv(t *testing.T) (string, []string) {
	home := TempDir(t)
	return home, []string{"HOME=" + home, "XDG_CONFIG_HOME=", "XDG_DATA_HOME="}
}

func TestDoctor(t *testing.T) {
	t.Parallel()
	host := HostPath(t)
	install := host + " install --browser chromium"

	t.Run("all good", func(t *testing.T) {
		_, env := homeEnv(t)
		// Every browser found on the machine, as doctor checks them all.
		if res := RunHost(t, env, nil, "install"); res.ExitCode != 0 {
			t.Fatalf("install failed: %s", res.Stderr)
		}
		lines, code := doctorLines(t, env)
		if code != 0 {
			t.Errorf("doctor exit status = %d, want 0:\n%s", code, strings.Join(lines, "\n"))
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "ok ") {
				t.Errorf("doctor line %q, want every check ok", l)
			}
		}
	})

	t.Run("no manifest", func(t *testing.T) {
		home, env := homeEnv(t)
		lines, code := doctorLines(t, env)
		if code == 0 {
			t.Errorf("doctor exit status = 0, want failure")
		}
		want := "FAIL  manifest for chromium: not installed (the browser looks for " +
			filepath.Join(home, ".config/chromium/NativeMessagingHosts/dev.trailpin.host.json") + "). Fix: run " + install
		if got := line(t, lines, "FAIL  manifest for chromium"); got != want {
			t.Errorf("doctor printed\n%s\nwant\n%s", got, want)
		}
	})

	t.Run("manifest with a wrong path", func(t *testing.T) {
		_, env := homeEnv(t)
		gone := filepath.Join(TempDir(t), "host")
		if err := os.WriteFile(gone, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if res := RunHost(t, env, nil, "install", "--browser", "chromium", "--path", gone); res.ExitCode != 0 {
			t.Fatalf("install failed: %s", res.Stderr)
		}
		os.Remove(gone)
		lines, code := doctorLines(t, env)
		if code == 0 {
			t.Errorf("doctor exit status = 0, want failure")
		}
		want := "FAIL  host path for chromium (user): " + gone + " does not exist. Fix: build the host (go build -o bin/host ./host) and run " + install
		if got := line(t, lines, "FAIL  host path for chromium"); got != want {
			t.Errorf("doctor printed\n%s\nwant\n%s", got, want)
		}
		line(t, lines, "ok    manifest for chromium (user)")
	})

	t.Run("no Chromium found", func(t *testing.T) {
		_, env := homeEnv(t)
		missing := filepath.Join(TempDir(t), "chromium")
		lines, code := doctorLines(t, append(env, "CHROME_PATH="+missing))
		if code == 0 {
			t.Errorf("doctor exit status = 0, want failure")
		}
		got := line(t, lines, "FAIL  browser for replay")
		for _, want := range []string{"CHROME_PATH=" + missing + " is not an executable", "Fix: point CHROME_PATH at a Chromium-based browser's executable, or unset it"} {
			if !strings.Contains(got, want) {
				t.Errorf("doctor printed\n%s\nwant it to contain %q", got, want)
			}
		}
	})

	t.Run("data directory not writable", func(t *testing.T) {
		_, env := homeEnv(t)
		file := filepath.Join(TempDir(t), "a-file")
		os.WriteFile(file, nil, 0o644)
		lines, _ := doctorLines(t, append(env, "TRAILPIN_DATADIR="+filepath.Join(file, "trailpin")))
		got := line(t, lines, "FAIL  data directory")
		if !strings.Contains(got, "Fix: make "+filepath.Join(file, "trailpin")+" writable") {
			t.Errorf("doctor printed\n%s\nwant a fix naming the folder", got)
		}
	})
}

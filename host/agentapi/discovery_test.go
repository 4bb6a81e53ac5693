package agentapi

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestDiscoveryPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if got := DiscoveryPath(env(map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"}), "/data"); got != "/run/user/1000/trailpin/agent-api.json" {
		t.Errorf("with XDG_RUNTIME_DIR: %s", got)
	}
	if got := DiscoveryPath(env(nil), "/data"); got != "/data/agent-api.json" {
		t.Errorf("without XDG_RUNTIME_DIR: %s", got)
	}
	if got := DiscoveryPath(env(map[string]string{"XDG_RUNTIME_DIR": "relative"}), "/data"); got != "/data/agent-api.json" {
		t.Errorf("a relative XDG_RUNTIME_DIR is not a runtime folder: %s", got)
	}
	if got := DiscoveryPath(env(nil), ""); got != "" {
		t.Errorf("with no folder: %s", got)
	}
}

// TestDiscoveryFileIsTheUsers: the file is 0600 in a 0700 folder, even when
// the folder existed wider, and reads back.
func TestDiscoveryFileIsTheUsers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "trailpin")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, DiscoveryFileName)
	d := Discovery{Port: 4242, Token: "secret", PID: os.Getpid(), Version: "1.0", Protocol: 1}
	if err := WriteDiscovery(path, d); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", st.Mode().Perm())
	}
	dst, _ := os.Stat(dir)
	if dst.Mode().Perm() != 0o700 {
		t.Errorf("folder mode %v, want 0700", dst.Mode().Perm())
	}
	got, err := ReadDiscovery(path)
	if err != nil || got != d {
		t.Fatalf("read back %+v, %v", got, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files, want only the discovery file", len(entries))
	}
}

func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	pid := cmd.Process.Pid
	if processAlive(pid) {
		t.Skip("the pid was reused already")
	}
	return pid
}

// TestStaleDiscoveryFile: a file whose host is gone reads as ErrStale, and a
// new host replaces it.
func TestStaleDiscoveryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), DiscoveryFileName)
	stale := Discovery{Port: 1111, Token: "old", PID: deadPID(t), Version: "0.9", Protocol: 1}
	if err := WriteDiscovery(path, stale); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadDiscovery(path); !errors.Is(err, ErrStale) {
		t.Fatalf("a dead host's file read with %v, want ErrStale", err)
	}
	fresh := Discovery{Port: 2222, Token: "new", PID: os.Getpid(), Version: "1.0", Protocol: 1}
	if err := WriteDiscovery(path, fresh); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadDiscovery(path); err != nil || got != fresh {
		t.Fatalf("after replacing: %+v, %v", got, err)
	}
}

func TestReadDiscoveryMissingOrDamaged(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadDiscovery(filepath.Join(dir, "none.json")); !errors.Is(err, ErrNoHost) {
		t.Errorf("missing file: %v, want ErrNoHost", err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"port": 0}`), 0o600)
	if _, err := ReadDiscovery(bad); err == nil || errors.Is(err, ErrStale) || errors.Is(err, ErrNoHost) {
		t.Errorf("damaged file: %v, want an error naming it", err)
	}
}

// TestRemoveDiscoveryOnlyOwn: a host removes its own file, never the file of
// a host that replaced it.
func TestRemoveDiscoveryOnlyOwn(t *testing.T) {
	path := filepath.Join(t.TempDir(), DiscoveryFileName)
	mine := Discovery{Port: 1, Token: "mine", PID: os.Getpid()}
	theirs := Discovery{Port: 2, Token: "theirs", PID: os.Getpid()}
	if err := WriteDiscovery(path, theirs); err != nil {
		t.Fatal(err)
	}
	if err := RemoveDiscovery(path, mine); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("another host's file was removed: %v", err)
	}
	if err := RemoveDiscovery(path, theirs); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the host's own file is still there: %v", err)
	}
	if err := RemoveDiscovery(path, theirs); err != nil {
		t.Fatalf("removing a file already gone: %v", err)
	}
}

package agentapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DiscoveryFileName is the discovery file's name inside its folder.
const DiscoveryFileName = "agent-api.json"

// A Discovery is what the discovery file tells a client about the running
// host (host/PROTOCOL.md, Agent API).
type Discovery struct {
	// Port is the loopback port the API listens on (127.0.0.1).
	Port int `json:"port"`
	// Token is the secret every request's Authorization header carries.
	Token string `json:"token"`
	// PID is the host's process id: a file whose process is gone is stale.
	PID int `json:"pid"`
	// Version is the host's program version.
	Version string `json:"version"`
	// Protocol is the envelope's protocol version (nativemsg.ProtocolVersion).
	Protocol int `json:"protocol"`
}

// ErrNoHost is returned by ReadDiscovery when no discovery file exists: no
// host runs, because Chrome has not started one.
var ErrNoHost = errors.New("no Trailpin host is running: open Chrome with the Trailpin extension " +
	"(Chrome starts the host), or run host mcp --headless for a browser of its own")

// ErrStale is returned by ReadDiscovery when the file names a process that
// is gone: the host that wrote it ended without removing it.
var ErrStale = errors.New("the agent API's discovery file is stale (its host has exited): " +
	"open Chrome with the Trailpin extension to start a new host, or run host mcp --headless")

// DiscoveryDir is the folder of the discovery file: trailpin under
// $XDG_RUNTIME_DIR (a per-user folder the system empties at logout), else
// the data directory; "" when neither is known.
func DiscoveryDir(getenv func(string) string, dataDir string) string {
	if rt := getenv("XDG_RUNTIME_DIR"); rt != "" && filepath.IsAbs(rt) {
		return filepath.Join(rt, "trailpin")
	}
	return dataDir
}

// DiscoveryPath is the discovery file's path (see DiscoveryDir); "" when no
// folder is known.
func DiscoveryPath(getenv func(string) string, dataDir string) string {
	dir := DiscoveryDir(getenv, dataDir)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, DiscoveryFileName)
}

// WriteDiscovery writes d to path, readable and writable by the user only
// (0600) in a folder only the user may enter (0700). It replaces any file
// there, stale or not: the host Chrome started last is the one clients
// reach, and the host before it (ending) removes only its own file.
func WriteDiscovery(path string, d Discovery) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating the discovery folder: %w", err)
	}
	// MkdirAll leaves an existing folder's mode alone, and the umask may
	// have widened a new one's: the token must not be readable by others.
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("restricting the discovery folder %s to its owner: %w", dir, err)
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, DiscoveryFileName+".*")
	if err != nil {
		return fmt.Errorf("writing the discovery file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the discovery file: %w", err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the discovery file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the discovery file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing the discovery file: %w", err)
	}
	return nil
}

// ReadDiscovery reads the discovery file at path. It returns ErrNoHost when
// there is none and ErrStale when the process it names is gone; a file it
// cannot read or parse is an error that names it.
func ReadDiscovery(path string) (Discovery, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Discovery{}, ErrNoHost
	}
	if err != nil {
		return Discovery{}, fmt.Errorf("reading the agent API's discovery file: %w", err)
	}
	var d Discovery
	if err := json.Unmarshal(b, &d); err != nil || d.Port <= 0 || d.Port > 65535 || d.Token == "" || d.PID <= 0 {
		return Discovery{}, fmt.Errorf("the agent API's discovery file %s is damaged: delete it and restart Chrome", path)
	}
	if !processAlive(d.PID) {
		return d, ErrStale
	}
	return d, nil
}

// RemoveDiscovery removes the discovery file at path when it is still d's
// (same pid and token): a host never removes the file of the host that
// replaced it.
func RemoveDiscovery(path string, d Discovery) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var on Discovery
	if json.Unmarshal(b, &on) != nil || on.PID != d.PID || on.Token != d.Token {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

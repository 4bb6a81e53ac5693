package e2e

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// A HostHome is the home folder (HOME, XDG_CONFIG_HOME, XDG_DATA_HOME) host
// processes of a test share, so that a host started again after a crash
// finds the same configuration and database.
type HostHome struct {
	Dir string
}

// NewHostHome makes a fresh home folder inside the harness's folder.
func NewHostHome(t testing.TB) *HostHome {
	return &HostHome{Dir: TempDir(t)}
}

// Env is the environment a host process runs with in this home.
func (h *HostHome) Env() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + h.Dir,
		"XDG_CONFIG_HOME=" + h.ConfigDir(),
		"XDG_DATA_HOME=" + filepath.Join(h.Dir, ".local", "share"),
	}
}

// ConfigDir is $XDG_CONFIG_HOME; the user config is trailpin/config.yaml in it.
func (h *HostHome) ConfigDir() string { return filepath.Join(h.Dir, ".config") }

// DataDir is the host's data folder (database and host.log).
func (h *HostHome) DataDir() string { return filepath.Join(h.Dir, ".local", "share", "trailpin") }

// DBPath is the host's default database.
func (h *HostHome) DBPath() string { return filepath.Join(h.DataDir(), "trailpin.db") }

// A HostProc is the host running in native-messaging mode, as Chrome starts
// it, with the test in the browser's place: frames written to its stdin,
// frames read from its stdout. It records every byte both ways, so a test
// can search them (ScanForSecret).
type HostProc struct {
	t      testing.TB
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *lockedBuffer
	// Sent and Received are every byte written to and read from the host.
	Sent, Received bytes.Buffer
	nextID         int
	done           chan struct{}
	exitErr        error
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}

// StartHostProc starts the host as Chrome would (its one argument is the
// extension's origin) in home. It is killed when the test ends.
func StartHostProc(t testing.TB, home *HostHome, extraEnv ...string) *HostProc {
	t.Helper()
	cmd := exec.Command(HostPath(t), "chrome-extension://"+ExtensionID(t)+"/")
	cmd.Env = append(home.Env(), extraEnv...)
	cmd.Dir = home.Dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h := &HostProc{t: t, cmd: cmd, stdin: stdin, stdout: bufio.NewReaderSize(stdout, 1<<20), stderr: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stderr = h.stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the host: %v", err)
	}
	go func() {
		h.exitErr = cmd.Wait()
		close(h.done)
	}()
	t.Cleanup(func() { h.Kill() })
	return h
}

// Stderr is what the host wrote to stderr so far (its log).
func (h *HostProc) Stderr() []byte { return h.stderr.Bytes() }

// Write writes raw bytes to the host's stdin: part of a frame, or several.
func (h *HostProc) Write(b []byte) error {
	h.Sent.Write(b)
	_, err := h.stdin.Write(b)
	return err
}

// Frame encodes a message as one native-messaging frame: the envelope
// {v: 1, id, type} and body's fields.
func Frame(id, typ string, body map[string]any) []byte {
	msg := map[string]any{}
	for k, v := range body {
		msg[k] = v
	}
	msg["v"], msg["id"], msg["type"] = 1, id, typ
	b, err := json.Marshal(msg)
	if err != nil {
		panic(err)
	}
	return RawFrame(b)
}

// RawFrame puts a 4-byte little-endian length before payload.
func RawFrame(payload []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(payload))), payload...)
}

// NextID returns a fresh request id.
func (h *HostProc) NextID() string {
	h.nextID++
	return strconv.Itoa(h.nextID)
}

// Send writes one request and returns its id.
func (h *HostProc) Send(typ string, body map[string]any) string {
	h.t.Helper()
	id := h.NextID()
	if err := h.Write(Frame(id, typ, body)); err != nil {
		h.t.Fatalf("sending %s: %v", typ, err)
	}
	return id
}

// A HostMsg is one message from the host, chunks put back together.
type HostMsg map[string]any

// Type is the message's type.
func (m HostMsg) Type() string { s, _ := m["type"].(string); return s }

// ID is the message's id.
func (m HostMsg) ID() string { s, _ := m["id"].(string); return s }

// Str returns a string field ("" when absent).
func (m HostMsg) Str(k string) string { s, _ := m[k].(string); return s }

// Int returns a number field (0 when absent).
func (m HostMsg) Int(k string) int64 { f, _ := m[k].(float64); return int64(f) }

// Recv reads the next message, reassembling chunks, within WaitTimeout.
func (h *HostProc) Recv() (HostMsg, error) {
	type result struct {
		m   HostMsg
		err error
	}
	ch := make(chan result, 1)
	go func() {
		m, err := h.recv()
		ch <- result{m, err}
	}()
	select {
	case r := <-ch:
		return r.m, r.err
	case <-time.After(WaitTimeout):
		return nil, fmt.Errorf("no message from the host within %v; its stderr:\n%s", WaitTimeout, h.Stderr())
	}
}

func (h *HostProc) recv() (HostMsg, error) {
	var pieces []byte
	for {
		payload, err := h.readFrame()
		if err != nil {
			return nil, err
		}
		var m HostMsg
		if err := json.Unmarshal(payload, &m); err != nil {
			return nil, fmt.Errorf("the host wrote a frame that is not JSON: %v", err)
		}
		if m.Type() != "chunk" {
			return m, nil
		}
		data, err := base64.StdEncoding.DecodeString(m.Str("data"))
		if err != nil {
			return nil, err
		}
		pieces = append(pieces, data...)
		if m.Int("seq") == m.Int("count")-1 {
			var whole HostMsg
			if err := json.Unmarshal(pieces, &whole); err != nil {
				return nil, fmt.Errorf("chunks do not make a message: %v", err)
			}
			return whole, nil
		}
	}
}

func (h *HostProc) readFrame() ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(h.stdout, hdr[:]); err != nil {
		return nil, fmt.Errorf("reading from the host: %w; its stderr:\n%s", err, h.Stderr())
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	payload := make([]byte, n)
	if _, err := io.ReadFull(h.stdout, payload); err != nil {
		return nil, fmt.Errorf("reading from the host: %w", err)
	}
	h.Received.Write(hdr[:])
	h.Received.Write(payload)
	return payload, nil
}

// Request sends a request and returns its reply (which may be an error
// message: check Type).
func (h *HostProc) Request(typ string, body map[string]any) HostMsg {
	h.t.Helper()
	id := h.Send(typ, body)
	m, err := h.Recv()
	if err != nil {
		h.t.Fatalf("%s: %v", typ, err)
	}
	if m.ID() != id {
		h.t.Fatalf("%s: the reply has id %q, want %q: %v", typ, m.ID(), id, m)
	}
	return m
}

// MustRequest is Request for a request that must succeed.
func (h *HostProc) MustRequest(typ string, body map[string]any) HostMsg {
	h.t.Helper()
	m := h.Request(typ, body)
	if m.Type() != typ {
		h.t.Fatalf("%s: got %v", typ, m)
	}
	return m
}

// Kill ends the host with SIGKILL (as a crash would) and waits for it.
func (h *HostProc) Kill() {
	select {
	case <-h.done:
		return
	default:
	}
	h.cmd.Process.Kill() // SIGKILL on Unix
	<-h.done
}

// Close closes the host's stdin, as Chrome does when the port closes, and
// waits for it to exit; it returns the exit error.
func (h *HostProc) Close() error {
	h.stdin.Close()
	select {
	case <-h.done:
	case <-time.After(WaitTimeout):
		h.Kill()
		return fmt.Errorf("the host did not exit after its stdin closed")
	}
	return h.exitErr
}

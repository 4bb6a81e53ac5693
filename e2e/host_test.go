package e2e

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/nativemsg"
)

func frame(payload string) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(payload))), payload...)
}

// replies splits the host's stdout into frames, failing the test if any
// byte is not part of a whole frame.
func replies(t *testing.T, stdout []byte) []map[string]any {
	t.Helper()
	r := bytes.NewReader(stdout)
	var out []map[string]any
	for {
		p, err := nativemsg.ReadFrame(r)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("stdout is not whole frames: %v (%d bytes)", err, len(stdout))
		}
		var m map[string]any
		if err := json.Unmarshal(p, &m); err != nil {
			t.Fatalf("frame %q is not JSON: %v", p, err)
		}
		out = append(out, m)
	}
}

// TestHostProcessFrames sends frames to the real host process, started the
// way Chrome starts it.
func TestHostProcessFrames(t *testing.T) {
	t.Parallel()
	origin := "chrome-extension://" + ExtensionID(t) + "/"
	hello := `{"v":1,"id":"abc","type":"hello","protocol":1,"version":"0.1.0"}`
	tests := []struct {
		name     string
		stdin    []byte
		wantExit int
		want     []string // id:type of each reply
		wantLog  string   // in stderr
	}{
		{"hello echoes the id", frame(hello), 0, []string{"abc:hello"}, "session ended: the browser closed the connection"},
		{"invalid JSON, then a valid frame", append(frame(`{"v":1,"id":"x","type":`), frame(`{"v":1,"id":"next","type":"hello","protocol":1}`)...),
			0, []string{":error", "next:hello"}, "refused message"},
		{"unknown type, then a valid frame", append(frame(`{"v":1,"id":"u","type":"teleport"}`), frame(hello)...),
			0, []string{"u:error", "abc:hello"}, "unknown message type"},
		{"length just under 4 GiB", append(frame(hello), append(binary.LittleEndian.AppendUint32(nil, 0xFFFFFFF0), "{}"...)...),
			3, []string{"abc:hello"}, "session ended: a frame could not be trusted"},
		{"truncated frame", append(frame(hello), append(binary.LittleEndian.AppendUint32(nil, 500), `{"v":1`...)...),
			3, []string{"abc:hello"}, "input ended after 6 of 500 announced bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := RunHost(t, nil, tt.stdin, origin)
			if res.ExitCode != tt.wantExit {
				t.Errorf("exit status = %d, want %d; stderr:\n%s", res.ExitCode, tt.wantExit, res.Stderr)
			}
			var got []string
			for _, m := range replies(t, res.Stdout) {
				got = append(got, m["id"].(string)+":"+m["type"].(string))
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("replies = %q, want %q", got, tt.want)
			}
			if !bytes.Contains(res.Stderr, []byte(tt.wantLog)) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantLog, res.Stderr)
			}
		})
	}
}

func TestHostProcessErrorReplies(t *testing.T) {
	t.Parallel()
	res := RunHost(t, nil, append(frame(`not json`), frame(`{"v":1,"id":"u","type":"teleport"}`)...), "chrome-extension://"+ExtensionID(t)+"/", "--parent-window=0")
	got := replies(t, res.Stdout)
	if len(got) != 2 {
		t.Fatalf("got %d replies, want 2", len(got))
	}
	if got[0]["code"] != float64(nativemsg.CodeMalformed) || got[0]["id"] != "" {
		t.Errorf("reply to invalid JSON = %v, want code %d with empty id", got[0], nativemsg.CodeMalformed)
	}
	if got[1]["code"] != float64(nativemsg.CodeUnknownType) || got[1]["id"] != "u" {
		t.Errorf("reply to an unknown type = %v, want code %d with id u", got[1], nativemsg.CodeUnknownType)
	}
}

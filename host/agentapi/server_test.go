package agentapi

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/trailpin/trailpin/host/nativemsg"
)

// startServer starts a server whose one handler, "ping", counts its calls.
func startServer(t *testing.T) (*Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	s, err := Start(ctx, Options{Version: "1.2.3", MaxMessage: 4096, Handlers: map[string]Handler{
		"ping": func(ctx context.Context, req *Request) (any, error) {
			calls.Add(1)
			return map[string]string{"client": req.Client}, nil
		},
		"fail": func(ctx context.Context, req *Request) (any, error) {
			return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "no such tab")
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); s.Close() })
	return s, &calls
}

func dial(t *testing.T, s *Server, header http.Header) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	c, resp, err := websocket.Dial(context.Background(), "ws://"+s.Addr().String()+"/", &websocket.DialOptions{HTTPHeader: header})
	if err == nil {
		t.Cleanup(func() { c.CloseNow() })
	}
	return c, resp, err
}

func bearer(token string) http.Header {
	return http.Header{"Authorization": {"Bearer " + token}}
}

func roundTrip(t *testing.T, c *websocket.Conn, msg string) map[string]any {
	t.Helper()
	ctx := context.Background()
	if err := c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("reply %s: %v", b, err)
	}
	return m
}

func TestListensOnLoopbackOnly(t *testing.T) {
	s, _ := startServer(t)
	addr := s.Addr().(*net.TCPAddr)
	if !addr.IP.Equal(net.IPv4(127, 0, 0, 1)) || addr.Port != s.Port() || s.Port() == 0 {
		t.Fatalf("listens on %v (port %d), want 127.0.0.1 and a chosen port", addr, s.Port())
	}
	if len(s.Token()) < 32 {
		t.Fatalf("token %d characters, want a long random one", len(s.Token()))
	}
}

// TestRefusedBeforeAnything: no token, a wrong token, a browser Origin and a
// foreign Host are each refused with an HTTP error that says why, and no
// connection (so no handler) is made.
func TestRefusedBeforeAnything(t *testing.T) {
	s, calls := startServer(t)
	cases := []struct {
		name   string
		header http.Header
		host   string
		status int
		says   string
	}{
		{"no token", http.Header{}, "", http.StatusUnauthorized, "token"},
		{"wrong token", bearer(strings.Repeat("0", len(s.Token()))), "", http.StatusUnauthorized, "token"},
		{"token not bearer", http.Header{"Authorization": {s.Token()}}, "", http.StatusUnauthorized, "token"},
		{"browser origin", http.Header{"Authorization": {"Bearer " + s.Token()}, "Origin": {"https://evil.example"}}, "", http.StatusForbidden, "Origin"},
		{"own origin", http.Header{"Authorization": {"Bearer " + s.Token()}, "Origin": {"http://127.0.0.1:" + strconv.Itoa(s.Port())}}, "", http.StatusForbidden, "Origin"},
		{"extension origin", http.Header{"Authorization": {"Bearer " + s.Token()}, "Origin": {"chrome-extension://abc"}}, "", http.StatusForbidden, "Origin"},
		{"rebinding host", bearer(s.Token()), "evil.example:" + strconv.Itoa(s.Port()), http.StatusForbidden, "Host"},
		{"other port", bearer(s.Token()), "127.0.0.1:1", http.StatusForbidden, "Host"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", "http://"+s.Addr().String()+"/", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header = tc.header.Clone()
			req.Header.Set("Connection", "Upgrade")
			req.Header.Set("Upgrade", "websocket")
			req.Header.Set("Sec-WebSocket-Version", "13")
			req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
			if tc.host != "" {
				req.Host = tc.host
			}
			resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode == http.StatusSwitchingProtocols {
				t.Fatalf("upgraded to a websocket, want %d", tc.status)
			}
			var body strings.Builder
			buf := make([]byte, 512)
			n, _ := resp.Body.Read(buf)
			body.Write(buf[:n])
			if resp.StatusCode != tc.status || !strings.Contains(body.String(), tc.says) {
				t.Fatalf("status %d %q, want %d saying %q", resp.StatusCode, body.String(), tc.status, tc.says)
			}
		})
	}
	if calls.Load() != 0 {
		t.Fatalf("a refused request reached a handler %d times", calls.Load())
	}
	// And the right token, no Origin, the loopback Host: served.
	c, _, err := dial(t, s, bearer(s.Token()))
	if err != nil {
		t.Fatalf("the right token was refused: %v", err)
	}
	if m := roundTrip(t, c, `{"v":1,"id":"1","type":"hello","client":"claude code"}`); m["type"] != "hello" || m["version"] != "1.2.3" {
		t.Fatalf("hello answered %v", m)
	}
}

func TestLocalhostHostIsServed(t *testing.T) {
	s, _ := startServer(t)
	c, _, err := websocket.Dial(context.Background(), "ws://localhost:"+strconv.Itoa(s.Port())+"/", &websocket.DialOptions{HTTPHeader: bearer(s.Token())})
	if err != nil {
		if strings.Contains(err.Error(), "connection refused") {
			t.Skip("localhost does not resolve to 127.0.0.1 here")
		}
		t.Fatal(err)
	}
	c.CloseNow()
}

// TestEnvelopeErrors: every bad message is answered with the error of
// host/PROTOCOL.md and the connection keeps serving.
func TestEnvelopeErrors(t *testing.T) {
	s, calls := startServer(t)
	c, _, err := dial(t, s, bearer(s.Token()))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		msg  string
		id   string
		code float64
	}{
		{`{"v":1,"id":"0","type":"ping"}`, "0", float64(nativemsg.CodeBadRequest)},  // before hello
		{`{"v":1,"id":"h","type":"hello"}`, "h", float64(nativemsg.CodeBadRequest)}, // no client name
		{`{"v":1,"id":"h","type":"hello","client":"<script>"}`, "h", float64(nativemsg.CodeBadRequest)},
		{`not json`, "", float64(nativemsg.CodeMalformed)},
		{`[1,2]`, "", float64(nativemsg.CodeMalformed)},
		{`{"v":1,"type":"ping"}`, "", float64(nativemsg.CodeBadEnvelope)},
		{`{"v":1,"id":7,"type":"ping"}`, "", float64(nativemsg.CodeBadEnvelope)},
		{`{"v":1,"id":"2","type":""}`, "2", float64(nativemsg.CodeBadEnvelope)},
		{`{"v":0,"id":"3","type":"ping"}`, "3", float64(nativemsg.CodeBadEnvelope)},
		{`{"v":2,"id":"4","type":"ping"}`, "4", float64(nativemsg.CodeProtocolVersion)},
		{`{"v":1,"id":"5","type":"teleport"}`, "5", float64(nativemsg.CodeUnknownType)},
		{`{"v":1,"id":"6","type":"ping","pad":"` + strings.Repeat("x", 5000) + `"}`, "", float64(nativemsg.CodeBadRequest)}, // oversized
	}
	for _, tc := range cases {
		m := roundTrip(t, c, tc.msg)
		if m["type"] != "error" || m["id"] != tc.id || m["code"] != tc.code || m["v"] != float64(1) || m["message"] == "" {
			t.Errorf("%.40s: answered %v, want error %v with id %q", tc.msg, m, tc.code, tc.id)
		}
	}
	if err := c.Write(context.Background(), websocket.MessageBinary, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if _, b, err := c.Read(context.Background()); err != nil || !strings.Contains(string(b), `"code":1`) {
		t.Errorf("binary message answered %s, %v; want error 1", b, err)
	}
	if calls.Load() != 0 {
		t.Fatalf("a refused message reached the handler")
	}
	// The connection still serves after all of that.
	if m := roundTrip(t, c, `{"v":1,"id":"7","type":"hello","client":"codex"}`); m["type"] != "hello" || m["id"] != "7" {
		t.Fatalf("hello answered %v", m)
	}
	types, _ := roundTrip(t, c, `{"v":1,"id":"8","type":"hello","client":"codex"}`)["types"].([]any)
	if len(types) != 3 || types[0] != "fail" || types[1] != "hello" || types[2] != "ping" {
		t.Errorf("hello lists types %v", types)
	}
	if m := roundTrip(t, c, `{"v":1,"id":"9","type":"ping"}`); m["type"] != "ping" || m["id"] != "9" || m["client"] != "codex" {
		t.Fatalf("ping answered %v", m)
	}
	if m := roundTrip(t, c, `{"v":1,"id":"10","type":"fail"}`); m["type"] != "error" || m["code"] != float64(nativemsg.CodeBadRequest) || m["message"] != "no such tab" {
		t.Fatalf("fail answered %v", m)
	}
	if m := roundTrip(t, c, `{"v":1,"id":"11","type":"hello","client":"another"}`); m["type"] != "error" {
		t.Fatalf("a second client name on one connection answered %v", m)
	}
	if calls.Load() != 1 {
		t.Fatalf("ping ran %d times, want 1", calls.Load())
	}
}

func TestCloseEndsServing(t *testing.T) {
	s, _ := startServer(t)
	addr := s.Addr().String()
	c, _, err := dial(t, s, bearer(s.Token()))
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, c, `{"v":1,"id":"1","type":"hello","client":"codex"}`)
	closed := make(chan error, 1)
	go func() { _, _, err := c.Read(context.Background()); closed <- err }()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-closed; err == nil {
		t.Fatal("a connection outlived the server")
	}
	if _, _, err := websocket.Dial(context.Background(), "ws://"+addr+"/", &websocket.DialOptions{HTTPHeader: bearer(s.Token())}); err == nil {
		t.Fatal("a closed server still accepted a connection")
	}
}

func TestStartRefusesProtocolTypes(t *testing.T) {
	for _, typ := range []string{"hello", "error", "chunk", ""} {
		_, err := Start(context.Background(), Options{Handlers: map[string]Handler{typ: nil}})
		if err == nil {
			t.Errorf("a handler for %q was accepted", typ)
		}
	}
}

// Package agentapi is the local agent API of the host Chrome starts
// (host/PROTOCOL.md, Agent API; docs/mcp.md): a websocket server on the
// loopback address, on a random port, whose requests and replies use the
// native-messaging envelope. A client finds it through the discovery file
// (WriteDiscovery) and proves it may use it with the file's token; a
// request from a browser page (any Origin header) or through a foreign
// Host header (DNS rebinding) is refused before anything is performed.
package agentapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/trailpin/trailpin/host/nativemsg"
)

// DefaultMaxMessage is the largest request the server reads, in bytes; a
// longer one is answered with an error and the connection goes on.
const DefaultMaxMessage = 1 << 20

// hardReadLimit is where the server stops reading a message at all: a
// client sending more is closed (status 1009), as it cannot be resynchronised
// cheaply.
const hardReadLimit = 64 << 20

// TypeHello is the first message of every connection: the client says its
// name, the server its versions and the types it serves.
const TypeHello = nativemsg.TypeHello

// clientName is what a client may call itself: it is shown to the person
// when the client asks to be allowed.
var clientName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 ._@/+-]{0,63}$`)

// A Request is one message of a client, after its hello.
type Request struct {
	nativemsg.Envelope
	// Raw is the whole message, envelope included.
	Raw json.RawMessage
	// Client is the name the client gave in its hello.
	Client string
}

// Decode reads the request's own fields into v; a failure is a bad-request
// error the handler can return as is.
func (r *Request) Decode(v any) error {
	if err := json.Unmarshal(r.Raw, v); err != nil {
		return nativemsg.Errorf(nativemsg.CodeBadRequest, "reading %s fields: %v", r.Type, err)
	}
	return nil
}

// A Handler serves one message type. It returns the reply's fields (a
// struct or map that marshals to a JSON object without v, id or type; nil
// for none). A *nativemsg.Error is sent with its code; any other error as
// internal.
type Handler func(ctx context.Context, req *Request) (any, error)

// Options are what a server is made of.
type Options struct {
	// Version is the host's program version, told in hello.
	Version string
	// Handlers serve the message types besides hello.
	Handlers map[string]Handler
	Log      *slog.Logger
	// MaxMessage is the largest request in bytes; 0 means DefaultMaxMessage.
	MaxMessage int
	// Token is the secret requests must carry; "" makes a random one.
	Token string
	// OnHello is told each client's name after its hello (Calls.Hello asks
	// the person to allow it); OnClose when one of its connections ends.
	OnHello, OnClose func(client string)
}

// A Server is the agent API listening on the loopback address.
type Server struct {
	opts  Options
	token string
	ln    net.Listener
	http  *http.Server
	port  int
	done  chan struct{}
	err   error
	close sync.Once
	// stop ends the connections' contexts: Shutdown leaves upgraded
	// connections alone.
	stop  context.CancelFunc
	conns sync.WaitGroup
	// clients are the open connections' ends, by client name
	// (Disconnect).
	mu      sync.Mutex
	clients map[string]map[*websocket.Conn]context.CancelFunc
}

// Start listens on 127.0.0.1 on a port the system chooses and serves until
// Close or ctx ends.
func Start(ctx context.Context, opts Options) (*Server, error) {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.MaxMessage <= 0 {
		opts.MaxMessage = DefaultMaxMessage
	}
	for typ := range opts.Handlers {
		if typ == "" || typ == TypeHello || typ == nativemsg.TypeError || typ == nativemsg.TypeChunk {
			return nil, fmt.Errorf("agentapi: cannot register a handler for type %q", typ)
		}
	}
	token := opts.Token
	if token == "" {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("making the agent API's token: %w", err)
		}
		token = hex.EncodeToString(b)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening on the loopback address: %w", err)
	}
	connCtx, stop := context.WithCancel(ctx)
	s := &Server{opts: opts, token: token, ln: ln, port: ln.Addr().(*net.TCPAddr).Port, done: make(chan struct{}), stop: stop}
	s.http = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return connCtx },
	}
	go func() {
		err := s.http.Serve(ln)
		if !errors.Is(err, http.ErrServerClosed) {
			s.err = err
		}
		close(s.done)
	}()
	go func() {
		select {
		case <-ctx.Done():
			s.Close()
		case <-s.done:
		}
	}()
	return s, nil
}

// Port is the loopback port the server listens on.
func (s *Server) Port() int { return s.port }

// Addr is the address it listens on (127.0.0.1:port).
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Token is the secret requests must carry.
func (s *Server) Token() string { return s.token }

// Types returns the message types served, sorted.
func (s *Server) Types() []string {
	types := []string{TypeHello}
	for t := range s.opts.Handlers {
		types = append(types, t)
	}
	slices.Sort(types)
	return types
}

// Close stops listening, ends every connection and waits for their
// handlers to return.
func (s *Server) Close() error {
	s.close.Do(func() {
		s.stop()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := s.http.Shutdown(ctx); err != nil {
			_ = s.http.Close()
		}
	})
	<-s.done
	s.conns.Wait()
	return s.err
}

// ServeHTTP refuses, before the upgrade and with nothing performed, a
// request with a browser's Origin, a Host other than the loopback address
// and port, or without the token; the rest become websocket connections.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if len(r.Header.Values("Origin")) > 0 {
		s.refuse(w, r, http.StatusForbidden, "requests from a browser page (an Origin header) are refused: "+
			"the agent API is for programs on this computer, not for web pages")
		return
	}
	if !s.loopbackHost(r.Host) {
		s.refuse(w, r, http.StatusForbidden, fmt.Sprintf("the Host header must be 127.0.0.1:%d or localhost:%d", s.port, s.port))
		return
	}
	if !s.tokenOK(r.Header.Get("Authorization")) {
		s.refuse(w, r, http.StatusUnauthorized, "missing or wrong token: send \"Authorization: Bearer <token>\" "+
			"with the token of the discovery file (docs/mcp.md)")
		return
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{})
	if err != nil {
		s.opts.Log.Warn("agent API: websocket upgrade failed", "err", err)
		return
	}
	conn.SetReadLimit(hardReadLimit)
	s.conns.Add(1)
	defer s.conns.Done()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	s.serveConn(ctx, cancel, conn)
}

// Disconnect ends every connection of client (the person revoked it).
func (s *Server) Disconnect(client string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for conn, cancel := range s.clients[client] {
		cancel()
		conn.CloseNow()
	}
}

// named notes that conn is client's, for Disconnect.
func (s *Server) named(client string, conn *websocket.Conn, cancel context.CancelFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.clients == nil {
		s.clients = map[string]map[*websocket.Conn]context.CancelFunc{}
	}
	if s.clients[client] == nil {
		s.clients[client] = map[*websocket.Conn]context.CancelFunc{}
	}
	s.clients[client][conn] = cancel
}

func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	s.opts.Log.Warn("agent API: request refused", "status", status, "reason", msg, "remote", r.RemoteAddr)
	http.Error(w, msg, status)
}

// loopbackHost reports whether host names this server on the loopback
// address: a DNS name resolving to 127.0.0.1 (rebinding) is not.
func (s *Server) loopbackHost(host string) bool {
	h, p, err := net.SplitHostPort(host)
	if err != nil || p != strconv.Itoa(s.port) {
		return false
	}
	return h == "127.0.0.1" || strings.EqualFold(h, "localhost")
}

// tokenOK compares the bearer token in constant time.
func (s *Server) tokenOK(auth string) bool {
	got, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) == 1
}

// serveConn answers one client's messages one at a time, in order, until it
// closes. A malformed, oversized or unknown message gets an error reply and
// the connection goes on.
func (s *Server) serveConn(ctx context.Context, cancel context.CancelFunc, conn *websocket.Conn) {
	defer conn.CloseNow()
	var client string
	defer func() {
		if client == "" {
			return
		}
		s.mu.Lock()
		delete(s.clients[client], conn)
		s.mu.Unlock()
		if s.opts.OnClose != nil {
			s.opts.OnClose(client)
		}
	}()
	for {
		typ, r, err := conn.Reader(ctx)
		if err != nil {
			return
		}
		payload, err := io.ReadAll(io.LimitReader(r, int64(s.opts.MaxMessage)+1))
		if err != nil {
			return
		}
		if len(payload) > s.opts.MaxMessage {
			if _, err := io.Copy(io.Discard, r); err != nil {
				return
			}
			if s.sendError(ctx, conn, "", nativemsg.Errorf(nativemsg.CodeBadRequest,
				"the message is larger than %d bytes, the most this host reads: send less", s.opts.MaxMessage)) != nil {
				return
			}
			continue
		}
		if typ != websocket.MessageText {
			if s.sendError(ctx, conn, "", nativemsg.Errorf(nativemsg.CodeMalformed, "send text messages holding JSON objects")) != nil {
				return
			}
			continue
		}
		was := client
		if s.dispatch(ctx, conn, payload, &client) != nil {
			return
		}
		if was == "" && client != "" {
			s.named(client, conn, cancel)
			if s.opts.OnHello != nil {
				s.opts.OnHello(client)
			}
		}
	}
}

// dispatch answers one message; only a failure to write is returned.
func (s *Server) dispatch(ctx context.Context, conn *websocket.Conn, payload []byte, client *string) error {
	env, perr := parseEnvelope(payload)
	if perr != nil {
		return s.sendError(ctx, conn, env.ID, perr)
	}
	if env.V != nativemsg.ProtocolVersion && env.Type != TypeHello {
		return s.sendError(ctx, conn, env.ID, nativemsg.Errorf(nativemsg.CodeProtocolVersion,
			"message speaks protocol %d, this host speaks %d: update the client or the host", env.V, nativemsg.ProtocolVersion))
	}
	if env.Type == TypeHello {
		var in struct {
			Client string `json:"client"`
		}
		if err := json.Unmarshal(payload, &in); err != nil || !clientName.MatchString(in.Client) {
			return s.sendError(ctx, conn, env.ID, nativemsg.Errorf(nativemsg.CodeBadRequest,
				"hello needs \"client\": your program's name (1 to 64 letters, digits, spaces or ._@/+-), shown to the person who allows it"))
		}
		if *client != "" && *client != in.Client {
			return s.sendError(ctx, conn, env.ID, nativemsg.Errorf(nativemsg.CodeBadRequest,
				"this connection is %q's: a connection has one client name", *client))
		}
		*client = in.Client
		return s.send(ctx, conn, env.ID, TypeHello, nativemsg.Hello{Protocol: nativemsg.ProtocolVersion, Version: s.opts.Version, Types: s.Types()})
	}
	h, ok := s.opts.Handlers[env.Type]
	if !ok {
		return s.sendError(ctx, conn, env.ID, nativemsg.Errorf(nativemsg.CodeUnknownType,
			"this host (version %s) does not serve %q messages", s.opts.Version, env.Type))
	}
	if *client == "" {
		return s.sendError(ctx, conn, env.ID, nativemsg.Errorf(nativemsg.CodeBadRequest,
			"send hello with your client name first"))
	}
	body, err := s.call(ctx, h, &Request{Envelope: env, Raw: payload, Client: *client})
	if err != nil {
		var e *nativemsg.Error
		if !errors.As(err, &e) {
			s.opts.Log.Error("agent API: handler failed", "type", env.Type, "client", *client, "err", err)
			e = nativemsg.Errorf(nativemsg.CodeInternal, "the host failed handling %s: %v", env.Type, err)
		}
		return s.sendError(ctx, conn, env.ID, e)
	}
	return s.send(ctx, conn, env.ID, env.Type, body)
}

// call runs h and turns a panic into an error, so one bad handler does not
// end the connection.
func (s *Server) call(ctx context.Context, h Handler, req *Request) (body any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.opts.Log.Error("agent API: handler panicked", "type", req.Type, "panic", p)
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return h(ctx, req)
}

func (s *Server) send(ctx context.Context, conn *websocket.Conn, id, typ string, body any) error {
	msg, err := encodeMessage(nativemsg.Envelope{V: nativemsg.ProtocolVersion, ID: id, Type: typ}, body)
	if err != nil {
		s.opts.Log.Error("agent API: reply could not be encoded", "type", typ, "err", err)
		msg, _ = encodeMessage(nativemsg.Envelope{V: nativemsg.ProtocolVersion, ID: id, Type: nativemsg.TypeError},
			errorBody{Code: nativemsg.CodeInternal, Message: fmt.Sprintf("the host could not encode its %s reply", typ)})
	}
	return conn.Write(ctx, websocket.MessageText, msg)
}

func (s *Server) sendError(ctx context.Context, conn *websocket.Conn, id string, e *nativemsg.Error) error {
	s.opts.Log.Warn("agent API: error reply", "code", e.Code, "reason", e.Message)
	return s.send(ctx, conn, id, nativemsg.TypeError, errorBody{Code: e.Code, Message: e.Message})
}

type errorBody struct {
	Code    nativemsg.Code `json:"code"`
	Message string         `json:"message"`
}

// parseEnvelope reads a message's envelope as host/PROTOCOL.md says: not a
// JSON object is malformed (no id), a wrong envelope is a bad envelope with
// whatever id could be read.
func parseEnvelope(payload []byte) (nativemsg.Envelope, *nativemsg.Error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(payload, &raw); err != nil || raw == nil {
		return nativemsg.Envelope{}, nativemsg.Errorf(nativemsg.CodeMalformed, "the message is not a JSON object")
	}
	var env nativemsg.Envelope
	id, ok := raw["id"]
	if !ok {
		return env, nativemsg.Errorf(nativemsg.CodeBadEnvelope, "the message has no id")
	}
	if err := json.Unmarshal(id, &env.ID); err != nil {
		return nativemsg.Envelope{}, nativemsg.Errorf(nativemsg.CodeBadEnvelope, "id must be a string")
	}
	if err := json.Unmarshal(raw["type"], &env.Type); err != nil || env.Type == "" {
		return env, nativemsg.Errorf(nativemsg.CodeBadEnvelope, "type must be a non-empty string")
	}
	if err := json.Unmarshal(raw["v"], &env.V); err != nil || env.V <= 0 {
		return env, nativemsg.Errorf(nativemsg.CodeBadEnvelope, "v must be a positive integer (this host speaks %d)", nativemsg.ProtocolVersion)
	}
	return env, nil
}

// encodeMessage writes env and the fields of body as one JSON object.
func encodeMessage(env nativemsg.Envelope, body any) ([]byte, error) {
	fields := map[string]json.RawMessage{}
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		if b = bytes.TrimSpace(b); !bytes.Equal(b, []byte("null")) {
			if err := json.Unmarshal(b, &fields); err != nil {
				return nil, fmt.Errorf("a %s body must be a JSON object", env.Type)
			}
		}
	}
	for _, k := range []string{"v", "id", "type"} {
		if _, ok := fields[k]; ok {
			return nil, fmt.Errorf("a %s body must not set v, id or type", env.Type)
		}
	}
	if fields == nil {
		fields = map[string]json.RawMessage{}
	}
	fields["v"], _ = json.Marshal(env.V)
	fields["id"], _ = json.Marshal(env.ID)
	fields["type"], _ = json.Marshal(env.Type)
	return json.Marshal(fields)
}

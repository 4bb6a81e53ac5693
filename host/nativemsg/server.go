package nativemsg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// A Request is one incoming message, handed to the Handler of its type.
type Request struct {
	Envelope
	// Raw is the whole message as received, envelope included.
	Raw json.RawMessage
	// Conn is the connection the request came on; handlers use it to send
	// messages of their own (progress, events) besides their reply.
	Conn *Conn
}

// Decode reads the request's own fields into v. A failure becomes a
// CodeBadRequest error the handler can return as is.
func (r *Request) Decode(v any) error {
	if err := json.Unmarshal(r.Raw, v); err != nil {
		return Errorf(CodeBadRequest, "reading %s fields: %v", r.Type, err)
	}
	return nil
}

// A Reply is what a handler sends back. It goes out with the request's id.
type Reply struct {
	// Type is the reply's message type; empty means the request's type.
	Type string
	// Body holds the reply's fields: a struct or map that marshals to a JSON
	// object without v, id or type; nil for no fields.
	Body any

	none bool
}

// NoReply is returned by a handler that answers later through Request.Conn,
// or not at all.
var NoReply = Reply{none: true}

// A Handler serves one message type. Handlers run one at a time, in the order
// messages arrive, so a handler that takes long should reply NoReply and
// finish in its own goroutine. A returned *Error is sent with its code; any
// other error is sent as CodeInternal.
type Handler func(ctx context.Context, req *Request) (Reply, error)

// A Server dispatches incoming messages to the handler of their type.
// Register every handler before Serve.
type Server struct {
	version  string
	log      *slog.Logger
	handlers map[string]Handler
	// conn is the session's writing side once Serve runs (Conn).
	conn atomic.Pointer[Conn]
}

// Conn is the writing side of the session Serve runs, for messages the
// host starts outside a request (the agent API's api.request); nil before
// Serve.
func (s *Server) Conn() *Conn { return s.conn.Load() }

// NewServer returns a server that answers hello with the program version
// and ProtocolVersion, and logs to log (nil discards).
func NewServer(version string, log *slog.Logger) *Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{version: version, log: log, handlers: map[string]Handler{}}
	s.handlers[TypeHello] = s.hello
	return s
}

// Handle registers h for messages of type typ. It panics when typ is
// registered already or is one of the protocol's own types, as that is a
// programming error.
func (s *Server) Handle(typ string, h Handler) {
	if typ == "" || typ == TypeError || typ == TypeChunk {
		panic(fmt.Sprintf("nativemsg: cannot register a handler for type %q", typ))
	}
	if _, dup := s.handlers[typ]; dup {
		panic(fmt.Sprintf("nativemsg: type %q registered twice", typ))
	}
	s.handlers[typ] = h
}

// Types returns the registered message types, sorted; hello tells them to
// the extension so it can offer only what this host serves.
func (s *Server) Types() []string {
	types := make([]string, 0, len(s.handlers))
	for t := range s.handlers {
		types = append(types, t)
	}
	slices.Sort(types)
	return types
}

// Serve reads frames from r and answers on w until r ends or ctx is done
// (checked between frames). It returns nil when r ends between frames, a *FrameError when a frame cannot be trusted
// (too long, or cut short), and the error of a failed write. Malformed
// messages and unknown types are answered with error replies and do not end
// the session.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	conn := newConn(w)
	s.conn.Store(conn)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		payload, err := ReadFrame(r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := s.dispatch(ctx, conn, payload); err != nil {
			return err
		}
	}
}

// dispatch answers one frame. Only a failure to write is returned.
func (s *Server) dispatch(ctx context.Context, conn *Conn, payload []byte) error {
	env, perr := parseEnvelope(payload)
	if perr != nil {
		s.log.Warn("refused message", "code", perr.Code, "reason", perr.Message, "bytes", len(payload))
		return conn.sendError(env.ID, perr)
	}
	if env.V != ProtocolVersion && env.Type != TypeHello {
		return conn.sendError(env.ID, Errorf(CodeProtocolVersion,
			"message speaks protocol %d, this host speaks %d: update the extension or the host", env.V, ProtocolVersion))
	}
	h, ok := s.handlers[env.Type]
	if !ok {
		s.log.Warn("unknown message type", "type", env.Type, "id", env.ID)
		return conn.sendError(env.ID, Errorf(CodeUnknownType,
			"this host (version %s) does not serve %q messages", s.version, env.Type))
	}
	reply, err := s.call(ctx, h, &Request{Envelope: env, Raw: payload, Conn: conn})
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			s.log.Error("handler failed", "type", env.Type, "id", env.ID, "err", err)
			e = Errorf(CodeInternal, "the host failed handling %s: %v", env.Type, err)
		}
		return conn.sendError(env.ID, e)
	}
	if reply.none {
		return nil
	}
	typ := reply.Type
	if typ == "" {
		typ = env.Type
	}
	if err := conn.Send(env.ID, typ, reply.Body); err != nil {
		if errors.Is(err, errWrite) {
			return err
		}
		s.log.Error("reply could not be encoded", "type", typ, "id", env.ID, "err", err)
		return conn.sendError(env.ID, Errorf(CodeInternal, "the host could not encode its %s reply", typ))
	}
	return nil
}

// call runs h and turns a panic into an error, so one bad handler does not
// end the session.
func (s *Server) call(ctx context.Context, h Handler, req *Request) (reply Reply, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("handler panicked", "type", req.Type, "id", req.ID, "panic", p)
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return h(ctx, req)
}

// Hello is the body of a hello message, in both directions.
type Hello struct {
	// Protocol is the sender's ProtocolVersion.
	Protocol int `json:"protocol"`
	// Version is the sender's program version.
	Version string `json:"version"`
	// Types lists the message types the host serves (host to extension only).
	Types []string `json:"types,omitempty"`
}

func (s *Server) hello(ctx context.Context, req *Request) (Reply, error) {
	var in Hello
	if err := req.Decode(&in); err != nil {
		return Reply{}, err
	}
	if in.Protocol != ProtocolVersion {
		s.log.Warn("extension speaks another protocol", "extension", in.Protocol, "host", ProtocolVersion, "extensionVersion", in.Version)
	}
	return Reply{Body: Hello{Protocol: ProtocolVersion, Version: s.version, Types: s.Types()}}, nil
}

// errWrite marks failures to write to the extension: the session is over.
var errWrite = errors.New("writing to the extension")

// A Conn is the writing side of a session. It is safe for concurrent use:
// each message, chunked or not, is written whole before the next.
type Conn struct {
	mu     sync.Mutex
	w      io.Writer
	nextID atomic.Uint64
}

func newConn(w io.Writer) *Conn { return &Conn{w: w} }

// Send writes a message with the given id, type and body fields, split into
// chunks when it is larger than Chrome accepts in one frame.
func (c *Conn) Send(id, typ string, body any) error {
	msg, err := encodeMessage(Envelope{V: ProtocolVersion, ID: id, Type: typ}, body)
	if err != nil {
		return err
	}
	frames, err := splitMessage(id, msg)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range frames {
		if err := WriteFrame(c.w, f); err != nil {
			return fmt.Errorf("%w: %w", errWrite, err)
		}
	}
	return nil
}

// Notify sends a message the host starts (not a reply) and returns the id it
// gave it: "host-" and a counter, so it never collides with the extension's
// ids.
func (c *Conn) Notify(typ string, body any) (string, error) {
	id := c.NewID()
	return id, c.Send(id, typ, body)
}

// NewID returns the id of a message the host starts ("host-" and a
// counter), for a caller that must know it before the message goes out:
// a request whose answer (another message carrying this id) it waits for.
func (c *Conn) NewID() string {
	return "host-" + strconv.FormatUint(c.nextID.Add(1), 10)
}

func (c *Conn) sendError(id string, e *Error) error {
	return c.Send(id, TypeError, errorBody{Code: e.Code, Message: e.Message})
}

// Package modeltest is a scripted OpenAI-compatible chat-completions
// server for tests: it listens on loopback, serves OpenAI's request shape
// (/v1/chat/completions, Authorization: Bearer) and Azure OpenAI's
// (/openai/deployments/{name}/chat/completions?api-version=…, api-key),
// answers each request with the next scripted Reply (or a policy's), and
// records every request so that a test can check what was sent: that no
// secret and no API key is in any body.
//
// It stands in for a model; it measures the machinery, never a model's
// skill. It imports only the standard library.
package modeltest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// A Server is a running scripted model server.
type Server struct {
	// URL is the base URL of OpenAI's request shape, for model.baseURL:
	// http://127.0.0.1:PORT/v1.
	URL string
	// Origin is http://127.0.0.1:PORT.
	Origin string

	key string
	srv *http.Server

	mu       sync.Mutex
	script   []Reply
	policy   func(Request) Reply
	requests []Request
}

// An Option configures a Server.
type Option func(*Server)

// WithKey makes the server refuse (401) a request that does not carry key
// in the header of its shape.
func WithKey(key string) Option { return func(s *Server) { s.key = key } }

// WithPolicy answers every request the script has no reply left for.
func WithPolicy(p func(Request) Reply) Option { return func(s *Server) { s.policy = p } }

// Start starts a server on a free loopback port; it stops when the test
// ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("modeltest: listening: %v", err)
	}
	s := &Server{Origin: "http://" + ln.Addr().String()}
	s.URL = s.Origin + "/v1"
	for _, o := range opts {
		o(s)
	}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.srv.Shutdown(ctx)
	})
	return s
}

// AzureURL is the model.baseURL of Azure OpenAI's request shape on this
// server: its origin with the API version.
func (s *Server) AzureURL(apiVersion string) string {
	return s.Origin + "/?api-version=" + url.QueryEscape(apiVersion)
}

// Script appends replies, answered one per request in order.
func (s *Server) Script(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, replies...)
}

// Requests is every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Pending is how many scripted replies are still unanswered.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script)
}

// A Request is one request the server received.
type Request struct {
	Method string
	// Path is the URL's path; Query its query.
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
	// Shape is "openai" or "azure", by the path; Deployment is Azure's
	// deployment name from the path.
	Shape      string
	Deployment string
}

// Decoded is the body as JSON, or nil when it is not JSON.
func (r Request) Decoded() map[string]any {
	var m map[string]any
	if json.Unmarshal(r.Body, &m) != nil {
		return nil
	}
	return m
}

// Model is the body's model field.
func (r Request) Model() string {
	m, _ := r.Decoded()["model"].(string)
	return m
}

// LastUserText is the text of the last user message, where Trailpin puts
// the step and the screen.
func (r Request) LastUserText() string {
	msgs, _ := r.Decoded()["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		if m, ok := msgs[i].(map[string]any); ok && m["role"] == "user" {
			if t, ok := m["content"].(string); ok {
				return t
			}
		}
	}
	return ""
}

// ToolNames are the names of the tools the request offered.
func (r Request) ToolNames() []string {
	tools, _ := r.Decoded()["tools"].([]any)
	var names []string
	for _, t := range tools {
		if fn, ok := t.(map[string]any)["function"].(map[string]any); ok {
			if n, ok := fn["name"].(string); ok {
				names = append(names, n)
			}
		}
	}
	return names
}

const (
	shapeOpenAI = "openai"
	shapeAzure  = "azure"
)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		http.Error(w, "reading body", http.StatusBadRequest)
		return
	}
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body}
	switch {
	case r.URL.Path == "/v1/chat/completions":
		req.Shape = shapeOpenAI
	case strings.HasPrefix(r.URL.Path, "/openai/deployments/") && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		req.Shape = shapeAzure
		req.Deployment = strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/openai/deployments/"), "/chat/completions")
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	n := len(s.requests)
	var reply Reply
	var scripted bool
	if s.answerable(r, req) {
		switch {
		case len(s.script) > 0:
			reply, s.script, scripted = s.script[0], s.script[1:], true
		case s.policy != nil:
			reply, scripted = s.policy(req), true
		}
	}
	s.mu.Unlock()

	switch {
	case req.Shape == "" || r.Method != http.MethodPost:
		writeError(w, http.StatusNotFound, "no such route: "+r.Method+" "+r.URL.Path)
	case req.Shape == shapeAzure && req.Query.Get("api-version") == "":
		writeError(w, http.StatusBadRequest, "missing api-version")
	case !s.authorized(req):
		writeError(w, http.StatusUnauthorized, "missing or wrong API key")
	case !scripted:
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("modeltest: no reply scripted for request %d", n))
	default:
		reply.write(w, r, req)
	}
}

// answerable reports whether the request reaches the script: a known
// route, POST, Azure's api-version, the key.
func (s *Server) answerable(r *http.Request, req Request) bool {
	return req.Shape != "" && r.Method == http.MethodPost && (req.Shape != shapeAzure || req.Query.Get("api-version") != "") && s.authorized(req)
}

// authorized checks the key in the header of the request's shape.
func (s *Server) authorized(req Request) bool {
	if s.key == "" {
		return true
	}
	if req.Shape == shapeAzure {
		return req.Header.Get("Api-Key") == s.key
	}
	return req.Header.Get("Authorization") == "Bearer "+s.key
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "modeltest", "code": status}})
}

// A Reply is how the server answers one request.
type Reply struct {
	// status other than 200 answers an error; retryAfter is its Retry-After.
	status     int
	retryAfter time.Duration
	errMessage string
	message    map[string]any
	finish     string
	// raw, when set, is written as the whole body.
	raw []byte
	// delay is waited (or until the client gives up) before answering.
	delay              time.Duration
	prompt, completion int
	usageSet           bool
}

// Call answers a call of tool with args (marshalled to JSON).
func Call(tool string, args any) Reply {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return RawCall(tool, string(b))
}

// RawCall answers a call of tool with arguments as written, valid JSON or
// not (malformed arguments).
func RawCall(tool, arguments string) Reply {
	return Calls([2]string{tool, arguments})
}

// Calls answers several calls at once: each is a tool and its arguments.
func Calls(calls ...[2]string) Reply {
	var tcs []any
	for i, c := range calls {
		tcs = append(tcs, map[string]any{"id": fmt.Sprintf("call_%d", i+1), "type": "function",
			"function": map[string]any{"name": c[0], "arguments": c[1]}})
	}
	return Reply{message: map[string]any{"role": "assistant", "content": nil, "tool_calls": tcs}, finish: "tool_calls"}
}

// Text answers with a message and no tool call.
func Text(content string) Reply {
	return Reply{message: map[string]any{"role": "assistant", "content": content}, finish: "stop"}
}

// JSON answers with v as the message's content (a structured output).
func JSON(v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return Text(string(b))
}

// Refusal answers with the model's refusal.
func Refusal(text string) Reply {
	return Reply{message: map[string]any{"role": "assistant", "content": nil, "refusal": text}, finish: "stop"}
}

// Truncated answers with text cut off at the token limit.
func Truncated(content string) Reply {
	r := Text(content)
	r.finish = "length"
	return r
}

// Status answers an error with the HTTP status (429, 500, 401…) and an
// OpenAI-style error body.
func Status(code int) Reply { return Reply{status: code} }

// Failed answers an error with the HTTP status and message, as an
// endpoint that echoes part of a request in its error.
func Failed(code int, message string) Reply { return Reply{status: code, errMessage: message} }

// RateLimited answers 429 asking to wait retryAfter (none when zero).
func RateLimited(retryAfter time.Duration) Reply {
	return Reply{status: http.StatusTooManyRequests, retryAfter: retryAfter}
}

// Garbage answers 200 with a body that is not JSON.
func Garbage() Reply { return Reply{raw: []byte("<html>upstream hiccup</html>")} }

// Slow answers with r after waiting d, or never when the client gives up
// first.
func Slow(d time.Duration, r Reply) Reply {
	r.delay = d
	return r
}

// WithUsage sets the tokens the reply reports (by default, a quarter of
// the request's and of the answer's bytes).
func (r Reply) WithUsage(prompt, completion int) Reply {
	r.prompt, r.completion, r.usageSet = prompt, completion, true
	return r
}

func (r Reply) write(w http.ResponseWriter, hr *http.Request, req Request) {
	if r.delay > 0 {
		t := time.NewTimer(r.delay)
		defer t.Stop()
		select {
		case <-hr.Context().Done():
			return
		case <-t.C:
		}
	}
	if r.raw != nil {
		w.Header().Set("Content-Type", "application/json")
		w.Write(r.raw)
		return
	}
	if r.status != 0 && r.status != http.StatusOK {
		if r.retryAfter > 0 {
			w.Header().Set("Retry-After-Ms", fmt.Sprint(r.retryAfter.Milliseconds()))
		}
		msg := r.errMessage
		if msg == "" {
			msg = fmt.Sprintf("modeltest: scripted %d %s", r.status, http.StatusText(r.status))
		}
		writeError(w, r.status, msg)
		return
	}
	answer, _ := json.Marshal(r.message)
	prompt, completion := len(req.Body)/4, len(answer)/4+1
	if r.usageSet {
		prompt, completion = r.prompt, r.completion
	}
	model := req.Model()
	if model == "" {
		model = req.Deployment
	}
	var buf bytes.Buffer
	json.NewEncoder(&buf).Encode(map[string]any{
		"id": "chatcmpl-modeltest", "object": "chat.completion", "created": time.Now().Unix(), "model": model,
		"choices": []any{map[string]any{"index": 0, "message": r.message, "finish_reason": r.finish}},
		"usage":   map[string]any{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
	})
	w.Header().Set("Content-Type", "application/json")
	w.Write(buf.Bytes())
}

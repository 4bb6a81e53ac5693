package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"sync"

	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/host/recording"
)

// The messages between the host and the extension that serve the agent
// API's calls (host/PROTOCOL.md, Agent API).
const (
	// typeAPIRequest (host to extension) asks the extension to perform one
	// call; typeAPIResult is its answer, of the same id.
	typeAPIRequest = "api.request"
	typeAPIResult  = "api.result"
	// typeAPIRevoke (extension to host): the person revoked a client.
	typeAPIRevoke = "api.revoke"
	// typeAPIClosed (host to extension): a client's connection ended.
	typeAPIClosed = "api.closed"
)

// An apiDoor is the extension's side of the agent API's calls, over the
// native-messaging connection: each call the extension performs is an
// api.request answered by an api.result.
type apiDoor struct {
	srv   *nativemsg.Server
	svc   *recording.Service
	log   *slog.Logger
	calls *agentapi.Calls
	// api is the agent API's server once it listens (Disconnect).
	api     *agentapi.Server
	done    chan struct{}
	once    sync.Once
	answers *answers[agentapi.ExtAnswer]

	mu sync.Mutex // guards api
}

func registerAgentAPI(srv *nativemsg.Server, svc *recording.Service, log *slog.Logger) *apiDoor {
	d := &apiDoor{srv: srv, svc: svc, log: log, done: make(chan struct{})}
	d.answers = newAnswers("an api.result", agentapi.ExtAnswer{Reason: "failed", Error: "the extension's answer could not be read"}, log, d.done)
	d.calls = &agentapi.Calls{Browser: d, Recorder: apiRecorder{svc}, Agent: apiRecorder{svc}.agent}
	srv.Handle(typeAPIResult, d.answers.handle)
	srv.Handle(typeAPIRevoke, d.revoke)
	return d
}

// close ends the requests waiting for the extension.
func (d *apiDoor) close() { d.once.Do(func() { close(d.done) }) }

// Ask sends one api.request and waits for its api.result.
func (d *apiDoor) Ask(ctx context.Context, req agentapi.ExtRequest) (agentapi.ExtAnswer, error) {
	conn := d.srv.Conn()
	if conn == nil {
		return agentapi.ExtAnswer{}, errors.New("the extension is not connected")
	}
	return d.answers.ask(ctx, conn, typeAPIRequest, req)
}

// revoke forgets a client the person revoked (unless keep) and ends its
// connections.
func (d *apiDoor) revoke(ctx context.Context, req *nativemsg.Request) (nativemsg.Reply, error) {
	var in struct {
		Client string `json:"client"`
		// Keep disconnects the client without forgetting that the
		// person allowed it (the driven tab's button).
		Keep bool `json:"keep"`
	}
	if err := req.Decode(&in); err != nil || in.Client == "" {
		return nativemsg.Reply{}, nativemsg.Errorf(nativemsg.CodeBadRequest, "api.revoke needs \"client\": the name the person revoked")
	}
	if !in.Keep {
		d.calls.Revoke(in.Client)
	}
	d.mu.Lock()
	api := d.api
	d.mu.Unlock()
	if api != nil {
		api.Disconnect(in.Client)
	}
	return nativemsg.Reply{Body: map[string]any{"client": in.Client}}, nil
}

// closed tells the extension that a client's connection ended, for the
// tab it drove to say so no more.
func (d *apiDoor) closed(client string) {
	if conn := d.srv.Conn(); conn != nil {
		_, _ = conn.Notify(typeAPIClosed, map[string]string{"client": client})
	}
}

// apiRecorder is the recording service as the calls use it.
type apiRecorder struct{ svc *recording.Service }

func (r apiRecorder) Origins(ctx context.Context, session, url string) ([]string, error) {
	return r.svc.AppOrigins(ctx, session, url)
}

func (r apiRecorder) Performed(session string, tab int, from, until int64, client string) error {
	return r.svc.MarkClient(recording.ClientSpan{Session: session, Tab: tab, From: from, Until: until, Client: client})
}

// Secret reads the project's secret name for a client's tab.type into a
// secret field (agentapi.SecretKeeper).
func (r apiRecorder) Secret(ctx context.Context, session, name string) (string, error) {
	v, err := r.svc.ClientSecret(ctx, session, name)
	var re *recording.Error
	if errors.As(err, &re) {
		return "", errors.New(re.Message)
	}
	return v, err
}

// TypedSecret notes which secret a client's act typed, for the step to
// keep its reference.
func (r apiRecorder) TypedSecret(session string, tab int, from, until int64, name string) error {
	return r.svc.MarkClient(recording.ClientSpan{Session: session, Tab: tab, From: from, Until: until, Secret: name})
}

// agent sets up the built-in agent for a client's tab.act: the
// recording's project's model and budgets (else the user's).
func (r apiRecorder) agent(ctx context.Context, session, url, goal string) (*agentapi.ActAgent, error) {
	ca, err := r.svc.ClientAgent(ctx, session, url, goal)
	var re *recording.Error
	if errors.As(err, &re) {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "%s", re.Message)
	}
	if err != nil {
		return nil, err
	}
	return &agentapi.ActAgent{Config: ca.Config, Secrets: ca.Secrets, Users: ca.Users, Fill: ca.Fill, Model: ca.Model,
		ActionTimeout: ca.ActionTimeout, Count: ca.Count}, nil
}

// startAgentAPI serves the local agent API (host/PROTOCOL.md, Agent API)
// while Chrome runs the host, and writes the discovery file outside agents
// and `host mcp` find it by. The returned function stops serving and
// removes the file. Without it the native session goes on: the log says
// why the API is not served.
func startAgentAPI(ctx context.Context, e *env, cfg *config.Config, door *apiDoor, log *slog.Logger) func() {
	dataDir := ""
	if cfg != nil {
		dataDir = cfg.DataDir()
	}
	path := agentapi.DiscoveryPath(e.getenv, dataDir)
	if path == "" {
		log.Warn("agent API not served: neither XDG_RUNTIME_DIR nor a data directory is known")
		return func() {}
	}
	opts := agentapi.Options{Version: Version, Log: log}
	if door != nil {
		opts.Handlers, opts.OnHello, opts.OnClose = door.calls.Handlers(), door.calls.Hello, door.closed
	}
	srv, err := agentapi.Start(ctx, opts)
	if err != nil {
		log.Warn("agent API not served", "err", err)
		return func() {}
	}
	if door != nil {
		door.mu.Lock()
		door.api = srv
		door.mu.Unlock()
	}
	d := agentapi.Discovery{Port: srv.Port(), Token: srv.Token(), PID: os.Getpid(), Version: Version, Protocol: nativemsg.ProtocolVersion}
	if err := agentapi.WriteDiscovery(path, d); err != nil {
		log.Warn("agent API not served: the discovery file could not be written", "err", err)
		srv.Close()
		return func() {}
	}
	log.Info("agent API served", "addr", srv.Addr().String(), "discovery", path)
	return func() {
		if err := agentapi.RemoveDiscovery(path, d); err != nil {
			log.Warn("the agent API's discovery file could not be removed", "file", path, "err", err)
		}
		if door != nil {
			door.close()
		}
		srv.Close()
	}
}

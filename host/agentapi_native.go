package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/nativemsg"
)

// startAgentAPI serves the local agent API (host/PROTOCOL.md, Agent API)
// while Chrome runs the host, and writes the discovery file outside agents
// and `host mcp` find it by. The returned function stops serving and
// removes the file. Without it the native session goes on: the log says
// why the API is not served.
func startAgentAPI(ctx context.Context, e *env, cfg *config.Config, log *slog.Logger) func() {
	dataDir := ""
	if cfg != nil {
		dataDir = cfg.DataDir()
	}
	path := agentapi.DiscoveryPath(e.getenv, dataDir)
	if path == "" {
		log.Warn("agent API not served: neither XDG_RUNTIME_DIR nor a data directory is known")
		return func() {}
	}
	srv, err := agentapi.Start(ctx, agentapi.Options{Version: Version, Log: log})
	if err != nil {
		log.Warn("agent API not served", "err", err)
		return func() {}
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
		srv.Close()
	}
}

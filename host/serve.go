package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
)

// exitUntrustedFrame is the exit status when the browser sent a frame whose
// length cannot be trusted: the session cannot go on, and Chrome reports
// the host as exited.
const exitUntrustedFrame = 3

// A nativeSession is what handlers share while Chrome runs the host.
type nativeSession struct {
	// Origin is the extension that started the host.
	Origin string
	// Config is nil when the configuration could not be read (the log says
	// why); hello still works so the popup can show the problem.
	Config *config.Config
	Log    *slog.Logger
	// Secrets hides the values of the secrets the host has loaded in the
	// database and the log.
	Secrets *secretFilter
	// Getenv reads the environment Chrome started the host with (the
	// model's key variable, TRAILPIN_SECRET_*); nil means os.Getenv.
	Getenv func(string) string
	// Environ lists that environment ("NAME=value"), for the secret values
	// the agent's redactor hides; nil lists none.
	Environ func() []string
	// LoadConfig loads the configuration with a project's trailpin.yaml
	// (its model and agent budgets win over the user config's); nil means
	// Config alone.
	LoadConfig func(projectFile string) (*config.Config, error)
	// api serves the agent API's calls through the extension; set by
	// registerHandlers.
	api *apiDoor
}

// registerHandlers adds every feature's message handlers to srv. Features
// register their types here; hello is served by nativemsg itself. The
// returned function releases what the handlers hold (the database).
func registerHandlers(ctx context.Context, srv *nativemsg.Server, s *nativeSession) func() {
	rec := registerRecording(srv, s)
	s.api = registerAgentAPI(srv, rec.svc, s.Log)
	// hello is answered meanwhile; requests that need the database wait.
	go rec.checkDatabase(ctx)
	return func() {
		s.api.close()
		rec.close()
	}
}

// serveNative is the native-messaging mode: frames on stdin and stdout until
// the browser closes stdin. Only frames go to stdout; the log goes to a file
// in the data directory and to stderr.
func serveNative(ctx context.Context, e *env, origin string) error {
	cfg, cfgErr := config.Load(e.configOptions(nil))
	var dataDir string
	if cfgErr == nil {
		dataDir = cfg.DataDir()
	}
	filter := newSecretFilter(e)
	log, closeLog, logErr := openLog(dataDir, e.stderr, filter)
	defer closeLog()
	if logErr != nil {
		log.Warn("logging to stderr only", "err", logErr)
	}
	if cfgErr != nil {
		// Without configuration the host can still say hello, so the
		// popup can show what is wrong instead of "host exited".
		log.Error("configuration could not be read", "err", cfgErr)
	}
	log.Info("session started", "origin", origin, "version", Version, "protocol", nativemsg.ProtocolVersion, "pid", os.Getpid())

	srv := nativemsg.NewServer(Version, log)
	loadConfig := func(projectFile string) (*config.Config, error) {
		o := e.configOptions(nil)
		o.ConfigFile = projectFile
		return config.Load(o)
	}
	session := &nativeSession{Origin: origin, Config: cfg, Log: log, Secrets: filter,
		Getenv: e.getenv, Environ: e.environ, LoadConfig: loadConfig}
	release := registerHandlers(ctx, srv, session)
	defer release()
	defer startAgentAPI(ctx, e, cfg, session.api, log)()
	err := srv.Serve(ctx, e.stdin, e.stdout)
	var fe *nativemsg.FrameError
	switch {
	case err == nil:
		log.Info("session ended: the browser closed the connection")
		return nil
	case errors.As(err, &fe):
		log.Error("session ended: a frame could not be trusted", "err", err)
		return &exitcode.Error{Code: exitUntrustedFrame, Err: fmt.Errorf("native messaging: %w", err)}
	default:
		log.Error("session ended", "err", err)
		return fmt.Errorf("native messaging: %w", err)
	}
}

// logFile is the host's log in the data directory.
const logFile = "host.log"

// maxLogBytes bounds the log: a bigger one is moved to host.log.1 when the
// next session starts, so a busy machine keeps two files at most.
const maxLogBytes = 10 << 20

// openLog returns a logger writing to the log file in dataDir and to stderr,
// both through the secret filter. When the file cannot be opened it still
// returns a logger (stderr only) along with the error.
func openLog(dataDir string, stderr io.Writer, secrets *secretFilter) (*slog.Logger, func(), error) {
	stderrOnly := slog.New(slog.NewTextHandler(secrets.writer(stderr), nil))
	if dataDir == "" {
		return stderrOnly, func() {}, errors.New("no data directory")
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return stderrOnly, func() {}, fmt.Errorf("creating data directory: %w", err)
	}
	name := filepath.Join(dataDir, logFile)
	if st, err := os.Stat(name); err == nil && st.Size() > maxLogBytes {
		_ = os.Rename(name, name+".1")
	}
	f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return stderrOnly, func() {}, fmt.Errorf("opening log: %w", err)
	}
	log := slog.New(slog.NewTextHandler(secrets.writer(io.MultiWriter(f, stderr)), nil))
	return log, func() { f.Close() }, nil
}

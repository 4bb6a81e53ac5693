package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/headless"
	mcpdoor "github.com/trailpin/trailpin/host/mcp"
	"github.com/trailpin/trailpin/host/recording"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
)

// The MCP door (docs/mcp.md): `host mcp` serves the recording service's
// tools to an MCP client on stdin and stdout, acting in the person's Chrome
// through the agent API of the host Chrome runs, or with --headless in a
// headless Chromium of its own. Only JSON-RPC goes to stdout; the log goes
// to stderr.

func newMCPCmd(e *env) *cobra.Command {
	var headlessMode bool
	var chrome, project string
	var limit int
	cmd := &cobra.Command{
		Use:   "mcp [--headless] [--project DIR]",
		Short: "Serve Trailpin's tools to a coding agent over MCP, recording what it does as trails",
		Long: "mcp serves an MCP server on standard input and output: the agent snapshots pages,\n" +
			"acts by ref and asserts (tools named as Playwright MCP names them), and what it does\n" +
			"is recorded as trail steps marked as its client's, saved into the project's trails\n" +
			"folder and replayed without a model.\n\n" +
			"Without --headless (attached) it works in the person's own Chrome: it finds the host\n" +
			"Chrome runs for the Trailpin extension through the agent API's discovery file, and\n" +
			"acts in the tabs the person shares once they allow the client in the extension.\n" +
			"With no such host it says to open Chrome with the extension, and exits.\n\n" +
			"With --headless it starts a headless Chromium of its own with Trailpin's page model,\n" +
			"with no extension and no person: for a coding agent in CI or a container.\n\n" +
			"The project is the trailpin.yaml found from the working directory upwards, or\n" +
			"--project. Only JSON-RPC goes to standard output; the log goes to standard error.\n" +
			"See docs/mcp.md.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if limit < 1000 {
				return exitcode.UsageError(fmt.Errorf("--snapshot-limit %d: give at least 1000 bytes", limit))
			}
			if !headlessMode {
				return attachMCP(cmd, e, project, limit)
			}
			return serveMCP(cmd, e, chrome, project, limit)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&headlessMode, "headless", false, "act in a headless Chromium of its own instead of the person's Chrome")
	f.StringVar(&chrome, "chrome", "", "with --headless: the Chromium or Chrome executable (default: $CHROME_PATH, else the first one found)")
	f.StringVar(&project, "project", "", "the folder of the trailpin.yaml to record into (default: found from the working directory upwards)")
	f.IntVar(&limit, "snapshot-limit", mcpdoor.DefaultSnapshotLimit, "the most bytes of page text a snapshot gives; it says what it left out")
	return cmd
}

// serveMCP starts the recording service and the headless tab, and serves
// the door until the client closes standard input.
func serveMCP(cmd *cobra.Command, e *env, chrome, project string, limit int) error {
	ctx := cmd.Context()
	cfg, err := e.config(cmd)
	if err != nil {
		return exitcode.UsageError(err)
	}
	if project, err = mcpProject(cfg, project); err != nil {
		return exitcode.UsageError(err)
	}
	filter := newSecretFilter(e)
	log, closeLog, logErr := openLog(cfg.DataDir(), e.stderr, filter)
	defer closeLog()
	if logErr != nil {
		log.Warn("logging to stderr only", "err", logErr)
	}
	loadConfig := func(projectFile string) (*config.Config, error) {
		o := e.configOptions(nil)
		o.ConfigFile = projectFile
		return config.Load(o)
	}
	svc := recording.New(recording.Options{Config: cfg, Log: log, Secrets: filterSecrets{filter},
		Getenv: e.getenv, Environ: e.environ, LoadConfig: loadConfig, Export: exportTrail,
		AgentMaxActions: config.DefaultAgent().MaxActions, AgentMaxCalls: config.DefaultAgent().MaxCalls})
	defer svc.Close()
	svc.CheckDatabase(ctx)
	if chrome == "" {
		chrome = e.getenv("CHROME_PATH")
	}
	tab, err := headless.Start(ctx, headless.Options{ExecPath: chrome, Logf: func(format string, args ...any) {
		log.Debug(fmt.Sprintf(format, args...))
	}})
	if err != nil {
		return exitcode.EnvironmentError(fmt.Errorf("%w (install Chromium, or give --chrome or CHROME_PATH)", err))
	}
	defer tab.Close()
	door := mcpdoor.New(mcpdoor.Options{Service: svc, Tab: tab, Project: project, Log: log, SnapshotLimit: limit,
		Getenv: e.getenv, Version: Version, Replay: mcpReplay(e)})
	log.Info("mcp session started", "version", Version, "project", project)
	err = door.Serve(ctx, &sdk.IOTransport{Reader: io.NopCloser(e.stdin), Writer: nopWriteCloser{e.stdout}})
	log.Info("mcp session ended", "err", err)
	if err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

// mcpReplay is trail_replay: `host replay FILE` with the project's
// trailpin.yaml, its output kept for the client instead of written to
// standard output (which carries JSON-RPC only).
func mcpReplay(e *env) mcpdoor.ReplayFunc {
	return func(ctx context.Context, path, project string) (mcpdoor.ReplayResult, error) {
		var out, progress bytes.Buffer
		sub := *e
		sub.stdin, sub.stdout, sub.stderr = bytes.NewReader(nil), &out, &progress
		args := []string{"replay"}
		if project != "" {
			args = append(args, "--config", filepath.Join(project, config.ProjectFileName))
		}
		root := newRootCmd(&sub)
		root.SetArgs(append(args, path))
		root.SetIn(sub.stdin)
		root.SetOut(&out)
		root.SetErr(&progress)
		err := root.ExecuteContext(ctx)
		res := mcpdoor.ReplayResult{ExitCode: exitCode(err), Summary: out.String()}
		if err == nil {
			res.ExitCode = 0
		} else if !isSilent(err) {
			res.Summary += err.Error() + "\n"
		}
		return res, nil
	}
}

// nopWriteCloser is a writer the transport may close without closing it.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// attachMCP is host mcp without --headless: it finds the host Chrome runs
// through the agent API's discovery file (host/PROTOCOL.md, Agent API) and
// serves the same tools as a client of that API, acting in the tabs the
// person shares. With no host running it says to open Chrome with the
// extension, or to run host mcp --headless.
func attachMCP(cmd *cobra.Command, e *env, project string, limit int) error {
	ctx := cmd.Context()
	cfg, err := e.config(cmd)
	if err != nil {
		return exitcode.UsageError(err)
	}
	path := agentapi.DiscoveryPath(e.getenv, cfg.DataDir())
	if path == "" {
		return exitcode.UsageError(errors.New("no folder for the agent API's discovery file: set XDG_RUNTIME_DIR, or run host mcp --headless"))
	}
	d, err := agentapi.ReadDiscovery(path)
	if err != nil {
		return exitcode.UsageError(err)
	}
	if project, err = mcpProject(cfg, project); err != nil {
		return exitcode.UsageError(err)
	}
	log, closeLog, logErr := openLog(cfg.DataDir(), e.stderr, newSecretFilter(e))
	defer closeLog()
	if logErr != nil {
		log.Warn("logging to stderr only", "err", logErr)
	}
	door := mcpdoor.NewAttached(mcpdoor.AttachedOptions{Discovery: path, Project: project, Log: log, SnapshotLimit: limit,
		Version: Version, Replay: mcpReplay(e)})
	log.Info("mcp session started, attached", "version", Version, "host", d.Version, "project", project)
	err = door.Serve(ctx, &sdk.IOTransport{Reader: io.NopCloser(e.stdin), Writer: nopWriteCloser{e.stdout}})
	log.Info("mcp session ended", "err", err)
	if err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

// mcpProject is the folder of the trailpin.yaml recordings go into: the
// one given, else the project found from the working directory ("" for
// none), made absolute.
func mcpProject(cfg *config.Config, project string) (string, error) {
	if project == "" && cfg.Project != nil {
		project = cfg.Project.Dir
	}
	if project == "" {
		return "", nil
	}
	return filepath.Abs(project)
}

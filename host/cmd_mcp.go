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

// The MCP door (docs/mcp.md): `host mcp --headless` serves the recording
// service's tools to an MCP client on stdin and stdout, acting in a headless
// Chromium of its own. Only JSON-RPC goes to stdout; the log goes to stderr.

func newMCPCmd(e *env) *cobra.Command {
	var headlessMode bool
	var chrome, project string
	var limit int
	cmd := &cobra.Command{
		Use:   "mcp --headless [--project DIR]",
		Short: "Serve Trailpin's tools to a coding agent over MCP, recording what it does as trails",
		Long: "mcp serves an MCP server on standard input and output. With --headless it starts a\n" +
			"headless Chromium of its own with Trailpin's page model: the agent snapshots pages,\n" +
			"acts by ref and asserts (tools named as Playwright MCP names them), and what it does\n" +
			"is recorded as trail steps marked as its client's, saved into the project's trails\n" +
			"folder and replayed without a model. The project is the trailpin.yaml found from the\n" +
			"working directory upwards, or --project. Only JSON-RPC goes to standard output; the\n" +
			"log goes to standard error. See docs/mcp.md.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !headlessMode {
				return attachMCP(cmd, e)
			}
			if limit < 1000 {
				return exitcode.UsageError(fmt.Errorf("--snapshot-limit %d: give at least 1000 bytes", limit))
			}
			return serveMCP(cmd, e, chrome, project, limit)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&headlessMode, "headless", false, "act in a headless Chromium of its own (the only mode for now)")
	f.StringVar(&chrome, "chrome", "", "the Chromium or Chrome executable (default: $CHROME_PATH, else the first one found)")
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
	if project == "" && cfg.Project != nil {
		project = cfg.Project.Dir
	}
	if project != "" {
		if project, err = filepath.Abs(project); err != nil {
			return exitcode.UsageError(err)
		}
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
// through the agent API's discovery file (host/PROTOCOL.md, Agent API). The
// browser tools are not served through it yet, so it says what it found and
// what to run instead.
func attachMCP(cmd *cobra.Command, e *env) error {
	cfg, err := e.config(cmd)
	if err != nil {
		return exitcode.UsageError(err)
	}
	path := agentapi.DiscoveryPath(e.getenv, cfg.DataDir())
	if path == "" {
		return exitcode.UsageError(errors.New("no folder for the agent API's discovery file: set XDG_RUNTIME_DIR, or run host mcp --headless"))
	}
	c, err := agentapi.Dial(cmd.Context(), path, "host mcp")
	if err != nil {
		return exitcode.UsageError(err)
	}
	defer c.Close()
	return exitcode.UsageError(fmt.Errorf("the Trailpin host Chrome runs (version %s) does not serve the browser tools "+
		"to outside agents yet: run host mcp --headless for a browser of its own", c.Hello.Version))
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
)

// Version is the program version, set at build time with
// -ldflags "-X main.Version=…".
var Version = "0.1.0-dev"

// env is what every command gets: the streams of this invocation and how it
// reads its surroundings. No command touches os.Stdin, os.Stdout or
// os.Stderr directly.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	getwd          func() (string, error)
	// executable returns the path of the running binary.
	executable func() (string, error)
	goos       string

	// configFile is the root's --config flag.
	configFile string

	// environ lists the environment ("NAME=value"), for the secrets it
	// gives that no config names; nil lists none.
	environ func() []string
}

// Run runs the host with args (without the program name). It is the whole
// program; main only maps the error to an exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	e := &env{
		stdin: stdin, stdout: stdout, stderr: stderr,
		getenv:     os.Getenv,
		environ:    os.Environ,
		getwd:      os.Getwd,
		executable: os.Executable,
		goos:       runtime.GOOS,
	}
	// Chrome starts a native-messaging host with the caller's origin as its
	// first argument (and, on Windows, --parent-window=N after it). That is
	// not a command line cobra should parse.
	if len(args) > 0 && strings.HasPrefix(args[0], "chrome-extension://") {
		return serveNative(ctx, e, args[0])
	}
	root := newRootCmd(e)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return root.ExecuteContext(ctx)
}

func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:           "host",
		Short:         "Trailpin: record browser tests from the toolbar, replay them headless in CI",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&e.configFile, "config", "", "project config file (default: trailpin.yaml found from the working directory upwards)")
	root.PersistentFlags().String("db", "", "SQLite database (default: trailpin.db in the data directory)")
	root.AddCommand(newVersionCmd(e))
	root.AddCommand(newInstallCmd(e))
	root.AddCommand(newUninstallCmd(e))
	root.AddCommand(newDoctorCmd(e))
	root.AddCommand(newMigrateCmd(e))
	root.AddCommand(newAcceptCmd(e))
	root.AddCommand(newSnapshotCmd(e))
	root.AddCommand(newSuggestSelectorCmd(e))
	root.AddCommand(newMatchCmd(e))
	root.AddCommand(newReviewCmd(e))
	root.AddCommand(newTrailsCmd(e))
	root.AddCommand(newExportCmd(e))
	root.AddCommand(newImportCmd(e))
	root.AddCommand(newProjectCmd(e))
	root.AddCommand(newReplayCmd(e))
	root.AddCommand(newDemoCmd(e))
	root.AddCommand(newMCPCmd(e))
	return root
}

// config loads the configuration for cmd, binding its flags.
func (e *env) config(cmd *cobra.Command) (*config.Config, error) {
	return config.Load(e.configOptions(cmd.Flags()))
}

// configOptions are what config.Load reads of this invocation.
func (e *env) configOptions(flags *pflag.FlagSet) config.Options {
	return config.Options{ConfigFile: e.configFile, Flags: flags, Getenv: e.getenv, Getwd: e.getwd, GOOS: e.goos}
}

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the program version and the native-messaging protocol version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintf(e.stdout, "host %s\nprotocol %d\n", Version, nativemsg.ProtocolVersion)
			return err
		},
	}
}

// exitCode is the process exit code of a command's error: an
// *exitcode.Error's code, else 1.
func exitCode(err error) int {
	var ee *exitcode.Error
	if errors.As(err, &ee) {
		return ee.Code
	}
	return 1
}

func isSilent(err error) bool {
	var ee *exitcode.Error
	return errors.As(err, &ee) && ee.Err == nil
}

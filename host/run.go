package main

import (
	"context"
	"errors"
	"io"

	"github.com/spf13/cobra"
)

// Version is the program version, set at build time with
// -ldflags "-X main.Version=…".
var Version = "0.1.0-dev"

// env is what every command gets: the streams of this invocation. No command
// touches os.Stdin, os.Stdout or os.Stderr directly.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// Run runs the host with args (without the program name). It is the whole
// program; main only maps the error to an exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
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
	root.AddCommand(newVersionCmd(e))
	root.AddCommand(newMigrateCmd(e))
	return root
}

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the program version and the native-messaging protocol version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := io.WriteString(e.stdout, "host "+Version+"\n")
			return err
		},
	}
}

// exitError carries a process exit code; its message may be empty when the
// command already explained itself.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

func isSilent(err error) bool {
	var ee *exitError
	return errors.As(err, &ee) && ee.err == nil
}

// Command host is Trailpin's native-messaging host and command-line tool: Chrome
// starts it to talk to the extension, and people and CI run it to install,
// check, record into and replay trails.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if msg := err.Error(); msg != "" && !isSilent(err) {
			fmt.Fprintln(os.Stderr, "host:", msg)
		}
		os.Exit(exitCode(err))
	}
}

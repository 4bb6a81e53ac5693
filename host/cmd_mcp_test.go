package main

import (
	"strings"
	"testing"
)

// host mcp without --headless (the mode in the person's browser, not built
// yet) is a usage error that says what to run, and writes nothing to
// standard output, which carries JSON-RPC only.
func TestMCPWithoutHeadlessSaysWhatToRun(t *testing.T) {
	tempHome(t)
	out, _, err := run(t, nil, "mcp")
	if code := exitCode(err); code != 2 || !strings.Contains(err.Error(), "host mcp --headless") {
		t.Errorf("host mcp: exit %d, %v; want a usage error (2) naming host mcp --headless", code, err)
	}
	if out != "" {
		t.Errorf("host mcp wrote to standard output: %q", out)
	}
}

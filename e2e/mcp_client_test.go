package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession is a test's MCP client of one server.
type mcpSession struct {
	ctx    context.Context
	cs     *mcp.ClientSession
	stderr *bytes.Buffer
}

// connectMCP starts cmd (a `host mcp`, headless or not, or another MCP
// server) and connects to it as the client named name. The connection
// closes when the test ends; the server's stderr is logged if it failed.
func connectMCP(ctx context.Context, t *testing.T, name string, cmd *exec.Cmd) *mcpSession {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1.0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v\n%s", cmd.Path, err, stderr.Bytes())
	}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("%s's log:\n%s", cmd.Path, stderr.Bytes())
		}
	})
	return &mcpSession{ctx: ctx, cs: cs, stderr: &stderr}
}

// call calls a tool and returns its text and whether it failed.
func (s *mcpSession) call(t *testing.T, name string, args map[string]any) (string, bool) {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	res, err := s.cs.CallTool(s.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, s.stderr.Bytes())
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// must calls a tool that must succeed and returns its text.
func (s *mcpSession) must(t *testing.T, name string, args map[string]any) string {
	t.Helper()
	out, failed := s.call(t, name, args)
	if failed {
		t.Fatalf("%s %v failed: %s", name, args, out)
	}
	return out
}

// headlessMCPOnPage serves html as /page.html on loopback, writes a
// project whose app "page" is that site, and starts `host mcp --headless`
// in it with a home of its own: the connected session, the site's origin
// and the project's folder (its trails are written under trails/).
func headlessMCPOnPage(t *testing.T, html string) (session *mcpSession, origin, project string) {
	t.Helper()
	site := TempDir(t)
	if err := os.WriteFile(filepath.Join(site, "page.html"), []byte(html), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := ServeDir(t, site)
	project = TempDir(t)
	if err := os.WriteFile(filepath.Join(project, "trailpin.yaml"), []byte("apps:\n  page:\n    baseURL: "+srv.URL+"\ntrails:\n  dir: trails\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	home := TempDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	t.Cleanup(cancel)
	cmd := exec.Command(HostPath(t), "mcp", "--headless")
	cmd.Dir = project
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "CHROME_PATH=" + os.Getenv("CHROME_PATH"),
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share")}
	return connectMCP(ctx, t, mcpClientName, cmd), srv.URL, project
}

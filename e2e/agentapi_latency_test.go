package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/host/demo"
)

// latencyPages are the pages measured, after signing in to the demo shop:
// the product page, whose Add to cart loads the page again, and the big
// page of about 10,000 elements, whose first Select changes nothing but
// its own row.
var latencyPages = []struct{ name, path, click, element string }{
	{"product", "/products/iphone-17", `button "Add to cart"`, "Add to cart"},
	{"big", "/big?n=10000", `button "Select"`, "Select"},
}

// latencySamples holds, per door and measure, the milliseconds (or bytes)
// each sample gave.
type latencySamples map[string]map[string][]float64

func (s latencySamples) add(door, measure string, v float64) {
	if s[door] == nil {
		s[door] = map[string][]float64{}
	}
	s[door][measure] = append(s[door][measure], v)
}

func (s latencySamples) time(door, measure string, f func()) {
	start := time.Now()
	f()
	s.add(door, measure, float64(time.Since(start).Microseconds())/1000)
}

// TestAttachedLatencyBesidePlaywrightMCP measures, in the person's browser
// with the extension and the host Chrome starts, the round trip of a
// snapshot and of a click through the agent API and through `host mcp`
// (attached), in a recorded tab, and the same through @playwright/mcp
// driving /usr/bin/chromium headless on the same pages of the same demo
// shop; and the size in bytes of each snapshot, full (the default of host
// mcp and Playwright MCP's only kind) and interactive (the agent API's
// default). It reports the median and p95 (nearest rank) of each
// (docs/mcp.md, Measured beside Playwright MCP). The doors are measured one
// after the other (one actor per tab), so a slow spell of the machine
// hits one more than the others: run it more than once. It is a
// measurement, run by hand:
//
//	TRAILPIN_BENCH_ATTACHED=10 go test ./e2e -run TestAttachedLatencyBesidePlaywrightMCP -v -count=1 -timeout 20m
//
// The value is the number of samples per measure, after one warm-up
// sample that is not counted.
func TestAttachedLatencyBesidePlaywrightMCP(t *testing.T) {
	runs, err := strconv.Atoi(os.Getenv("TRAILPIN_BENCH_ATTACHED"))
	if err != nil || runs < 1 {
		t.Skip("a measurement run by hand: set TRAILPIN_BENCH_ATTACHED to the number of samples per measure")
	}
	playwright, err := filepath.Abs(filepath.Join("..", "node_modules", "@playwright", "mcp", "cli.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(playwright); err != nil {
		t.Fatalf("Playwright MCP is not installed (npm ci): %v", err)
	}
	const apiName, mcpName = "bench api agent", "bench-mcp-agent"
	got := latencySamples{}

	runtimeDir := TempDir(t)
	r := newRecordingRig(t, "XDG_RUNTIME_DIR="+runtimeDir)
	app := r.b.OpenTab(t, r.shop.URL+"/login")
	r.app = app
	popup := r.openPopupFor(t, r.shop.URL+"/login")
	waitDiscovery(t, runtimeDir)

	// The agent API: allowed and shared, it records; the person signs in.
	c := dialAgentAPIAs(t, runtimeDir, apiName)
	if err := apiCallErr(c, agentapi.TypeTabsList, nil); err == nil {
		t.Fatal("tabs.list was answered before the person allowed the client")
	}
	popupAgentButton(t, popup, "asking", apiName, "Allow")
	WaitFor[bool](t, popup, popupLists("allowed", apiName))
	shareTab(t, popup)
	tab := apiCall[struct{ Tabs []agentapi.TabInfo }](t, c, agentapi.TypeTabsList, nil).Tabs[0].Tab
	apiCall[struct{ Session string }](t, c, agentapi.TypeRecordingStart, map[string]any{"tab": tab, "project": r.project, "app": "shop"})
	popupPhase(t, popup, "recording")
	signInByHand(t, app)

	for _, p := range latencyPages {
		apiCall[struct{ Did string }](t, c, agentapi.TypeTabNavigate, map[string]any{"tab": tab, "url": r.shop.URL + p.path})
		for i := 0; i <= runs; i++ {
			door := "agent API"
			if i == 0 {
				door = "warm-up"
			}
			var snap apiSnapshot
			got.time(door, "snapshot "+p.name, func() {
				snap = apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab})
			})
			got.add(door, "bytes interactive "+p.name, float64(len(snap.Text)))
			if i == 1 {
				full := apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab, "mode": "full"})
				got.add(door, "bytes full "+p.name, float64(len(full.Text)))
			}
			ref := apiRefOf(t, snap, p.click)
			got.time(door, "click "+p.name, func() {
				apiCall[struct{ Did string }](t, c, agentapi.TypeTabTap, map[string]any{"tab": tab, "ref": ref})
			})
		}
	}
	c.Close()
	WaitFor[bool](t, popup, "!"+popupLists("driven", apiName))

	// host mcp, attached: the same tab, still recorded.
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	home := TempDir(t)
	cmd := exec.Command(HostPath(t), "mcp")
	cmd.Dir = r.project
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_RUNTIME_DIR=" + runtimeDir,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share")}
	hostMCP := connectMCP(ctx, t, mcpName, cmd)
	if _, failed := hostMCP.call(t, "browser_snapshot", nil); !failed {
		t.Fatal("browser_snapshot was answered before the person allowed the MCP client")
	}
	popupAgentButton(t, popup, "asking", mcpName, "Allow")
	WaitFor[bool](t, popup, popupLists("allowed", mcpName))
	hostMCP.measure(t, got, "host mcp (attached)", r.shop.URL, "ref", runs)

	// Playwright MCP on its own headless Chromium, signed in the same way.
	chrome, err := browser.FindChrome()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{playwright, "--headless", "--isolated", "--executable-path", chrome, "--output-dir", TempDir(t)}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	pw := connectMCP(ctx, t, "bench-playwright", exec.Command("node", args...))
	pw.must(t, "browser_navigate", map[string]any{"url": r.shop.URL + "/login"})
	login := pw.must(t, "browser_snapshot", nil)
	pw.must(t, "browser_type", map[string]any{"element": "Username", "target": mcpRef(t, login, `textbox "Username"`), "text": demo.Username})
	pw.must(t, "browser_type", map[string]any{"element": "Password", "target": mcpRef(t, login, `textbox "Password"`), "text": demo.Password})
	pw.must(t, "browser_click", map[string]any{"element": "Sign in", "target": mcpRef(t, login, `button "Sign in"`)})
	pw.measure(t, got, "playwright-mcp", r.shop.URL, "target", runs)

	reportLatency(t, got, runs)
}

// measure times a snapshot and a click on each page, runs times after a
// warm-up; refArg names the element's ref argument of the server's
// browser_click.
func (s *mcpSession) measure(t *testing.T, got latencySamples, door, base, refArg string, runs int) {
	t.Helper()
	for _, p := range latencyPages {
		s.must(t, "browser_navigate", map[string]any{"url": base + p.path})
		for i := 0; i <= runs; i++ {
			d := door
			if i == 0 {
				d = "warm-up"
			}
			var snap string
			got.time(d, "snapshot "+p.name, func() { snap = s.must(t, "browser_snapshot", nil) })
			// host mcp's browser_snapshot is the full tree by default, as
			// Playwright MCP's (which has no other); host mcp's interactive
			// one is measured once.
			got.add(d, "bytes full "+p.name, float64(len(snap)))
			if i == 1 && refArg == "ref" {
				got.add(d, "bytes interactive "+p.name, float64(len(s.must(t, "browser_snapshot", map[string]any{"interactive": true}))))
			}
			ref := mcpRef(t, snap, p.click)
			got.time(d, "click "+p.name, func() {
				s.must(t, "browser_click", map[string]any{"element": p.element, refArg: ref})
			})
		}
	}
}

// mcpRef is the ref of the first element whose snapshot line holds line.
func mcpRef(t *testing.T, snapshot, line string) string {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(line) + `[^\n]*\[ref=([A-Za-z0-9_-]+)\]`).FindStringSubmatch(snapshot)
	if m == nil {
		t.Fatalf("the snapshot has no %s with a ref:\n%.3000s", line, snapshot)
	}
	return m[1]
}

func reportLatency(t *testing.T, got latencySamples, runs int) {
	doors := []string{"agent API", "host mcp (attached)", "playwright-mcp"}
	var b strings.Builder
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(&b, "%d samples per measure after a warm-up; load average now: %s\n", runs, strings.TrimSpace(string(load)))
	tw := tabwriter.NewWriter(&b, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "measure\t")
	for _, d := range doors {
		fmt.Fprintf(tw, "%s median\tp95\tmin\tmax\t", d)
	}
	fmt.Fprintln(tw, "API/PW\tMCP/PW\t")
	for _, p := range latencyPages {
		for _, m := range []string{"snapshot ", "click ", "bytes full ", "bytes interactive "} {
			key := m + p.name
			fmt.Fprintf(tw, "%s\t", key)
			var meds []float64
			for _, d := range doors {
				vs := got[d][key]
				if len(vs) == 0 {
					fmt.Fprint(tw, "-\t-\t-\t-\t")
					meds = append(meds, 0)
					continue
				}
				med := percentile(vs, 50)
				meds = append(meds, med)
				fmt.Fprintf(tw, "%.0f\t%.0f\t%.0f\t%.0f\t", med, percentile(vs, 95), slices.Min(vs), slices.Max(vs))
			}
			pw := meds[2]
			if pwFull := got["playwright-mcp"]["bytes full "+p.name]; m == "bytes interactive " && len(pwFull) > 0 {
				pw = percentile(pwFull, 50) // Playwright MCP's one snapshot
			}
			for _, med := range meds[:2] {
				if pw > 0 {
					fmt.Fprintf(tw, "%.2f\t", med/pw)
				} else {
					fmt.Fprint(tw, "-\t")
				}
			}
			fmt.Fprintln(tw)
		}
	}
	tw.Flush()
	t.Log("\n" + b.String())
}

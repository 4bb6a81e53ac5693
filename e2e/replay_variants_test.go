package e2e

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/report"
)

// TestReplayVariants replays the hand-written trails (and, for a changed
// price, the example trail host demo replays) against mutated
// variants of the demo shop through the host binary, and checks that each
// failure gets its class, and that its trace page names the cause.
func TestReplayVariants(t *testing.T) {
	browsertest.Need(t)
	t.Parallel()
	tests := []struct {
		variant string
		trail   string
		// demoTrail takes the trail from the example trails `host demo`
		// replays (host/demo/trails) instead of the hand-written ones.
		demoTrail bool
		// noSecret runs without the demo password.
		noSecret bool
		class    string
		// trace lists what the trace page must say about the cause.
		trace []string
		// status is what the ASSERTION_FAILED line must hold.
		status string
	}{
		{
			variant: demo.PriceChanged, trail: "buy-two-iphone-items-with-a-discount.trail.yaml", class: "app-bug",
			trace:  []string{"- Expected: `$763.20`", "- Actual: `$790.20`", "Step 8: The total shows 10% off"},
			status: `app-bug: assertVisible {text: "$763.20", testId: order-total}: expected "$763.20", but {testId: order-total} shows "$790.20"`,
		},
		{
			// host demo's own trail pins the total by its text alone.
			variant: demo.PriceChanged, trail: "buy-two-iphone-items-with-a-discount.trail.yaml", demoTrail: true, class: "app-bug",
			trace: []string{"- Expected: `$763.20`", "- Actual: `$790.20`", `shows "$790.20" in its place (the same text with other numbers)`,
				"Step 10: The discount takes 10% off the total"},
			status: `app-bug: assertVisible {text: "$763.20"}: expected "$763.20", but definition `,
		},
		{
			variant: demo.ControlRemoved, trail: "buy-two-iphone-items-with-a-discount.trail.yaml", class: "selector-drift",
			trace: []string{"no visible element matches {role: button, name: Apply}", "Nodes closest to what the selector asked for:",
				"| 1 | ", `name is "About discount codes", not "Apply"`},
			status: "selector-drift: tap {role: button, name: Apply}: no visible element matches {role: button, name: Apply}",
		},
		{
			variant: demo.ServerError, trail: "buy-two-iphone-items-with-a-discount.trail.yaml", class: "env-issue",
			trace:  []string{"(/checkout answered 500)", "GET /checkout answered 500 Internal Server Error"},
			status: "env-issue: ",
		},
		{
			variant: demo.Unauthorized, trail: "sign-in.trail.yaml", class: "auth-blocked",
			trace:  []string{"(/products answered 401)", "GET /products answered 401 Unauthorized"},
			status: "auth-blocked: ",
		},
		{
			variant: demo.LoginRedirect, trail: "sign-in.trail.yaml", class: "auth-blocked",
			trace:  []string{"/login?expired=1&next=%2Fproducts", "- Expected: `/products`"},
			status: "auth-blocked: ",
		},
		{
			variant: demo.DuplicateButtons, trail: "buy-two-iphone-items-with-a-discount.trail.yaml", class: "selector-drift",
			trace:  []string{"is ambiguous: 2 visible elements match", "nothing was clicked or typed", "Replay stopped: `ambiguous` after 2 of 3 recorded actions"},
			status: "selector-drift: tap {role: button, name: \"Add to cart\"",
		},
		{
			variant: "missing secret", trail: "sign-in.trail.yaml", noSecret: true, class: "missing-test-data",
			trace:  []string{"TRAILPIN_SECRET_DEMO_PASSWORD"},
			status: "missing-test-data: ",
		},
	}
	// The runs mostly wait out the action timeout, so they go on at once
	// (a few at a time: each starts a Chromium) rather than as parallel
	// subtests, which share the package's two slots with every other
	// test. The subtests then check what each run left.
	type variantRun struct {
		run            HostRun
		results, junit string
		mu             sync.Mutex
		requests       []string
	}
	runs := make([]*variantRun, len(tests))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, tc := range tests {
		vr := &variantRun{results: filepath.Join(TempDir(t), "results"), junit: filepath.Join(TempDir(t), "junit.xml")}
		runs[i] = vr
		variant := tc.variant
		if tc.noSecret {
			variant = demo.Normal
		}
		shop := httptest.NewServer(demo.New(demo.Options{Variant: variant, Logf: func(format string, args ...any) {
			vr.mu.Lock()
			vr.requests = append(vr.requests, strings.TrimSpace(fmt.Sprintf(format, args...)))
			vr.mu.Unlock()
		}}))
		t.Cleanup(shop.Close)
		env, cfg := append(replayEnv(t, !tc.noSecret), "CI=true"), projectConfig(t, shop.URL)
		file := trailFile(tc.trail)
		if tc.demoTrail {
			file = filepath.Join(RepoRoot(), "host", "demo", demo.TrailsDir, tc.trail)
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			vr.run = RunHost(t, env, nil, "replay", "--config", cfg,
				"--format", "status", "--results", vr.results, "--junit", vr.junit, file)
		})
	}
	wg.Wait()
	for i, tc := range tests {
		name := tc.variant
		if tc.demoTrail {
			name += " with host demo's trail"
		}
		t.Run(name, func(t *testing.T) {
			vr := runs[i]
			run, results, junitFile := vr.run, vr.results, vr.junit
			vr.mu.Lock()
			requests := vr.requests
			vr.mu.Unlock()
			out := string(run.Stdout)
			if run.ExitCode != 1 {
				t.Fatalf("host replay against %s exited %d, want 1:\n%s\n%s", tc.variant, run.ExitCode, out, run.Stderr)
			}
			slug := strings.TrimSuffix(tc.trail, ".trail.yaml")
			var failed string
			for line := range strings.SplitSeq(out, "\n") {
				if strings.HasPrefix(line, "ASSERTION_FAILED|"+slug+"-") {
					failed = line
				}
			}
			if failed == "" || !strings.Contains(unescape(t, failed), tc.status) {
				t.Errorf("the status lines say %q, want an ASSERTION_FAILED line with %q:\n%s", failed, tc.status, out)
			}
			// No model is configured: a recording the agent could have
			// healed says how to configure one; an app's wrong answer or a
			// missing secret does not.
			switch hint := strings.Contains(string(run.Stderr), replay.ModelHint); tc.class {
			case "selector-drift":
				if !hint {
					t.Errorf("a stale recording without a model does not say how to configure one:\n%s", run.Stderr)
				}
			case "app-bug", "missing-test-data":
				if hint {
					t.Errorf("a %s failure offers the agent:\n%s", tc.class, run.Stderr)
				}
			}
			if !strings.Contains(string(run.Stderr), "class:    "+tc.class) {
				t.Errorf("the summary does not give the class %s:\n%s", tc.class, run.Stderr)
			}
			page, err := os.ReadFile(report.TracePath(results, slug))
			if err != nil {
				t.Fatalf("no trace page for the failed trail: %v", err)
			}
			if want := "- Class: `" + tc.class + "`"; !strings.Contains(string(page), want) {
				t.Errorf("the trace page lacks %q", want)
			}
			for _, want := range tc.trace {
				if !strings.Contains(string(page), want) {
					t.Errorf("the trace page lacks %q:\n%s", want, page)
				}
			}
			if strings.Contains(string(page)+out+string(run.Stderr), demo.Password) {
				t.Errorf("the password reached the trace page or the output")
			}
			suites := readJUnit(t, junitFile)
			if c := suites[0].Tests[0]; c.Status != "failed" || c.Error == nil || !strings.Contains(c.Error.Error(), tc.class) {
				t.Errorf("JUnit test case %+v, want a failure of type %s", c, tc.class)
			}
			if tc.variant == demo.DuplicateButtons {
				// Ambiguity clicks nothing: no Add to cart reached the shop.
				if !slices.ContainsFunc(requests, func(r string) bool { return strings.HasPrefix(r, "POST /login ") }) {
					t.Fatalf("the shop's log misses the sign-in, so it cannot show a click: %q", requests)
				}
				for _, r := range requests {
					if strings.HasPrefix(r, "POST /cart") {
						t.Errorf("an ambiguous tap reached the shop: %s", r)
					}
				}
			}
		})
	}
}

// unescape undoes the escapes of a status line's last field.
func unescape(t *testing.T, line string) string {
	t.Helper()
	_, fields, err := report.ParseStatusLine(line)
	if err != nil {
		t.Fatalf("status line %q: %v", line, err)
	}
	return strings.Join(fields, "|")
}

package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage"
)

// The engine's tests replay the hand-written trails of testdata/trails
// against the demo shop (host/demo) in the shared headless browser, each
// trail in a fresh browser context, and against the shop's variants, whose
// failures must come out with the class, stop reason and evidence that
// FLOWS.md says.

// engineRuns bounds how many trails replay at once in the shared browser:
// enough to overlap the waits, few enough for a loaded 2-core machine.
const engineRuns = 4

var engineSlots = make(chan struct{}, engineRuns)

// failingActionTimeout is the action timeout of runs that are expected to
// fail: every step before the failing one has it in full, so a slow machine
// cannot fail an earlier step, and the failing step costs it once.
const failingActionTimeout = 5 * time.Second

func trailsDir() string { return filepath.Join("testdata", "trails") }

func loadTestTrail(t *testing.T, file string) *trail.Trail {
	t.Helper()
	tr, err := storage.LoadTrailFile(filepath.Join(trailsDir(), file))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// demoPassword fills in the demo account's password and nothing else.
func demoPassword(ref trail.Ref) (string, error) {
	if ref.Kind == trail.RefSecret && ref.Name == "demo-password" {
		return demo.Password, nil
	}
	return "", &MissingValueError{Ref: ref, Variable: EnvVariable(ref)}
}

func testBrowser(t *testing.T) *browser.Browser {
	t.Helper()
	browsertest.Need(t)
	b, err := browser.FromContext(browserCtx)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// shop is a demo shop on loopback that remembers its request log.
type shop struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []string
}

func startShop(t testing.TB, variant string) *shop {
	t.Helper()
	s := &shop{}
	s.Server = httptest.NewServer(demo.New(demo.Options{Variant: variant, Logf: func(format string, args ...any) {
		s.mu.Lock()
		s.reqs = append(s.reqs, fmt.Sprintf(format, args...))
		s.mu.Unlock()
	}}))
	t.Cleanup(s.Close)
	return s
}

// requests returns the logged requests that start with prefix.
func (s *shop) requests(prefix string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range s.reqs {
		if strings.HasPrefix(r, prefix) {
			out = append(out, r)
		}
	}
	return out
}

// replayOn replays tr against base with the demo password, one of
// engineRuns at a time.
func replayOn(t *testing.T, tr *trail.Trail, base string, opts Options) *TrailResult {
	t.Helper()
	engineSlots <- struct{}{}
	defer func() { <-engineSlots }()
	opts.BaseURL = base
	if opts.Lookup == nil {
		opts.Lookup = demoPassword
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return RunTrail(ctx, testBrowser(t), tr, opts)
}

// explain writes a failed result for a test log.
func explain(res *TrailResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s %s line %d: %s", res.Slug, res.Status, res.Class, res.Line, res.Error)
	for _, s := range res.Steps {
		if s.Status == StatusFailed {
			fmt.Fprintf(&b, "\n  step %d %q stopped %s after %d actions", s.Index, s.Intent, s.Stopped, s.Performed)
			for _, a := range s.Actions {
				if a.Status == StatusFailed {
					fmt.Fprintf(&b, "\n    %s line %d: %s; read %q", a.Kind, a.Line, a.Error, a.Reads)
				}
			}
		}
	}
	for _, l := range res.Log {
		if l.Kind != LogNavigation {
			fmt.Fprintf(&b, "\n  log step %d %s %s: %s", l.Step, l.Kind, l.Level, l.Text)
		}
	}
	if res.Failure != nil {
		fmt.Fprintf(&b, "\n  at %s", res.Failure.URL)
	}
	return b.String()
}

// TestReplayDemoFlows replays every hand-written trail against the normal
// shop and against the variants that change nothing a trail checks.
func TestReplayDemoFlows(t *testing.T) {
	files, err := storage.TrailFilesIn(trailsDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("testdata/trails holds %d trails, want the five flows of FLOWS.md", len(files))
	}
	for _, variant := range []string{demo.Normal, demo.CopyChanged, demo.IDsChurned, demo.Reordered} {
		name := variant
		if name == "" {
			name = "normal"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			shop := startShop(t, variant)
			for _, f := range files {
				file := filepath.Base(f)
				// The big page has no variants; once is enough.
				if file == "big-page.trail.yaml" && variant != demo.Normal {
					continue
				}
				t.Run(strings.TrimSuffix(file, trail.TrailFileExt), func(t *testing.T) {
					t.Parallel()
					tr := loadTestTrail(t, file)
					// The big page is the benchmarks' (BenchmarkReplayActionBigPage);
					// here a smaller one keeps the test quick on a busy machine.
					res := replayOn(t, tr, shop.URL, Options{Params: map[string]string{"elements": "2000"}})
					if res.Status != StatusPassed {
						t.Fatalf("RunTrail(%s) on the %s shop: %s", file, name, explain(res))
					}
					checkPassed(t, tr, res)
				})
			}
		})
	}
}

// checkPassed checks what every passing result reports.
func checkPassed(t *testing.T, tr *trail.Trail, res *TrailResult) {
	t.Helper()
	if res.Class != "" || res.Failure != nil || res.Error != "" {
		t.Errorf("a passed trail has class %q, error %q, failure %v", res.Class, res.Error, res.Failure != nil)
	}
	if len(res.Steps) != len(tr.Steps) {
		t.Fatalf("%d step results for %d steps", len(res.Steps), len(tr.Steps))
	}
	last := res.Steps[len(res.Steps)-1]
	if last.Aria == "" {
		t.Errorf("the last step has no ARIA snapshot")
	}
	for i, s := range res.Steps {
		if s.Status != StatusPassed || s.Stopped != "" || s.Performed != len(tr.Steps[i].Actions) || s.Cache != CacheHit {
			t.Errorf("step %d: status %s, stopped %q, performed %d of %d, cache %q", s.Index, s.Status, s.Stopped, s.Performed, len(tr.Steps[i].Actions), s.Cache)
		}
		if s.Path == "" || !strings.HasPrefix(s.Path, "/") {
			t.Errorf("step %d started on path %q, want a path of the app", s.Index, s.Path)
		}
		for _, a := range s.Actions {
			if a.Status != StatusPassed || a.Summary == "" {
				t.Errorf("step %d %s line %d: status %s, summary %q", s.Index, a.Kind, a.Line, a.Status, a.Summary)
			}
			if targetsNode(a.Kind) && a.Landed == "" {
				t.Errorf("step %d %s line %d landed on no node", s.Index, a.Kind, a.Line)
			}
		}
	}
}

// targetsNode reports whether actions of a kind act on or read one node.
func targetsNode(k trail.ActionKind) bool {
	switch k {
	case trail.ActionTap, trail.ActionType, trail.ActionSelect, trail.ActionCheck, trail.ActionUncheck,
		trail.ActionHover, trail.ActionUpload, trail.ActionAssertVisible, trail.ActionAssertValue, trail.ActionAssertState:
		return true
	}
	return false
}

// TestReplayDemoVariants replays trails against the variants that break
// them and checks that each failure names its cause.
func TestReplayDemoVariants(t *testing.T) {
	tests := []struct {
		variant, file string
		class         FailureClass
		stop          StopReason
		step          int // 1-based failing step
		performed     int
		check         func(t *testing.T, res *TrailResult, s *shop)
	}{
		{demo.PriceChanged, "full-shopping-journey.trail.yaml", ClassAppBug, StopAssertionFailed, 7, 3,
			func(t *testing.T, res *TrailResult, _ *shop) {
				if res.Expected != "$799.00" || res.Actual != "$829.00" {
					t.Errorf("expected %q vs actual %q, want $799.00 vs $829.00", res.Expected, res.Actual)
				}
				a := res.Steps[6].Actions[3]
				if !contains(a.Reads, `{testId: price} shows "$829.00"`) {
					t.Errorf("the assertion read %q, want what the price showed while it waited", a.Reads)
				}
			}},
		{demo.PriceChanged, "buy-two-iphone-items-with-a-discount.trail.yaml", ClassAppBug, StopAssertionFailed, 8, 1,
			func(t *testing.T, res *TrailResult, _ *shop) {
				if res.Expected != "$763.20" || res.Actual != "$790.20" {
					t.Errorf("expected %q vs actual %q, want $763.20 vs $790.20 (FLOWS.md)", res.Expected, res.Actual)
				}
			}},
		{demo.ControlRemoved, "buy-two-iphone-items-with-a-discount.trail.yaml", ClassSelectorDrift, StopTargetNotFound, 7, 2,
			func(t *testing.T, res *TrailResult, _ *shop) {
				closest := res.Failure.Closest
				if len(closest) == 0 {
					t.Fatalf("no closest nodes for the missing Apply button")
				}
				for _, c := range closest {
					if c.Line == "" || c.Why == "" || c.Score <= 0 || c.Score > 1 {
						t.Errorf("closest node %+v lacks a line, a why or a score in (0, 1]", c)
					}
				}
				if !strings.Contains(closest[0].Line, "- button ") {
					t.Errorf("closest[0] = %q, want a button first for {role: button, name: Apply}", closest[0].Line)
				}
				field := false
				for _, c := range closest {
					field = field || strings.Contains(c.Line, `textbox "Discount code"`)
				}
				if !field {
					t.Errorf("closest nodes %+v leave out the Discount code field, which the step typed into just before", closest)
				}
				if !strings.Contains(res.Error, "{role: button, name: Apply}") {
					t.Errorf("error %q does not name the selector", res.Error)
				}
			}},
		{demo.ServerError, "buy-two-iphone-items-with-a-discount.trail.yaml", ClassEnvIssue, StopEndMismatch, 6, 2,
			func(t *testing.T, res *TrailResult, _ *shop) {
				if !hasLog(res, LogRequest, "500", "/checkout") {
					t.Errorf("the log does not show the checkout's 500: %v", res.Log)
				}
			}},
		{demo.Unauthorized, "sign-in.trail.yaml", ClassAuthBlocked, StopEndMismatch, 1, 4,
			func(t *testing.T, res *TrailResult, _ *shop) {
				if !hasLog(res, LogRequest, "401", "/products") {
					t.Errorf("the log does not show the 401 of /products: %v", res.Log)
				}
			}},
		{demo.Unauthorized, "buy-two-iphone-items-with-a-discount.trail.yaml", ClassAuthBlocked, StopEndMismatch, 1, 3, nil},
		{demo.LoginRedirect, "sign-in.trail.yaml", ClassAuthBlocked, StopEndMismatch, 1, 4,
			func(t *testing.T, res *TrailResult, _ *shop) {
				if res.Expected != "/products" || !strings.HasPrefix(res.Actual, "/login?") || !strings.Contains(res.Actual, "expired=1") {
					t.Errorf("expected %q vs actual %q, want /products vs the login page", res.Expected, res.Actual)
				}
			}},
		{demo.DuplicateButtons, "buy-two-iphone-items-with-a-discount.trail.yaml", ClassSelectorDrift, StopAmbiguous, 3, 2,
			func(t *testing.T, res *TrailResult, s *shop) {
				if got := s.requests("POST /cart/add"); len(got) != 0 {
					t.Errorf("an ambiguous tap clicked: the shop got %q", got)
				}
				if !strings.Contains(res.Failure.Snapshot, `link "Cart 0 items"`) {
					t.Errorf("the cart is not empty at failure:\n%s", res.Failure.Snapshot)
				}
				if !strings.Contains(res.Error, "2 visible elements match") {
					t.Errorf("error %q does not say how many matched", res.Error)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.variant+"/"+strings.TrimSuffix(tc.file, trail.TrailFileExt), func(t *testing.T) {
			t.Parallel()
			s := startShop(t, tc.variant)
			tr := loadTestTrail(t, tc.file)
			res := replayOn(t, tr, s.URL, Options{ActionTimeout: failingActionTimeout})
			t.Log(explain(res))
			if res.Status != StatusFailed || res.Class != tc.class {
				t.Fatalf("RunTrail on %s: status %s, class %q; want failed, %q", tc.variant, res.Status, res.Class, tc.class)
			}
			st := res.Steps[tc.step-1]
			if st.Status != StatusFailed || st.Stopped != tc.stop || st.Performed != tc.performed {
				t.Errorf("step %d: status %s, stopped %q after %d actions; want failed, %q after %d",
					tc.step, st.Status, st.Stopped, st.Performed, tc.stop, tc.performed)
			}
			for _, later := range res.Steps[tc.step:] {
				if later.Status != StatusSkipped {
					t.Errorf("step %d after the failure: status %s, want skipped", later.Index, later.Status)
				}
			}
			if res.Line == 0 || res.Error == "" {
				t.Errorf("the failure names no line (%d) or error (%q)", res.Line, res.Error)
			}
			f := res.Failure
			if f == nil || f.URL == "" || f.Snapshot == "" || len(f.Screenshot) == 0 {
				t.Fatalf("the screen at failure is incomplete: %+v", f)
			}
			if tc.check != nil {
				tc.check(t, res, s)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func hasLog(res *TrailResult, kind LogKind, level, text string) bool {
	for _, l := range res.Log {
		if l.Kind == kind && l.Level == level && strings.Contains(l.Text, text) {
			return true
		}
	}
	return false
}

// TestReplayMissingSecret: a secret without a value fails the trail before
// it starts, as missing test data naming the variable to set.
func TestReplayMissingSecret(t *testing.T) {
	t.Parallel()
	tr := loadTestTrail(t, "sign-in.trail.yaml")
	res := replayOn(t, tr, "http://127.0.0.1:1", Options{Lookup: EnvLookup(func(string) string { return "" })})
	if res.Status != StatusFailed || res.Class != ClassMissingTestData || res.Missing != "TRAILPIN_SECRET_DEMO_PASSWORD" {
		t.Fatalf("RunTrail without the password: %s (missing %q)", explain(res), res.Missing)
	}
	if !strings.Contains(res.Error, "TRAILPIN_SECRET_DEMO_PASSWORD") {
		t.Errorf("error %q does not name the variable to set", res.Error)
	}
	if res.Line != tr.Steps[0].Actions[1].SourceLine() {
		t.Errorf("line %d, want %d (the type of the password)", res.Line, tr.Steps[0].Actions[1].SourceLine())
	}
	if s := res.Steps[0]; s.Status != StatusFailed || s.Stopped != StopMissingData || s.Performed != 0 {
		t.Errorf("step 1: %s, stopped %q after %d", s.Status, s.Stopped, s.Performed)
	}
}

// TestReplaySecretNeverInResult replays trails that type the password and
// searches the whole result for it and every prefix of it longer than three
// characters.
func TestReplaySecretNeverInResult(t *testing.T) {
	t.Parallel()
	s := startShop(t, demo.Normal)
	for _, file := range []string{"sign-in.trail.yaml", "buy-two-iphone-items-with-a-discount.trail.yaml"} {
		res := replayOn(t, loadTestTrail(t, file), s.URL, Options{})
		if res.Status != StatusPassed {
			t.Fatalf("%s", explain(res))
		}
		checkNoSecret(t, res, demo.Password)
	}
}

// checkNoSecret fails when res, as JSON, holds secret or a prefix of it
// longer than three characters.
func checkNoSecret(t *testing.T, res *TrailResult, secret string) {
	t.Helper()
	shot := []byte(nil)
	if res.Failure != nil {
		shot, res.Failure.Screenshot = res.Failure.Screenshot, nil
		defer func() { res.Failure.Screenshot = shot }()
	}
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for n := len(secret); n > 3; n-- {
		if strings.Contains(string(out), secret[:n]) {
			t.Fatalf("the result holds %q, a prefix of the secret", secret[:n])
		}
	}
}

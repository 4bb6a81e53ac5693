package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage/secrets"
)

// The real-app tests: for each app of the corpus, the flow is recorded once
// through the real extension, and the recorded trail is replayed headless
// with `host replay` on the unchanged app (green), on the churned copy
// (green; Playwright first drives the same flow on both copies and sees
// the same page after every action), and on one value variant per value
// assertion (failed at that assertion, app-bug, expected vs actual).
//
// The flow is also recorded at a machine's pace (machine-pace: no wait
// between one action and the next), which must give the same trail file.
//
// TRAILPIN_REALAPPS_REPEAT=N (scripts/realapps-repeat) also records the flow
// N-1 more times, at both paces in turn, each of which must give the same
// trail file, and replays the trail N times on the unchanged app, each of
// which must pass.
//
// TRAILPIN_REALAPPS_KEEP=DIR keeps each recorded trail as DIR/<app>.trail.yaml
// (scripts/realapps-repeat records and replays them ten times).

// A realAppResult counts what one app's run showed.
type realAppResult struct {
	actions, steps, acts, indexes int
	passed, failed                int
}

// recordRealApp records the flow on srv and returns the saved trail.
func recordRealApp(t *testing.T, a *realApp, srvURL string, flow []flowAct) *pageRecording {
	t.Helper()
	return recordRealAppAt(t, a, srvURL, flow, personPace)
}

// recordRealAppAt is recordRealApp with the flow driven at a person's or a
// machine's pace.
func recordRealAppAt(t *testing.T, a *realApp, srvURL string, flow []flowAct, at pace) *pageRecording {
	t.Helper()
	return recordRealAppDriven(t, a, srvURL, func(app context.Context) { driveFlowAt(t, app, flow, at) })
}

// recordRealAppDriven records what drive does in the app's tab (a flow, a
// random walk) through the real extension and returns the saved trail.
func recordRealAppDriven(t *testing.T, a *realApp, srvURL string, drive func(app context.Context)) *pageRecording {
	t.Helper()
	r := &recordingRig{project: TempDir(t), wire: TempDir(t)}
	if err := os.WriteFile(filepath.Join(r.project, "trailpin.yaml"), []byte("trails:\n  dir: trails\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"TZ=UTC", "LANG=en_US.UTF-8", "LANGUAGE=en_US"}
	if keep := os.Getenv("TRAILPIN_REVIEW_RECORD"); keep != "" {
		// The recording's database is kept, for the review's dataset
		// (TestRecordReviewDataset).
		env = append(env, "TRAILPIN_DB="+filepath.Join(keep, a.name+".db"))
	}
	r.b = StartBrowser(t, Options{HostPath: teeHost(t, r.wire), Env: env})
	app := r.b.OpenTab(t, srvURL+a.start)
	r.app = app
	if err := chromedp.Do(app, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatal(err)
	}
	popup := r.openPopupFor(t, srvURL)
	clickCSS(t, popup, "#record")
	popupPhase(t, popup, "recording")
	WaitFor[bool](t, popup, `!document.querySelector('#project-form').hidden`)
	fill(t, popup, "#project-dir", r.project)
	clickCSS(t, popup, "#project-form button[type=submit]")
	WaitFor[bool](t, popup, `!document.querySelector('#app-form').hidden`)
	fill(t, popup, "#app-name", a.name)
	clickCSS(t, popup, "#app-form button[type=submit]")
	WaitFor[bool](t, popup, fmt.Sprintf(`document.querySelector('#rec-app').textContent.startsWith(%q)`, a.name+" "))
	waitAcrossLoads(t, app, `document.readyState === 'complete'`)
	waitAX(t, app, "toolbar", "Trailpin recording")

	drive(app)

	clickCSS(t, popup, "#stop")
	popupPhase(t, popup, "stopped")
	notes := Eval[string](t, popup, `document.querySelector('#notes').textContent`)
	fill(t, popup, "#trail-title", a.name+" flow")
	pressSave(t, popup)
	clickCSS(t, popup, "#export")
	path := WaitFor[string](t, popup, `(document.querySelector('#exported').textContent.match(/^Exported to (\S+)/) || [])[1]`)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trail.LoadTrail(path, src)
	if err != nil {
		t.Fatalf("the exported trail does not load: %v\n%s", err, src)
	}
	if keep := os.Getenv("TRAILPIN_REALAPPS_KEEP"); keep != "" {
		if err := os.WriteFile(filepath.Join(keep, a.name+".trail.yaml"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &pageRecording{rig: r, site: srvURL, path: path, yaml: src, trail: tr, notes: notes}
}

// countIndexes counts the selectors of a trail (actions and end states,
// scopes included) that fall back to an index.
func countIndexes(tr *trail.Trail) int {
	n := 0
	var walk func(s *selector.Selector)
	walk = func(s *selector.Selector) {
		for ; s != nil; s = s.Within {
			if s.Index != nil {
				n++
			}
		}
	}
	for _, st := range tr.Steps {
		for _, a := range st.Actions {
			if sel, ok := actionSelector(a); ok {
				walk(&sel)
			}
		}
		if st.End != nil {
			for i := range st.End.Shows {
				walk(&st.End.Shows[i])
			}
			for i := range st.End.Values {
				walk(&st.End.Values[i].Selector)
			}
		}
	}
	return n
}

// actionSelector is the selector an action names, if any.
func actionSelector(a trail.Action) (selector.Selector, bool) {
	switch a := a.(type) {
	case trail.Tap:
		return a.Selector, true
	case trail.TypeText:
		return a.Selector, true
	case trail.SelectOption:
		return a.Selector, true
	case trail.Check:
		return a.Selector, true
	case trail.Uncheck:
		return a.Selector, true
	case trail.Hover:
		return a.Selector, true
	case trail.Set:
		return a.Selector, true
	case trail.AssertVisible:
		return a.Selector, true
	case trail.AssertValue:
		return a.Selector, true
	case trail.AssertState:
		return a.Selector, true
	}
	return selector.Selector{}, false
}

// A valueCheck is one value assertion of a trail: its step (from 1) and the
// text or value it checks.
type valueCheck struct {
	step  int
	value string
	role  string // the checked element's role, if its selector names one
}

// valueChecks lists the trail's value assertions.
func valueChecks(tr *trail.Trail) []valueCheck {
	var out []valueCheck
	for i, st := range tr.Steps {
		for _, a := range st.Actions {
			switch a := a.(type) {
			case trail.AssertVisible:
				if v := a.Selector.Text; v != "" {
					out = append(out, valueCheck{i + 1, v, a.Selector.Role})
				} else if v := a.Selector.Name; v != "" {
					out = append(out, valueCheck{i + 1, v, a.Selector.Role})
				}
			case trail.AssertValue:
				out = append(out, valueCheck{i + 1, a.Value, a.Selector.Role})
			}
		}
	}
	return out
}

// A replayRun is a replay of a real app's trail: the host's run, the folder
// of its results and, when it failed, the start of each trace page it wrote.
type replayRun struct {
	HostRun
	results string
	traces  string
}

// replayOn replays the trail with --format status against base, with the
// app's secrets in the environment, and returns the run; when it fails, the
// run keeps the start of the trace pages, which the caller logs when the
// failure was not the one it wanted (a variant's replay fails on purpose).
// Every output of the run is searched for the secrets. The extra arguments
// go to host replay (the bench asks for --trace on).
func replayOn(t *testing.T, a *realApp, path, base string, extra ...string) replayRun {
	t.Helper()
	results := TempDir(t)
	// A real app's bundle loads in well under the default 30 s on a person's
	// machine; here each app's variants replay side by side with other tests
	// on two loaded cores, where Swagger UI's start page took longer. The
	// variants check where a replay fails and why, not how fast a page loads.
	// For the same reason a trail has 9 minutes, inside the harness's
	// RunTimeout, not the default 5: Swagger's 46 steps ran out of 5 minutes
	// at step 43 beside a load average of 40.
	// (The replay keys are read from a project's config: without one, their
	// environment variables are not consulted.)
	cfg := filepath.Join(TempDir(t), "trailpin.yaml")
	if err := os.WriteFile(cfg, []byte("replay:\n  navigationTimeout: 2m\n  trailTimeout: 9m\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(replayEnv(t, false), "CI=true")
	for name, value := range a.secrets {
		env = append(env, secrets.SecretEnv(name)+"="+value)
	}
	args := append([]string{"replay", "--config", cfg, "--base-url", base,
		"--format", "status", "--results", results}, extra...)
	run := RunHost(t, env, nil, append(args, path)...)
	for _, value := range a.secrets {
		sources := []LeakSource{LeakBytes("status lines", run.Stdout), LeakBytes("standard error", run.Stderr)}
		_ = filepath.WalkDir(results, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				sources = append(sources, LeakFile(p))
			}
			return err
		})
		CheckNoSecretLeaks(t, value, sources...)
	}
	out := replayRun{HostRun: run, results: results}
	if run.ExitCode != 0 {
		traces, _ := filepath.Glob(filepath.Join(results, "*", "trace.md"))
		for _, f := range traces {
			if page, err := os.ReadFile(f); err == nil {
				out.traces += fmt.Sprintf("trace page %s:\n%.6000s\n", filepath.Base(filepath.Dir(f)), page)
			}
		}
	}
	return out
}

// setByThePerson says whether an action before the check set the value it
// checks (an option chosen, a slider set, a text typed): it is the person's
// input, not what the app made of it.
func setByThePerson(tr *trail.Trail, vc valueCheck) bool {
	for _, st := range tr.Steps[:vc.step-1] {
		for _, a := range st.Actions {
			switch a := a.(type) {
			case trail.TypeText:
				if a.Text == vc.value {
					return true
				}
			case trail.Set:
				if a.Value == vc.value {
					return true
				}
			case trail.SelectOption:
				if slices.Contains(a.Options, vc.value) {
					return true
				}
			}
		}
	}
	return false
}

// typedByThePerson says whether value holds text the flow typed: a copy
// that changes it would change what the person did, not what the app
// shows, and earlier steps show it too.
func typedByThePerson(flow []flowAct, value string) bool {
	for _, a := range flow {
		typed := strings.TrimSpace(strings.ReplaceAll(a.Text, "\r", ""))
		if a.Do == "type" && typed != "" && (strings.Contains(value, typed) || strings.Contains(typed, value)) {
			return true
		}
	}
	return false
}

// inStatusLine says whether a status line quotes value: the line escapes
// the quotes of the message it carries, which quotes the value again
// ("\\"Bird of paradise\\"" for a value with quotes of its own), so both
// are read without their backslashes.
func inStatusLine(line, value string) bool {
	return strings.Contains(strings.ReplaceAll(line, `\`, ""), strings.ReplaceAll(value, `\`, ""))
}

// statusLine finds the first status line of kind.
func statusLine(run replayRun, kind string) string {
	for _, l := range strings.Split(string(run.Stdout), "\n") {
		if strings.HasPrefix(l, kind+"|") {
			return l
		}
	}
	return ""
}

// runRealApp records the app's flow and replays it on the app's copies.
func runRealApp(t *testing.T, a *realApp, flow []flowAct) {
	t.Helper()
	res := &realAppResult{actions: countedActions(flow)}
	srv := serveApp(t, a, serveOptions{})
	rec := recordRealApp(t, a, srv.URL, flow)
	res.steps = len(rec.trail.Steps)
	for _, st := range rec.trail.Steps {
		if st.Act != "" {
			res.acts++
		}
	}
	res.indexes = countIndexes(rec.trail)
	for name, value := range a.secrets {
		if !strings.Contains(string(rec.yaml), "${secret:"+name+"}") {
			t.Errorf("%s: the trail types no ${secret:%s}", a.name, name)
		}
		rec.rig.checkNoSecret(t, value, rec.path)
	}
	t.Logf("%s: recorded %d actions as %d steps, %d act: steps, %d index selectors", a.name, res.actions, res.steps, res.acts, res.indexes)
	// The trail and the review notes come after the errors, and only when
	// something failed: they explain a failure, and a log excerpt that
	// starts with them would hide the error itself.
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s: the recorded trail:\n%s\n--- review notes\n%s", a.name, rec.yaml, rec.notes)
		}
	})
	if res.actions < 30 {
		t.Errorf("%s: the flow has %d actions, want at least 30", a.name, res.actions)
	}
	if res.acts > 0 {
		t.Errorf("%s: the trail has %d act: steps (actions the recorder did not record)", a.name, res.acts)
	}
	// An index is recorded only where the page offers nothing else: each
	// one is checked against the screens it was recorded on.
	problems, kept := indexesWithAlternatives(t, rec)
	for _, p := range problems {
		t.Errorf("%s: an index selector where a selector without one names the element alone: %s", a.name, p)
	}
	for _, k := range kept {
		t.Logf("%s: index kept: %s", a.name, k)
	}
	generated, counted := idUses(rec.trail)
	for _, g := range generated {
		t.Errorf("%s: a generated id in a selector: %s", a.name, g)
	}
	for _, c := range counted {
		t.Logf("%s: an id that reads as a name and a counter, kept where nothing else names the element alone: %s", a.name, c)
	}
	t.Logf("%s: %d generated ids, %d counted ids", a.name, len(generated), len(counted))

	var mu sync.Mutex
	count := func(ok bool) {
		mu.Lock()
		defer mu.Unlock()
		if ok {
			res.passed++
		} else {
			res.failed++
		}
	}
	checks := valueChecks(rec.trail)
	if len(checks) == 0 {
		t.Errorf("%s: the trail has no value assertion", a.name)
	}
	slug := trail.Slug(rec.trail.Title)
	// Subtests check what each variant's run gave.
	type variantRun struct {
		name string
		vc   valueCheck
		v    *valueVariant
		run  replayRun
	}
	var runs []*variantRun
	for i, vc := range checks {
		if typedByThePerson(flow, vc.value) || setByThePerson(rec.trail, vc) {
			t.Logf("%s: step %d checks %q, which the person typed or chose: no variant", a.name, vc.step, vc.value)
			continue
		}
		v := variantFor(vc.value)
		if v == nil {
			t.Errorf("%s: no variant changes the checked value %q", a.name, vc.value)
			continue
		}
		v.only = variantRoles[vc.role]
		// A value checked twice (the status 200 of two responses) makes
		// the same copy for both checks: the first check fails on it, and
		// its run says all that the second's would.
		if j := slices.IndexFunc(runs, func(r *variantRun) bool { return *r.v == *v }); j >= 0 {
			t.Logf("%s: step %d checks %q as step %d does: the copy of %s shows it", a.name, vc.step, vc.value, runs[j].vc.step, runs[j].name)
			continue
		}
		runs = append(runs, &variantRun{name: fmt.Sprintf("variant-%d", i+1), vc: vc, v: v})
	}
	// Every browser the replays and the churn check start takes a place
	// in one pool of three, as many as the variants alone took before. The
	// variants' replays start first and run beside the unchanged and
	// churned subtests, which wait for the page far more than they compute:
	// the pool stays full, and the test no longer waits for each part in
	// turn with places free. (A checkChurnUnseen that stops the churned
	// subtest with Fatal gives its places back on the way out.)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 3)
	pooled := func(t *testing.T, base string) replayRun {
		t.Helper()
		sem <- struct{}{}
		defer func() { <-sem }()
		return replayOn(t, a, rec.path, base)
	}
	for _, vr := range runs {
		variant := serveApp(t, a, serveOptions{variant: vr.v})
		wg.Go(func() { vr.run = pooled(t, variant.URL) })
	}
	t.Run("machine-pace", func(t *testing.T) {
		// The same flow with no wait between one action and the next, as a
		// script or an agent drives a browser, on the app already served
		// (docs/recording.md, The step's boundary). It takes a place in the
		// pool while the variants replay.
		if a.paceDiffers != "" {
			t.Skipf("%s: known to differ at a machine's pace, not fixed yet: %s", a.name, a.paceDiffers)
		}
		defer func() { count(!t.Failed()) }()
		sem <- struct{}{}
		defer func() { <-sem }()
		machine := recordRealAppAt(t, a, srv.URL, flow, machinePace)
		if string(machine.yaml) != string(rec.yaml) {
			t.Errorf("%s: the flow recorded at a machine's pace gives another trail file than at a person's\n--- a person's pace\n%s\n--- a machine's pace\n%s", a.name, rec.yaml, machine.yaml)
		}
	})
	t.Run("unchanged", func(t *testing.T) {
		defer func() { count(!t.Failed()) }()
		run := pooled(t, srv.URL)
		ok := run.ExitCode == 0 && strings.HasPrefix(statusLine(run, "RUN_COMPLETED"), "RUN_COMPLETED|passed|")
		if !ok {
			t.Errorf("%s: the recorded trail failed on the unchanged app (exit %d):\n%s\n%s\n%s", a.name, run.ExitCode, run.Stdout, run.Stderr, run.traces)
		}
	})
	t.Run("churned", func(t *testing.T) {
		// Counted however it ends: the churn check stops the subtest with
		// Fatal when the copies differ.
		defer func() { count(!t.Failed()) }()
		churned := serveApp(t, a, serveOptions{churn: true})
		// The churn check's two Playwright runs start a browser each: they
		// take two places in the pool while they run.
		func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			sem <- struct{}{}
			defer func() { <-sem }()
			checkChurnUnseen(t, a, flow, srv.URL, churned.URL)
		}()
		run := pooled(t, churned.URL)
		ok := run.ExitCode == 0 && strings.HasPrefix(statusLine(run, "RUN_COMPLETED"), "RUN_COMPLETED|passed|")
		if !ok {
			t.Errorf("%s: the recorded trail failed on the churned copy (exit %d):\n%s\n%s\n%s", a.name, run.ExitCode, run.Stdout, run.Stderr, run.traces)
		}
	})
	wg.Wait()
	for _, vr := range runs {
		t.Run(vr.name, func(t *testing.T) {
			vc, v, run := vr.vc, vr.v, vr.run
			failed := statusLine(run, "ASSERTION_FAILED")
			// The copy changes the value wherever it shows (of the role
			// checked): an earlier check of the same value may fail on it
			// first, and that is the check of this value that fails.
			steps := []int{vc.step}
			for _, c := range checks {
				if c.value == vc.value && c.step < vc.step {
					steps = append(steps, c.step)
				}
			}
			at := slices.IndexFunc(steps, func(step int) bool {
				return strings.HasPrefix(failed, fmt.Sprintf("ASSERTION_FAILED|%s-%d|app-bug: ", slug, step))
			})
			want := fmt.Sprintf("ASSERTION_FAILED|%s-%d|app-bug: ", slug, vc.step)
			if len(steps) > 1 {
				want = fmt.Sprintf("ASSERTION_FAILED|%s-<one of steps %v>|app-bug: ", slug, steps)
			}
			ok := run.ExitCode == 1 && at >= 0 &&
				inStatusLine(failed, vc.value) && inStatusLine(failed, strings.Replace(vc.value, v.from, v.to, 1))
			count(ok)
			if !ok {
				t.Errorf("%s: with %s, want the replay to fail at its check as app-bug with expected vs actual (%s…); it exited %d with\n  %s\n%s\n%s",
					a.name, v, want, run.ExitCode, failed, run.Stdout, run.traces)
			}
		})
	}
	if n := repeatCount(t); n > 1 {
		t.Run("repeat", func(t *testing.T) { repeatRealApp(t, a, flow, srv.URL, rec, n) })
	}
	t.Logf("REALAPP %s: %d actions, %d steps, %d act:, %d index; %d passed, %d failed",
		a.name, res.actions, res.steps, res.acts, res.indexes, res.passed, res.failed)
}

// checkChurnUnseen drives the flow with Playwright on the unchanged app and
// on the churned copy (its class selectors renamed as the churn renamed
// them) and fails unless the page reads the same after every action: the
// churn changed no text, no role, no state and no behaviour a person sees.
func checkChurnUnseen(t *testing.T, a *realApp, flow []flowAct, unchangedURL, churnedURL string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("the churn check needs node (Playwright drives the flow): %v", err)
	}
	ch := a.churn(t, a.checkInstalled(t))
	churnedFlow := make([]flowAct, len(flow))
	for i, f := range flow {
		f.CSS = ch.translate(f.CSS)
		f.Wait = ch.jsSelectors(f.Wait)
		churnedFlow[i] = f
	}
	if slicesEqualFlows(flow, churnedFlow) {
		t.Fatalf("the churn renamed no class the flow names: it would prove nothing")
	}
	var wg sync.WaitGroup
	var seen [2][]string
	var errs [2]error
	for i, run := range []struct {
		base string
		flow []flowAct
	}{{unchangedURL, flow}, {churnedURL, churnedFlow}} {
		wg.Go(func() { seen[i], errs[i] = playFlow(t, node, run.base+a.start, run.flow, a.volatile) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("Playwright could not drive the flow on the %s copy: %v", []string{"unchanged", "churned"}[i], err)
		}
	}
	for i := range seen[0] {
		if i >= len(seen[1]) || seen[0][i] != seen[1][i] {
			other := ""
			if i < len(seen[1]) {
				other = seen[1][i]
			}
			t.Fatalf("after action %d the churned copy reads otherwise than the unchanged app:\n--- unchanged\n%s\n--- churned\n%s", i+1, seen[0][i], other)
		}
	}
}

func slicesEqualFlows(a, b []flowAct) bool {
	for i := range a {
		if a[i].CSS != b[i].CSS || a[i].Wait != b[i].Wait {
			return false
		}
	}
	return true
}

// playFlow runs testdata/realapps/flow.mjs on url and returns what the page
// read after each action (its ARIA snapshot, URL and field values), with
// the page's origin and the volatile texts masked. flow.mjs says on stderr
// how long each action took: the error of a failed or stopped run ends with
// it, and TRAILPIN_FLOW_PROGRESS=1 logs it for a run that passed.
func playFlow(t *testing.T, node, url string, flow []flowAct, volatile []string) ([]string, error) {
	out, _, err := runFlow(t, node, url, flow, volatile)
	if err != nil {
		return nil, err
	}
	var seen []string
	if err := json.Unmarshal(out, &seen); err != nil {
		return nil, fmt.Errorf("reading flow.mjs's output: %v\n%s", err, out)
	}
	if len(seen) != len(flow) {
		return nil, fmt.Errorf("flow.mjs read the page %d times for %d actions", len(seen), len(flow))
	}
	return seen, nil
}

// runFlow runs flow.mjs on url with flow on its stdin, volatile as its
// arguments and env added to its environment, and returns what it wrote on
// stdout and the whole process's wall time; the error of a failed run ends
// with its stderr.
func runFlow(t *testing.T, node, url string, flow []flowAct, volatile []string, env ...string) ([]byte, time.Duration, error) {
	in, err := json.Marshal(flow)
	if err != nil {
		return nil, 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(RepoRoot(), "e2e", "testdata", "realapps", "flow.mjs"), url}, volatile...)...)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Dir = RepoRoot()
	cmd.Env = append(append(os.Environ(), "TMPDIR="+TempDir(t)), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	began := time.Now()
	out, err := cmd.Output()
	took := time.Since(began)
	if os.Getenv("TRAILPIN_FLOW_PROGRESS") != "" {
		t.Logf("flow.mjs on %s:\n%s", url, stderr.String())
	}
	if err != nil {
		return nil, took, fmt.Errorf("%v\n%s", err, stderr.String())
	}
	return out, took, nil
}

// repeatCount is TRAILPIN_REALAPPS_REPEAT, 1 when unset.
func repeatCount(t *testing.T) int {
	v := os.Getenv("TRAILPIN_REALAPPS_REPEAT")
	if v == "" {
		return 1
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("TRAILPIN_REALAPPS_REPEAT=%q: want a count of runs, such as 10", v)
	}
	return n
}

// repeatRealApp records the flow n-1 more times, at a machine's pace and
// a person's in turn, and replays the first recording n times, and reports
// the counts.
func repeatRealApp(t *testing.T, a *realApp, flow []flowAct, base string, first *pageRecording, n int) {
	same, passed := 1, 0
	for i := 2; i <= n; i++ {
		at := personPace
		if i%2 == 0 {
			at = machinePace
		}
		again := recordRealAppAt(t, a, base, flow, at)
		if string(again.yaml) == string(first.yaml) {
			same++
		} else {
			t.Errorf("%s: recording %d differs from the first:\n%s", a.name, i, again.yaml)
		}
	}
	for i := 1; i <= n; i++ {
		run := replayOn(t, a, first.path, base)
		if run.ExitCode == 0 && strings.HasPrefix(statusLine(run, "RUN_COMPLETED"), "RUN_COMPLETED|passed|") {
			passed++
		} else {
			t.Errorf("%s: replay %d of %d failed on the unchanged app:\n%s\n%s", a.name, i, n, run.Stdout, run.traces)
		}
	}
	t.Logf("REPEAT %s: recorded %d times, %d gave the first trail file; replayed %d times on the unchanged app, %d passed", a.name, n, same, n, passed)
}

package replay

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// slowServer serves /start, a page with a link to /slow; /slow answers after
// delay, and /never answers only when the test ends.
func slowServer(t *testing.T, delay time.Duration) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /start", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><title>Start</title><p><a href="/slow">Go slowly</a> <a href="/never">Go nowhere</a></p>`)
	})
	mux.HandleFunc("GET /slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><title>Slow</title><h1>Arrived</h1>`)
	})
	done := make(chan struct{})
	mux.HandleFunc("GET /never", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-done:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { close(done); srv.Close() })
	return srv
}

// neverBudget is the navigation timeout of the subtests that wait for a page
// that never comes. Only that page is meant to run it out; the start page
// they load first must fit in it on a busy machine too, so it is generous.
const neverBudget = 10 * time.Second

// patient is an action timeout the subtests that run out neverBudget never
// come near, so that which of the two ran out shows in how long they took.
const patient = time.Minute

// TestReplayNavigationTimeout: a page load waits replay.navigationTimeout,
// not the action timeout, whether the trail opens the page, navigates to
// it, or taps a link to it; a load that takes longer fails with the
// setting's name.
func TestReplayNavigationTimeout(t *testing.T) {
	t.Parallel()
	// Each load takes longer than the action timeout and the action after
	// it together, and far less than the navigation timeout.
	const delay = 1500 * time.Millisecond
	srv := slowServer(t, delay)
	fast := Options{ActionTimeout: 400 * time.Millisecond, NavigationTimeout: 20 * time.Second}
	passing := []struct{ name, start, actions string }{
		{"the start page", "/slow", `
      - assertVisible: {selector: {role: heading, name: Arrived}}`},
		{"a navigate action", "/start", `
      - navigate: /slow
      - assertVisible: {selector: {role: heading, name: Arrived}}`},
		{"a tap that navigates", "/start", `
      - tap: {selector: {role: link, name: Go slowly}}
      - assertVisible: {selector: {role: heading, name: Arrived}}`},
	}
	for _, tc := range passing {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr := inlineTrail(t, "version: 1\ntrail: Slow\napp: slow\nstart: "+tc.start+
				"\nsteps:\n  - intent: Reach the slow page\n    actions:"+tc.actions+"\n")
			res := replayOn(t, tr, srv.URL, fast)
			if res.Status != StatusPassed {
				t.Fatalf("a load of %s with an action timeout of %s and a navigation timeout of %s: %s",
					delay, fast.ActionTimeout, fast.NavigationTimeout, explain(res))
			}
			// The action that loaded the page says so; the assertion after
			// it caused none.
			acts := res.Steps[0].Actions
			if last := acts[len(acts)-1]; last.Navigations != 0 {
				t.Errorf("the assertion counted %d navigations, want 0", last.Navigations)
			}
			if len(acts) == 2 && acts[0].Navigations != 1 {
				t.Errorf("%s counted %d navigations, want 1", acts[0].Kind, acts[0].Navigations)
			}
		})
	}
	failing := []struct {
		name, start, actions, msg string
		stop                      StopReason
	}{
		{"the start page", "/never", `
      - assertVisible: {selector: {role: heading, name: Arrived}}`,
			"opening the start page /never: page load did not finish within " + neverBudget.String() + " (replay.navigationTimeout)", StopActionFailed},
		// The request reached the app: what it did is not known.
		{"a navigate action", "/start", `
      - navigate: /never`,
			"navigate /never: page load did not finish within " + neverBudget.String() + " (replay.navigationTimeout)", StopActionUncertain},
	}
	for _, tc := range failing {
		t.Run(tc.name+" that never loads", func(t *testing.T) {
			t.Parallel()
			tr := inlineTrail(t, "version: 1\ntrail: Never\napp: slow\nstart: "+tc.start+
				"\nsteps:\n  - intent: Wait for a page that never comes\n    actions:"+tc.actions+"\n")
			res := replayOn(t, tr, srv.URL, Options{ActionTimeout: patient, NavigationTimeout: neverBudget})
			if res.Status != StatusFailed || !strings.Contains(res.Error, tc.msg) {
				t.Fatalf("got %s, want a failure saying %q", explain(res), tc.msg)
			}
			if st := res.Steps[0]; st.Stopped != tc.stop {
				t.Errorf("stopped %q, want %q", st.Stopped, tc.stop)
			}
			if took := res.Duration; took >= patient {
				t.Errorf("took %s: it waited out the action timeout, not the navigation timeout", took)
			}
		})
	}
	// The trail's deadline passing while the start page loads is the
	// trail's time running out, not a page that failed to load.
	t.Run("the trail's deadline while the start page loads", func(t *testing.T) {
		t.Parallel()
		tr := inlineTrail(t, "version: 1\ntrail: Never\napp: slow\nstart: /never\nsteps:\n  - intent: Wait\n    actions:\n      - assertVisible: {selector: {role: heading, name: Arrived}}\n")
		res := replayOn(t, tr, srv.URL, Options{TrailTimeout: 2 * time.Second, NavigationTimeout: 20 * time.Second})
		if st := res.Steps[0]; res.Status != StatusFailed || st.Stopped != StopTimeout || !strings.Contains(res.Error, "ran out of time (replay.trailTimeout)") {
			t.Fatalf("got %s, stopped %q; want the trail's deadline (timeout)", explain(res), st.Stopped)
		}
	})
	// The trail's deadline passing before the tab is even open (a loaded
	// machine) is still the trail's time running out.
	t.Run("the trail's deadline while the tab opens", func(t *testing.T) {
		t.Parallel()
		tr := inlineTrail(t, "version: 1\ntrail: Never\napp: slow\nstart: /start\nsteps:\n  - intent: Wait\n    actions:\n      - assertVisible: {selector: {role: heading, name: Arrived}}\n")
		res := replayOn(t, tr, srv.URL, Options{TrailTimeout: time.Nanosecond})
		if st := res.Steps[0]; res.Status != StatusFailed || st.Stopped != StopTimeout || !strings.Contains(res.Error, "ran out of time (replay.trailTimeout)") {
			t.Fatalf("got %s, stopped %q; want the trail's deadline (timeout)", explain(res), st.Stopped)
		}
	})
	// A tap whose page never loads: the tap is done once the navigation
	// timeout passes, its load stopped, and says so; the action after it
	// decides (and fails after its own, shorter, timeout).
	t.Run("a tap whose page never loads", func(t *testing.T) {
		t.Parallel()
		tr := inlineTrail(t, `version: 1
trail: Never
app: slow
start: /start
steps:
  - intent: Tap a link to a page that never comes
    actions:
      - tap: {selector: {role: link, name: Go nowhere}}
      - assertVisible: {selector: {role: heading, name: Arrived}}
`)
		res := replayOn(t, tr, srv.URL, Options{ActionTimeout: 2 * time.Second, NavigationTimeout: neverBudget})
		if took := res.Duration; took >= patient {
			t.Errorf("took %s: the tab was not usable after the load was given up", took)
		}
		acts := res.Steps[0].Actions
		if res.Status != StatusFailed || acts[0].Status != StatusPassed || acts[1].Status != StatusFailed {
			t.Fatalf("got %s; want the tap to pass and the assertion after it to fail", explain(res))
		}
		note := "page load did not finish within " + neverBudget.String() + " (replay.navigationTimeout); the load was stopped"
		if !slices.Contains(acts[0].Reads, note) {
			t.Errorf("the tap read %q, want %q", acts[0].Reads, note)
		}
	})
}

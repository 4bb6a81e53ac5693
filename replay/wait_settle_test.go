package replay

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// lateServer serves testdata/late.html and its check on the server, which
// answers after serverThinks: longer than settleQuiet, so that only the
// request in flight says the page has not settled.
func lateServer(t *testing.T) *httptest.Server {
	t.Helper()
	const serverThinks = 1500 * time.Millisecond
	mux := http.NewServeMux()
	mux.Handle("GET /late.html", http.FileServer(http.Dir("testdata")))
	mux.HandleFunc("GET /validate", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(serverThinks):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if r.URL.Query().Get("broken") == "true" {
			w.Write([]byte("should be integer"))
			return
		}
		w.Write([]byte("Looks good"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestAbsenceWaitsForTheSettledPage: "Assert text absent" after a change
// holds on the page once the app has answered it, never at the first look.
// On the copy whose check shows "should be integer" a moment after Apply
// (after a few ticks of a timer, or once the server answers late), the
// assertion fails as an app-bug naming the text; on the app whose check
// finds nothing wrong it passes, and says what it waited for.
func TestAbsenceWaitsForTheSettledPage(t *testing.T) {
	t.Parallel()
	srv := lateServer(t)
	tests := []struct {
		name, query string
		fails       bool
		waitedFor   string // a read the assertion notes
	}{
		{"a timer's verdict on the broken copy", "check=timer&app=broken", true, ""},
		{"a timer's verdict on the app", "check=timer", false, ""},
		// Nothing changes for longer than settleQuiet before the verdict:
		// only the timer the click set says the app has not answered.
		{"a paused timer's verdict on the broken copy", "check=pause&app=broken", true, ""},
		{"a paused timer's verdict on the app", "check=pause", false, ""},
		{"the server's late verdict on the broken copy", "check=server&app=broken", true, "waited for GET /validate?broken=true&value=abc to answer"},
		{"the server's late verdict on the app", "check=server", false, "waited for GET /validate?broken=false&value=abc to answer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr := inlineTrail(t, `version: 1
trail: Late check
app: schema
start: /late.html?`+tc.query+`
steps:
  - intent: Type abc into Age
    actions:
      - type: {selector: {role: textbox, name: Age}, text: abc}
  - intent: Apply it, and no complaint shows
    actions:
      - tap: {selector: {role: button, name: Apply}}
      - assertNotVisible: {text: should be integer}
`)
			res := replayOn(t, tr, srv.URL, Options{})
			a := res.Steps[1].Actions[1]
			t.Logf("%s: %s; read %q", a.Duration.Round(time.Millisecond), a.Summary, a.Reads)
			if tc.fails {
				if res.Status != StatusFailed || res.Class != ClassAppBug || !strings.Contains(res.Error, `paragraph "should be integer" is still visible`) ||
					!strings.Contains(res.Error, "once the page had settled") {
					t.Fatalf("got %s; want an app-bug at the assertion naming the paragraph that reads \"should be integer\" once the page settled", explain(res))
				}
				if !strings.Contains(res.Actual, "should be integer") || res.Expected != `nothing visible reads "should be integer"` {
					t.Errorf("expected %q, actual %q; want nothing reading the text, and the node that shows it", res.Expected, res.Actual)
				}
			} else {
				if res.Status != StatusPassed {
					t.Fatalf("%s", explain(res))
				}
				if !strings.Contains(a.Summary, `nothing visible reads "should be integer" once the page had settled`) {
					t.Errorf("the assertion's summary is %q, want it to say it read the settled page", a.Summary)
				}
				// It looked after the app's verdict, not before.
				if !strings.Contains(strings.Join(res.Steps[1].Changes, "\n"), "Looks good") {
					t.Errorf("the step's changes do not show the verdict it waited for:\n%s", strings.Join(res.Steps[1].Changes, "\n"))
				}
			}
			if tc.waitedFor != "" && !strings.Contains(strings.Join(a.Reads, "\n"), tc.waitedFor) {
				t.Errorf("the assertion read %q, want %q among them", a.Reads, tc.waitedFor)
			}
		})
	}
}

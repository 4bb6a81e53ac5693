package report

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/storage/redact"
)

// A note on the result (a secret too short to redact inside text) is on the
// trace page, in the header a reader sees first.
func TestTraceShowsNotes(t *testing.T) {
	res := signIn()
	note := redact.ShortNotice([]string{"${secret:pin}"})
	res.Notes = []string{note}
	page := string(RenderTrace(TrailRun{Attempts: []replay.TrailResult{res}}, nil))
	header, _, _ := strings.Cut(page, "\n## ")
	if !strings.Contains(header, "- Note: the value of ${secret:pin} is shorter than 4 characters") {
		t.Errorf("trace header does not show the note %q:\n%s", note, header)
	}
}

// Every writer redacts with the one redactor: the secret, in each form it
// can take in a result (as typed, URL-encoded in a failed request's URL,
// HTML-escaped in a console line), is on no page, line or file.
func TestWritersRedactEveryForm(t *testing.T) {
	const secret = `p@ss w+rd/é`
	r := redact.New([]redact.Secret{{Name: "secret:pw", Value: secret}}, replay.SecretPlaceholder)
	if r == nil {
		t.Skip("built with trailpin_noredact: nothing is redacted")
	}
	res := signIn()
	res.Status, res.Error = replay.StatusFailed, "typed "+secret+" and failed"
	res.Log = append(res.Log,
		replay.LogEntry{Kind: replay.LogConsole, Text: "console says " + secret},
		replay.LogEntry{Kind: replay.LogConsole, Text: "<p>p@ss w+rd/&#233;</p> and <p>p&#64;ss w+rd/&#xE9;</p>"},
		replay.LogEntry{Kind: replay.LogRequest, Text: "500", URL: "http://127.0.0.1/api?q=p%40ss+w%2Brd%2F%C3%A9"})
	run := Run{Started: res.Started, Trails: []TrailRun{{Attempts: []replay.TrailResult{res}}}}
	var status, junit strings.Builder
	sw := NewStatusWriter(&status, WithRedactor(r.String))
	if err := sw.Trail(res); err != nil {
		t.Fatal(err)
	}
	if err := sw.Done(run); err != nil {
		t.Fatal(err)
	}
	if err := WriteJUnit(&junit, run, WithRedactor(r.String)); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{
		"trace page":   string(RenderTrace(run.Trails[0], r.String)),
		"status lines": status.String(),
		"JUnit":        junit.String(),
	} {
		for _, leak := range []string{"p@ss", "p%40ss", "w%2Brd", "w+rd/&#233;"} {
			if strings.Contains(out, leak) {
				t.Errorf("the %s holds %q:\n%s", name, leak, out)
			}
		}
	}
}

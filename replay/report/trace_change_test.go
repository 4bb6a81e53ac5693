package report

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// TestTraceShowsChangeEvidence: a failed assertChange lists its checks and
// the diff it read, one change a line, with the baseline it was taken
// against and where the page went.
func TestTraceShowsChangeEvidence(t *testing.T) {
	res := buyWithDiscount()
	st := &res.Steps[len(res.Steps)-2]
	st.Actions = append(st.Actions, replay.ActionResult{Kind: trail.ActionAssertChange, Line: 53, Status: replay.StatusFailed,
		Error: "assertChange on the stored diff d2: only {selector: {role: menu}}: 1 change(s) match none of them",
		Change: &assertchange.Evidence{Source: assertchange.SourceStored, DiffID: "d2", HasBaseline: true,
			BaselineURL: "http://127.0.0.1:4100/checkout", URL: "http://127.0.0.1:4100/checkout/done", Navigated: true,
			Checks: []assertchange.CheckResult{{Check: "only {selector: {role: menu}}", Detail: `1 change(s) match none of them: added alert "Saved" [e9]`}},
			Lines:  []string{`style menu "Main" [e7]: visible false → true`, `added alert "Saved" [e9]`}}})
	res.Steps[len(res.Steps)-3].Actions = append(res.Steps[len(res.Steps)-3].Actions, replay.ActionResult{
		Kind: trail.ActionAssertChange, Line: 49, Status: replay.StatusFailed,
		Change: &assertchange.Evidence{Source: assertchange.SourceLive, Error: &assertchange.Unchecked{Code: assertchange.ErrNoBaseline, Message: "no baseline: it was consumed"}}})
	page := string(RenderTrace(TrailRun{Attempts: []replay.TrailResult{res}}, nil))
	for _, want := range []string{
		"     - evidence: stored diff `d2`, baseline `http://127.0.0.1:4100/checkout`, navigated to `http://127.0.0.1:4100/checkout/done`\n" +
			"       - FAILED `only {selector: {role: menu}}`: 1 change(s) match none of them: added alert \"Saved\" \\[e9\\]\n" +
			"       - changes (2):\n" +
			"         - `style menu \"Main\" [e7]: visible false → true`\n" +
			"         - `added alert \"Saved\" [e9]`\n",
		"     - evidence: live\n       - `NO_BASELINE`: no baseline: it was consumed\n",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("trace page lacks\n%s\n---\n%s", want, page)
		}
	}
}

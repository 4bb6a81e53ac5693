package replay

import (
	"testing"
)

// wrappedLinkPage has a link whose words wrap onto the next line of a
// narrow cell, as Awesomplete's "Basic usage" link in its options table
// does: the link's box spans both lines, and its centre lies on the cell's
// text before the link on the first line and after it on the second.
const wrappedLinkPage = `<!doctype html><html lang="en"><title>Wrapped</title>
<style>
  td { width: 20ch; font: 16px/20px monospace; padding: 0; vertical-align: top; }
  table { border-collapse: collapse; }
</style>
<table><tr><td>xxxxxxxxxxxxxx <a href="#basic-usage">Basic usage</a> yyyyyyyyyyyyyy</td></tr></table>
<p id="basic-usage">Basic usage</p>
`

const wrappedLinkTrail = `version: 1
trail: Follow a wrapped link
app: wrapped
start: /
steps:
  - intent: Click the Basic usage link
    actions:
      - tap: {selector: {role: link, name: Basic usage}}
    end: {url: /#basic-usage}
`

// A tap on a link whose words wrap onto two lines clicks its words, not the
// middle of the box around both lines, which the text around it fills.
func TestReplayTapsAWrappedLinkOnItsWords(t *testing.T) {
	t.Parallel()
	srv := servePage(t, wrappedLinkPage)
	res := replayOn(t, inlineTrail(t, wrappedLinkTrail), srv.URL, Options{})
	if res.Status != StatusPassed {
		t.Fatalf("%s", explain(res))
	}
}

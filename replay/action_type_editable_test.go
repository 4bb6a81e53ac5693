package replay

import "testing"

// TestReplayTypeReplacesEditableText: text edited in place (contenteditable)
// is a field: type replaces what it holds, as a person's select-all and
// typing does, rather than typing into the middle of it ("John" must
// become "Ada", not "JoAdahn").
func TestReplayTypeReplacesEditableText(t *testing.T) {
	t.Parallel()
	tr := inlineTrail(t, `version: 1
trail: Tree
app: tree
start: /tree.html
steps:
  - intent: Type Ada into firstName
    actions:
      - type: {selector: {id: first}, text: Ada}
  - intent: The value is Ada
    actions:
      - assertVisible: {selector: {id: saved, text: Ada}}
`)
	res := replayOn(t, tr, site.URL, Options{})
	if res.Status != StatusPassed {
		t.Fatalf("%s", explain(res))
	}
}

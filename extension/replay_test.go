package extension

import (
	"io/fs"
	"regexp"
	"testing"
)

// functionExpression is how every replay script must read after its
// comments: one parenthesised function expression, nothing after it.
var functionExpression = regexp.MustCompile(`(?s)^(//[^\n]*\n)*\((/\*\*[^*]*\*/ )?(async )?function [a-zA-Z]+\(.*\}\)\n$`)

// TestReplayScriptsAreFunctionExpressions checks the form
// Runtime.callFunctionOn needs, so a script that would run as a statement
// (or call itself) fails here rather than in a page.
func TestReplayScriptsAreFunctionExpressions(t *testing.T) {
	names, err := fs.Glob(replayScripts, "replay/*.js")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 8 {
		t.Fatalf("found %d replay scripts (%q); the pattern no longer matches", len(names), names)
	}
	for _, name := range names {
		src := ReplayScript(name[len("replay/"):])
		if !functionExpression.MatchString(src) {
			t.Errorf("%s is not one parenthesised function expression:\n%s", name, src)
		}
	}
}

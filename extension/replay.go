package extension

import (
	"embed"
	"strings"
)

// The scripts replay runs in a page's world beside the page model live in
// replay/, one function expression per file, so that tsc --checkJs checks
// them with the rest of the extension. Replay calls each through
// Runtime.callFunctionOn with its values as call arguments.
//
//go:embed replay/*.js
var replayScripts embed.FS

// ReplayScript returns the function expression of replay/name, for
// Runtime.callFunctionOn. It panics when there is no such file: the names
// are fixed in replay's source and checked by its tests.
func ReplayScript(name string) string {
	b, err := replayScripts.ReadFile("replay/" + name)
	if err != nil {
		panic(err)
	}
	// The protocol wraps the declaration in parentheses: a trailing line
	// break keeps a last-line comment from swallowing the closing one.
	return strings.TrimSpace(string(b)) + "\n"
}

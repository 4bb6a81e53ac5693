package diagnose

import "strings"

// SamePath compares a page's path with a recorded one: with the query when
// the recorded one has a query, the path alone otherwise; never the
// fragment.
func SamePath(at, want string) bool {
	at, _, _ = strings.Cut(at, "#")
	want, _, _ = strings.Cut(want, "#")
	if !strings.Contains(want, "?") {
		at, _, _ = strings.Cut(at, "?")
	}
	return at == want
}

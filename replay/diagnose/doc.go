// Package diagnose says why a replayed step failed, from what the page
// showed: a node in words and as its snapshot line, what changed on the
// screen during a step, whether a page's path is the one a trail
// recorded, the nodes closest to a selector that matched nothing
// (closest.go), and the evidence that the app shows something else where a
// selector expected its text: the element in its place (shown.go), the same
// text with other numbers or words (changed.go), a scope with other values
// or a place the step left as it was (scope.go).
//
// It reads screens only: it never drives a browser and imports nothing of
// Trailpin's but the recorder, so the agent, the recording service and
// replay share it. Replay turns what it finds into a step's error.
package diagnose

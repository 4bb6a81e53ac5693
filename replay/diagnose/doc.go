// Package diagnose says why a replayed step failed, from what the page
// showed: a node in words and as its snapshot line, what changed on the
// screen during a step, and whether a page's path is the one a trail
// recorded.
//
// It reads screens only: it never drives a browser and imports nothing of
// Trailpin's but the recorder, so the agent, the recording service and
// replay share it.
package diagnose

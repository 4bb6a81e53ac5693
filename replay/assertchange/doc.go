// Package assertchange checks a trail's assertChange: what the action
// right before it changed on the page. Its stored checks read the diff of
// the screens around that action (recorder/screendiff); its live checks
// read the page now against the screen before it (the baseline). Every
// check leaves an Evidence, passed or not: what was checked, how each
// check fared and the diff read.
//
//	Check(ctx, a, id, before, after, look, path)  one assertChange of the agent's
//	Store                                          the diffs a replay run keeps, by id
//	Live(ctx, a, id, before, look, wait, path)     the live loop, with retry
//
// Replay, the agent and the recording service run the same checks through
// it. It reads screens and never drives a browser: a live check captures
// the page through the function it is given. It imports the recorder and
// replay/diagnose only, never replay, browser or chromedp, so the agent
// may import it.
package assertchange

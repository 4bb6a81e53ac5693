package assertchange

import "time"

// backoffs are the longest waits for a change between two looks at the
// page: short at first, when what is awaited usually arrives within a frame
// or two, then growing so a page that never settles is not captured
// without pause. Replay ends each wait early when the page changes.
var backoffs = []time.Duration{20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond,
	250 * time.Millisecond, 500 * time.Millisecond}

// Backoff is the longest wait after the attempt-th look (from 0).
func Backoff(attempt int) time.Duration {
	return backoffs[min(attempt, len(backoffs)-1)]
}

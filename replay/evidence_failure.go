package replay

import (
	"context"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// collectFailure records the screen at failure: its URL, a masked
// screenshot, its snapshot text and, for a selector that matched nothing,
// the nodes closest to it. It runs after the trail's own deadline may have
// passed, so it has a deadline of its own.
func (r *trailRun) collectFailure() {
	p := r.page
	if p == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), evidenceTimeout)
	defer cancel()
	fs := &FailureScreen{}
	r.res.Failure = fs
	if p.nav.gone() != nil {
		p.nav.mu.Lock()
		fs.URL = p.nav.url
		p.nav.mu.Unlock()
		return
	}
	fs.URL = p.location(ctx)
	p.acted() // the screen as it is now, not as the last wait saw it
	s, _, err := p.look(ctx)
	if err != nil {
		return
	}
	fs.Snapshot = screen.RenderSnapshot(s, screen.SnapshotOptions{})
	if masking := r.maskScreen(ctx, s); masking != nil {
		if shot, boxes, err := p.screenshotMasked(ctx, masking); err == nil {
			fs.Screenshot, fs.Masked = shot, boxes
		}
	}
	if r.failure != nil && r.failure.Selector != nil {
		fs.Closest = diagnose.ClosestNear(s, *r.failure.Selector, r.page.lastTarget)
	}
}

package replay

import (
	"context"
	"testing"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Benchmarks of the engine's inner loop: one recorded step or action,
// replayed again and again on a page that is already open (the browser
// context, the tab and the start page are set up outside the timer). The
// side-by-side comparison with Playwright (whole processes, median of
// several runs) is the replay benchmark script's; these isolate the
// engine's own cost. On a shared machine the numbers are noisy.
//
//	go test ./replay -run '^$' -bench Replay -benchtime 20x

// benchRun opens tr's start page in a fresh browser context and returns the
// run, ready for runStep.
func benchRun(b *testing.B, tr *trail.Trail, base string) (*trailRun, context.Context) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	br, err := browser.FromContext(browserCtx)
	if err != nil {
		b.Fatal(err)
	}
	r := newTrailRun(br, tr, Options{BaseURL: base, Lookup: demoPassword})
	b.Cleanup(r.closeAll)
	if err := r.prepare(); err != nil {
		b.Fatal(err)
	}
	go r.dialogs.serve(ctx)
	p, err := r.openPage(ctx, "")
	if err != nil {
		b.Fatal(err)
	}
	r.page = p
	if err := r.openStart(ctx); err != nil {
		b.Fatal(err)
	}
	return r, ctx
}

// runBenchStep replays step i b.N times.
func runBenchStep(b *testing.B, r *trailRun, ctx context.Context, i int) {
	b.Helper()
	b.ResetTimer()
	for range b.N {
		if run := r.runStep(ctx, i); run.err != nil {
			b.Fatalf("step %d stopped (%s): %v", i+1, run.reason, run.err)
		}
	}
}

// BenchmarkReplayStepDemo: on the demo shop's search results, tap Add to
// cart (a form post and a new page) and check the confirmation.
func BenchmarkReplayStepDemo(b *testing.B) {
	srv := startShop(b, demo.Normal)
	tr, err := trail.LoadTrail("bench.trail.yaml", []byte(`version: 1
trail: Add to cart
app: shop
start: /login
steps:
  - intent: Sign in
    actions:
      - type: {selector: {role: textbox, name: Username}, text: ada}
      - type: {selector: {role: textbox, name: Password}, text: '${secret:demo-password}'}
      - tap: {selector: {role: button, name: Sign in}}
      - navigate: '/products?q=iphone'
  - intent: Add the iPhone 17 to the cart
    actions:
      - tap: {selector: {role: button, name: Add to cart, within: {role: article, name: iPhone 17}}}
      - assertVisible: {selector: {role: status, text: Added iPhone 17 to your cart.}}
`))
	if err != nil {
		b.Fatal(err)
	}
	r, ctx := benchRun(b, tr, srv.URL)
	if run := r.runStep(ctx, 0); run.err != nil {
		b.Fatal(run.err)
	}
	runBenchStep(b, r, ctx, 1)
}

// BenchmarkReplayActionBigPage: on a page of 10,000 elements, find the one
// button named "Open target" (off screen, among thousands of controls),
// scroll to it and tap it: a capture of the whole screen each time, since
// the tap before changed the page.
func BenchmarkReplayActionBigPage(b *testing.B) {
	srv := startShop(b, demo.Normal)
	tr, err := trail.LoadTrail("bench.trail.yaml", []byte(`version: 1
trail: Big page
app: shop
start: /big?n=10000
steps:
  - intent: Open the target
    actions:
      - tap: {selector: {role: button, name: Open target}}
`))
	if err != nil {
		b.Fatal(err)
	}
	r, ctx := benchRun(b, tr, srv.URL)
	runBenchStep(b, r, ctx, 0)
}

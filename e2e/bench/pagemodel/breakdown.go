package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/screen"
)

// breakdown is where one full capture's round trip goes, medians over the
// runs: the page model's capture in the page, packing it into the wire form
// (captureWire less capture), moving that text out of the browser, and
// decoding it into a screen.Screen here.
type breakdown struct {
	capture, pack, transfer, decode time.Duration
	// wireBytes is the length of the wire text one look moves.
	wireBytes int
	// gzip and zTransfer are the gzip form's: compressing in the page and
	// moving the compressed text (zBytes long, base64).
	gzip, zTransfer time.Duration
	zBytes          int
}

// stepTimes are one run's phases, in the page and here.
type stepTimes struct {
	capture, pack, transfer, decode time.Duration
	wireBytes                       int
	gzip, zTransfer                 time.Duration
	zBytes                          int
}

// measurePhases times one capture phase by phase. The page model is the one
// the benchmark installed in the page's own world; the wire text is kept in
// the page between the two evaluations so that the transfer is timed alone.
func measurePhases(ctx context.Context) (stepTimes, error) {
	var st stepTimes
	page, err := chromedp.Run(ctx, chromedp.Evaluate[[3]float64](`(() => {
  const pm = globalThis.__trailpinPageModel;
  const t0 = performance.now();
  pm.capture();
  const t1 = performance.now();
  const wire = pm.captureWire();
  const t2 = performance.now();
  globalThis.__trailpinBenchWire = wire;
  return [t1 - t0, t2 - t1, wire.length];
})()`))
	if err != nil {
		return st, err
	}
	st.capture = ms2d(page[0])
	st.pack = max(ms2d(page[1])-st.capture, 0)
	t0 := time.Now()
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`globalThis.__trailpinBenchWire`))
	if err != nil {
		return st, err
	}
	st.transfer = time.Since(t0)
	st.wireBytes = len(text)
	t1 := time.Now()
	s, err := screen.DecodeWire([]byte(text))
	if err != nil {
		return st, err
	}
	st.decode = time.Since(t1)
	if s.Root == nil {
		return st, fmt.Errorf("the wire text decoded to no root")
	}
	// The gzip form replay moves from a large page (extension/replay/capture.js):
	// compressing in the page and moving the smaller text instead.
	zms, err := chromedp.Run(ctx, chromedp.Evaluate[[2]float64](`(async () => {
  const json = globalThis.__trailpinBenchWire;
  const t0 = performance.now();
  const zipped = new Blob([json]).stream().pipeThrough(new CompressionStream('gzip'));
  const bytes = new Uint8Array(await new Response(zipped).arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  globalThis.__trailpinBenchZ = 'z' + btoa(bin);
  return [performance.now() - t0, globalThis.__trailpinBenchZ.length];
})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		return st, err
	}
	st.gzip = ms2d(zms[0])
	t2 := time.Now()
	z, err := chromedp.Run(ctx, chromedp.Evaluate[string](`globalThis.__trailpinBenchZ`))
	if err != nil {
		return st, err
	}
	st.zTransfer = time.Since(t2)
	st.zBytes = len(z)
	_, err = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`delete globalThis.__trailpinBenchWire; delete globalThis.__trailpinBenchZ`))
	return st, err
}

func medianBreakdown(runs []stepTimes) breakdown {
	pick := func(f func(stepTimes) time.Duration) time.Duration {
		ds := make([]time.Duration, len(runs))
		for i, r := range runs {
			ds[i] = f(r)
		}
		return median(ds)
	}
	b := breakdown{
		capture:   pick(func(r stepTimes) time.Duration { return r.capture }),
		pack:      pick(func(r stepTimes) time.Duration { return r.pack }),
		transfer:  pick(func(r stepTimes) time.Duration { return r.transfer }),
		decode:    pick(func(r stepTimes) time.Duration { return r.decode }),
		gzip:      pick(func(r stepTimes) time.Duration { return r.gzip }),
		zTransfer: pick(func(r stepTimes) time.Duration { return r.zTransfer }),
	}
	if len(runs) > 0 {
		b.wireBytes = runs[len(runs)-1].wireBytes
		b.zBytes = runs[len(runs)-1].zBytes
	}
	return b
}

// reportBreakdown prints each size's phases and what one look costs.
func reportBreakdown(out io.Writer, rows []row) {
	fmt.Fprintln(out, "\nwhere a full capture goes (medians; pack is captureWire less capture, transfer is the wire text out of the browser as a string):")
	for _, r := range rows {
		b := r.phases
		fmt.Fprintf(out, "  %d elements: capture in page %s, pack %s, transfer %s, decode in Go %s; per look: %d nodes, %d wire bytes\n",
			r.elements, d(b.capture), d(b.pack), d(b.transfer), d(b.decode), r.nodes, b.wireBytes)
		fmt.Fprintf(out, "  %d elements, gzip form: compress in page %s, transfer %s, %d bytes\n", r.elements, d(b.gzip), d(b.zTransfer), b.zBytes)
	}
}

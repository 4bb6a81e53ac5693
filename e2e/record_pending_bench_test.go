package e2e

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/extension"
)

// BenchmarkKeepPendingScreen measures what keeping an unacknowledged
// interaction in chrome.storage.session costs (extension/background/queue.js,
// keep): one interaction with the wire screen of a page of 1k or 10k
// elements, set and removed again, in an extension page of the real
// extension (the service worker calls the same API). It reports the time to
// keep it (ms-set-p50), the wire screen's size (wire-bytes), the bytes the
// entry counts against QUOTA_BYTES (stored-bytes), and how many such
// entries fit beside the recording's reserve (fit); and for the screen
// gzipped, as keep stores it when the plain one does not fit: the time
// (ms-gzip-p50), the size in base64 (gzip-bytes) and how many fit
// (fit-gzip).
//
//	go test -run '^$' -bench BenchmarkKeepPendingScreen -benchtime 20x ./e2e
func BenchmarkKeepPendingScreen(b *testing.B) {
	br := StartBrowser(b, Options{NoHost: true})
	srv := serveBenchPages(b)
	ext := br.OpenPopup(b)
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			url := fmt.Sprintf("%s/page%d", srv.URL, n)
			br.OpenTab(b, url)
			wireBytes := WaitFor[int](b, ext, fmt.Sprintf(`(async () => {
				const [tab] = await chrome.tabs.query({url: %q});
				if (!tab || tab.status !== 'complete') return 0;
				await chrome.scripting.executeScript({target: {tabId: tab.id}, files: %s});
				const [{result}] = await chrome.scripting.executeScript({target: {tabId: tab.id}, func: () => globalThis.__trailpinPageModel.captureWire()});
				globalThis.benchWire = result;
				globalThis.benchGzip = (await import(chrome.runtime.getURL('background/queue.js'))).gzipBase64;
				globalThis.benchTimes = [];
				globalThis.benchGzipTimes = [];
				return result.length;
			})()`, url, pageModelFilesJSON(b)))
			for b.Loop() {
				_, err := chromedp.Run(ext, chromedp.Evaluate[chromedp.Void](`(async () => {
					const entry = {seq: 1, interaction: {seq: 1, kind: 'click', time: Date.now(), tab: 1, url: 'http://127.0.0.1/', screen: 's-1', ref: 'e12'}, screen: benchWire};
					const t0 = performance.now();
					await chrome.storage.session.set({'pending:1': entry});
					benchTimes.push(performance.now() - t0);
					globalThis.benchStored = await chrome.storage.session.getBytesInUse('pending:1');
					await chrome.storage.session.remove('pending:1');
					const t1 = performance.now();
					globalThis.benchGzipBytes = (await benchGzip(benchWire)).length;
					benchGzipTimes.push(performance.now() - t1);
				})()`, chromedp.EvalAwaitPromise))
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			got := WaitFor[struct {
				Times     []float64
				Stored    int
				Quota     int
				GzipTimes []float64
				GzipBytes int
			}](b, ext, fmt.Sprintf(`benchTimes.length >= %d && {times: benchTimes, stored: benchStored, quota: chrome.storage.session.QUOTA_BYTES, gzipTimes: benchGzipTimes, gzipBytes: benchGzipBytes}`, b.N))
			b.ReportMetric(percentile(got.Times, 50), "ms-set-p50")
			b.ReportMetric(float64(wireBytes), "wire-bytes")
			b.ReportMetric(float64(got.Stored), "stored-bytes")
			b.ReportMetric(float64((got.Quota-256*1024)/got.Stored), "fit")
			b.ReportMetric(float64(got.GzipBytes), "gzip-bytes")
			b.ReportMetric(percentile(got.GzipTimes, 50), "ms-gzip-p50")
			b.ReportMetric(float64((got.Quota-256*1024)/got.GzipBytes), "fit-gzip")
		})
	}
}

// pageModelFilesJSON is the page model's file list as a JavaScript array,
// for an injection by chrome.scripting as the extension makes it.
func pageModelFilesJSON(b *testing.B) string {
	list, err := json.Marshal(extension.PageModelFiles())
	if err != nil {
		b.Fatal(err)
	}
	return string(list)
}

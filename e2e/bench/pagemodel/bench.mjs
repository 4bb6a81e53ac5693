// Playwright's side of the page-model benchmark: times
// locator('body').ariaSnapshot() and page.ariaSnapshot({mode: 'ai'}) on a
// page. Run by main.go, which passes the page and how to reach Chromium.
//
//   node bench.mjs --cdp http://127.0.0.1:PORT --url URL --runs N
//       attach to the running Chromium (the same tab the Go side measured)
//   node bench.mjs --url URL --runs N
//       launch /usr/bin/chromium through Playwright and open URL there
import { chromium } from 'playwright-core';

function arg(name, fallback) {
  const i = process.argv.indexOf('--' + name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const url = arg('url');
const runs = Number(arg('runs', '7'));
const cdp = arg('cdp');
const warmup = Number(arg('warmup', '2'));
const width = Number(arg('width', '1280'));
const height = Number(arg('height', '720'));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function time(fn) {
  for (let i = 0; i < warmup; i++)
    await fn();
  const times = [];
  let last;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    last = await fn();
    times.push(performance.now() - t0);
  }
  return { median: median(times), times, last };
}

let browser, page, launched = false;
if (cdp) {
  browser = await chromium.connectOverCDP(cdp);
  page = browser.contexts().flatMap(c => c.pages()).find(p => p.url() === url);
  if (!page)
    throw new Error(`no tab shows ${url}`);
} else {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true });
  launched = true;
  page = await browser.newPage({ viewport: { width, height } });
  await page.goto(url);
}
page.setDefaultTimeout(0);

const aria = await time(() => page.locator('body').ariaSnapshot());
const ai = await time(() => page.ariaSnapshot({ mode: 'ai' }));
console.log(JSON.stringify({
  mode: launched ? 'launched' : 'attached',
  ariaSnapshotMs: aria.median,
  aiSnapshotMs: ai.median,
  ariaSnapshotChars: aria.last.length,
  aiSnapshotChars: ai.last.length,
}));
if (launched)
  await browser.close();
// Attached: leave the browser to the Go side; exiting drops the connection.
process.exit(0);

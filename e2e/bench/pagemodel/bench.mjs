// Playwright's side of the page-model benchmark. main.go starts it once per
// page and drives it over stdin, so that Playwright's runs interleave with
// ours and a busy machine slows both alike: each line "aria" or "ai" runs
// locator('body').ariaSnapshot() or page.ariaSnapshot({mode: 'ai'}) once and
// answers {"ms": …, "chars": …}; "quit" ends.
//
//   node bench.mjs --cdp http://127.0.0.1:PORT --url URL
//       attach to the running Chromium (the same tab the Go side measures)
//   node bench.mjs --url URL
//       launch /usr/bin/chromium through Playwright and open URL there
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

function arg(name, fallback) {
  const i = process.argv.indexOf('--' + name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const url = arg('url');
const cdp = arg('cdp');
const width = Number(arg('width', '1280'));
const height = Number(arg('height', '720'));

let browser, page;
if (cdp) {
  browser = await chromium.connectOverCDP(cdp);
  page = browser.contexts().flatMap(c => c.pages()).find(p => p.url() === url);
  if (!page)
    throw new Error(`no tab shows ${url}`);
} else {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true });
  page = await browser.newPage({ viewport: { width, height } });
  await page.goto(url);
}
page.setDefaultTimeout(0);

const runs = {
  aria: () => page.locator('body').ariaSnapshot(),
  ai: () => page.ariaSnapshot({ mode: 'ai' }),
};

console.log(JSON.stringify({ ready: true }));
for await (const line of createInterface({ input: process.stdin })) {
  const what = line.trim();
  if (what === 'quit')
    break;
  const run = runs[what];
  if (!run) {
    console.log(JSON.stringify({ error: `unknown command ${what}` }));
    continue;
  }
  const t0 = performance.now();
  const text = await run();
  console.log(JSON.stringify({ ms: performance.now() - t0, chars: text.length }));
}
if (!cdp)
  await browser.close();
// Attached: leave the browser to the Go side; exiting drops the connection.
process.exit(0);

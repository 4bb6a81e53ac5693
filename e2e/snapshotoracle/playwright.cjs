// Prints Playwright's own snapshots of pages, for snapshotoracle.Compare:
//
//   node playwright.cjs
//
// Reads lines from stdin: first a JSON list of {url, script}, then the
// index of each page to render, when the caller wants it rendered (so that
// the caller bounds how many pages load at once, across every comparison it
// runs). script, when given, is a JavaScript expression evaluated in the
// page after it loads (and awaited when it gives a promise), to bring the
// page to the state compared. For each index it writes one JSON line to
// stdout, {index, url, aria, ai}, as soon as that page is done: aria is
// locator('body').ariaSnapshot(), ai is page.ariaSnapshot({mode: 'ai'}). It
// exits once stdin closes and every page asked for is written; the first
// page that fails ends it with the error on stderr.
//
// playwright-core comes from $TRAILPIN_PLAYWRIGHT_CORE (the repository's
// node_modules/playwright-core), Chromium from $TRAILPIN_CHROMIUM; each
// wait on a page is bounded by $TRAILPIN_PAGE_TIMEOUT_MS. One browser
// renders every page, each page in a browser context of its own.
'use strict';

const readline = require('node:readline');
const { chromium } = require(process.env.TRAILPIN_PLAYWRIGHT_CORE || 'playwright-core');

async function main() {
  const width = Number(process.env.TRAILPIN_VIEWPORT_WIDTH) || 1280;
  const height = Number(process.env.TRAILPIN_VIEWPORT_HEIGHT) || 720;
  const timeout = Number(process.env.TRAILPIN_PAGE_TIMEOUT_MS) || 120000;
  const browser = await chromium.launch({ executablePath: process.env.TRAILPIN_CHROMIUM || '/usr/bin/chromium' });
  async function render(index, { url, script }) {
    const page = await browser.newPage({ viewport: { width, height } });
    try {
      // Playwright's own 30 s would be a guess at how slow a busy machine
      // is; the caller's bound for one page applies instead.
      page.setDefaultTimeout(timeout);
      await page.goto(url, { waitUntil: 'load' });
      if (script) await page.evaluate(script);
      const aria = await page.locator('body').ariaSnapshot();
      const ai = await page.ariaSnapshot({ mode: 'ai' });
      process.stdout.write(JSON.stringify({ index, url, aria, ai }) + '\n');
    } finally {
      await page.close();
    }
  }
  const rendering = [];
  let pages;
  try {
    for await (const line of readline.createInterface({ input: process.stdin })) {
      if (!line) continue;
      const msg = JSON.parse(line);
      if (pages === undefined) {
        pages = msg;
        continue;
      }
      if (!Number.isInteger(msg) || !pages[msg]) throw new Error(`no page ${line}`);
      rendering.push(render(msg, pages[msg]).catch(e => {
        console.error(e);
        process.exit(1);
      }));
    }
    await Promise.all(rendering);
  } finally {
    await browser.close();
  }
}

main().catch(e => {
  console.error(e);
  process.exit(1);
});

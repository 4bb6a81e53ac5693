// Prints Playwright's own snapshots of pages, for snapshotoracle.Compare:
//
//   node playwright.cjs < pages.json
//
// pages.json is a JSON list of {url, script}: script, when given, is a
// JavaScript expression evaluated in the page after it loads (and awaited
// when it gives a promise), to bring the page to the state compared.
// playwright-core comes from $TRAILPIN_PLAYWRIGHT_CORE (the repository's
// node_modules/playwright-core), Chromium from $TRAILPIN_CHROMIUM; each
// wait on a page is bounded by $TRAILPIN_PAGE_TIMEOUT_MS. One browser
// renders every page, $TRAILPIN_TABS of them at a time, each page in a
// browser context of its own. Writes a JSON list to stdout, one
// {url, aria, ai} per page in the order given: aria is
// locator('body').ariaSnapshot(), ai is page.ariaSnapshot({mode: 'ai'}).
'use strict';

const { chromium } = require(process.env.TRAILPIN_PLAYWRIGHT_CORE || 'playwright-core');

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function main() {
  const pages = await readStdin();
  const width = Number(process.env.TRAILPIN_VIEWPORT_WIDTH) || 1280;
  const height = Number(process.env.TRAILPIN_VIEWPORT_HEIGHT) || 720;
  const timeout = Number(process.env.TRAILPIN_PAGE_TIMEOUT_MS) || 120000;
  const tabs = Math.max(1, Number(process.env.TRAILPIN_TABS) || 1);
  const browser = await chromium.launch({ executablePath: process.env.TRAILPIN_CHROMIUM || '/usr/bin/chromium' });
  const out = new Array(pages.length);
  async function render(i) {
    const { url, script } = pages[i];
    const page = await browser.newPage({ viewport: { width, height } });
    try {
      // Playwright's own 30 s would be a guess at how slow a busy machine
      // is; the caller's bound for one page applies instead.
      page.setDefaultTimeout(timeout);
      await page.goto(url, { waitUntil: 'load' });
      if (script) await page.evaluate(script);
      const aria = await page.locator('body').ariaSnapshot();
      const ai = await page.ariaSnapshot({ mode: 'ai' });
      out[i] = { url, aria, ai };
    } finally {
      await page.close();
    }
  }
  let next = 0;
  async function worker() {
    while (next < pages.length) await render(next++);
  }
  try {
    await Promise.all(Array.from({ length: Math.min(tabs, pages.length) }, worker));
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch(e => {
  console.error(e);
  process.exit(1);
});

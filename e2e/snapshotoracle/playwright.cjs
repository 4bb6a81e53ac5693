// Prints Playwright's own snapshots of pages, for snapshotoracle.Compare:
//
//   node playwright.cjs URL...
//
// playwright-core comes from $TRAILPIN_PLAYWRIGHT_CORE (the repository's
// node_modules/playwright-core), Chromium from $TRAILPIN_CHROMIUM. Writes a
// JSON list to stdout, one {url, aria, ai} per URL: aria is
// locator('body').ariaSnapshot(), ai is page.ariaSnapshot({mode: 'ai'}).
'use strict';

const { chromium } = require(process.env.TRAILPIN_PLAYWRIGHT_CORE || 'playwright-core');

async function main() {
  const urls = process.argv.slice(2);
  const width = Number(process.env.TRAILPIN_VIEWPORT_WIDTH) || 1280;
  const height = Number(process.env.TRAILPIN_VIEWPORT_HEIGHT) || 720;
  const browser = await chromium.launch({ executablePath: process.env.TRAILPIN_CHROMIUM || '/usr/bin/chromium' });
  const out = [];
  try {
    for (const url of urls) {
      const page = await browser.newPage({ viewport: { width, height } });
      await page.goto(url, { waitUntil: 'load' });
      const aria = await page.locator('body').ariaSnapshot();
      const ai = await page.ariaSnapshot({ mode: 'ai' });
      out.push({ url, aria, ai });
      await page.close();
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch(e => {
  console.error(e);
  process.exit(1);
});

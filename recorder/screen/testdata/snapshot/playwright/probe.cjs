// Writes Playwright's own ARIA snapshots of probe pages, so the Go tests read
// real Playwright output rather than what we believe it to be.
//
//   node probe.cjs OUTDIR
//
// Uses playwright-core from the repository's node_modules (npm ci) and the
// Chromium at $TRAILPIN_CHROMIUM or /usr/bin/chromium. Writes into OUTDIR:
//   probes.ai.txt       page.ariaSnapshot({mode: 'ai'}) of the probe page
//   probes.default.txt  locator('body').ariaSnapshot() of the same page
//   shop.ai.txt         page.ariaSnapshot({mode: 'ai'}) of a shop page, for
//                       comparing the size of the interactive-only form
//
// The probe page holds one list item per string in probes.json; each string
// is used as a button's aria-label, a link's href, a paragraph's text, and
// the text beside a button, so every YAML indicator reaches a name, a /url
// value, shorthand text and a "- text:" line.
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

async function main() {
  const outDir = process.argv[2];
  if (!outDir) throw new Error('usage: node probe.cjs OUTDIR');
  const probes = JSON.parse(fs.readFileSync(path.join(__dirname, 'probes.json'), 'utf8'));
  const browser = await chromium.launch({
    executablePath: process.env.TRAILPIN_CHROMIUM || '/usr/bin/chromium',
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.setContent(fs.readFileSync(path.join(__dirname, 'states.html'), 'utf8'));
    await page.evaluate(addProbes, probes);
    await page.frameLocator('iframe').locator('button').waitFor();
    await page.locator('#focus-me').focus();
    write(outDir, 'probes.ai.txt', await page.ariaSnapshot({ mode: 'ai' }));
    write(outDir, 'probes.default.txt', await page.locator('body').ariaSnapshot());

    // A page of its own, so its refs start at e1.
    const shop = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await shop.setContent(fs.readFileSync(path.join(__dirname, 'shop.html'), 'utf8'));
    write(outDir, 'shop.ai.txt', await shop.ariaSnapshot({ mode: 'ai' }));
  } finally {
    await browser.close();
  }
}

// addProbes runs in the page. It sets strings through the DOM, so control
// characters and lone surrogates arrive exactly as written in probes.json.
function addProbes(probes) {
  const list = document.getElementById('probes');
  probes.forEach((s, i) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.setAttribute('aria-label', s);
    button.textContent = 'b';
    const link = document.createElement('a');
    link.setAttribute('href', s);
    link.textContent = 'link ' + i;
    const para = document.createElement('p');
    para.textContent = s;
    const div = document.createElement('div');
    div.append(s);
    const inner = document.createElement('button');
    inner.textContent = 'x';
    div.append(inner);
    item.append(button, link, para, div);
    list.append(item);
  });
}

function write(dir, name, text) {
  fs.writeFileSync(path.join(dir, name), text + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

// Drives a real-app flow (e2e/realapps_flow_test.go) with Playwright and
// prints, after each action, what a person would read on the page: its ARIA
// snapshot, its URL and the values of its fields. The Go test runs it on the
// unchanged app and on the churned copy and compares the two.
//
//   node e2e/testdata/realapps/flow.mjs <start URL> [volatile regex…] < flow.json
//
// The copies are served from two origins, so the page's own origin where it
// shows one (an API explorer's request URL) reads as <origin>; each volatile
// regex names text that differs between any two runs of the same app (a
// response's Date header) and reads as <volatile>.
//
// The recording bar's checks (assertVisible, assertValue, assertURL) act on
// nothing here: Playwright reads the page after them as after any action.
//
// With TRAILPIN_FLOW_BENCH=1 it is the script a person would write with
// Playwright for the flow, for a benchmark (e2e/realapps_bench_test.go):
// each action and the flow's own waits, Playwright's auto-waiting, and no
// reading of the page; it prints an empty read per action.
import { chromium } from 'playwright-core';

const [start, ...volatile] = process.argv.slice(2);
const volatileRes = volatile.map((v) => new RegExp(v, 'g'));
const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';
const bench = process.env.TRAILPIN_FLOW_BENCH === '1';

const chunks = [];
for await (const c of process.stdin)
  chunks.push(c);
/** @type {{do: string, css?: string, text?: string, key?: string, mods?: string[], wait?: string, load?: boolean}[]} */
const flow = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const browser = await chromium.launch({ executablePath, headless: true });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'UTC' });
  // Playwright's 30 s defaults are for a quiet machine: here two copies of
  // the app run side by side with the rest of the suite on two cores, and a
  // bundle's first load took longer. The Go test bounds the whole run.
  context.setDefaultTimeout(120000);
  context.setDefaultNavigationTimeout(120000);
  // Nothing outside loopback: a request elsewhere is refused, not waited for.
  await context.route((url) => !['127.0.0.1', 'localhost'].includes(url.hostname), (route) => route.abort());
  const page = await context.newPage();
  await page.goto(start);
  const seen = [];
  for (const [i, a] of flow.entries()) {
    const began = Date.now();
    const el = a.css ? page.locator(a.css) : null;
    const modifiers = /** @type {any} */ (a.mods || []);
    switch (a.do) {
      case 'click': await el.click({ modifiers }); break;
      case 'dblclick': await el.dblclick({ modifiers }); break;
      case 'rightclick': await el.click({ button: 'right', modifiers }); break;
      case 'hover': await el.hover(); break;
      case 'type': await page.keyboard.type(a.text.replace(/\r/g, '\n').replace(/\n/g, ''));
        if (a.text.endsWith('\r')) await page.keyboard.press('Enter');
        break;
      case 'press': await page.keyboard.press([...modifiers, a.key].join('+')); break;
      case 'assertVisible': case 'assertValue': case 'markSensitive': await el.waitFor({ state: 'visible' }); break;
      case 'assertURL': break;
      default: throw new Error(`action ${i + 1}: unknown ${a.do}`);
    }
    if (a.load)
      await page.waitForLoadState('load');
    if (a.wait)
      await page.waitForFunction(a.wait, null, { timeout: 120000 }).catch((e) => {
        throw new Error(`action ${i + 1} (${a.do} ${a.css || a.key || a.text || ''}): waiting for ${a.wait}: ${e.message}`);
      });
    if (bench) {
      seen.push('');
      continue;
    }
    // What the page reads once it holds still: a fade or a slide (a
    // script's timers as much as CSS) must not make two copies differ.
    await settle(page, i);
    let last = '';
    let reads = 0;
    for (let tries = 0; tries < 20; tries++) {
      const now = await read(page);
      reads++;
      if (now === last)
        break;
      last = now;
      // Time for a script's timers, and frames for work it chains through
      // animation frames (a framework booting in one frame and writing in a
      // later one): on a busy machine 250 ms can pass without a frame.
      await page.waitForTimeout(250);
      await frames(page);
    }
    seen.push(last);
    // Progress on stderr: a run the Go test stops for its time says which
    // action it was at and where the time went.
    process.stderr.write(`action ${i + 1}/${flow.length} ${a.do} ${a.css || a.key || ''}: ${Date.now() - began} ms, ${reads} reads\n`);
  }
  process.stdout.write(JSON.stringify(seen));
} finally {
  // A browser that does not close within a minute must not turn a finished
  // run into one the Go test kills: the reads are written, and exit ends it.
  // The timer is cleared once the browser closed: a pending one keeps node
  // running to its end, a minute added to every run.
  let timer;
  const closed = await Promise.race([browser.close().then(() => true),
    new Promise((done) => { timer = setTimeout(() => done(false), 60000); })]);
  clearTimeout(timer);
  if (!closed) {
    process.stderr.write('the browser did not close within 60 s; exiting\n');
    process.exit(process.exitCode || 0);
  }
}

/**
 * Waits until no effect is running: no finite CSS animation or transition
 * (a drop-down growing in, a modal fading) and no jQuery effect (a link
 * fading in as the page scrolls, a smooth scroll). Reading the page in the
 * middle of one gives what a moment of timing decides, not what the copy
 * shows; two identical reads a moment apart can both fall inside a fade.
 * @param {import('playwright-core').Page} page
 * @param {number} i the action's index
 */
async function settle(page, i) {
  // A scroll the action made fires its event at the next rendering of the
  // page, and an effect it starts (a fade) begins there: let two frames pass.
  await frames(page);
  await page.waitForFunction(() => {
    const $ = /** @type {any} */ (window).jQuery;
    const effects = $ && $.timers ? $.timers.length : 0;
    const running = document.getAnimations().filter((a) => a.playState === 'running'
      && a.effect && a.effect.getComputedTiming().endTime !== Infinity);
    return effects === 0 && running.length === 0;
  }, null, { timeout: 120000, polling: 50 }).catch((e) => {
    throw new Error(`action ${i + 1}: the page never held still (an effect kept running): ${e.message}`);
  });
}

/**
 * Lets two animation frames of the page pass.
 * @param {import('playwright-core').Page} page
 */
async function frames(page) {
  // Bounded: a page that renders no frame for 30 s (a starved renderer on a
  // loaded machine) is read as it is rather than holding the run until the
  // Go test kills it with nothing said.
  await page.evaluate(() => new Promise((done) => {
    requestAnimationFrame(() => requestAnimationFrame(done));
    setTimeout(done, 30000);
  }));
}

/** @param {import('playwright-core').Page} page */
async function read(page) {
  const values = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea')]
    .map((f) => /** @type {HTMLInputElement} */ (f).type === 'checkbox' || /** @type {HTMLInputElement} */ (f).type === 'radio'
      ? String(/** @type {HTMLInputElement} */ (f).checked)
      : f instanceof HTMLSelectElement ? [...f.selectedOptions].map((o) => o.value).join(',') : /** @type {HTMLInputElement} */ (f).value)
    .join('|'));
  const url = new URL(page.url());
  let text = `${url.pathname}${url.search}${url.hash}\n${values}\n${await page.locator('body').ariaSnapshot()}`;
  text = text.split(url.origin).join('<origin>');
  for (const re of volatileRes)
    text = text.replace(re, '<volatile>');
  return text;
}

// Scores Trailpin's snapshot text against Playwright's own expectations.
//
//   node scripts/score-snapshots/score.cjs PLAYWRIGHT [HOST]
//
// PLAYWRIGHT is a git directory of microsoft/playwright (a bare mirror is
// fine) or a checkout of it; the spec files are read from tag v1.62.1
// (TRAILPIN_PLAYWRIGHT_REF overrides). HOST is a built `host` binary
// (default: go build ./host into a temporary directory).
//
// It reads, at run time, the pairs of tests/page/page-aria-snapshot.spec.ts
// (a page.setContent followed directly by checkAndMatchSnapshot on the body)
// and of tests/page/page-aria-snapshot-ai.spec.ts (a page.setContent
// followed directly by page.ariaSnapshot({mode: 'ai'}) and its first
// expectation: toContainYaml, toEqual or toContain). Nothing extracted is
// written into the repository. Each page is served from loopback (the
// spec's assets, such as codicon.css, from the same checkout) and rendered
// twice: by playwright-core from node_modules and by `host snapshot --mode
// aria|ai`. Both are judged by the spec's own comparison (exact equality
// after unshift for checkAndMatchSnapshot, containment for toContainYaml);
// for the AI pairs refs are set aside on both sides, since the two tools
// number elements differently. With -v every failing pair prints the
// expected and received text.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { execFile, execFileSync } = require('child_process');

const REF = process.env.TRAILPIN_PLAYWRIGHT_REF || 'v1.62.1';
const ARIA_SPEC = 'tests/page/page-aria-snapshot.spec.ts';
const AI_SPEC = 'tests/page/page-aria-snapshot-ai.spec.ts';
const repoRoot = path.resolve(__dirname, '..', '..');

function usage(msg) {
  console.error(msg + '\nusage: node scripts/score-snapshots/score.cjs PLAYWRIGHT_GIT_DIR_OR_CHECKOUT [HOST_BINARY] [-v]');
  process.exit(2);
}

/** Reads a file of the Playwright checkout at REF, or from its work tree. */
function playwrightFile(source, file) {
  const bare = fs.existsSync(path.join(source, 'HEAD')) && fs.existsSync(path.join(source, 'objects'));
  const gitDir = bare ? source : path.join(source, '.git');
  if (fs.existsSync(gitDir)) {
    try {
      return execFileSync('git', ['--git-dir', gitDir, 'show', `${REF}:${file}`], { maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return null;
    }
  }
  const p = path.join(source, file);
  return fs.existsSync(p) ? fs.readFileSync(p) : null;
}

// ---------------------------------------------------------------------------
// Extraction

/** The top-level it(...) blocks of a spec, with their titles. */
function testBlocks(src) {
  const starts = [];
  const re = /^it\((['`])(.*?)\1/gm;
  let m;
  while ((m = re.exec(src)))
    starts.push({ at: m.index, title: m[2] });
  return starts.map((s, i) => ({ title: s.title, body: src.slice(s.at, i + 1 < starts.length ? starts[i + 1].at : src.length) }));
}

/** Reads the template literal starting at src[at] === '`'; returns its source and end. */
function templateAt(src, at) {
  let i = at + 1;
  let depth = 0;
  for (; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (depth === 0 && c === '`')
      break;
    if (c === '$' && src[i + 1] === '{') {
      depth++;
      i++;
    } else if (c === '}' && depth > 0) {
      depth--;
    }
  }
  return { source: src.slice(at, i + 1), end: i + 1 };
}

/** Reads a string literal ('…' or `…`) at src[at]. */
function literalAt(src, at) {
  if (src[at] === '`')
    return templateAt(src, at);
  const q = src[at];
  let i = at + 1;
  for (; i < src.length && src[i] !== q; i++) {
    if (src[i] === '\\')
      i++;
  }
  return { source: src.slice(at, i + 1), end: i + 1 };
}

/** Evaluates a literal with the block's simple constants in scope. */
function evaluate(literal, consts) {
  const names = Object.keys(consts);
  // The spec's server is the one serve() starts; its origin is filled in
  // when the page is served.
  const server = { PREFIX: ORIGIN, EMPTY_PAGE: ORIGIN + '/empty.html' };
  // eslint-disable-next-line no-new-func
  return new Function(...names, 'Buffer', 'server', `return ${literal};`)(...names.map(n => consts[n]), Buffer, server);
}

/** Stands for the loopback origin in extracted pages until it is known. */
const ORIGIN = 'http://trailpin-score.invalid';

/** The block's `const x = …;` lines that evaluate without a page. */
function blockConstants(body) {
  const consts = {};
  for (const m of body.matchAll(/^\s*const (\w+) = ([^\n]*);$/gm)) {
    try {
      consts[m[1]] = evaluate(m[2], consts);
    } catch {
      // needs the page or the test's fixtures: not a constant for us
    }
  }
  return consts;
}

/**
 * The statements of a block that matter here, in order: setContent,
 * snapshot expectations, and anything else that acts on the page.
 */
function statements(body) {
  const out = [];
  const re = /await (page\.setContent\(|checkAndMatchSnapshot\(page\.locator\('body'\), |snapshotForAI\(page(?:, (\{[^}]*\}))?\)|page\.|expect\(|[a-zA-Z]+\.)|(?:expect\((\w+)\)|\))\.(toContainYaml|toEqual|toContain|toBe)\(/g;
  let m;
  while ((m = re.exec(body))) {
    if (m[4]) {
      let at = m.index + m[0].length;
      let kind = m[4];
      if (kind === 'toEqual' && body.startsWith('unshift(', at)) {
        at += 'unshift('.length;
        kind = 'toEqualUnshift';
      }
      if (!'`\''.includes(body[at]))
        continue;
      const lit = literalAt(body, at);
      out.push({ type: 'expect', variable: m[3], kind, literal: lit.source });
      re.lastIndex = lit.end;
      continue;
    }
    const what = m[1];
    if (what === 'page.setContent(') {
      const lit = literalAt(body, m.index + m[0].length);
      out.push({ type: 'setContent', literal: lit.source });
      re.lastIndex = lit.end;
    } else if (what.startsWith('checkAndMatchSnapshot')) {
      const lit = literalAt(body, m.index + m[0].length);
      out.push({ type: 'checkBody', literal: lit.source });
      re.lastIndex = lit.end;
    } else if (what.startsWith('snapshotForAI')) {
      out.push({ type: 'snapshotAI', options: m[2] || '' });
    } else if (what === 'page.waitForFunction' || what.startsWith('page.waitFor')) {
      // waiting changes nothing on the page
    } else {
      out.push({ type: 'other', what });
    }
  }
  return out;
}

function unshift(snapshot) {
  const lines = snapshot.split('\n');
  let prefix = 100;
  for (const line of lines) {
    if (!line.trim())
      continue;
    prefix = Math.min(prefix, line.match(/^(\s*)/)[1].length);
  }
  return lines.filter(t => t.trim()).map(line => line.substring(prefix)).join('\n');
}

/** page-aria-snapshot.spec.ts: setContent then checkAndMatchSnapshot(body). */
function ariaPairs(src) {
  const pairs = [];
  for (const block of testBlocks(src)) {
    const consts = blockConstants(block.body);
    let html = null;
    for (const st of statements(block.body)) {
      if (st.type === 'setContent') {
        html = evaluate(st.literal, consts);
      } else if (st.type === 'checkBody' && html !== null) {
        pairs.push({ title: block.title, html, expected: unshift(evaluate(st.literal, consts)), kind: 'exact' });
        html = null;
      } else {
        html = null;
      }
    }
  }
  return pairs;
}

/** page-aria-snapshot-ai.spec.ts: setContent, snapshotForAI(page), its first expectation. */
function aiPairs(src) {
  const pairs = [];
  for (const block of testBlocks(src)) {
    const consts = blockConstants(block.body);
    let html = null;
    let snap = null;
    for (const st of statements(block.body)) {
      if (st.type === 'setContent') {
        html = evaluate(st.literal, consts);
        snap = null;
      } else if (st.type === 'snapshotAI' && html !== null && snap === null) {
        snap = { depth: depthOption(st.options) };
      } else if (st.type === 'expect' && snap) {
        const expected = evaluate(st.literal, consts);
        const kind = { toContainYaml: 'containYaml', toEqualUnshift: 'exactUnshift', toEqual: 'exact', toBe: 'exact', toContain: 'contain' }[st.kind];
        pairs.push({ title: block.title, html, expected: kind === 'exactUnshift' ? unshift(expected) : expected, kind: kind === 'exactUnshift' ? 'exact' : kind, depth: snap.depth });
        html = null;
        snap = null;
      } else if (st.type !== 'expect') {
        html = null;
        snap = null;
      }
    }
  }
  return pairs;
}

function depthOption(options) {
  const m = /depth:\s*(\d+)/.exec(options || '');
  return m ? Number(m[1]) : 0;
}

// ---------------------------------------------------------------------------
// Judging

function containYaml(received, expected) {
  const trimmed = expected.split('\n').filter(a => !!a.trim());
  const prefix = Math.min(...trimmed.map(line => line.match(/^\s*/)[0].length));
  return received.includes(trimmed.map(line => line.substring(prefix)).join('\n'));
}

const refMark = / \[ref=[a-z0-9]+\]/g;

function passes(pair, received, refsAside) {
  let expected = pair.expected;
  if (refsAside) {
    expected = expected.replace(refMark, '');
    received = received.replace(refMark, '');
  }
  switch (pair.kind) {
    case 'exact':
      return received === expected;
    case 'containYaml':
      return containYaml(received, expected);
    case 'contain':
      return received.includes(expected);
  }
  return false;
}

// ---------------------------------------------------------------------------
// Rendering

function serve(source, pages) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const m = /^\/__pair\/(\d+)\.html$/.exec(url.pathname);
    if (m && pages[Number(m[1])] !== undefined) {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(pages[Number(m[1])].split(ORIGIN).join(`http://127.0.0.1:${server.address().port}`));
      return;
    }
    // Pages sit in /__pair/, so their relative links (codicon.css) land there.
    const asset = playwrightFile(source, 'tests/assets' + decodeURIComponent(url.pathname.replace(/^\/__pair\//, '/')));
    if (!asset) {
      res.statusCode = 404;
      res.end();
      return;
    }
    const types = { '.css': 'text/css', '.ttf': 'font/ttf', '.html': 'text/html', '.js': 'text/javascript' };
    res.setHeader('Content-Type', types[path.extname(url.pathname)] || 'application/octet-stream');
    res.end(asset);
  });
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Runs host snapshot; asynchronously, as this process serves the page. */
function hostSnapshot(host, url, mode, depth) {
  const args = ['snapshot', '--mode', mode, url];
  if (depth)
    args.splice(1, 0, '--depth', String(depth));
  return new Promise(resolve => {
    execFile(host, args, { encoding: 'utf8', timeout: 120000 }, (err, stdout, stderr) => {
      resolve(err ? 'ERROR: ' + String(stderr || err.message).trim() : stdout.replace(/\n$/, ''));
    });
  });
}

async function main() {
  const args = process.argv.slice(2).filter(a => a !== '-v');
  const verbose = process.argv.includes('-v');
  if (!args[0])
    usage('no Playwright checkout given');
  const source = path.resolve(args[0]);
  const ariaSrc = playwrightFile(source, ARIA_SPEC);
  const aiSrc = playwrightFile(source, AI_SPEC);
  if (!ariaSrc || !aiSrc)
    usage(`${source} has no ${ARIA_SPEC} / ${AI_SPEC} at ${REF}`);
  let host = args[1];
  if (!host) {
    host = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trailpin-score-')), 'host');
    execFileSync('go', ['build', '-o', host, './host'], { cwd: repoRoot, stdio: 'inherit' });
  }
  const suites = [
    { name: 'aria', spec: ARIA_SPEC, pairs: ariaPairs(ariaSrc.toString()), refsAside: false },
    { name: 'ai', spec: AI_SPEC, pairs: aiPairs(aiSrc.toString()), refsAside: true },
  ];
  const pages = [];
  for (const suite of suites) {
    for (const pair of suite.pairs)
      pair.page = pages.push(pair.html) - 1;
  }
  const server = await serve(source, pages);
  const base = `http://127.0.0.1:${server.address().port}/__pair/`;
  const { chromium } = require(path.join(repoRoot, 'node_modules', 'playwright-core'));
  const browser = await chromium.launch({ executablePath: process.env.TRAILPIN_CHROMIUM || '/usr/bin/chromium' });
  try {
    for (const suite of suites) {
      let ours = 0, theirs = 0;
      for (const pair of suite.pairs) {
        const url = base + pair.page + '.html';
        const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
        await page.goto(url);
        const pw = suite.name === 'aria' ?
          await page.locator('body').ariaSnapshot() :
          await page.ariaSnapshot({ mode: 'ai', ...(pair.depth ? { depth: pair.depth } : {}) });
        await page.close();
        const tp = await hostSnapshot(host, url, suite.name, pair.depth);
        const pwOK = passes(pair, pw, suite.refsAside);
        const tpOK = passes(pair, tp, suite.refsAside);
        theirs += pwOK ? 1 : 0;
        ours += tpOK ? 1 : 0;
        console.log(`${tpOK ? 'ok  ' : 'FAIL'} ${pwOK ? 'ok  ' : 'FAIL'}  ${suite.name}: ${pair.title}`);
        if (verbose && !tpOK)
          console.log(indent('expected', pair.expected) + indent('trailpin', tp) + indent('playwright', pw));
      }
      console.log(`${suite.name} (${suite.spec} at ${REF}): trailpin ${ours} / ${suite.pairs.length}, playwright-core ${theirs} / ${suite.pairs.length}\n`);
    }
  } finally {
    await browser.close();
    server.close();
  }
}

function indent(label, text) {
  return `    ${label}:\n` + text.split('\n').map(l => '      | ' + l).join('\n') + '\n';
}

main().catch(e => {
  console.error(e);
  process.exit(1);
});

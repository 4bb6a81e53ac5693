// Unit tests of what the agent may do in the recorded tab (agentlive.js,
// docs/agent.md, What the agent may and may not do): every act runs only on
// the app's origins the host names, checked at the moment of acting, and
// typing goes into the element of the ref or nowhere. The fake chrome APIs
// answer the page scripts with what a page would say; the real pages are
// e2e's (TestRecordAskAgentFocusMoves, TestRecordAskAgentInjection).

import { test } from 'node:test';
import assert from 'node:assert/strict';

const { LiveAgent, originOf, allowedOrigins, offOrigin, offElement } = await import('../agentlive.js');

const APP = 'http://127.0.0.1:1';
const EVIL = 'http://127.0.0.2:9';
const on = { top: APP, origin: APP, opens: '' };
const point = { x: 10, y: 20, box: { x: 5, y: 15, width: 10, height: 10 }, inViewport: true };

/**
 * Fake chrome APIs for one tab. page answers each page script: the kind of
 * script (target, focus, check, choose, press) from its arguments, and how
 * many of that kind ran before.
 */
function fakeChrome({ page = () => undefined, urls = [`${APP}/form`], history } = {}) {
  const sent = [];
  const scripts = [];
  const log = [];
  const counts = {};
  let gets = 0;
  const listeners = () => ({ addListener() {}, removeListener() {} });
  return {
    sent,
    scripts,
    log,
    tabs: { get: async (id) => ({ id, url: urls[Math.min(gets++, urls.length - 1)] }) },
    scripting: {
      executeScript: async (o) => {
        const a = o.args ?? [];
        const src = String(o.func);
        const kind = a.length === 1 ? 'press' : src.includes('HTMLSelectElement') ? 'choose' : src.includes('deepActive')
          ? (a[2] === 'focused' ? 'focus' : 'check') : 'target';
        scripts.push(kind);
        log.push(kind);
        counts[kind] = (counts[kind] ?? 0) + 1;
        return [{ result: page(kind, counts[kind], a) }];
      },
    },
    webNavigation: { onBeforeNavigate: listeners(), onDOMContentLoaded: listeners(), onErrorOccurred: listeners() },
    debugger: {
      attach: async () => {},
      detach: async () => {},
      sendCommand: async (_t, method, params) => {
        sent.push({ method, params });
        log.push(params.type ? `${method} ${params.type}` : method);
        if (method === 'Page.getNavigationHistory') return history;
        return {};
      },
    },
  };
}

/** A page whose element of every ref is a text field on the app, focused when asked. */
const field = (over = {}) => (kind, n, args) => {
  if (over[kind]) {
    const r = over[kind](n, args);
    if (r !== undefined) return r;
  }
  if (kind === 'target') return { point, where: on };
  if (kind === 'focus' || kind === 'check') return { focused: true, active: 'input "Name"', where: on };
  if (kind === 'press') return { where: on };
  return undefined;
};

const methods = (chrome) => chrome.sent.map((s) => s.method);
const inputs = (chrome) => chrome.sent.filter((s) => s.method.startsWith('Input.'));

test('origins: the helpers read http and https origins only, as URL writes them', () => {
  assert.equal(originOf('http://127.0.0.1:1/a?b#c'), APP);
  assert.equal(originOf('https://Shop.Example:443/x'), 'https://shop.example');
  assert.equal(originOf('javascript:alert(1)'), '');
  assert.equal(originOf('chrome-error://chromewebdata/'), '');
  assert.equal(originOf(undefined), '');
  assert.deepEqual(allowedOrigins([`${APP}/`, APP, 'null', 7, 'https://id.example']), [APP, 'https://id.example']);
  assert.deepEqual(allowedOrigins('http://127.0.0.1:1'), [], 'a list, or nothing');
  assert.equal(offOrigin(`${APP}/checkout`, [APP]), '');
  assert.equal(offOrigin(`${EVIL}/checkout`, [APP]), EVIL, 'the origin, never the path only');
  assert.equal(offOrigin('null', [APP]), 'null', 'a sandboxed frame is off the app');
  assert.equal(offOrigin('', [APP]), 'an unknown origin');
  assert.equal(offElement('e1', on, [APP]), null);
  assert.equal(offElement('e1', { ...on, opens: 'javascript:void(0)' }, [APP]), null, 'a script link opens no page');
  assert.equal(offElement('e1', undefined, [APP])?.reason, 'refused', 'a page that says nothing is refused');
});

test('an act without the origins the app may be acted on is refused, and nothing reaches the page', async () => {
  for (const op of ['tap', 'type', 'select', 'press', 'navigate']) {
    const chrome = fakeChrome({ page: field() });
    const live = new LiveAgent({ chrome });
    const ans = await live.perform(7, { op, ref: 'e1', document: 'd', text: 'x', key: 'Enter', option: 'A', url: `${APP}/x`, timeoutMs: 100 });
    assert.equal(ans.reason, 'refused', `${op}: ${JSON.stringify(ans)}`);
    assert.match(ans.error, /named no origin/);
    assert.deepEqual(chrome.sent, [], `${op} sent ${methods(chrome)}`);
    assert.deepEqual(chrome.scripts, [], `${op} ran scripts in the page`);
  }
  // A capture needs none.
  const chrome = fakeChrome({ page: () => ({ wire: '{"schema":1}' }) });
  chrome.scripting.executeScript = async () => [{ result: { wire: '{"schema":1}' } }];
  assert.equal((await new LiveAgent({ chrome }).perform(7, { op: 'screen' })).ok, true);
});

test('a tap on a page, a frame or a link off the app is refused, naming the origin, and nothing is clicked', async () => {
  const cases = [
    ['the page', { ...on, top: EVIL }, /the page is on http:\/\/127\.0\.0\.2:9, which is not the app \(http:\/\/127\.0\.0\.1:1\)/],
    ['a frame of another origin', { ...on, origin: EVIL }, /the frame of e1 is on http:\/\/127\.0\.0\.2:9/],
    ['a sandboxed frame', { ...on, origin: 'null' }, /the frame of e1 is on null/],
    ['a link off the app', { ...on, opens: `${EVIL}/steal` }, /e1 would open a page on http:\/\/127\.0\.0\.2:9/],
  ];
  for (const [what, where, said] of cases) {
    const chrome = fakeChrome({ page: field({ target: () => ({ point, where }) }) });
    const ans = await new LiveAgent({ chrome }).perform(7, { op: 'tap', ref: 'e1', document: 'd', timeoutMs: 100, origins: [APP] });
    assert.equal(ans.reason, 'refused', what);
    assert.match(ans.error, said, what);
    assert.match(ans.error, /apps\.<name>\.origins/, `${what}: the refusal says how to trust an origin`);
    assert.deepEqual(inputs(chrome), [], `${what}: clicked`);
  }
  // A link to the app, and one to an origin the app trusts, are tapped.
  for (const opens of [`${APP}/next`, 'https://id.example/login']) {
    const chrome = fakeChrome({ page: field({ target: () => ({ point, where: { ...on, opens } }) }) });
    const ans = await new LiveAgent({ chrome }).perform(7, { op: 'tap', ref: 'e1', document: 'd', timeoutMs: 100, origins: [APP, 'https://id.example'] });
    assert.deepEqual(ans, { ok: true }, opens);
    assert.equal(inputs(chrome).length, 3);
  }
});

test('a tab that went off the app between finding the element and the click gets no click', async () => {
  const chrome = fakeChrome({ page: field(), urls: [`${APP}/form`, `${EVIL}/landing`] });
  const ans = await new LiveAgent({ chrome }).perform(7, { op: 'tap', ref: 'e1', document: 'd', timeoutMs: 100, origins: [APP] });
  assert.equal(ans.reason, 'refused');
  assert.match(ans.error, /the page is on http:\/\/127\.0\.0\.2:9/);
  assert.deepEqual(inputs(chrome), []);
});

test('typing goes in only with the focus on the field of the ref, checked right before the text', async () => {
  const secret = 'hunter2-value';
  // The page moves the focus when the field gets it.
  let chrome = fakeChrome({ page: field({ focus: () => ({ focused: false, active: 'input "Search"', where: on }) }) });
  let ans = await new LiveAgent({ chrome }).perform(7, { op: 'type', ref: 'e1', document: 'd', text: secret, timeoutMs: 100, origins: [APP] });
  assert.equal(ans.ok, false);
  assert.match(ans.error, /the focus is on input "Search", not on e1: the page moved it when the field was focused, so nothing was typed/);
  assert.deepEqual(inputs(chrome), [], 'input reached the page');

  // The focus stays, then moves before the text goes in.
  chrome = fakeChrome({ page: field({ check: () => ({ focused: false, active: 'input "Search"', where: on }) }) });
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'type', ref: 'e1', document: 'd', text: secret, timeoutMs: 100, origins: [APP] });
  assert.match(ans.error, /the page moved it before the text was typed/);
  assert.ok(!methods(chrome).includes('Input.insertText'));

  // The field's frame went off the app by then.
  chrome = fakeChrome({ page: field({ check: () => ({ focused: true, active: 'input', where: { ...on, origin: EVIL } }) }) });
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'type', ref: 'e1', document: 'd', text: secret, timeoutMs: 100, origins: [APP] });
  assert.equal(ans.reason, 'refused');
  assert.match(ans.error, /the frame of e1 is on http:\/\/127\.0\.0\.2:9/);
  assert.ok(!methods(chrome).includes('Input.insertText'));

  // So did the page (tabs.get: before the click, then right before the text).
  chrome = fakeChrome({ page: field(), urls: [`${APP}/form`, `${APP}/form`, `${EVIL}/form`] });
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'type', ref: 'e1', document: 'd', text: secret, timeoutMs: 100, origins: [APP] });
  assert.equal(ans.reason, 'refused');
  assert.ok(!methods(chrome).includes('Input.insertText'));

  // All well: the focus, the click, the check, then the text.
  chrome = fakeChrome({ page: field() });
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'type', ref: 'e1', document: 'd', text: secret, timeoutMs: 100, origins: [APP] });
  assert.deepEqual(ans, { ok: true });
  assert.deepEqual(chrome.log, ['target', 'focus', 'Page.getFrameTree', 'Fetch.enable', 'Input.dispatchMouseEvent mouseMoved', 'Input.dispatchMouseEvent mousePressed',
    'Input.dispatchMouseEvent mouseReleased', 'check', 'Input.insertText']);
  assert.equal(chrome.sent.at(-1).params.text, secret);
});

test('a drop-down off the app, or one that lost the focus, gets no key', async () => {
  let chrome = fakeChrome({ page: field({ choose: () => ({ where: { ...on, origin: EVIL }, delta: 1 }) }) });
  let ans = await new LiveAgent({ chrome }).perform(7, { op: 'select', ref: 'e1', document: 'd', option: 'B', timeoutMs: 100, origins: [APP] });
  assert.equal(ans.reason, 'refused');
  assert.deepEqual(inputs(chrome), []);
  chrome = fakeChrome({ page: field({ choose: () => ({ where: on, moved: 'input' }) }) });
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'select', ref: 'e1', document: 'd', option: 'B', timeoutMs: 100, origins: [APP] });
  assert.match(ans.error, /the focus is on input, not on e1/);
  assert.deepEqual(inputs(chrome), []);
});

test('a key goes only to a focused element on the app, and Enter never opens a page off it', async () => {
  const press = async (where, key = 'Enter') => {
    const chrome = fakeChrome({ page: field({ press: () => ({ where }) }) });
    const ans = await new LiveAgent({ chrome }).perform(7, { op: 'press', key, origins: [APP] });
    return { ans, keys: inputs(chrome).length };
  };
  let r = await press({ ...on, origin: EVIL });
  assert.equal(r.ans.reason, 'refused', 'the focus is in a frame of another origin');
  assert.equal(r.keys, 0);
  r = await press({ ...on, opens: `${EVIL}/steal` });
  assert.match(r.ans.error, /would open a page on http:\/\/127\.0\.0\.2:9/);
  assert.equal(r.keys, 0);
  r = await press(on, 'Tab');
  assert.deepEqual(r.ans, { ok: true });
  assert.equal(r.keys, 2);
});

test('navigate goes only to the app: a URL, or a page back or forward, off it is refused', async () => {
  let chrome = fakeChrome();
  let ans = await new LiveAgent({ chrome }).perform(7, { op: 'navigate', url: `${EVIL}/steal`, origins: [APP] });
  assert.equal(ans.reason, 'refused');
  assert.match(ans.error, /http:\/\/127\.0\.0\.2:9\/steal is on http:\/\/127\.0\.0\.2:9/);
  assert.deepEqual(chrome.sent, []);

  chrome = fakeChrome({ history: { currentIndex: 1, entries: [{ id: 1, url: `${EVIL}/` }, { id: 2, url: `${APP}/` }] } });
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'navigate', history: 'back', origins: [APP] });
  assert.equal(ans.reason, 'refused');
  assert.deepEqual(methods(chrome), ['Page.getFrameTree', 'Fetch.enable', 'Page.getNavigationHistory']);

  chrome = fakeChrome({ urls: [`${EVIL}/`] });
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'navigate', history: 'reload', origins: [APP] });
  assert.equal(ans.reason, 'refused', 'a reload of a page off the app');

  chrome = fakeChrome();
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'navigate', url: `${APP}/cart`, origins: [APP] });
  assert.deepEqual(ans, { ok: true });
  assert.deepEqual(chrome.sent.at(-1), { method: 'Page.navigate', params: { url: `${APP}/cart`, transitionType: 'typed' } });
});

test('while the agent acts, a page load of the tab off the app is stopped, and the act that caused it is refused', async () => {
  const listeners = [];
  const chrome = fakeChrome({ page: field() });
  chrome.debugger.onEvent = { addListener: (f) => listeners.push(f) };
  const send = chrome.debugger.sendCommand;
  chrome.debugger.sendCommand = async (t, method, params) => {
    const out = await send(t, method, params);
    if (method === 'Page.getFrameTree') return { frameTree: { frame: { id: 'main' } } };
    if (method === 'Input.dispatchMouseEvent' && params.type === 'mouseReleased') {
      // The page's script answers the click by going elsewhere; a frame
      // of another origin and a page of the app load too.
      const paused = (requestId, frameId, url) => listeners.forEach((f) => f({ tabId: 7 }, 'Fetch.requestPaused',
        { requestId, frameId, resourceType: 'Document', request: { url } }));
      paused('r1', 'main', `${EVIL}/steal?pin=1`);
      paused('r2', 'ad-frame', `${EVIL}/ad.html`);
      paused('r3', 'main', `${APP}/next`);
      // Another tab's load is none of the agent's business.
      listeners.forEach((f) => f({ tabId: 8 }, 'Fetch.requestPaused', { requestId: 'r4', frameId: 'main', resourceType: 'Document', request: { url: `${EVIL}/` } }));
    }
    return out;
  };
  const live = new LiveAgent({ chrome });
  const ans = await live.perform(7, { op: 'tap', ref: 'e1', document: 'd', timeoutMs: 100, origins: [APP] });
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(ans.reason, 'refused');
  assert.match(ans.error, /the tap made the page load http:\/\/127\.0\.0\.2:9\/steal\?pin=1, which is on http:\/\/127\.0\.0\.2:9, which is not the app .*so the load was stopped and the tab kept its page/);
  assert.equal(ans.origin, EVIL);
  assert.equal(ans.why, `the tap made the page load ${EVIL}/steal?pin=1, which is on ${EVIL}`);
  assert.deepEqual(chrome.sent.filter((s) => s.method.startsWith('Fetch.')).map((s) => [s.method, s.params.requestId ?? '', s.params.errorReason ?? '']), [
    ['Fetch.enable', '', ''],
    ['Fetch.failRequest', 'r1', 'Aborted'],
    ['Fetch.continueRequest', 'r2', ''],
    ['Fetch.continueRequest', 'r3', ''],
  ]);
  assert.deepEqual(chrome.sent.find((s) => s.method === 'Fetch.enable').params.patterns, [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }]);

  // The next act starts afresh.
  const next = await live.perform(7, { op: 'press', key: 'Tab', origins: [APP] });
  assert.deepEqual(next, { ok: true });
});

test('several options of a list box: a click on the first, a Control-click on each other, the selection read back', async () => {
  // The choose scripts: the probe (4 arguments), an option's point (3), the selection read back (2).
  const list = (probe, selected = ['A', 'C']) => field({
    choose: (_n, a) => (a.length === 4 ? probe(a) : a.length === 3 ? { where: on, point: { ...point, x: a[2] === 'A' ? 11 : 33 } } : { selected }),
  });
  let chrome = fakeChrome({ page: list(() => ({ where: on, list: true })) });
  let ans = await new LiveAgent({ chrome }).perform(7, { op: 'select', ref: 'e1', document: 'd', options: ['A', 'C'], timeoutMs: 100, origins: [APP] });
  assert.deepEqual(ans, { ok: true });
  const presses = inputs(chrome).filter((s) => s.params.type === 'mousePressed');
  assert.deepEqual(presses.map((s) => [s.params.x, s.params.modifiers ?? 0]), [[11, 0], [33, 2]], 'the first plain, the second with Control held');
  assert.deepEqual(inputs(chrome).filter((s) => s.method === 'Input.dispatchKeyEvent'), [], 'no key: Control is held for the click only');

  chrome = fakeChrome({ page: list(() => ({ where: on, missing: ['A', 'B', 'C'], absent: ['Z'] })) });
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'select', ref: 'e1', document: 'd', options: ['A', 'Z'], timeoutMs: 100, origins: [APP] });
  assert.equal(ans.reason, 'failed');
  assert.match(ans.error, /e1 has no option "Z" \(it has "A", "B", "C"\): nothing was chosen/);
  assert.deepEqual(inputs(chrome), [], 'an option the list does not have: no input at all');

  chrome = fakeChrome({ page: list(() => ({ where: on, single: true })) });
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'select', ref: 'e1', document: 'd', options: ['A', 'C'], timeoutMs: 100, origins: [APP] });
  assert.match(ans.error, /e1 holds one choice, and 2 options were given \("A", "C"\)/);
  assert.deepEqual(inputs(chrome), [], 'several options for a single choice: no input at all');

  chrome = fakeChrome({ page: list(() => ({ where: on, list: true }), ['A']) });
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'select', ref: 'e1', document: 'd', options: ['A', 'C'], timeoutMs: 100, origins: [APP] });
  assert.match(ans.error, /e1 ended with "A" selected, not "A", "C": the page changed the choice/);

  chrome = fakeChrome({ page: field({ choose: (_n, a) => (a.length === 4 ? { where: on, list: true } : { where: { ...on, origin: EVIL }, point }) }) });
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'select', ref: 'e1', document: 'd', options: ['A', 'C'], timeoutMs: 100, origins: [APP] });
  assert.equal(ans.reason, 'refused', 'an option in a frame off the app');
  assert.deepEqual(inputs(chrome), []);
});

test('a secret is typed only into a field the recorder records as secret, checked right before the text', async () => {
  const secret = 'Hunter2-very-secret';
  // The page moved a text field in place of the password field between the two checks.
  let chrome = fakeChrome({ page: field({ check: (_n, a) => (a[3] === true ? { notSecret: 'input is not a password field nor one the person marked sensitive, so the secret was not typed' } : undefined) }) });
  let ans = await new LiveAgent({ chrome }).perform(7, { op: 'type', ref: 'e1', document: 'd', text: secret, secret: true, timeoutMs: 100, origins: [APP] });
  assert.equal(ans.reason, 'failed');
  assert.match(ans.error, /not a password field/);
  assert.equal(chrome.sent.filter((s) => s.method === 'Input.insertText').length, 0, 'nothing typed');
  assert.ok(!JSON.stringify(ans).includes(secret), 'the answer never holds the value');
  // A plain text is not held to it.
  chrome = fakeChrome({ page: field({ check: (_n, a) => (a[3] === true ? { notSecret: 'no' } : undefined) }) });
  ans = await new LiveAgent({ chrome }).perform(7, { op: 'type', ref: 'e1', document: 'd', text: 'ada', timeoutMs: 100, origins: [APP] });
  assert.deepEqual(ans, { ok: true });
});

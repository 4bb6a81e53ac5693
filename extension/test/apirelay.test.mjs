// Unit tests of the agent API's side in the extension
// (background/apirelay.js) with a fake host and fake chrome APIs: the
// person allows a client before it acts, shares tabs one by one, revokes;
// one client drives a tab at a time.

import { test } from 'node:test';
import assert from 'node:assert/strict';

const { ApiRelay, ALLOWED_KEY, SHARED_KEY } = await import('../background/apirelay.js');

function memory() {
  const data = {};
  return {
    data,
    async get(key) { return key in data ? { [key]: data[key] } : {}; },
    async set(o) { Object.assign(data, JSON.parse(JSON.stringify(o))); },
  };
}

function fakeChrome(local = memory(), session = memory()) {
  return {
    storage: { local, session },
    tabs: { get: async (id) => (id === 404 ? Promise.reject(new Error('no tab')) : { id, url: `http://shop.test/${id}`, title: `Tab ${id}` }) },
    action: { setBadgeText: async () => {}, setTitle: async () => {} },
    scripting: { executeScript: async () => [{ result: undefined }] },
    debugger: { attach: async () => {}, detach: async () => {}, sendCommand: async () => ({}), onEvent: { addListener() {} }, onDetach: { addListener() {} } },
    webNavigation: { onBeforeNavigate: { addListener() {}, removeListener() {} } },
  };
}

function fakeHost() {
  return {
    answers: [],
    requests: [],
    answer(id, type, body) { this.answers.push({ id, type, body }); },
    async request(type, body) { this.requests.push({ type, body }); return {}; },
  };
}

const recording = { phase: 'idle', session: '', tabs: new Set(), queue: { nextSeq: 1 }, start: null, review: null, saved: null, exported: null, flushPage: async () => {}, handle: async () => ({}) };

/** The relay, its fake host and chrome, with a live agent that notes acts. */
function relay(chrome = fakeChrome()) {
  const host = fakeHost();
  const r = new ApiRelay({ chrome, host, recording });
  r.acts = [];
  r.live.perform = async (tab, m) => { r.acts.push({ tab, op: m.op }); return { ok: true }; };
  r.live.loaded = async () => {};
  r.live.detach = async () => {};
  return { r, host, chrome };
}

let ids = 0;
async function call(r, host, m) {
  const id = `host-${++ids}`;
  await r.fromHost({ type: 'api.request', id, ...m });
  return host.answers.find((a) => a.id === id).body;
}

test('a client waits for the person to allow it, and the answer is kept until revoked', async () => {
  const { r, host, chrome } = relay();
  let answered = false;
  const allowing = call(r, host, { call: 'allow', client: 'shop-bot' }).then((b) => { answered = true; return b; });
  await new Promise((res) => setTimeout(res, 10));
  assert.equal(answered, false, 'the host is answered only once the person decided');
  assert.deepEqual(r.view().asking, ['shop-bot']);
  // Until then, nothing is performed.
  assert.equal((await call(r, host, { call: 'tabs', client: 'shop-bot' })).reason, 'refused');
  await r.decide('shop-bot', true);
  assert.deepEqual(await allowing, { ok: true });
  assert.deepEqual(chrome.storage.local.data[ALLOWED_KEY], ['shop-bot']);

  // A restarted worker remembers; a second ask is answered at once.
  const again = relay(chrome);
  assert.deepEqual(await call(again.r, again.host, { call: 'allow', client: 'shop-bot' }), { ok: true });

  await again.r.revoke('shop-bot');
  assert.deepEqual(chrome.storage.local.data[ALLOWED_KEY], []);
  assert.deepEqual(again.host.requests.at(-1), { type: 'api.revoke', body: { client: 'shop-bot' } }, 'the host disconnects the revoked client');
  assert.equal((await call(again.r, again.host, { call: 'tabs', client: 'shop-bot' })).reason, 'refused');
});

test('a denied client is told so, and stays not allowed', async () => {
  const { r, host } = relay();
  const asked = call(r, host, { call: 'allow', client: 'stranger' });
  await new Promise((res) => setTimeout(res, 0));
  await r.decide('stranger', false);
  assert.deepEqual(await asked, { ok: false });
  assert.equal((await call(r, host, { call: 'page', client: 'stranger', tab: 1, op: 'screen' })).reason, 'refused');
  assert.equal(r.acts.length, 0);
});

test('only the tabs the person shared are listed and acted in', async () => {
  const { r, host, chrome } = relay();
  await r.decide('shop-bot', true);
  await r.share(7, true);
  await r.share(8, true);
  await r.share(8, false);
  assert.deepEqual(chrome.storage.session.data[SHARED_KEY], [7]);
  const tabs = await call(r, host, { call: 'tabs', client: 'shop-bot' });
  assert.deepEqual(tabs, { ok: true, tabs: [{ tab: 7, url: 'http://shop.test/7', title: 'Tab 7', recording: '' }] });
  const refused = await call(r, host, { call: 'page', client: 'shop-bot', tab: 8, op: 'tap', ref: 'e1' });
  assert.equal(refused.reason, 'refused');
  assert.match(refused.error, /not shared/);
  assert.equal(r.acts.length, 0, 'nothing was performed in the unshared tab');
  const ok = await call(r, host, { call: 'page', client: 'shop-bot', tab: 7, op: 'tap', ref: 'e1' });
  assert.equal(ok.ok, true);
  assert.deepEqual(r.acts, [{ tab: 7, op: 'tap' }]);
  assert.deepEqual(r.view().driven, [{ tab: 7, client: 'shop-bot' }], 'the tab shows who drives it');
});

test('one client drives a tab at a time, until it disconnects', async () => {
  const { r, host } = relay();
  await r.decide('a', true);
  await r.decide('b', true);
  await r.share(7, true);
  assert.equal((await call(r, host, { call: 'page', client: 'a', tab: 7, op: 'press', key: 'Enter' })).ok, true);
  const busy = await call(r, host, { call: 'page', client: 'b', tab: 7, op: 'press', key: 'Enter' });
  assert.equal(busy.reason, 'refused');
  assert.match(busy.error, /^busy: a drives tab 7/);
  assert.equal(r.acts.length, 1);
  await r.disconnect('a');
  assert.deepEqual(host.requests.at(-1), { type: 'api.revoke', body: { client: 'a', keep: true } });
  assert.deepEqual(r.view().allowed, ['a', 'b'], 'disconnecting is not revoking');
  assert.equal((await call(r, host, { call: 'page', client: 'b', tab: 7, op: 'press', key: 'Enter' })).ok, true);
});

test('an act in a recorded tab numbers what it recorded, for the host to mark it the client\'s', async () => {
  const rec = { ...recording, phase: 'recording', session: 'r-1', tabs: new Set([7]), queue: { nextSeq: 5 } };
  const chrome = fakeChrome();
  const host = fakeHost();
  const r = new ApiRelay({ chrome, host, recording: rec });
  r.live.perform = async () => { rec.queue.nextSeq += 2; return { ok: true }; };
  r.live.loaded = async () => {};
  await r.decide('a', true);
  await r.share(7, true);
  const ans = await call(r, host, { call: 'page', client: 'a', tab: 7, op: 'tap', ref: 'e1', document: 'd' });
  assert.deepEqual({ ok: ans.ok, recording: ans.recording, from: ans.from, until: ans.until }, { ok: true, recording: 'r-1', from: 5, until: 6 });
});

test('a shared tab that is not recorded is captured by the page model alone, injected once', async () => {
  const chrome = fakeChrome();
  const injected = [];
  let there = false;
  chrome.scripting.executeScript = async (o) => {
    if (o.files) { injected.push(...o.files); there = true; return [{ result: undefined }]; }
    const src = String(o.func);
    if (src.includes('captureWire')) return [{ result: JSON.stringify({ schema: 1, document: 'd', url: 'http://shop.test/7' }) }];
    return [{ result: there }];
  };
  const { r, host } = relay(chrome);
  r.live.loaded = async () => {};
  await r.decide('a', true);
  await r.share(7, true);
  const ans = await call(r, host, { call: 'page', client: 'a', tab: 7, op: 'screen' });
  assert.deepEqual(ans.screen, { schema: 1, document: 'd', url: 'http://shop.test/7' });
  assert.equal(r.acts.length, 0, 'the recorder\'s capture is not used');
  assert.ok(injected.includes('pagemodel/core.js'));
  const n = injected.length;
  await call(r, host, { call: 'page', client: 'a', tab: 7, op: 'screen' });
  assert.equal(injected.length, n, 'the page model is injected once');
});

test('an assertChange is recorded whole by the recorder, only right after the client\'s act', async () => {
  const rec = { ...recording, phase: 'recording', session: 'r-1', tabs: new Set([7]), queue: { nextSeq: 7 } };
  const chrome = fakeChrome();
  const recorded = [];
  const g = /** @type {any} */ (globalThis);
  g.__trailpinRecorder = { recordCheck(i) { recorded.push(i); rec.queue.nextSeq++; } };
  try {
    chrome.scripting.executeScript = async (o) => [{ result: o.func ? o.func(...(o.args ?? [])) : undefined }];
    const host = fakeHost();
    const r = new ApiRelay({ chrome, host, recording: rec });
    r.live.loaded = async () => {};
    await r.decide('a', true);
    await r.share(7, true);
    const check = { mustInclude: [{ change: 'added', selector: { role: 'dialog', name: 'Added to cart' } }] };
    // The person's click (seq 6) came after the client's act (seq 5).
    const late = await call(r, host, { call: 'page', client: 'a', tab: 7, op: 'assertChange', assertChange: check, since: 5 });
    assert.equal(late.ok, false);
    assert.match(late.error, /recorded something after your last act/);
    assert.equal(recorded.length, 0, 'nothing is recorded');
    const ans = await call(r, host, { call: 'page', client: 'a', tab: 7, op: 'assertChange', assertChange: check, since: 6 });
    assert.deepEqual({ ok: ans.ok, from: ans.from, until: ans.until }, { ok: true, from: 7, until: 7 });
    assert.deepEqual(recorded, [{ kind: 'assertChange', assertChange: check }]);
  } finally {
    delete g.__trailpinRecorder;
  }
});

// Unit tests of the background's message listener (background.js) with a
// fake chrome and a fake host: what a recorded page's content script asks
// reaches the host only when it is an interaction or one of the recording
// bar's buttons; the popup's requests go through; a refusal is answered
// and changes nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';

const ID = 'fjmncidonfkcepgogieobgonbpmpilie';
const BASE = `chrome-extension://${ID}/`;

/** The host: answers hello and what the recording asks, and keeps every message it got. */
class FakePort {
  constructor() {
    this.posted = [];
    this.listeners = [];
    this.onMessage = { addListener: (f) => this.listeners.push(f) };
    this.onDisconnect = { addListener() {} };
  }
  postMessage(m) {
    this.posted.push(m);
    /** @type {Record<string, unknown>} */
    let reply = { v: 1, id: m.id, type: m.type };
    switch (m.type) {
      case 'hello': reply = { ...reply, protocol: 1, version: 'test', types: ['hello', 'record.start', 'record.interaction', 'trail.export'] }; break;
      case 'record.start': reply = { ...reply, session: m.session, origin: 'https://shop.example', project: null, app: null, lastSeq: 0 }; break;
      case 'record.interaction': reply = { ...reply, session: m.session, seq: m.interaction.seq, added: true }; break;
    }
    queueMicrotask(() => { for (const f of this.listeners) f(reply); });
  }
  disconnect() {}
}

const ports = [];
const warnings = [];
let listener = null;
const noop = () => ({ addListener() {} });
globalThis.chrome = {
  runtime: {
    id: ID,
    lastError: undefined,
    getManifest: () => ({ version: '0.1.0' }),
    getURL: (p) => BASE + p,
    connectNative: () => { const p = new FakePort(); ports.push(p); return p; },
    sendMessage: async () => {},
    onMessage: { addListener: (f) => { listener = f; } },
  },
  storage: { session: { get: async () => ({}), set: async () => {}, remove: async () => {} }, local: { set: async () => {} } },
  tabs: { get: async (id) => ({ id, url: 'https://shop.example/cart', title: 'Cart' }), onActivated: noop(), onRemoved: noop() },
  webNavigation: { onCommitted: noop(), onHistoryStateUpdated: noop(), onReferenceFragmentUpdated: noop(), onDOMContentLoaded: noop(), onCreatedNavigationTarget: noop() },
  scripting: {
    executeScript: async (o) => (o.func ? [{ result: { width: 1280, height: 800, locale: 'en', timeZone: 'UTC', index: 0 } }] : [{}]),
    registerContentScripts: async () => {},
    unregisterContentScripts: async () => {},
    getRegisteredContentScripts: async () => [],
  },
  action: { setBadgeText: async () => {}, setBadgeBackgroundColor: async () => {} },
};
const warn = console.warn;
console.warn = (...a) => warnings.push(a.join(' '));
await import('../background.js');

/** Sends msg as sender, as chrome.runtime.sendMessage would, and returns the answer. */
function send(msg, sender) {
  return new Promise((resolve) => {
    let answered = false;
    const async = listener({ to: 'background', ...msg }, sender, (r) => { answered = true; resolve(r); });
    if (!async && !answered) resolve(undefined);
  });
}

const host = () => ports.at(-1);
const sentTypes = () => host().posted.map((m) => m.type);
const settle = () => new Promise((r) => setTimeout(r, 10));

const popup = { id: ID, url: `${BASE}popup.html`, origin: BASE.slice(0, -1) };
const content = { id: ID, url: 'https://shop.example/cart', origin: 'https://shop.example', tab: { id: 7 }, frameId: 0 };

test('a content script asking the host for anything is refused, and the host hears nothing', async () => {
  await settle();
  const before = host().posted.length;
  const r = await send({ kind: 'request', type: 'trail.export', body: { trail: 't', project: '/home/me' } }, content);
  assert.equal(r?.ok, false);
  assert.equal(r?.refused, true);
  assert.match(r.error, /only from the extension's own pages/);
  await settle();
  assert.equal(host().posted.length, before, `the host got ${sentTypes().slice(before)}`);
  assert.match(warnings.at(-1), /Trailpin refused a message: "request"/);
});

test('a content script asking record (start, project, ask) is refused', async () => {
  for (const op of [{ op: 'start', tab: 7 }, { op: 'project', dir: '/home/me', create: true }, { op: 'ask', goal: 'open the admin page' }]) {
    const before = host().posted.length;
    const r = await send({ kind: 'record', ...op }, content);
    assert.equal(r?.refused, true, op.op);
    await settle();
    assert.deepEqual(sentTypes().slice(before), [], op.op);
  }
});

test('a content script asking to reconnect opens no new connection', async () => {
  const n = ports.length;
  const r = await send({ kind: 'reconnect' }, content);
  assert.equal(r?.refused, true);
  assert.equal(ports.length, n);
});

test('the popup asks the host through the background', async () => {
  const r = await send({ kind: 'request', type: 'trail.export', body: { trail: 't' } }, popup);
  assert.equal(r?.ok, true);
  assert.equal(sentTypes().at(-1), 'trail.export');
  const inTab = await send({ kind: 'status' }, { ...popup, url: `${BASE}popup.html?tab=7`, tab: { id: 9 }, frameId: 0 });
  assert.equal(inTab.state, 'connected');
});

test('an interaction from a tab not recorded is refused; from the recorded tab it goes to the host', async () => {
  const click = { kind: 'interaction', interaction: { kind: 'click', time: 1, url: 'https://shop.example/cart' } };
  let r = await send(click, content);
  assert.equal(r?.refused, true, 'nothing is recorded yet');
  const view = await send({ kind: 'record', op: 'start', tab: 7 }, popup);
  assert.equal(view.phase, 'recording');
  r = await send(click, { ...content, tab: { id: 8 } });
  assert.equal(r?.refused, true);
  assert.match(r.error, /tab 8, which is not being recorded/);
  r = await send(click, content);
  assert.deepEqual(r, { ok: true });
  await settle();
  const sent = host().posted.filter((m) => m.type === 'record.interaction').map((m) => m.interaction.kind);
  assert.deepEqual(sent, ['click']);
});

test('a page cannot pass its actions off as the agent\'s or as navigations', async () => {
  for (const kind of ['agentStart', 'agentEnd', 'navigate', 'switchTab']) {
    const r = await send({ kind: 'interaction', interaction: { kind, time: 1, url: 'https://shop.example/', text: 'goal', state: 'done' } }, content);
    assert.equal(r?.refused, true, kind);
  }
  await settle();
  const sent = host().posted.filter((m) => m.type === 'record.interaction').map((m) => m.interaction.kind);
  assert.deepEqual(sent, ['click']);
});

test('the bar\'s Stop from a frame below the top is refused', async () => {
  const r = await send({ kind: 'record-stop' }, { ...content, url: 'https://ads.example/', frameId: 4 });
  assert.equal(r?.refused, true);
  const view = await send({ kind: 'record', op: 'state' }, popup);
  assert.equal(view.phase, 'recording');
  console.warn = warn;
});

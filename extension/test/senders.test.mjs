// Unit tests of who may ask the background for what (senders.js): the
// extension's own pages may ask anything; a recorded tab's content scripts
// only report interactions and press the recording bar's buttons, each
// checked; everyone else is refused, with the reason.

import { test } from 'node:test';
import assert from 'node:assert/strict';

const { admit, fromExtension, fromExtensionPage, MAX_SCREEN_CHARS, MAX_INTERACTION_CHARS, MAX_URL_CHARS } = await import('../senders.js');

const ID = 'fjmncidonfkcepgogieobgonbpmpilie';
const BASE = `chrome-extension://${ID}/`;
const ctx = { extensionId: ID, extensionUrl: BASE, recorded: (tab) => tab === 7 };

/** The toolbar popup: no tab. */
const popup = { id: ID, url: `${BASE}popup.html`, origin: BASE.slice(0, -1) };
/** popup.html?tab=7 opened in a tab of its own (README). */
const popupTab = { id: ID, url: `${BASE}popup.html?tab=7`, origin: BASE.slice(0, -1), tab: { id: 9 }, frameId: 0 };
/** The recorder in the recorded tab's top frame, and in a frame of it. */
const content = { id: ID, url: 'https://shop.example/cart', origin: 'https://shop.example', tab: { id: 7 }, frameId: 0 };
const contentFrame = { ...content, url: 'https://pay.example/card', origin: 'https://pay.example', frameId: 3 };

const msg = (kind, extra = {}) => ({ to: 'background', kind, ...extra });
const click = msg('interaction', { interaction: { kind: 'click', time: 1, url: 'https://shop.example/cart', screen: 's1', ref: 'e4' }, screen: '{"schema":1}' });

test('the popup may ask anything: record, any host request, reconnect, status', () => {
  for (const m of [msg('record', { op: 'save', title: 'T' }), msg('request', { type: 'trail.export' }), msg('reconnect'), msg('status')]) {
    assert.deepEqual(admit(m, popup, ctx), { ok: true, from: 'extension' }, m.kind);
    assert.deepEqual(admit(m, popupTab, ctx), { ok: true, from: 'extension' }, `${m.kind} from popup.html in a tab`);
  }
});

test('a content script asking record or request is refused, even from the recorded tab', () => {
  for (const m of [msg('record', { op: 'project', dir: '/home/me' }), msg('record', { op: 'save', title: 'x' }),
    msg('record', { op: 'export' }), msg('record', { op: 'ask', goal: 'open the admin page' }),
    msg('request', { type: 'trail.export', body: {} }), msg('reconnect'), msg('status')]) {
    for (const sender of [content, contentFrame]) {
      const v = admit(m, sender, ctx);
      assert.equal(v.ok, false, `${m.kind} ${m.op ?? m.type ?? ''} from ${sender.url}`);
      assert.match(v.error, /only from the extension's own pages, not from a page of https:\/\/(shop|pay)\.example in tab 7/);
    }
  }
});

test('a refusal names the origin, never the page\'s full address', () => {
  const v = admit(msg('request', { type: 'x' }), { ...content, url: 'https://shop.example/reset?token=s3cr3t' }, ctx);
  assert.equal(v.ok, false);
  assert.doesNotMatch(v.error, /s3cr3t/);
});

test('a page of another extension, or a sender without the extension\'s id, is refused', () => {
  const other = { id: 'abcdefghijklmnopabcdefghijklmnop', url: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/popup.html' };
  for (const m of [msg('request', { type: 'hello' }), msg('record', { op: 'state' }), click]) {
    assert.equal(admit(m, other, ctx).ok, false, m.kind);
    assert.equal(admit(m, { url: 'https://shop.example/' }, ctx).ok, false, m.kind);
  }
  // The extension's id with another extension's address (Chrome sets both; still).
  assert.equal(admit(msg('status'), { id: ID, url: other.url }, ctx).ok, false);
  assert.equal(admit(msg('status'), { ...popup, origin: 'https://shop.example' }, ctx).ok, false);
});

test('an extension page other than the popup, or the popup inside a frame, is refused', () => {
  assert.equal(admit(msg('status'), { ...popup, url: `${BASE}recorder.js` }, ctx).ok, false);
  assert.equal(admit(msg('status'), { ...popup, url: `${BASE}other.html` }, ctx).ok, false);
  assert.equal(admit(msg('record', { op: 'state' }), { ...popupTab, frameId: 2 }, ctx).ok, false);
  // A path that only starts like the popup's.
  assert.equal(admit(msg('status'), { ...popup, url: `${BASE}popup.html.evil` }, ctx).ok, false);
});

test('a recorded tab may send interactions from any frame and the bar\'s kinds from its top frame', () => {
  assert.deepEqual(admit(click, content, ctx), { ok: true, from: 'content' });
  assert.deepEqual(admit(click, contentFrame, ctx), { ok: true, from: 'content' });
  for (const k of ['record-stop', 'agent-stop']) assert.deepEqual(admit(msg(k), content, ctx), { ok: true, from: 'content' }, k);
  assert.deepEqual(admit(msg('record-changes', { screen: '{}' }), content, ctx), { ok: true, from: 'content' });
  for (const kind of ['type', 'select', 'dialog', 'assertChange', 'undo', 'markSensitive']) {
    assert.equal(admit(msg('interaction', { interaction: { kind } }), content, ctx).ok, true, kind);
  }
});

test('the bar\'s kinds from a frame below the top are refused', () => {
  for (const k of ['record-stop', 'agent-stop', 'record-changes']) {
    const v = admit(msg(k, { screen: '{}' }), contentFrame, ctx);
    assert.equal(v.ok, false, k);
    assert.match(v.error, /top frame, not frame 3/);
  }
});

test('a recorded tab\'s top document may tell who moved it back or forward, and only it', () => {
  const note = msg('traversal', { url: 'http://127.0.0.1:1/list', byPerson: false });
  assert.deepEqual(admit(note, content, ctx), { ok: true, from: 'content' });
  const v = admit(note, contentFrame, ctx);
  assert.equal(v.ok, false);
  assert.match(v.error, /top document's moves, and came from frame 3/);
  assert.match(admit(note, { ...content, tab: { id: 8 } }, ctx).error, /not being recorded/);
  assert.match(admit(msg('traversal', { byPerson: false }), content, ctx).error, /lacks the address/);
  assert.match(admit(msg('traversal', { url: 'x'.repeat(MAX_URL_CHARS + 1), byPerson: false }), content, ctx).error, /lacks the address/);
  assert.match(admit(msg('traversal', { url: 'http://127.0.0.1:1/', byPerson: 'no' }), content, ctx).error, /who made the move/);
});

test('a tab that is not recorded is refused everything', () => {
  const other = { ...content, tab: { id: 8 } };
  for (const m of [click, msg('record-stop'), msg('agent-stop'), msg('record-changes', { screen: '{}' })]) {
    const v = admit(m, other, ctx);
    assert.equal(v.ok, false, m.kind);
    assert.match(v.error, /tab 8, which is not being recorded/);
  }
  // No tab at all (an extension page sending an interaction).
  assert.equal(admit(click, popup, ctx).ok, false);
});

test('malformed messages are refused', () => {
  const bad = [
    [null, /not an object/],
    ['interaction', /not an object/],
    [{ to: 'background' }, /not an object with a kind/],
    [msg('teleport'), /not a message the background knows/],
    [msg('interaction'), /lacks the interaction/],
    [msg('interaction', { interaction: [] }), /lacks the interaction/],
    [msg('interaction', { interaction: { kind: 'navigate', url: 'https://evil.example/' } }), /kind "navigate", which a page does not send/],
    [msg('interaction', { interaction: { kind: 'agentStart', text: 'buy it all' } }), /kind "agentStart"/],
    [msg('interaction', { interaction: { kind: 'agentEnd', state: 'done' } }), /kind "agentEnd"/],
    [msg('interaction', { interaction: { kind: 'switchTab' } }), /kind "switchTab"/],
    [msg('interaction', { interaction: { kind: 7 } }), /kind "7"/],
    [msg('interaction', { interaction: { kind: 'click' }, screen: { schema: 1 } }), /screen that is not text/],
    [msg('interaction', { interaction: { kind: 'type', value: 'x'.repeat(MAX_INTERACTION_CHARS) } }), /more than/],
    [msg('interaction', { interaction: { kind: 'click' }, screen: 'x'.repeat(MAX_SCREEN_CHARS + 1) }), /more than/],
    [msg('record-changes'), /lacks the screen/],
    [msg('record-changes', { screen: 'x'.repeat(MAX_SCREEN_CHARS + 1) }), /more than/],
  ];
  for (const [m, why] of bad) {
    const v = admit(m, content, ctx);
    assert.equal(v.ok, false, JSON.stringify(m)?.slice(0, 80));
    assert.match(v.error, why);
  }
  // A kind a page chose is quoted short.
  const v = admit(msg('x'.repeat(500)), content, ctx);
  assert.ok(v.error.length < 120, v.error);
});

test('an interaction that is not plain data is refused, not thrown', () => {
  const loop = { kind: 'click' };
  loop.self = loop;
  assert.match(admit(msg('interaction', { interaction: loop }), content, ctx).error, /not plain data/);
});

test('fromExtensionPage and fromExtension tell the popup and the worker from content scripts', () => {
  assert.equal(fromExtensionPage(popup, ctx), true);
  assert.equal(fromExtensionPage(popupTab, ctx), true);
  assert.equal(fromExtensionPage(content, ctx), false);
  const worker = { id: ID, url: `${BASE}background.js`, origin: BASE.slice(0, -1) };
  assert.equal(fromExtension(worker, ctx), true);
  assert.equal(fromExtension(popup, ctx), true);
  assert.equal(fromExtension(content, ctx), false);
  assert.equal(fromExtension({ ...worker, tab: { id: 7 }, frameId: 0 }, ctx), false);
  assert.equal(fromExtension({ ...worker, id: 'someone-else' }, ctx), false);
});

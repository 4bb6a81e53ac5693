// Unit tests of the background's recording (background/recording.js) with a fake host
// and fake chrome APIs: numbering, acknowledgement, re-sending after a
// reconnect, navigation transitions.

import { test } from 'node:test';
import assert from 'node:assert/strict';

const { Recording } = await import('../background/recording.js');
const { transitionOf } = await import('../background/navigation.js');
const { PENDING_PREFIX, RESERVED_BYTES } = await import('../background/queue.js');
const { DIALOG_SCRIPTS, TIMER_FILES } = await import('../background/pagescripts.js');

/** A host that stores interactions and can drop off and come back. */
class FakeHost {
  constructor() {
    this.state = 'connected';
    this.stored = new Map(); // seq -> {interaction, screen}
    this.requests = [];
    this.failNext = 0;
  }
  async request(type, body = {}) {
    this.requests.push({ type, body });
    if (this.state !== 'connected') throw new Error('not connected to the host');
    switch (type) {
      case 'record.start':
        return { type, session: body.session, origin: 'http://127.0.0.1:1', project: null, app: null, needsProject: true, needsApp: true, lastSeq: 0 };
      case 'record.interaction': {
        await Promise.resolve();
        if (this.failNext > 0) {
          this.failNext--;
          this.state = 'exited'; // the host died before committing
          throw new Error('disconnected from the host: exited');
        }
        const seq = body.interaction.seq;
        const seen = this.stored.has(seq);
        const id = body.interaction.screen;
        if (id && !body.screen && ![...this.stored.values()].some((s) => s.screen && s.interaction.screen === id)) {
          throw new Error(`screen ${id} never sent`);
        }
        if (!seen) this.stored.set(seq, { interaction: body.interaction, screen: body.screen });
        return { type, session: body.session, seq, added: !seen };
      }
      case 'record.resume':
        return { type, session: body.session, lastSeq: Math.max(0, ...this.stored.keys()), saved: false };
      case 'record.stop':
        return { type, session: body.session, title: 'T', steps: [], secrets: [] };
      default:
        return { type };
    }
  }
}

/**
 * chrome.storage.session in memory, with its quota counted as Chrome does
 * (the JSON of every key and value); set fails when it would be exceeded.
 */
function memoryStorage(quota = 10 * 1024 * 1024) {
  const data = {};
  const size = (d) => Object.entries(d).reduce((n, [k, v]) => n + k.length + JSON.stringify(v).length, 0);
  return {
    data,
    QUOTA_BYTES: quota,
    set: async (o) => {
      const next = { ...data, ...JSON.parse(JSON.stringify(o)) };
      if (size(next) > quota) throw new Error('Session storage quota bytes exceeded. Values were not stored.');
      Object.assign(data, JSON.parse(JSON.stringify(o)));
    },
    get: async (k) => (k === null ? JSON.parse(JSON.stringify(data)) : { [k]: data[k] }),
    remove: async (keys) => { for (const k of [keys].flat()) delete data[k]; },
    getBytesInUse: async (k) => (k === null ? size(data) : 0),
  };
}

function fakeChrome() {
  const scripts = [];
  return {
    scripts,
    tabs: { get: async (id) => ({ id, url: `http://127.0.0.1:1/tab${id}`, title: `Tab ${id}` }) },
    scripting: {
      executeScript: async (o) => {
        scripts.push(o);
        if (o.func) return [{ result: { width: 1280, height: 800, locale: 'en-US', timeZone: 'UTC', index: 0, title: 'Page' } }];
        return [{ result: undefined }];
      },
    },
    action: { setBadgeText: async () => {}, setBadgeBackgroundColor: async () => {} },
    storage: { local: { set: async () => {} }, session: memoryStorage() },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 30));

test('transitions of committed navigations', () => {
  assert.equal(transitionOf('typed', []), 'typed');
  assert.equal(transitionOf('link', ['from_address_bar']), 'typed');
  assert.equal(transitionOf('reload', []), 'reload');
  assert.equal(transitionOf('link', ['forward_back']), 'back');
  assert.equal(transitionOf('form_submit', ['server_redirect']), 'form');
  assert.equal(transitionOf('link', ['client_redirect']), 'script');
  assert.equal(transitionOf('link', ['server_redirect']), 'redirect');
  assert.equal(transitionOf('link', []), 'link');
});

test('interactions are numbered from 1, kept until acknowledged, and injected only into the recorded tab', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  const r = new Recording({ host, chrome });
  await r.handle({ op: 'start', tab: 7 });
  assert.equal(r.phase, 'recording');
  assert.ok(chrome.scripts.some((s) => s.files?.includes('content/api.js') && s.target.tabId === 7 && s.target.allFrames));
  // A page open before Record gets only the hook that says a dialog opened (docs/recording.md, Dialogs).
  assert.ok(chrome.scripts.some((s) => s.files?.includes('dialogs-unverified.js') && s.world === 'MAIN'));
  assert.ok(!chrome.scripts.some((s) => s.files?.includes('dialogs.js')));
  assert.ok(chrome.scripts.every((s) => s.target.tabId === 7));
  // No dialogs.js can start with the pages (this chrome cannot register
  // it): a page loaded while recording gets the hook that says a dialog
  // was not recorded, too.
  const before = chrome.scripts.length;
  await r.inject(7, [0]);
  assert.ok(chrome.scripts.slice(before).some((s) => s.files?.includes('dialogs-unverified.js') && s.world === 'MAIN'));

  r.fromPage({ interaction: { kind: 'click', screen: 's1', ref: 'e3' }, screen: '{"schema":1}' }, { tab: { id: 7 } });
  r.fromPage({ interaction: { kind: 'click', screen: 's1', ref: 'e4' } }, { tab: { id: 7 } });
  r.fromPage({ interaction: { kind: 'click' } }, { tab: { id: 99 } }); // not recorded
  await settle();
  assert.deepEqual([...host.stored.keys()], [1, 2]);
  assert.deepEqual(host.stored.get(1).screen, { schema: 1 });
  assert.equal(host.stored.get(1).interaction.tab, 7);
  assert.equal(r.queue.items.length, 0);
});

test('the dialog watch starts every document while recording, before the page\'s scripts, and only then', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  const registered = new Map();
  const calls = [];
  chrome.scripting.registerContentScripts = async (list) => {
    calls.push(['register', list.map((s) => s.id)]);
    for (const s of list) {
      if (registered.has(s.id)) throw new Error(`Duplicate script ID '${s.id}'`);
      registered.set(s.id, s);
    }
  };
  chrome.scripting.unregisterContentScripts = async ({ ids }) => {
    calls.push(['unregister', ids]);
    for (const id of ids) registered.delete(id);
  };
  chrome.scripting.getRegisteredContentScripts = async ({ ids }) => [...registered.values()].filter((s) => ids.includes(s.id));
  const r = new Recording({ host, chrome });
  await r.handle({ op: 'start', tab: 7 });
  assert.deepEqual([...registered.values()].map((s) => [s.js, s.world, s.runAt, s.allFrames, s.persistAcrossSessions]), [
    [['dialogs.js'], 'MAIN', 'document_start', true, false],
    [['dialogbridge.js'], 'ISOLATED', 'document_start', true, false],
  ]);
  assert.deepEqual(DIALOG_SCRIPTS.map((s) => s.id), [...registered.keys()]);
  // A page loaded while recording started with dialogs.js: nothing of the
  // dialog watch in the page's world is injected as it commits, which
  // could come before it; only what follows the typing's timers.
  const before = chrome.scripts.length;
  await r.inject(7, [0]);
  assert.ok(chrome.scripts.slice(before).some((s) => s.files?.includes('content/api.js')));
  assert.deepEqual(chrome.scripts.slice(before).filter((s) => s.world === 'MAIN').map((s) => s.files), [TIMER_FILES]);
  await r.handle({ op: 'stop' });
  await r.dialogs.done;
  assert.equal(registered.size, 0, 'a stopped recording watches no page');
  await r.handle({ op: 'discard' });
  await r.handle({ op: 'start', tab: 7 });
  await r.dialogs.done;
  assert.equal(registered.size, 2, 'a second recording watches again');
  await r.handle({ op: 'discard' });
  await r.dialogs.done;
  assert.equal(registered.size, 0);
  assert.ok(calls.every(([what, ids]) => what !== 'register' || ids.length === 2), JSON.stringify(calls));
});

test('after the host comes back, what it did not store is sent again, screens included', async () => {
  const host = new FakeHost();
  const r = new Recording({ host, chrome: fakeChrome() });
  await r.handle({ op: 'start', tab: 3 });
  r.fromPage({ interaction: { kind: 'click', screen: 'a', ref: 'e1' }, screen: '{"n":1}' }, { tab: { id: 3 } });
  await settle();
  host.failNext = 1;
  r.fromPage({ interaction: { kind: 'click', screen: 'b', ref: 'e2' }, screen: '{"n":2}' }, { tab: { id: 3 } });
  r.fromPage({ interaction: { kind: 'click', screen: 'b', ref: 'e5' } }, { tab: { id: 3 } });
  await settle();
  assert.deepEqual([...host.stored.keys()], [1]);
  assert.equal(r.queue.items.length, 2, 'unacknowledged interactions are kept');
  host.state = 'connected';
  await r.resync();
  await settle();
  assert.deepEqual([...host.stored.keys()], [1, 2, 3]);
  assert.deepEqual(host.stored.get(2).screen, { n: 2 });
  assert.equal(r.queue.items.length, 0);
  assert.equal(r.error, '');
});

test('an interaction from another recorded tab is preceded by a switch to it', async () => {
  const host = new FakeHost();
  const r = new Recording({ host, chrome: fakeChrome() });
  await r.handle({ op: 'start', tab: 1 });
  r.opensTab({ sourceTabId: 1, tabId: 2 });
  r.opensTab({ sourceTabId: 5, tabId: 6 });
  assert.ok(r.tabs.has(2) && !r.tabs.has(6));
  r.fromPage({ interaction: { kind: 'click' } }, { tab: { id: 2 } });
  await settle();
  const kinds = [...host.stored.values()].map((s) => s.interaction.kind);
  assert.deepEqual(kinds, ['switchTab', 'click']);
  assert.equal(host.stored.get(1).interaction.url, 'http://127.0.0.1:1/tab2');
});

test('a navigation is recorded with its transition; back and forward by history index', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  const r = new Recording({ host, chrome });
  await r.handle({ op: 'start', tab: 4 });
  let index = 3;
  chrome.scripting.executeScript = async (o) => (o.func ? [{ result: { index, title: 'P' } }] : [{}]);
  r.historyIndex.set(4, 2);
  const person = { tab: { id: 4 }, frameId: 0 };
  r.traversalFromPage({ url: 'http://127.0.0.1:1/a', byPerson: true }, person);
  await r.committed({ tabId: 4, frameId: 0, url: 'http://127.0.0.1:1/a', transitionType: 'link', transitionQualifiers: ['forward_back'], timeStamp: 1 });
  index = 1;
  r.traversalFromPage({ url: 'http://127.0.0.1:1/b', byPerson: true }, person);
  await r.committed({ tabId: 4, frameId: 0, url: 'http://127.0.0.1:1/b', transitionType: 'link', transitionQualifiers: ['forward_back'], timeStamp: 2 });
  await r.committed({ tabId: 8, frameId: 0, url: 'http://127.0.0.1:1/c', transitionType: 'typed', transitionQualifiers: [], timeStamp: 3 });
  await settle();
  const got = [...host.stored.values()].map((s) => s.interaction.transition);
  assert.deepEqual(got, ['forward', 'back']);
});

test('a forward right after a back is compared with the back\'s page, and each page is read where it committed', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  const r = new Recording({ host, chrome });
  await r.handle({ op: 'start', tab: 4 });
  r.historyIndex.set(4, 2);
  // The back's page (index 1) answers only after the forward's (index 2)
  // has committed and answered.
  const indexOf = { back: 1, fwd: 2 };
  let release = () => {};
  const late = new Promise((res) => { release = res; });
  const targets = [];
  chrome.scripting.executeScript = async (o) => {
    if (!o.func) return [{}];
    if (/currentEntry|document\.title/.test(String(o.func))) targets.push(o.target);
    const doc = o.target.documentIds?.[0];
    if (doc === 'back' && o.injectImmediately) await late;
    return [{ result: { index: indexOf[doc], title: doc } }];
  };
  r.traversalWaitMs = 50; // no document tells who made these moves
  const back = r.committed({ tabId: 4, frameId: 0, documentId: 'back', url: 'http://127.0.0.1:1/a', transitionType: 'link', transitionQualifiers: ['forward_back'], timeStamp: 1 });
  const fwd = r.committed({ tabId: 4, frameId: 0, documentId: 'fwd', url: 'http://127.0.0.1:1/b', transitionType: 'link', transitionQualifiers: ['forward_back'], timeStamp: 2 });
  await settle();
  release();
  await Promise.all([back, fwd]);
  await settle();
  const got = [...host.stored.values()].map((s) => `${s.interaction.transition} ${s.interaction.title}`);
  assert.deepEqual(got, ['back back', 'forward fwd']);
  assert.equal(targets.length, 4);
  assert.ok(targets.every((t) => t.documentIds && !t.frameIds), 'every read names the document that committed');
});

test('moves within a document: back and forward by history index, never by URL; the page\'s own traversals are its doing; pushState and fragments move the index only', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  const r = new Recording({ host, chrome });
  await r.handle({ op: 'start', tab: 4 }); // index 0
  let index = 0;
  let byPerson = true;
  chrome.scripting.executeScript = async (o) => (o.func ? [{ result: { index, title: 'Store', byPerson } }] : [{}]);
  const moved = (url, to, qualifiers, type = 'link') => {
    index = to;
    return r.sameDocument({ tabId: 4, frameId: 0, documentId: 'spa', url, transitionType: type, transitionQualifiers: qualifiers, timeStamp: to });
  };
  // Cart, Shop, Cart again: two entries with one URL, by fragment and by pushState.
  await moved('http://127.0.0.1:1/#/cart', 1, []);
  await moved('http://127.0.0.1:1/shop', 2, []);
  await moved('http://127.0.0.1:1/#/cart', 3, []);
  // Back to Shop, back to the first Cart, forward to Shop: the forward
  // lands on a URL seen before the Cart it leaves.
  await moved('http://127.0.0.1:1/shop', 2, ['forward_back']);
  await moved('http://127.0.0.1:1/#/cart', 1, ['forward_back']);
  await moved('http://127.0.0.1:1/shop', 2, ['forward_back']);
  // pushState to the same path, then back to the entry of that path before it.
  await moved('http://127.0.0.1:1/shop', 3, []);
  await moved('http://127.0.0.1:1/shop', 2, ['forward_back']);
  await moved('http://127.0.0.1:1/shop', 3, ['forward_back']);
  // The page's own history.back() (its Back button) is the page's doing.
  byPerson = false;
  await moved('http://127.0.0.1:1/shop', 2, ['forward_back']);
  // A frame's moves are its own.
  await r.sameDocument({ tabId: 4, frameId: 3, url: 'http://127.0.0.1:1/#x', transitionType: 'link', transitionQualifiers: ['forward_back'], timeStamp: 9 });
  await settle();
  const got = [...host.stored.values()].map((s) => `${s.interaction.kind} ${s.interaction.transition} ${s.interaction.url.slice(18)} ${s.interaction.title}`);
  assert.deepEqual(got, ['navigate back /shop Store', 'navigate back /#/cart Store', 'navigate forward /shop Store', 'navigate back /shop Store', 'navigate forward /shop Store', 'navigate script /shop Store']);
  assert.equal(r.historyIndex.get(4), 2);
});

test('a move back to another document is the page\'s when the document it left says so, whenever its note comes; without a note it is a back', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  const r = new Recording({ host, chrome });
  await r.handle({ op: 'start', tab: 4 });
  r.historyIndex.set(4, 3);
  let index = 2;
  chrome.scripting.executeScript = async (o) => (o.func ? [{ result: { index, title: 'P' } }] : [{}]);
  const from = { tab: { id: 4 }, frameId: 0 };
  const back = (url, time) => r.committed({ tabId: 4, frameId: 0, url, transitionType: 'link', transitionQualifiers: ['forward_back'], timeStamp: time });
  // The app's Back button: its note comes before the commit.
  r.traversalFromPage({ url: 'http://127.0.0.1:1/list', byPerson: false }, from);
  await back('http://127.0.0.1:1/list', 1);
  // Its note comes after Chrome told of the commit.
  index = 1;
  const late = back('http://127.0.0.1:1/home', 2);
  await settle();
  r.traversalFromPage({ url: 'http://127.0.0.1:1/home', byPerson: false }, from);
  await late;
  // The person's back.
  index = 0;
  r.traversalFromPage({ url: 'http://127.0.0.1:1/start', byPerson: true }, from);
  await back('http://127.0.0.1:1/start', 3);
  // A document without a recorder says nothing: a back, after the wait.
  r.traversalWaitMs = 50;
  index = 1;
  await back('http://127.0.0.1:1/home', 4);
  // A tab that is not recorded cannot leave a note for a recorded one.
  r.traversalFromPage({ url: 'http://127.0.0.1:1/x', byPerson: false }, { tab: { id: 9 }, frameId: 0 });
  assert.equal(r.traversals.has(9), false);
  await settle();
  const got = [...host.stored.values()].map((s) => `${s.interaction.transition} ${s.interaction.url.slice(18)}`);
  assert.deepEqual(got, ['script /list', 'script /home', 'back /start', 'forward /home']);
});

test('a move within the document the browser made to a URL (the address bar, an outside agent\'s tab.navigate) is a typed navigation; the page\'s own is not', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  const r = new Recording({ host, chrome });
  await r.handle({ op: 'start', tab: 4 });
  chrome.scripting.executeScript = async (o) => (o.func ? [{ result: { index: 1, title: 'Todos' } }] : [{}]);
  await r.sameDocument({ tabId: 4, frameId: 0, documentId: 'spa', url: 'http://127.0.0.1:1/#/completed', transitionType: 'typed', transitionQualifiers: [], timeStamp: 1 });
  await r.sameDocument({ tabId: 4, frameId: 0, documentId: 'spa', url: 'http://127.0.0.1:1/#/active', transitionType: 'link', transitionQualifiers: ['from_address_bar'], timeStamp: 2 });
  await r.sameDocument({ tabId: 4, frameId: 0, documentId: 'spa', url: 'http://127.0.0.1:1/#/all', transitionType: 'link', transitionQualifiers: [], timeStamp: 3 });
  await settle();
  const got = [...host.stored.values()].map((s) => `${s.interaction.kind} ${s.interaction.transition} ${s.interaction.url.slice(18)} ${s.interaction.title}`);
  assert.deepEqual(got, ['navigate typed /#/completed Todos', 'navigate typed /#/active Todos']);
});

test('stop waits for the host to store everything, then asks it for the steps', async () => {
  const host = new FakeHost();
  const r = new Recording({ host, chrome: fakeChrome() });
  await r.handle({ op: 'start', tab: 2 });
  r.fromPage({ interaction: { kind: 'assertUrl' } }, { tab: { id: 2 } });
  const view = await r.handle({ op: 'stop' });
  assert.equal(view.phase, 'stopped');
  const types = host.requests.map((q) => q.type);
  assert.ok(types.indexOf('record.stop') > types.lastIndexOf('record.interaction'));
});

test('a restarted service worker goes on with the recording where the host stands', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  const first = new Recording({ host, chrome });
  await first.handle({ op: 'start', tab: 5 });
  first.fromPage({ interaction: { kind: 'click' } }, { tab: { id: 5 } });
  first.fromPage({ interaction: { kind: 'click' } }, { tab: { id: 5 } });
  await settle();
  // The worker stops; a new one starts with the same storage.
  const second = new Recording({ host, chrome });
  await second.restore();
  assert.equal(second.phase, 'recording');
  assert.equal(second.session, first.session);
  assert.ok(second.tabs.has(5));
  second.fromPage({ interaction: { kind: 'assertUrl' } }, { tab: { id: 5 } });
  await settle();
  assert.deepEqual([...host.stored.keys()], [1, 2, 3]);
  assert.equal(host.stored.get(3).interaction.kind, 'assertUrl');
});

/** The pending interactions chrome.storage.session holds, by seq. */
function pendingIn(storage) {
  return Object.fromEntries(Object.entries(storage.data)
    .filter(([k]) => k.startsWith(PENDING_PREFIX))
    .map(([, v]) => [v.seq, v]));
}

test('unacknowledged interactions are kept in session storage with their screens, and removed once acknowledged', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  const r = new Recording({ host, chrome });
  await r.handle({ op: 'start', tab: 7 });
  host.state = 'exited'; // no acknowledgements
  r.fromPage({ interaction: { kind: 'click', screen: 's1', ref: 'e3' }, screen: '{"schema":1,"n":1}' }, { tab: { id: 7 } });
  r.fromPage({ interaction: { kind: 'click', screen: 's1', ref: 'e4' } }, { tab: { id: 7 } });
  await settle();
  const kept = pendingIn(chrome.storage.session);
  assert.deepEqual(Object.keys(kept), ['1', '2']);
  assert.equal(kept[1].screen, '{"schema":1,"n":1}');
  assert.equal(kept[1].interaction.ref, 'e3');
  assert.equal(kept[2].screen, undefined, 'a screen is kept with the interaction that first names it only');
  assert.equal(chrome.storage.session.data.recording.nextSeq, 3);

  host.state = 'connected';
  await r.resync();
  await settle();
  await r.queue.writes;
  assert.deepEqual([...host.stored.keys()], [1, 2]);
  assert.deepEqual(pendingIn(chrome.storage.session), {}, 'acknowledged interactions are no longer kept');
});

test('a service worker stopped with interactions pending: the next one sends them again after record.resume and numbers on', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  const first = new Recording({ host, chrome });
  await first.handle({ op: 'start', tab: 5 });
  first.fromPage({ interaction: { kind: 'click', screen: 'a', ref: 'e1' }, screen: '{"n":1}' }, { tab: { id: 5 } });
  await settle();
  // The host stores 2 but dies before its reply; 3 and 4 are not sent.
  host.state = 'exited';
  first.fromPage({ interaction: { kind: 'click', screen: 'b', ref: 'e2' }, screen: '{"n":2}' }, { tab: { id: 5 } });
  first.fromPage({ interaction: { kind: 'type', screen: 'b', ref: 'e5', value: 'x' } }, { tab: { id: 5 } });
  first.fromPage({ interaction: { kind: 'click', screen: 'c', ref: 'e6' }, screen: '{"n":3}' }, { tab: { id: 5 } });
  await settle();
  await first.queue.writes;
  host.stored.set(2, { interaction: { ...first.queue.items[0].interaction }, screen: { n: 2 } });
  assert.deepEqual(Object.keys(pendingIn(chrome.storage.session)), ['2', '3', '4']);

  // Chrome stops the worker (its memory is gone); a new one starts, the
  // host is back.
  host.state = 'connected';
  const second = new Recording({ host, chrome });
  await second.restore();
  await settle();
  await second.queue.writes;
  assert.equal(second.error, '');
  assert.deepEqual([...host.stored.keys()].sort(), [1, 2, 3, 4]);
  assert.equal(host.stored.get(3).interaction.value, 'x');
  assert.deepEqual(host.stored.get(4).screen, { n: 3 });
  const resumes = host.requests.filter((q) => q.type === 'record.resume').length;
  assert.equal(resumes, 1);
  const resent = host.requests.slice(host.requests.findIndex((q) => q.type === 'record.resume'))
    .filter((q) => q.type === 'record.interaction').map((q) => q.body.interaction.seq);
  assert.deepEqual(resent, [3, 4], 'only what the host does not have is sent again, in order');
  assert.deepEqual(pendingIn(chrome.storage.session), {});

  second.fromPage({ interaction: { kind: 'assertUrl' } }, { tab: { id: 5 } });
  await settle();
  assert.equal(host.stored.get(5)?.interaction.kind, 'assertUrl', 'numbering goes on without a gap');
  assert.equal(second.view().interactions, 5);
});

test('a worker stopped while the host is away and nothing was acknowledged resends every interaction', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  const first = new Recording({ host, chrome });
  await first.handle({ op: 'start', tab: 5 });
  host.state = 'exited';
  for (let i = 0; i < 3; i++) first.fromPage({ interaction: { kind: 'click', screen: `s${i}`, ref: 'e1' }, screen: `{"i":${i}}` }, { tab: { id: 5 } });
  await settle();
  await first.queue.writes;
  // A new worker starts while the host is still away: it waits for it.
  const second = new Recording({ host, chrome });
  await second.restore();
  assert.equal(second.view().unacknowledged, 3);
  second.fromPage({ interaction: { kind: 'click', screen: 's0', ref: 'e2' } }, { tab: { id: 5 } });
  await settle();
  await second.queue.writes;
  assert.deepEqual(Object.keys(pendingIn(chrome.storage.session)), ['1', '2', '3', '4']);
  host.state = 'connected';
  await second.resync();
  await settle();
  assert.deepEqual([...host.stored.keys()], [1, 2, 3, 4]);
  assert.deepEqual(host.stored.get(1).screen, { i: 0 });
  assert.equal(second.error, '');
});

test('when session storage is full the popup and the recording bar say what is at risk, and a restart names what was lost', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  chrome.storage.session = memoryStorage(RESERVED_BYTES + 3000);
  const bars = [];
  const run = chrome.scripting.executeScript;
  chrome.scripting.executeScript = async (o) => {
    if (o.args) bars.push({ tab: o.target.tabId, text: o.args[0] });
    return run(o);
  };
  const first = new Recording({ host, chrome });
  await first.handle({ op: 'start', tab: 5 });
  host.state = 'exited';
  const big = JSON.stringify({ text: 'x'.repeat(1200) });
  for (let i = 0; i < 4; i++) first.fromPage({ interaction: { kind: 'click', screen: `s${i}`, ref: 'e1' }, screen: big }, { tab: { id: 5 } });
  await settle();
  await first.queue.writes;
  const kept = Object.keys(pendingIn(chrome.storage.session)).map(Number);
  assert.ok(kept.length >= 1 && kept.length < 4, `kept ${kept}`);
  const view = first.view();
  assert.match(view.warning, new RegExp(`^${4 - kept.length} interactions? (is|are) kept only in memory`));
  assert.match(view.warning, /session storage/);
  assert.match(view.warning, /reconnect the host/);
  assert.equal(bars.at(-1)?.text, view.warning, 'the recording bar shows it too');
  assert.equal(chrome.storage.session.data.recording.nextSeq, 5, 'the recording itself is still kept (room is reserved for it)');

  // The worker stops before the host is back.
  host.state = 'connected';
  const second = new Recording({ host, chrome });
  await second.restore();
  await settle();
  const lost = [1, 2, 3, 4].filter((s) => !kept.includes(s));
  assert.match(second.error, new RegExp(`interactions? ${lost.join(', ')} of this recording (was|were) lost`));
  assert.deepEqual([...host.stored.keys()], kept, 'what was kept reaches the host');
  assert.equal(second.view().warning, '');
});

test('with the host back, what did not fit is kept once there is room, and the warning goes', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  chrome.storage.session = memoryStorage(RESERVED_BYTES + 3000);
  const r = new Recording({ host, chrome });
  await r.handle({ op: 'start', tab: 5 });
  host.state = 'exited';
  const big = JSON.stringify({ text: 'x'.repeat(1200) });
  for (let i = 0; i < 3; i++) r.fromPage({ interaction: { kind: 'click', screen: `s${i}`, ref: 'e1' }, screen: big }, { tab: { id: 5 } });
  await settle();
  await r.queue.writes;
  assert.notEqual(r.view().warning, '');
  host.state = 'connected';
  await r.resync();
  await settle();
  await r.queue.writes;
  assert.deepEqual([...host.stored.keys()], [1, 2, 3]);
  assert.equal(r.view().warning, '');
  assert.deepEqual(pendingIn(chrome.storage.session), {});
});

test('an interaction the host did not answer in time is kept and sent again, not dropped', async () => {
  const { HostError } = await import('../nativeport.js');
  const host = new FakeHost();
  const r = new Recording({ host, chrome: fakeChrome() });
  await r.handle({ op: 'start', tab: 5 });
  const request = host.request.bind(host);
  let hang = 1;
  host.request = async (type, body) => {
    if (type === 'record.interaction' && hang > 0) {
      hang--;
      await request(type, body); // it stores it, but its answer is late
      throw new HostError('the host did not answer record.interaction within 10000 ms');
    }
    return request(type, body);
  };
  r.fromPage({ interaction: { kind: 'click', screen: 's', ref: 'e1' }, screen: '{"n":1}' }, { tab: { id: 5 } });
  await settle();
  assert.match(r.error, /has not answered interaction 1/);
  assert.equal(r.queue.items.length, 1, 'kept');
  await new Promise((res) => setTimeout(res, 1200));
  assert.equal(r.queue.items.length, 0);
  assert.equal(r.error, '');
  assert.deepEqual([...host.stored.keys()], [1]);
});

test('once there is room again, the next interaction keeps what did not fit, in order', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  chrome.storage.session = memoryStorage(RESERVED_BYTES + 3000);
  const r = new Recording({ host, chrome });
  await r.handle({ op: 'start', tab: 5 });
  host.state = 'exited';
  await chrome.storage.session.set({ filler: 'x'.repeat(2900) });
  r.fromPage({ interaction: { kind: 'click', screen: 's1', ref: 'e1' }, screen: '{"n":1}' }, { tab: { id: 5 } });
  r.fromPage({ interaction: { kind: 'click', screen: 's1', ref: 'e2' } }, { tab: { id: 5 } });
  await settle();
  await r.queue.writes;
  assert.deepEqual(pendingIn(chrome.storage.session), {});
  assert.match(r.view().warning, /^2 interactions are kept only in memory/);
  await chrome.storage.session.remove('filler');
  r.fromPage({ interaction: { kind: 'assertUrl' } }, { tab: { id: 5 } });
  await settle();
  await r.queue.writes;
  assert.deepEqual(Object.keys(pendingIn(chrome.storage.session)), ['1', '2', '3']);
  assert.equal(pendingIn(chrome.storage.session)[1].screen, '{"n":1}');
  assert.equal(r.view().warning, '');
});

test('when the plain screens no longer fit, they are kept gzipped, and a restarted worker sends them as they were', async () => {
  const host = new FakeHost();
  const chrome = fakeChrome();
  chrome.storage.session = memoryStorage(RESERVED_BYTES + 5500);
  const first = new Recording({ host, chrome });
  await first.handle({ op: 'start', tab: 5 });
  host.state = 'exited';
  const screens = [0, 1, 2, 3].map((i) => JSON.stringify({ i, root: Array.from({ length: 150 }, (_, j) => ['e' + j, '', 'div', 1, `card ${j}`]) }));
  for (let i = 0; i < 4; i++) first.fromPage({ interaction: { kind: 'click', screen: `s${i}`, ref: 'e1' }, screen: screens[i] }, { tab: { id: 5 } });
  await settle();
  await first.queue.writes;
  const kept = pendingIn(chrome.storage.session);
  assert.deepEqual(Object.keys(kept), ['1', '2', '3', '4']);
  assert.equal(first.view().warning, '');
  assert.ok(Object.values(kept).every((e) => e.screenGzip && !e.screen), "none fits plain: all are gzipped");

  host.state = 'connected';
  const second = new Recording({ host, chrome });
  await second.restore();
  await settle();
  assert.equal(second.error, '');
  assert.deepEqual([...host.stored.keys()], [1, 2, 3, 4]);
  for (let i = 0; i < 4; i++) assert.deepEqual(host.stored.get(i + 1).screen, JSON.parse(screens[i]));
});

test('a host whose database is damaged is told once: nothing is sent again, nothing is dropped, and the popup and the bar say what to do', async () => {
  const { HostError } = await import('../nativeport.js');
  const host = new FakeHost();
  const chrome = fakeChrome();
  const bars = [];
  const run = chrome.scripting.executeScript;
  chrome.scripting.executeScript = async (o) => {
    if (o.args) bars.push(o.args[0]);
    return run(o);
  };
  const r = new Recording({ host, chrome });
  await r.handle({ op: 'start', tab: 5 });
  const damage = 'the database /home/ada/.local/share/trailpin/trailpin.db is damaged and Trailpin cannot use it (SQLite could not read it). '
    + 'Move it aside and a new one is made at the next start: mv … Lost with it: recordings not saved yet, …';
  const request = host.request.bind(host);
  let damaged = true;
  host.request = async (type, body) => {
    if (damaged && type.startsWith('record.')) {
      host.requests.push({ type, body });
      throw new HostError(damage, 7);
    }
    return request(type, body);
  };
  const sent = () => host.requests.filter((q) => q.type === 'record.interaction').length;

  r.fromPage({ interaction: { kind: 'click', screen: 's', ref: 'e1' }, screen: '{"n":1}' }, { tab: { id: 5 } });
  r.fromPage({ interaction: { kind: 'click', screen: 's', ref: 'e2' } }, { tab: { id: 5 } });
  await settle();
  r.fromPage({ interaction: { kind: 'click', screen: 's', ref: 'e3' } }, { tab: { id: 5 } });
  await new Promise((res) => setTimeout(res, 1200)); // past the retry of an unanswered one
  assert.equal(sent(), 1, 'the host is told once, not sent every interaction again');
  assert.deepEqual(r.queue.items.map((q) => q.seq), [1, 2, 3], 'nothing is dropped');
  assert.deepEqual(Object.keys(pendingIn(chrome.storage.session)).map(Number).sort(), [1, 2, 3], 'and all is still kept');
  const view = await r.handle({ op: 'state' });
  assert.equal(view.warning, damage, 'the popup shows the host\'s message, also after it is opened again');
  assert.equal(view.damaged, true);
  assert.equal(bars.at(-1), damage, 'the recording bar shows it too');

  const started = Date.now();
  const stopped = await r.handle({ op: 'stop' });
  assert.ok(Date.now() - started < 2000, `Stop gave up after ${Date.now() - started} ms, not at once`);
  assert.equal(stopped.error, damage);
  assert.equal(sent(), 1);
  assert.equal(host.requests.filter((q) => q.type === 'record.stop').length, 0);
  assert.equal(stopped.phase, 'recording', 'the pages go on recording meanwhile');

  // The file was moved aside and the person reconnected: a new host.
  damaged = false;
  await r.resync();
  await settle();
  assert.equal(r.view().damaged, false);
  assert.equal(r.view().warning, '');
  assert.deepEqual([...host.stored.keys()], [1, 2, 3], 'what was queued reaches the new host');
});

test('a damaged database found at Record is said once and starts nothing', async () => {
  const { HostError } = await import('../nativeport.js');
  const host = new FakeHost();
  host.request = async (type, body) => {
    host.requests.push({ type, body });
    throw new HostError('the database … is damaged', 7);
  };
  const r = new Recording({ host, chrome: fakeChrome() });
  const view = await r.handle({ op: 'start', tab: 5 });
  assert.equal(view.phase, 'idle');
  assert.equal(view.warning, 'the database … is damaged');
  assert.equal(host.requests.length, 1);
});

test('Assert change: the host is asked once what came before is acknowledged; a page loaded later offers it', async () => {
  const host = new FakeHost();
  const order = [];
  const request = host.request.bind(host);
  host.request = async (type, body) => {
    order.push(type === 'record.interaction' ? `interaction ${body.interaction.seq}` : type);
    if (type === 'record.changes') return { type, session: body.session, seq: 1, action: 'click Menu', changes: [], only: false, screen: body.screen };
    return request(type, body);
  };
  const chrome = fakeChrome();
  const r = new Recording({ host, chrome });
  await r.handle({ op: 'start', tab: 7 });
  const offered = () => chrome.scripts.filter((s) => s.func && String(s.func).includes('offerChange')).length;
  assert.equal(offered(), 0, 'nothing recorded yet: the bar does not offer Assert change');
  r.fromPage({ interaction: { kind: 'click', screen: 's1', ref: 'e3' }, screen: '{"schema":1}' }, { tab: { id: 7 } });
  const res = await r.changesFromPage({ screen: '{"schema":1,"n":2}' }, { tab: { id: 7 } });
  assert.equal(res.ok, true);
  assert.deepEqual(res.reply.screen, { schema: 1, n: 2 });
  assert.deepEqual(order.slice(-2), ['interaction 1', 'record.changes']);
  assert.equal((await r.changesFromPage({ screen: '{}' }, { tab: { id: 99 } })).ok, false, 'a tab not recorded is refused');
  await r.inject(7);
  assert.equal(offered(), 1, 'a page loaded after an action offers Assert change');
});

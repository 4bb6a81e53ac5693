// Unit tests of the background's recording (recording.js) with a fake host
// and fake chrome APIs: numbering, acknowledgement, re-sending after a
// reconnect, navigation transitions.

import { test } from 'node:test';
import assert from 'node:assert/strict';

const { Recorder, transitionOf } = await import('../recording.js');

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

function memoryStorage() {
  const data = {};
  return {
    data,
    set: async (o) => { Object.assign(data, JSON.parse(JSON.stringify(o))); },
    get: async (k) => ({ [k]: data[k] }),
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
  const r = new Recorder({ host, chrome });
  await r.handle({ op: 'start', tab: 7 });
  assert.equal(r.phase, 'recording');
  assert.ok(chrome.scripts.some((s) => s.files?.includes('recorder.js') && s.target.tabId === 7 && s.target.allFrames));
  assert.ok(chrome.scripts.some((s) => s.files?.includes('dialogs.js') && s.world === 'MAIN'));
  assert.ok(chrome.scripts.every((s) => s.target.tabId === 7));

  r.fromPage({ interaction: { kind: 'click', screen: 's1', ref: 'e3' }, screen: '{"schema":1}' }, { tab: { id: 7 } });
  r.fromPage({ interaction: { kind: 'click', screen: 's1', ref: 'e4' } }, { tab: { id: 7 } });
  r.fromPage({ interaction: { kind: 'click' } }, { tab: { id: 99 } }); // not recorded
  await settle();
  assert.deepEqual([...host.stored.keys()], [1, 2]);
  assert.deepEqual(host.stored.get(1).screen, { schema: 1 });
  assert.equal(host.stored.get(1).interaction.tab, 7);
  assert.equal(r.queue.length, 0);
});

test('after the host comes back, what it did not store is sent again, screens included', async () => {
  const host = new FakeHost();
  const r = new Recorder({ host, chrome: fakeChrome() });
  await r.handle({ op: 'start', tab: 3 });
  r.fromPage({ interaction: { kind: 'click', screen: 'a', ref: 'e1' }, screen: '{"n":1}' }, { tab: { id: 3 } });
  await settle();
  host.failNext = 1;
  r.fromPage({ interaction: { kind: 'click', screen: 'b', ref: 'e2' }, screen: '{"n":2}' }, { tab: { id: 3 } });
  r.fromPage({ interaction: { kind: 'click', screen: 'b', ref: 'e5' } }, { tab: { id: 3 } });
  await settle();
  assert.deepEqual([...host.stored.keys()], [1]);
  assert.equal(r.queue.length, 2, 'unacknowledged interactions are kept');
  host.state = 'connected';
  await r.resync();
  await settle();
  assert.deepEqual([...host.stored.keys()], [1, 2, 3]);
  assert.deepEqual(host.stored.get(2).screen, { n: 2 });
  assert.equal(r.queue.length, 0);
  assert.equal(r.error, '');
});

test('an interaction from another recorded tab is preceded by a switch to it', async () => {
  const host = new FakeHost();
  const r = new Recorder({ host, chrome: fakeChrome() });
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
  const r = new Recorder({ host, chrome });
  await r.handle({ op: 'start', tab: 4 });
  let index = 3;
  chrome.scripting.executeScript = async (o) => (o.func ? [{ result: { index, title: 'P' } }] : [{}]);
  r.historyIndex.set(4, 2);
  await r.committed({ tabId: 4, frameId: 0, url: 'http://127.0.0.1:1/a', transitionType: 'link', transitionQualifiers: ['forward_back'], timeStamp: 1 });
  index = 1;
  await r.committed({ tabId: 4, frameId: 0, url: 'http://127.0.0.1:1/b', transitionType: 'link', transitionQualifiers: ['forward_back'], timeStamp: 2 });
  await r.committed({ tabId: 8, frameId: 0, url: 'http://127.0.0.1:1/c', transitionType: 'typed', transitionQualifiers: [], timeStamp: 3 });
  await settle();
  const got = [...host.stored.values()].map((s) => s.interaction.transition);
  assert.deepEqual(got, ['forward', 'back']);
});

test('stop waits for the host to store everything, then asks it for the steps', async () => {
  const host = new FakeHost();
  const r = new Recorder({ host, chrome: fakeChrome() });
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
  const first = new Recorder({ host, chrome });
  await first.handle({ op: 'start', tab: 5 });
  first.fromPage({ interaction: { kind: 'click' } }, { tab: { id: 5 } });
  first.fromPage({ interaction: { kind: 'click' } }, { tab: { id: 5 } });
  await settle();
  // The worker stops; a new one starts with the same storage.
  const second = new Recorder({ host, chrome });
  await second.restore();
  assert.equal(second.phase, 'recording');
  assert.equal(second.session, first.session);
  assert.ok(second.tabs.has(5));
  second.fromPage({ interaction: { kind: 'assertUrl' } }, { tab: { id: 5 } });
  await settle();
  assert.deepEqual([...host.stored.keys()], [1, 2, 3]);
  assert.equal(host.stored.get(3).interaction.kind, 'assertUrl');
});

// Unit tests of the native port, with a fake chrome.runtime: run by
// scripts/test with `node --test extension/test/`.

import { test, mock, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';

/** A fake native port: records what the extension posts, lets tests reply. */
class FakePort {
  constructor() {
    this.posted = [];
    this.closed = false;
    this.messageListeners = [];
    this.disconnectListeners = [];
    this.onMessage = { addListener: (f) => this.messageListeners.push(f) };
    this.onDisconnect = { addListener: (f) => this.disconnectListeners.push(f) };
  }
  postMessage(m) { this.posted.push(m); }
  disconnect() { this.closed = true; }
  /** The host sends m. */
  reply(m) { for (const f of this.messageListeners) f(m, this); }
  /** The browser closes the port with Chrome's reason. */
  drop(reason) {
    globalThis.chrome.runtime.lastError = { message: reason };
    for (const f of this.disconnectListeners) f(this);
    globalThis.chrome.runtime.lastError = undefined;
  }
  last() { return this.posted.at(-1); }
}

let ports;
beforeEach(() => {
  ports = [];
  globalThis.chrome = {
    runtime: {
      lastError: undefined,
      connectNative(name) {
        assert.equal(name, 'dev.trailpin.host');
        const p = new FakePort();
        ports.push(p);
        return p;
      },
    },
  };
  mock.timers.enable({ apis: ['setTimeout'] });
});
afterEach(() => mock.timers.reset());

const { HostConnection, HostError, classifyDisconnect, REQUEST_TIMEOUT_MS } = await import('../nativeport.js');

/** Connects and answers hello; returns the connection and its port. */
async function connected(opts = {}) {
  const c = new HostConnection({ extensionVersion: '0.1.0', ...opts });
  c.connect();
  const port = ports.at(-1);
  const hello = port.last();
  assert.deepEqual({ ...hello, id: 'x' }, { v: 1, id: 'x', type: 'hello', protocol: 1, version: '0.1.0' });
  port.reply({ v: 1, id: hello.id, type: 'hello', protocol: 1, version: '9.9.9', types: ['hello', 'echo'] });
  await Promise.resolve();
  await Promise.resolve();
  return { c, port };
}

test('hello on connect makes the connection connected', async () => {
  const { c } = await connected();
  assert.equal(c.state, 'connected');
  assert.deepEqual(c.host, { version: '9.9.9', protocol: 1, types: ['hello', 'echo'] });
});

test('replies are matched to requests by id, in any order', async () => {
  const { c, port } = await connected();
  const a = c.request('echo', { text: 'a' });
  const idA = port.last().id;
  const b = c.request('echo', { text: 'b' });
  const idB = port.last().id;
  assert.notEqual(idA, idB);
  port.reply({ v: 1, id: idB, type: 'echo', text: 'b' });
  port.reply({ v: 1, id: idA, type: 'echo', text: 'a' });
  assert.equal((await a).text, 'a');
  assert.equal((await b).text, 'b');
});

test('an error reply rejects with its code', async () => {
  const { c, port } = await connected();
  const r = c.request('teleport');
  port.reply({ v: 1, id: port.last().id, type: 'error', code: 3, message: 'unknown' });
  await assert.rejects(r, (e) => e instanceof HostError && e.code === 3 && e.message === 'unknown');
});

test('a request without a reply times out, and its late reply is dropped', async () => {
  const seen = [];
  const { c, port } = await connected({ onHostMessage: (m) => seen.push(m) });
  const r = c.request('echo', {}, 1000);
  const id = port.last().id;
  mock.timers.tick(1000);
  await assert.rejects(r, /did not answer echo within 1000 ms/);
  port.reply({ v: 1, id, type: 'echo' });
  port.reply({ v: 1, id: 'host-1', type: 'event' });
  assert.deepEqual(seen.map((m) => m.id), ['host-1']);
  assert.equal(REQUEST_TIMEOUT_MS, 10_000);
});

test('a disconnect rejects pending requests and reconnects with backoff', async () => {
  const { c, port } = await connected();
  const r = c.request('echo');
  port.drop('Native host has exited.');
  await assert.rejects(r, /disconnected from the host: Native host has exited/);
  assert.equal(c.state, 'exited');
  assert.equal(ports.length, 1);
  mock.timers.tick(500);
  assert.equal(ports.length, 2, 'reconnects after 500 ms');
  assert.equal(c.state, 'exited', 'a retry keeps showing the failure');
  ports[1].drop('Specified native messaging host not found.');
  assert.equal(c.state, 'missing');
  mock.timers.tick(999);
  assert.equal(ports.length, 2, 'waits twice as long before the next try');
  mock.timers.tick(1);
  assert.equal(ports.length, 3);
});

test('chunks are reassembled into the message, characters split across them', async () => {
  const { c, port } = await connected();
  const r = c.request('echo');
  const id = port.last().id;
  const text = 'é'.repeat(10) + '✓';
  const bytes = Buffer.from(JSON.stringify({ v: 1, id, type: 'echo', text }));
  const cuts = [0, 7, 8, 21, bytes.length]; // 7 and 8 split an é
  for (let i = 0; i < cuts.length - 1; i++) {
    port.reply({ v: 1, id, type: 'chunk', seq: i, count: cuts.length - 1, data: bytes.subarray(cuts[i], cuts[i + 1]).toString('base64') });
  }
  assert.equal((await r).text, text);
});

test('another protocol version stops the connection without retrying', async () => {
  const c = new HostConnection({ extensionVersion: '0.1.0' });
  c.connect();
  const port = ports[0];
  port.reply({ v: 1, id: port.last().id, type: 'hello', protocol: 2, version: '2.0.0', types: [] });
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(c.state, 'mismatch');
  assert.ok(port.closed);
  mock.timers.tick(60_000);
  assert.equal(ports.length, 1);
});

test('requests before hello is answered are refused', async () => {
  const c = new HostConnection({ extensionVersion: '0.1.0' });
  c.connect();
  await assert.rejects(c.request('echo'), /not connected to the host \(connecting\)/);
});

test('Chrome reasons map to states', () => {
  for (const [reason, state] of [
    ['Specified native messaging host not found.', 'missing'],
    ['Access to the specified native messaging host is forbidden.', 'forbidden'],
    ['Failed to start native messaging host.', 'unstartable'],
    ['Native host has exited.', 'exited'],
    ['Error when communicating with the native messaging host.', 'exited'],
  ]) {
    assert.equal(classifyDisconnect(reason), state, reason);
  }
});

// Unit tests of the recording's queue of interactions (background/queue.js)
// against a storage area in memory and a host that comes and goes: numbered
// and sent in order, one at a time; nothing dropped when a send fails; kept
// until acknowledged, so a new service worker takes them up after a restart.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

const { InteractionQueue, PENDING_PREFIX, RESERVED_BYTES, INTERACTION_TIMEOUT_MS, gzipBase64, gunzipBase64 } = await import('../background/queue.js');

/** A host that stores what it is sent, in the order it came; it can go away. */
class Host {
  constructor() {
    this.state = 'connected';
    /** @type {number[]} seqs in the order they were stored */
    this.order = [];
    this.stored = new Map();
    /** @type {((body: any) => void) | null} throws to fail one send */
    this.failOnce = null;
  }
  async request(type, body) {
    assert.equal(type, 'record.interaction');
    await Promise.resolve();
    if (this.state !== 'connected') throw new Error('not connected to the host');
    if (this.failOnce) {
      const fail = this.failOnce;
      this.failOnce = null;
      fail(body);
    }
    const seq = body.interaction.seq;
    if (!this.stored.has(seq)) {
      this.order.push(seq);
      this.stored.set(seq, body);
    }
    return { type, session: body.session, seq };
  }
}

/** chrome.storage.session in memory, with its quota counted as Chrome does. */
function memoryStorage(quota = 10 * 1024 * 1024) {
  const data = {};
  const size = (d) => Object.entries(d).reduce((n, [k, v]) => n + k.length + JSON.stringify(v).length, 0);
  return {
    data,
    QUOTA_BYTES: quota,
    set: async (o) => {
      const copy = JSON.parse(JSON.stringify(o));
      if (size({ ...data, ...copy }) > quota) throw new Error('Session storage quota bytes exceeded.');
      Object.assign(data, copy);
    },
    get: async (k) => (k === null ? JSON.parse(JSON.stringify(data)) : { [k]: data[k] }),
    remove: async (keys) => { for (const k of [keys].flat()) delete data[k]; },
    getBytesInUse: async () => size(data),
  };
}

/** The recording a queue serves: its session, error and damage. */
function owner(host) {
  return { host, session: 'r-1', error: '', damaged: '', changes: 0, noteDamage: () => false, changed() { this.changes++; } };
}

function newQueue(host = new Host(), storage = memoryStorage()) {
  const o = owner(host);
  return { q: new InteractionQueue({ owner: o, storage: () => storage }), host, storage, owner: o };
}

const pendingSeqs = (storage) => Object.keys(storage.data).filter((k) => k.startsWith(PENDING_PREFIX))
  .map((k) => Number(k.slice(PENDING_PREFIX.length))).sort((a, b) => a - b);

/** Waits until cond holds, turning the event loop. */
async function until(cond, what) {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(cond(), what);
}

test('interactions are numbered from 1 and reach the host in that order, one at a time', async () => {
  const { q, host } = newQueue();
  let inFlight = 0;
  let most = 0;
  const request = host.request.bind(host);
  host.request = async (type, body) => {
    most = Math.max(most, ++inFlight);
    try {
      return await request(type, body);
    } finally {
      inFlight--;
    }
  };
  const sent = [];
  for (let i = 0; i < 5; i++) {
    const interaction = { kind: 'click', ref: `e${i}` };
    q.add(interaction);
    sent.push(interaction);
  }
  assert.deepEqual(sent.map((i) => i.seq), [1, 2, 3, 4, 5]);
  await until(() => q.items.length === 0, 'everything acknowledged');
  assert.deepEqual(host.order, [1, 2, 3, 4, 5]);
  assert.equal(most, 1, 'one request at a time');
  assert.equal(q.acked, 5);
  assert.equal(q.nextSeq, 6);
});

test('the host has a minute to answer an interaction, small screen or big: a late answer on a busy machine is no error', async () => {
  const { q, host, owner: o } = newQueue();
  const request = host.request.bind(host);
  /** @type {(number|undefined)[]} */
  const timeouts = [];
  host.request = async (type, body, timeoutMs) => {
    timeouts.push(timeoutMs);
    return await request(type, body);
  };
  q.add({ kind: 'click', ref: 'e1' }, '{"url":"http://127.0.0.1/"}');
  q.add({ kind: 'click', ref: 'e2' });
  await until(() => q.items.length === 0, 'everything acknowledged');
  assert.equal(INTERACTION_TIMEOUT_MS, 60_000);
  assert.deepEqual(timeouts, [INTERACTION_TIMEOUT_MS, INTERACTION_TIMEOUT_MS]);
  assert.equal(o.error, '');
});

test('an interaction that is not complete yet holds back the ones after it', async () => {
  const { q, host } = newQueue();
  let complete = () => {};
  const navigate = { kind: 'navigate', transition: 'back' };
  q.add(navigate, undefined, new Promise((r) => { complete = () => { navigate.transition = 'forward'; r(undefined); }; }));
  q.add({ kind: 'click' });
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(host.order, [], 'nothing goes out before the navigation is complete');
  complete();
  await until(() => q.items.length === 0, 'both acknowledged');
  assert.deepEqual(host.order, [1, 2]);
  assert.equal(host.stored.get(1).interaction.transition, 'forward', 'sent as it was completed');
});

test('a failed send drops nothing: what the host did not store stays queued and kept, and goes out again in order', async () => {
  const { q, host, storage } = newQueue();
  q.add({ kind: 'click' });
  await until(() => q.items.length === 0, 'the first acknowledged');
  // The host goes away mid-send.
  host.failOnce = () => { host.state = 'exited'; throw new Error('disconnected from the host: exited'); };
  for (let i = 0; i < 3; i++) q.add({ kind: 'type', value: `v${i}` }, `{"screen":${i}}`);
  await q.writes;
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(q.items.map((i) => i.seq), [2, 3, 4], 'all queued');
  assert.deepEqual(pendingSeqs(storage), [2, 3, 4], 'all kept');
  assert.equal(q.owner.error, '', 'a disconnect is no error: the recording resyncs');
  host.state = 'connected';
  assert.deepEqual(q.resumeAfter(1), [], 'nothing lost');
  await q.pump();
  await until(() => q.items.length === 0, 'all acknowledged');
  await q.writes;
  assert.deepEqual(host.order, [1, 2, 3, 4]);
  assert.deepEqual(host.stored.get(3).screen, { screen: 1 }, 'with their screens');
  assert.deepEqual(pendingSeqs(storage), [], 'forgotten once acknowledged');
});

test('a host that stored an interaction but whose answer was lost gets the rest, not that one again', async () => {
  const { q, host } = newQueue();
  host.failOnce = (body) => {
    host.order.push(body.interaction.seq);
    host.stored.set(body.interaction.seq, body);
    host.state = 'exited';
    throw new Error('disconnected from the host: exited');
  };
  q.add({ kind: 'click' });
  q.add({ kind: 'click' });
  await new Promise((r) => setTimeout(r, 10));
  host.state = 'connected';
  assert.deepEqual(q.resumeAfter(1), []);
  assert.deepEqual(q.items.map((i) => i.seq), [2]);
  await q.pump();
  await until(() => q.items.length === 0, 'acknowledged');
  assert.deepEqual(host.order, [1, 2]);
});

test('a refusal drops only the refused interaction, says which, and sends the rest', async () => {
  const { q, host } = newQueue();
  host.failOnce = () => { throw new Error('bad interaction'); };
  q.add({ kind: 'click' });
  q.add({ kind: 'click' });
  await until(() => q.owner.error !== '', 'the refusal is said');
  assert.match(q.owner.error, /^the host refused interaction 1: bad interaction/);
  assert.deepEqual(q.items.map((i) => i.seq), [2], 'the next one stays');
});

test('the queue survives a restart: a new worker takes up what was kept, in order, and numbers on', async () => {
  const host = new Host();
  const storage = memoryStorage();
  const first = newQueue(host, storage).q;
  first.add({ kind: 'click', ref: 'e1' });
  await until(() => first.items.length === 0, 'the first acknowledged');
  host.state = 'exited';
  for (const ref of ['e2', 'e3', 'e4']) first.add({ kind: 'click', ref }, `{"ref":"${ref}"}`);
  await first.writes;
  const nextSeq = first.nextSeq;

  // Chrome stops the worker: its memory is gone, the storage stays.
  host.state = 'connected';
  const { q: second } = newQueue(host, storage);
  const kept = await InteractionQueue.kept(await storage.get(null));
  assert.deepEqual(kept.map((k) => k.seq), [2, 3, 4]);
  second.takeUp(kept, nextSeq);
  assert.equal(second.acked, 1);
  assert.deepEqual(second.resumeAfter(1), [], 'nothing lost');
  await second.pump();
  await until(() => second.items.length === 0, 'all acknowledged');
  assert.deepEqual(host.order, [1, 2, 3, 4]);
  assert.deepEqual(host.stored.get(4).screen, { ref: 'e4' });
  const next = { kind: 'click' };
  second.add(next);
  assert.equal(next.seq, 5, 'numbering goes on');
  await until(() => second.items.length === 0, 'acknowledged');
  assert.deepEqual(host.order, [1, 2, 3, 4, 5]);
});

test('after a restart, what the host stored meanwhile is not sent again, and what was neither kept nor stored is named as lost', async () => {
  const host = new Host();
  const storage = memoryStorage();
  for (const seq of [1, 2]) host.stored.set(seq, {});
  storage.data[PENDING_PREFIX + 4] = { seq: 4, interaction: { kind: 'click', seq: 4 } };
  storage.data[PENDING_PREFIX + 3.5] = { seq: 0, interaction: { kind: 'click' } };
  storage.data[PENDING_PREFIX + 2] = { seq: 2, interaction: { kind: 'click', seq: 2 } };
  storage.data.unrelated = { seq: 9, interaction: {} };
  const { q } = newQueue(host, storage);
  q.takeUp(await InteractionQueue.kept(await storage.get(null)), 6);
  assert.deepEqual(q.items.map((i) => i.seq), [2, 4], 'in order, without what is no interaction');
  assert.deepEqual(q.resumeAfter(2), [3, 5], 'handed out, not kept, not stored');
  assert.deepEqual(q.items.map((i) => i.seq), [4]);
  assert.equal(q.nextSeq, 6);
  assert.deepEqual(q.resumeAfter(2), [], 'said once');

  // A worker that did not know of the last interactions the host stored
  // numbers on after them.
  const { q: behind } = newQueue(host, memoryStorage());
  behind.takeUp([], 3);
  behind.resumeAfter(7);
  const next = { kind: 'click' };
  behind.add(next);
  assert.equal(next.seq, 8);
});

test('when the storage is full, what does not fit stays in memory and is said, and is kept once an acknowledgement makes room', async () => {
  const host = new Host();
  host.state = 'exited';
  const storage = memoryStorage(RESERVED_BYTES + 3000);
  const { q } = newQueue(host, storage);
  // Screens that gzip does not shrink much.
  for (let i = 0; i < 4; i++) q.add({ kind: 'click', screen: `s${i}` }, JSON.stringify({ text: randomBytes(1200).toString('base64') }));
  await q.writes;
  const kept = pendingSeqs(storage);
  assert.ok(kept.length >= 1 && kept.length < 4, `kept ${kept}`);
  assert.equal(q.unkept.size, 4 - kept.length);
  assert.match(q.warning(), /kept only in memory/);
  assert.equal(q.items.length, 4, 'none dropped');

  host.state = 'connected';
  q.resumeAfter(0);
  await q.pump();
  await until(() => q.items.length === 0, 'all acknowledged');
  await q.writes;
  assert.deepEqual(host.order, [1, 2, 3, 4]);
  assert.equal(q.warning(), '');
  assert.deepEqual(pendingSeqs(storage), []);
});

test('a screen that no longer fits plainly is kept gzipped, and taken up as it was', async () => {
  const host = new Host();
  host.state = 'exited';
  const screen = JSON.stringify({ nodes: Array.from({ length: 200 }, (_, i) => ({ ref: `e${i}`, role: 'button', name: 'Add to cart' })) });
  const storage = memoryStorage(RESERVED_BYTES + screen.length / 2);
  const { q } = newQueue(host, storage);
  q.add({ kind: 'click', screen: 's1' }, screen);
  await q.writes;
  const entry = storage.data[PENDING_PREFIX + 1];
  assert.equal(entry.screen, undefined);
  assert.equal(typeof entry.screenGzip, 'string');
  const [taken] = await InteractionQueue.kept(await storage.get(null));
  assert.equal(taken.screen, screen);
  assert.equal(await gunzipBase64(await gzipBase64('héllo')), 'héllo');
});

test('drained waits for every acknowledgement, and says what is missing when the host does not come back', async () => {
  const { q, host } = newQueue();
  host.state = 'exited';
  q.add({ kind: 'click' });
  await assert.rejects(q.drained(60), /has not acknowledged 1 interactions/);
  host.state = 'connected';
  q.resumeAfter(0);
  await q.drained(5_000);
  assert.deepEqual(host.order, [1]);
});

test('reset forgets the queue and what the storage keeps of it', async () => {
  const { q, host, storage } = newQueue();
  host.state = 'exited';
  q.add({ kind: 'click' });
  storage.data.recording = { phase: 'recording' };
  await q.writes;
  assert.deepEqual(pendingSeqs(storage), [1]);
  q.reset();
  await q.writes;
  assert.deepEqual(pendingSeqs(storage), []);
  assert.deepEqual(storage.data.recording, { phase: 'recording' }, 'only pending interactions go');
  assert.equal(q.nextSeq, 1);
  assert.equal(q.items.length, 0);
});

// Unit tests of typingtimers.js, in the page's world of a recorded
// document: which timers are the typing's, and the answer the recorder
// gets to its ask. The document is a stand-in whose key and input events
// the test hands to the script's listeners as the browser would.

import { test } from 'node:test';
import assert from 'node:assert/strict';

/** The script's listeners on the document, by event type. */
const listeners = new Map();
const doc = new EventTarget();
const add = doc.addEventListener.bind(doc);
doc.addEventListener = (type, fn, capture) => {
  if (!String(type).startsWith('trailpin-'))
    listeners.set(type, fn);
  else
    add(type, fn, capture);
};
globalThis.document = doc;
// The script's channel must not keep the test's process alive (its
// onmessage refs it, so it is unreferenced once the script set that).
const NativeChannel = MessageChannel;
const channels = [];
globalThis.MessageChannel = class {
  constructor() {
    const c = new NativeChannel();
    channels.push(c);
    return c;
  }
};
/** The test's own waits go around the wrapper. */
const nativeSetTimeout = globalThis.setTimeout;
await import('../typingtimers.js');
for (const c of channels) {
  c.port1.unref();
  c.port2.unref();
}

/** A trusted event of type, as the browser dispatches it. */
const trusted = (type) => listeners.get(type)({ type, isTrusted: true });
/** What the script answers the recorder's ask. */
function pending() {
  let n = null;
  const told = (e) => { n = Number(e.detail); };
  doc.addEventListener('trailpin-typing-timers', told, true);
  doc.dispatchEvent(new CustomEvent('trailpin-typing-timers-ask'));
  doc.removeEventListener('trailpin-typing-timers', told, true);
  return n;
}
const sleep = (ms) => new Promise((r) => nativeSetTimeout(r, ms));
/** Waits until the task after the events handled so far has run. */
const nextTask = () => sleep(5);

test('a debounce a key sets is pending until it runs; one set again on keyup replaces it', async () => {
  await nextTask();
  assert.equal(pending(), 0);
  let searched = 0, timer;
  const search = () => { searched++; };
  // JSONEditor's search box: the input and the keyup each set it anew.
  trusted('input');
  clearTimeout(timer);
  timer = setTimeout(search, 50);
  trusted('keyup');
  clearTimeout(timer);
  timer = setTimeout(search, 50);
  assert.equal(pending(), 1);
  await sleep(80);
  assert.equal(searched, 1);
  assert.equal(pending(), 0);
});

test('a timer its callback chains is the typing\'s too; a timer set outside the typing, or too long, is not', async () => {
  await nextTask();
  trusted('input');
  setTimeout(() => { setTimeout(() => {}, 30); }, 10);
  const toast = setTimeout(() => {}, 5000); // a toast that hides itself later
  await nextTask(); // the task after the input: no longer the typing's
  setTimeout(() => {}, 40);
  assert.equal(pending(), 1);
  await sleep(20);
  assert.equal(pending(), 1, 'the chained timer is pending');
  await sleep(40);
  assert.equal(pending(), 0);
  clearTimeout(toast);
});

test('an event a script dispatched opens nothing', async () => {
  await nextTask();
  listeners.get('input')({ type: 'input', isTrusted: false });
  setTimeout(() => {}, 30);
  assert.equal(pending(), 0);
  await sleep(40);
});

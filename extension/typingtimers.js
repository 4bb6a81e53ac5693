// @ts-check
/**
 * Runs in the page's own world of a recorded document, and follows the
 * timers its typing set off: what an app does a moment after a key (a
 * search as you type, an undo entry, a validation) it does from a timer
 * the key's handlers set, behind a debounce. A key the person pressed
 * while such a timer was still pending came before the page acted on the
 * typing (JSONEditor's search box took walk seed 3's Enter to the results
 * of the search before the typing); replay, which waits after a type for
 * what the typing set off, presses such a key at once (docs/trail-format.md,
 * press, atOnce; docs/recording.md, Random walks on the real apps).
 *
 * setTimeout and clearTimeout are wrapped (Proxies: they still read as
 * native code and behave as before). A timer is the typing's when it was
 * set, for at most LONGEST ms, while the page handled a key or an input
 * (the event's task) or from the callback of a timer
 * that was the typing's (a debounce that chains another). The recorder
 * asks, in the extension's world, with a `trailpin-typing-timers-ask`
 * event on the document; the answer is a `trailpin-typing-timers` event
 * whose detail is how many are pending. Page content is the app's: it can
 * read and fake the answer, which only decides whether replay waits after
 * the typing before that key. A timer function the page took before this
 * ran (a document loaded before the recording started) is not followed:
 * such a page answers fewer, and replay waits, as before.
 */
(() => {
  'use strict';
  const g = /** @type {any} */ (globalThis);
  const mark = Symbol.for('trailpin.recorder.typingTimers');
  if (Object.prototype.hasOwnProperty.call(g, mark))
    return;
  Object.defineProperty(g, mark, { value: true });
  /** Longest timer that is the typing's: a toast that hides itself later is not. */
  const LONGEST = 1000;
  /** @type {Set<unknown>} */
  const pending = new Set();
  /** Whether the page is handling a key or an input (the event's task). */
  let open = false;
  /** 1 while a callback of a typing's timer runs, -1 while another's does, else 0. */
  let inside = 0;
  const setTimeoutNative = g.setTimeout, clearTimeoutNative = g.clearTimeout;
  /** @param {Function} fn @param {number} mine */
  const wrap = (fn, mine) => /** @this {unknown} */ function (/** @type {unknown[]} */ ...a) {
    const prev = inside;
    inside = mine;
    try {
      return Reflect.apply(fn, this, a);
    } finally {
      inside = prev;
    }
  };
  g.setTimeout = new Proxy(setTimeoutNative, {
    apply(target, self, args) {
      const fn = args[0];
      if (typeof fn !== 'function')
        return Reflect.apply(target, self, args);
      const ours = (inside === 1 || open && inside === 0) && (Number(args[1]) || 0) <= LONGEST;
      if (!ours) {
        args[0] = wrap(fn, -1);
        return Reflect.apply(target, self, args);
      }
      /** @type {unknown} */
      let id;
      const run = wrap(fn, 1);
      args[0] = /** @this {unknown} */ function (/** @type {unknown[]} */ ...a) {
        try {
          return Reflect.apply(run, this, a);
        } finally {
          pending.delete(id);
        }
      };
      id = Reflect.apply(target, self, args);
      pending.add(id);
      return id;
    },
  });
  g.clearTimeout = new Proxy(clearTimeoutNative, {
    apply(target, self, args) {
      pending.delete(args[0]);
      return Reflect.apply(target, self, args);
    },
  });
  // The handling of an event ends with its task: a message posted to a
  // channel of our own runs as the next task, where a timer of 0 ms may
  // wait a second in a page in the background (Chrome throttles its
  // timers), and what ran in between (a script the test harness
  // evaluates) would count as the typing's.
  const channel = new MessageChannel();
  let closing = false;
  channel.port1.onmessage = () => {
    open = false;
    closing = false;
  };
  /** @param {Event} e */
  const handling = (e) => {
    if (!e.isTrusted)
      return;
    open = true;
    if (closing)
      return;
    closing = true;
    channel.port2.postMessage(null);
  };
  for (const type of ['keydown', 'keyup', 'beforeinput', 'input', 'compositionend'])
    document.addEventListener(type, handling, true);
  document.addEventListener('trailpin-typing-timers-ask', () => {
    document.dispatchEvent(new CustomEvent('trailpin-typing-timers', { detail: String(pending.size) }));
  }, true);
})();

// @ts-check
// The recorder: sending. Each interaction goes to the background with the
// screen it names (the first time that screen goes out), once what waits for
// the page's own handlers went first.
'use strict';

/**
 * What sending.js gives the files after it, on the recorder's namespace.
 * @typedef {object} RecorderSending
 * @property {(interaction: Record<string, unknown>, screen: RecorderCaptured | null) => void} send
 * @property {(fn: () => void, opts?: {carry?: boolean}) => void} timed
 * @property {(fn: () => void) => void} afterHandlers
 * @property {() => void} settlePending
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, RecorderInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.recorder.internals')];
  if (!internals)
    return; // the recorder is installed already (core.js)
  const rec = internals;
  const { state } = rec;

  /**
   * Reports one interaction to the background; adds the screen it names
   * when that screen's wire form has not gone out before.
   * @param {Record<string, unknown>} interaction
   * @param {RecorderCaptured | null} screen
   */
  function send(interaction, screen) {
    settlePending();
    if (rec.crossOriginFrame) {
      // Its screen would be a page of another origin, which a trail of this
      // app cannot name: the host leaves the action out and says so.
      delete interaction.ref;
      screen = null;
    }
    /** @type {Record<string, unknown>} */
    const msg = {
      to: 'background',
      kind: 'interaction',
      interaction: { time: Date.now(), url: location.href, title: document.title, ...interaction },
    };
    if (screen) {
      /** @type {any} */ (msg.interaction).screen = screen.id;
      if (!state.sent.has(screen.id)) {
        msg.screen = screen.wire;
        state.sent.add(screen.id);
      }
    }
    try {
      const p = chrome.runtime.sendMessage(msg);
      if (p && typeof p.catch === 'function')
        p.catch(() => {});
    } catch {
      // The extension was reloaded: this script is an orphan now.
      rec.stop();
    }
    if (!/^(assert|undo$|markSensitive$)/.test(String(interaction.kind)))
      state.onAction();
  }

  /**
   * Runs an interaction's handler and keeps how long it took.
   * @param {() => void} fn
   */
  function timed(fn, { carry = false } = {}) {
    const t0 = performance.now();
    try {
      fn();
    } finally {
      const ms = performance.now() - t0;
      if (carry) {
        // The press of a click: its cost counts with the click's.
        state.carriedMs += ms;
      } else {
        rec.keep(state.timings, ms + state.carriedMs);
        state.carriedMs = 0;
      }
    }
  }

  /**
   * Runs fn once the page's handlers of the event being handled have run
   * (see state.pending).
   * @param {() => void} fn
   */
  function afterHandlers(fn) {
    settlePending();
    state.pending = fn;
    setTimeout(settlePending, 0);
  }

  /** Runs what waits for the page's handlers, if anything does. */
  function settlePending() {
    const fn = state.pending;
    state.pending = null;
    if (fn)
      fn();
  }

  /** @type {RecorderSending} */
  const provides = { send, timed, afterHandlers, settlePending };
  Object.assign(rec, provides);
})();

// @ts-check
// The recorder: its one global, `__trailpinRecorder`, which the recording bar
// (recordbar.js), the background (background/recording.js) and the
// recorders of same-origin frames below use; and the start.
'use strict';

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, RecorderInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.recorder.internals')];
  if (!internals)
    return; // the recorder is installed already (core.js)
  const rec = internals;
  const { state, g, pm, API_NAME } = rec;

  /**
   * The last move back or forward within this document, as the navigation
   * API tells it where the page cannot change it (this world): the entry
   * it went to, and whether the person made it (the browser's buttons) or
   * the page did (history.back()). The background reads it when Chrome
   * tells it of the move (background/recording.js, sameDocument).
   * @type {{key: string, byPerson: boolean} | null}
   */
  let traversal = null;
  /** @type {any} */ (globalThis).navigation?.addEventListener?.('navigate', (/** @type {any} */ e) => {
    if (e.navigationType !== 'traverse')
      return;
    traversal = { key: String(e.destination?.key ?? ''), byPerson: !!e.userInitiated };
    if (e.destination?.sameDocument !== false || !state.running || window !== window.top)
      return;
    // A move to another document: this one goes away before the
    // background hears of the move, so it is told now who made it
    // (background/recording.js, committed).
    try {
      const p = chrome.runtime.sendMessage({ to: 'background', kind: 'traversal', url: String(e.destination.url ?? ''), byPerson: !!e.userInitiated });
      if (p && typeof p.catch === 'function')
        p.catch(() => {});
    } catch {
      // The extension was reloaded: the background records a back.
    }
  });

  const api = Object.freeze({
    /** Called when the script is injected again into this document. */
    restart() {
      if (state.running)
        return;
      // A new recording: the host has none of this document's screens.
      state.sent.clear();
      state.screen = null;
      rec.start();
    },
    stop: rec.stop,
    /** Entry point for the recorders of same-origin frames below. */
    handle(/** @type {string} */ name, /** @type {any[]} */ ...args) {
      /** @type {Record<string, (...a: any[]) => void>} */
      const locals = { click: rec.clicked, typed: rec.typed, change: rec.changedValue, press: rec.pressed, dialog: rec.dialogAnswered,
        flush: rec.flushTyping, down: rec.mouseDown, over: rec.pointerOver, unrecordedDialog: rec.unrecordedDialog,
        beforeTyping: rec.beforeTyping, released: rec.released, dropped: rec.dropped };
      const local = locals[name];
      if (local)
        local(...args);
    },
    changed: rec.changed,
    /** The last move back or forward within this document, if any. */
    traversal: () => traversal,
    /** Whether the capture at hand shows the page as it is. */
    settled: () => !state.dirty && !!state.screen,
    pick: () => state.pick,
    /** The recording bar: what the next click picks, and who hears of it. */
    setPick: rec.setPick,
    /** @param {(p: RecorderPick, taken: boolean) => void} fn */
    onPick(fn) { state.onPick = fn; },
    /** The element the pick would take now, if any. */
    picked: () => state.picked.at,
    /** @param {(el: Element | null) => void} fn told when the highlighted element changes */
    onPicked(fn) { state.onPicked = fn; },
    /** @param {(ref: string, el: Element) => void} fn told of an element picked as one that must not change */
    onUnchanged(fn) { state.onUnchanged = fn; },
    pointPick: rec.pointPick,
    holdPick: rec.holdPick,
    widenPick: rec.widenPick,
    narrowPick: rec.narrowPick,
    pickKey: rec.pickKey,
    /** The pick takes the highlighted element. */
    takePicked() {
      const at = state.picked.at;
      if (at)
        rec.takePick(at, rec.currentScreen());
    },
    /** @param {Element} el the recording bar's host element */
    setBar(el) {
      state.bar = el;
      // The bar is not the app's: what lies under it is not covered (the
      // page model's hit tests look through it, as replay never shows it).
      pm()?.addOverlay?.(el);
    },
    /** Records an interaction the recording bar made (asserts, undo). @param {Record<string, unknown>} i */
    record(i) {
      rec.flushTyping();
      rec.send(i, i.kind === 'assertUrl' || i.kind === 'assertNotVisible' ? rec.currentScreen() : null);
    },
    /**
     * Records an assertion an outside agent made through the agent API
     * (background/apirelay.js), as the bar's picker records one: on the
     * screen as it is now, whose ref the element's is.
     * @param {Record<string, unknown>} i
     */
    recordCheck(i) {
      rec.flushTyping();
      rec.send(i, rec.currentScreen());
    },
    /**
     * Records an outside agent's hover (the agent API's tab.hover, through
     * agentlive.js) over the element of ref, on the screen as it is now,
     * right before the pointer moves there: the host keeps it with the click
     * or the check on what it showed, or as a step of its own when nothing
     * follows that needed it (docs/trail-format.md, hover). ok is false, and
     * nothing is recorded, when the page is not this document or the ref
     * is gone.
     * @param {string} ref @param {string} doc the document the client's snapshot was of
     * @returns {{ok: boolean, error?: string}}
     */
    recordHover(ref, doc) {
      if (!state.running)
        return { ok: true }; // not recorded: the move alone
      if (pm().documentToken() !== doc)
        return { ok: false, error: 'the page has loaded another document since the snapshot' };
      const found = pm().elementForRef(ref);
      if (!('element' in found))
        return { ok: false, error: String(found.message) };
      rec.flushTyping();
      rec.forgetOver();
      rec.send({ kind: 'hover', ref }, rec.currentScreen());
      return { ok: true };
    },
    /**
     * The agent's pointer has moved (recordHover): what entering the
     * element changed is that hover's, recorded already, and no entry for
     * the next click to send again.
     */
    hovered() {
      rec.forgetOver();
    },
    /**
     * For Assert change: what is typed goes out first, then the screen as
     * it is now (settled after the action), kept for the assertChange.
     * @returns {RecorderCaptured}
     */
    changeScreen() {
      rec.flushTyping();
      return rec.currentScreen();
    },
    /**
     * Records the assertChange the bar made, on the screen changeScreen gave.
     * @param {Record<string, unknown>} i @param {RecorderCaptured} screen
     */
    recordChange(i, screen) {
      rec.flushTyping();
      rec.send(i, screen);
    },
    /** Called when an action (not a check the bar made) is sent. @param {() => void} fn */
    onAction(fn) { state.onAction = fn; },
    /** Called when the page opened a dialog that is not recorded (see listenToDialogs). @param {() => void} fn */
    onUnrecordedDialog(fn) { state.onUnrecordedDialog = fn; },
    /** dialogbridge.js calls it when its channel is there. */
    listenToDialogs: rec.listenToDialogs,
    flush: rec.flushTyping,
    /**
     * Whether typing into el is recorded as a secret: a password field, or
     * one the person marked sensitive. The agent API types a secret only there.
     * @param {Element} el
     */
    isSecret: (el) => rec.isSecret(el),
    /** The screen now, in the wire form, with what the session keeps secret left out. */
    screenWire: () => pm().captureWire({ sensitive: rec.sensitiveNow() }),
    /**
     * How long the DOM (shadow roots included) has not changed, in ms; 0
     * while the recorder does not watch it, when nothing is known.
     */
    quietFor: () => (state.changedAt > 0 ? Date.now() - state.changedAt : 0),
    /** Timings for the benchmark, in ms. */
    timings: () => ({ interaction: [...state.timings], capture: [...state.captureTimings] }),
  });

  Object.defineProperty(g, API_NAME, { value: api, configurable: true, enumerable: false, writable: false });

  // The namespace was for installing; the API keeps what it needs.
  delete g[/** @type {any} */ (Symbol.for('trailpin.recorder.internals'))];
  rec.start();
})();

// @ts-check
// The recorder: typing. Keys into a field, or the setting of a value control
// (a slider, a date), go on until the person does something else, and are
// sent then as one type or one set.
'use strict';

/**
 * What typing.js gives the files after it, on the recorder's namespace.
 * @typedef {object} RecorderTypingFns
 * @property {() => void} flushTyping
 * @property {(el: Element) => void} typed
 * @property {(el: Element) => void} beforeTyping
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, RecorderInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.recorder.internals')];
  if (!internals)
    return; // the recorder is installed already (core.js)
  const rec = internals;
  const { state, pm, PRESS_MAX_MS } = rec;

  /**
   * Sends the pending typing as one type of the field's final value, or the
   * pending setting of a value control as one set of the value it ended at
   * (nothing when an ARIA slider did not move); then a press on a
   * drop-down that chose nothing, if one is pending (it ended the typing).
   */
  function flushTyping() {
    sendTyping();
    rec.unchosenPress();
  }

  /** Sends the pending typing or setting, if any (flushTyping). */
  function sendTyping() {
    const t = state.typing;
    if (!t)
      return;
    state.typing = null;
    const el = t.el;
    if (rec.isSecret(el)) {
      rec.followSecret(el, true);
      rec.send({ kind: 'type', ref: t.ref, secret: rec.secretName(el), time: t.time }, t.screen);
      return;
    }
    const meant = t.atPress !== undefined ? t.atPress : rec.typingMeaning(el, t.start);
    if (!meant)
      return;
    // Typed on the end of what the field held (the click put the caret
    // there): replay types the rest after it rather than the whole value
    // into the cleared field, whose emptiness the page would see and the
    // person's page never did (docs/trail-format.md, type).
    const append = meant.kind === 'type' && !!t.kept && meant.value.length > t.kept.length && meant.value.startsWith(t.kept);
    rec.send({ kind: meant.kind, ref: t.ref, value: meant.value, time: t.time, ...(append ? { append: true } : {}) }, t.screen);
  }

  /**
   * Typing into el, or setting it (a value control), begins or goes on;
   * the screen before it is the one now.
   * @param {Element} el
   */
  function typed(el) {
    const before = state.textBefore;
    state.textBefore = null;
    rec.forgetOver();
    if (state.escaping === el)
      return; // the held Escape's own clearing (interactions.js, pressed)
    if (rec.isSecret(el))
      rec.followSecret(el, false);
    if (state.typing && state.typing.el === el) {
      delete state.typing.atPress; // the typing goes on after a press: its text is read again
      return;
    }
    flushTyping();
    // The screen before the first key or press, when one went to el: by
    // the input event the field already holds its first character (or the
    // slider its new value), which is no state of the step before.
    const pre = [state.preInput, state.down].find((p) => p && p.el === el && Date.now() - p.time < PRESS_MAX_MS);
    state.preInput = null;
    const screen = pre ? pre.screen : rec.currentScreen();
    state.typing = { el: /** @type {HTMLElement} */ (el), screen, ref: pm().refForElement(el), time: Date.now() };
    // The first text went on the end of what the field held when the field
    // holds that text still, and more.
    const now = 'value' in el ? String(/** @type {HTMLInputElement} */ (el).value) : '';
    if (before && before.el === el && before.value !== '' && now.length > before.value.length && now.startsWith(before.value))
      state.typing.kept = before.value;
    if (rec.isAriaRange(el))
      state.typing.start = el.getAttribute('aria-valuenow');
  }

  /**
   * Text is about to go into el (its beforeinput, before the field holds
   * it): the boundary between the step before and the typing, however soon
   * it follows. The screen before the typing is the one now, unless the key
   * that types it took one when it went down (pressed). Text that comes
   * without a key (inserted by a script's or an agent's input, pasted,
   * dropped, chosen from the field's suggestions) has no other moment
   * before it changes the field: a capture at its input event would show
   * the field holding it already, and the step before would be taken to
   * have ended with it (docs/recording.md, The step's boundary).
   * @param {Element} el
   */
  function beforeTyping(el) {
    if (state.escaping === el)
      return;
    if (state.typing && state.typing.el === el)
      return; // the typing goes on: its screen is the one from its start
    // A field with a value (input, text area): text edited in place has none.
    state.textBefore = 'value' in el ? { el, value: String(/** @type {HTMLInputElement} */ (el).value) } : null;
    const pre = state.preInput;
    if (pre && pre.el === el && pre.held)
      return;
    state.preInput = { el, screen: rec.currentScreen(), time: Date.now() };
  }

  /** @type {RecorderTypingFns} */
  const provides = { flushTyping, typed, beforeTyping };
  Object.assign(rec, provides);
})();

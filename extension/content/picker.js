// @ts-check
// The recorder: picking the element an assertion (or a mark) takes. An
// assertion checks what a person reads as one piece of text, so a click on a
// fragment of a line (the "open" of "3 tasks open", split into spans) takes
// the whole line; the recording bar lets the person widen or narrow it
// before it is taken.
'use strict';

/**
 * What picker.js gives the files after it, on the recorder's namespace.
 * @typedef {object} RecorderPicker
 * @property {(el: Element) => Element} readAsOne
 * @property {(p: RecorderPick) => boolean} readsAsOne
 * @property {() => void} holdPick
 * @property {(el: Element) => void} pointPick
 * @property {() => void} widenPick
 * @property {() => void} narrowPick
 * @property {(key: string) => boolean} pickKey
 * @property {(el: Element, screen: RecorderCaptured) => void} takePick
 * @property {() => RecorderPick} currentPick
 * @property {(p: RecorderPick, taken?: boolean) => void} setPick
 */

(() => {
  'use strict';

  const internals = /** @type {Record<symbol, RecorderInternals | undefined>} */ (/** @type {unknown} */ (globalThis))
    [Symbol.for('trailpin.recorder.internals')];
  if (!internals)
    return; // the recorder is installed already (core.js)
  const rec = internals;
  const { state, pm } = rec;

  /**
   * How long the pointer rests on an element for its highlight to stay when
   * the pointer then goes to the recording bar (crossing other elements on
   * the way) to widen, narrow or take it.
   */
  const PICK_REST_MS = 250;

  /** Elements that are a piece of their own, never a fragment of a line. */
  const OWN_PIECE = 'a[href],button,input,select,textarea,img,svg,video,audio,canvas,iframe,[contenteditable],[tabindex],' +
    '[role]:not([role=generic]):not([role=none]):not([role=presentation])';

  /** The text el shows, its lines as the browser renders them. @param {Element} el */
  function shownLines(el) {
    const h = /** @type {HTMLElement} */ (el);
    return (typeof h.innerText === 'string' ? h.innerText : el.textContent || '').trim();
  }

  /** Whether el is laid out inside a line of text, as a part of it. @param {Element} el */
  function inlineFragment(el) {
    if (el.matches(OWN_PIECE))
      return false;
    const view = el.ownerDocument.defaultView;
    const display = view ? view.getComputedStyle(el).display : '';
    return display === 'contents' || display.startsWith('inline');
  }

  /**
   * What a person reads as one piece of text where el is: el, or the nearest
   * ancestor whose text is the whole line el is an inline fragment of (a
   * line of text, not of controls).
   * @param {Element} el
   */
  function readAsOne(el) {
    let at = el;
    for (;;) {
      const up = at.parentElement;
      if (!up || up === at.ownerDocument.body || up === at.ownerDocument.documentElement || !inlineFragment(at))
        return at;
      // A line with a control or a link beside the fragment is more than
      // one piece ("3 tasks open" beside "Clear completed").
      if (shownLines(up).includes('\n') || [...up.querySelectorAll(OWN_PIECE)].some((x) => !at.contains(x)))
        return at;
      at = up;
    }
  }

  /** @param {Element | null} at @param {boolean} rest it stays when the pointer goes to the bar */
  function setPicked(at, from = state.picked.from, rest = true) {
    state.picked = { from, at };
    clearTimeout(state.restTimer);
    if (rest)
      state.rested = state.picked;
    state.onPicked(at);
  }

  /** The pointer went to the recording bar: the highlight it rested on stays. */
  function holdPick() {
    const { from, at } = state.rested;
    if (state.pick && at && at.isConnected && at !== state.picked.at)
      setPicked(at, from);
  }

  /**
   * The pointer is over el while picking: el's piece is highlighted (a mark
   * takes the element itself). The same element keeps what the person
   * widened or narrowed.
   * @param {Element} el
   */
  function pointPick(el) {
    if (!state.pick || el === state.picked.from)
      return;
    setPicked(readsAsOne(state.pick) ? readAsOne(el) : el, el, false);
    state.restTimer = setTimeout(() => { state.rested = state.picked; }, PICK_REST_MS);
  }

  /** The pick takes the element around the highlighted one. */
  function widenPick() {
    const at = state.picked.at;
    const up = at?.parentElement;
    if (at && up && up !== at.ownerDocument.documentElement)
      setPicked(up);
  }

  /**
   * The pick takes an element inside the highlighted one: back towards the
   * one under the pointer, else its first child that shows text.
   */
  function narrowPick() {
    const { at, from } = state.picked;
    if (!at)
      return;
    let down = null;
    if (from && from !== at && at.contains(from)) {
      down = from;
      while (down.parentElement && down.parentElement !== at)
        down = down.parentElement;
    } else {
      down = [...at.children].find((c) => shownLines(c) !== '') || null;
    }
    if (down)
      setPicked(down);
  }

  /**
   * A key pressed while picking: the arrows widen (up) and narrow (down) the
   * highlighted element, Escape ends the pick. Returns whether it was one.
   * @param {string} key
   */
  function pickKey(key) {
    if (!state.pick)
      return false;
    if (key === 'ArrowUp')
      widenPick();
    else if (key === 'ArrowDown')
      narrowPick();
    else if (key === 'Escape')
      setPick(null);
    else
      return false;
    return true;
  }

  /**
   * Whether a pick takes what a person reads as one piece of text (an
   * assertion's target) rather than the element under the pointer.
   * @param {RecorderPick} p
   */
  function readsAsOne(p) {
    return p === 'assertVisible' || p === 'changeMustNot';
  }

  /**
   * The pick takes el: the assertion or the mark is recorded (an element
   * that must not change goes to the bar's Assert change).
   * @param {Element} el @param {RecorderCaptured} screen the screen before the pick
   */
  function takePick(el, screen) {
    const kind = state.pick;
    if (!kind)
      return;
    // Assert value takes a form field (or the one a label names); on
    // anything else the pick stays on, so nothing wrong is added.
    const field = kind === 'assertValue' ? fieldOf(el) : null;
    if (kind === 'assertValue' && !field)
      return;
    setPick(null, true);
    if (kind === 'changeMustNot') {
      // Kept by the bar for its Assert change, not recorded on its own.
      state.onUnchanged(pm().refForElement(el), el);
      return;
    }
    if (kind === 'markSensitive') {
      state.sensitive.push(el);
      rec.changed();
    }
    if (field)
      rec.send({ kind, ref: pm().refForElement(field), value: field.value }, screen);
    else
      rec.send({ kind, ref: pm().refForElement(el) }, screen);
  }

  /**
   * The form field el is, or the one its label names, or the one field
   * inside it: what Assert value checks.
   * @param {Element} el
   * @returns {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null}
   */
  function fieldOf(el) {
    const isField = (/** @type {Element | null | undefined} */ e) =>
      e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement;
    if (isField(el))
      return /** @type {any} */ (el);
    const label = el.closest('label');
    if (label && isField(label.control))
      return /** @type {any} */ (label.control);
    const inner = el.querySelectorAll('input, textarea, select');
    return inner.length === 1 ? /** @type {any} */ (inner[0]) : null;
  }

  function currentPick() {
    const top = rec.topRecorder();
    return top ? top.pick() : state.pick;
  }

  /**
   * @param {RecorderPick} p what the next click picks
   * @param {boolean} [taken] the pick before it was taken (not given up)
   */
  function setPick(p, taken = false) {
    state.pick = p;
    clearTimeout(state.restTimer);
    state.picked = state.rested = { from: null, at: null };
    state.onPicked(null);
    state.onPick(p, taken);
  }

  /** @type {RecorderPicker} */
  const provides = { readAsOne, readsAsOne, holdPick, pointPick, widenPick, narrowPick, pickKey, takePick, currentPick, setPick };
  Object.assign(rec, provides);
})();
